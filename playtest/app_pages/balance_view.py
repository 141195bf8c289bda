"""The designer's Balance page: computer players play many games of the study's game and
rules (:mod:`engine.balance`), and the page shows who wins, how long games are and the
game's own section, each number with its definition and its 95% interval.

The game comes from the study (the registry's plug-in); nothing here knows a game. A
game whose designer fills one seat (a tester against the stage) compares levels: each
chosen level plays every part of the rules (each stage of a course) as the tester.

:func:`tables` turns a :class:`engine.balance.SimulationReport` into data frames, one
per question a designer asks; :func:`figures` draws them; :func:`draw` puts both on the
page; :func:`page` is the whole page (form, cached runs, "run more").

>>> from engine.balance import default_game, simulate
>>> from engine.players import levels
>>> easy = levels(default_game())[0]
>>> report = simulate(default_game(), None, [easy, easy], 20, 3)
>>> t = tables(report)
>>> list(t["seats"].columns)
['seat', 'level', 'wins', 'share', 'ci95_low', 'ci95_high']
>>> int(t["seats"]["wins"].sum()) == report.decided
True
>>> int(t["length"]["games"].sum()) == report.games
True
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from analytics.figures import OKABE_ITO
from engine.balance import (
    GameResult,
    SectionTable,
    SimulationError,
    SimulationReport,
    balance_hooks,
    check,
    play_games,
    summarise,
    wilson,
)
from engine.core import EngineError
from playtest.app_pages.empty import plot

#: Games of one run on the page before the designer asks for more (cheap for every game).
DEFAULT_GAMES = 20
#: From this many games a run uses two processes (below it, starting them costs more).
POOL_FROM = 200

WIN_DEFINITION = (
    "share: the seat's (or level's) wins among the decided games (draws left out); "
    "ci95_low–ci95_high: its 95% Wilson interval.")


def tables(report: SimulationReport) -> dict[str, pd.DataFrame]:
    """``seats`` (wins per seat, share of decided games, 95% Wilson interval),
    ``levels`` (the same per computer level), ``length`` (histogram of game length) and
    ``ends`` (end reasons, share of games with a Wilson interval)."""
    rows = [
        {"seat": number, "level": "(rotated)" if report.rotate else level,
         "wins": i.successes, "share": i.share, "ci95_low": i.low, "ci95_high": i.high}
        for number, (level, i) in enumerate(zip(report.seats, report.seat_wins, strict=True),
                                            start=1)]
    if report.house is not None:
        h = report.house
        rows.append({"seat": 0, "level": "(the game's own seats)", "wins": h.successes,
                     "share": h.share, "ci95_low": h.low, "ci95_high": h.high})
    seats = pd.DataFrame(rows, columns=["seat", "level", "wins", "share", "ci95_low",
                                        "ci95_high"])
    levels = pd.DataFrame([
        {"level": level, "wins": i.successes, "share": i.share, "ci95_low": i.low,
         "ci95_high": i.high} for level, i in report.level_wins.items()],
        columns=["level", "wins", "share", "ci95_low", "ci95_high"])
    length = pd.DataFrame([
        {report.length_unit: f"{low}–{high - 1}", "from": low, "games": count}
        for low, high, count in report.length.histogram],
        columns=[report.length_unit, "from", "games"])
    ends = []
    for reason, count in report.end_reasons.items():
        i = wilson(count, report.games)
        ends.append({"end": reason.replace("_", " "), "games": count, "share": i.share,
                     "ci95_low": i.low, "ci95_high": i.high})
    return {"seats": seats, "levels": levels, "length": length,
            "ends": pd.DataFrame(ends, columns=["end", "games", "share", "ci95_low",
                                                "ci95_high"])}


def _error_bars(frame: pd.DataFrame, value: str = "share") -> dict[str, Any]:
    return {"type": "data", "symmetric": False,
            "array": (frame["ci95_high"] - frame[value]).tolist(),
            "arrayminus": (frame[value] - frame["ci95_low"]).tolist()}


def section_figure(table: SectionTable) -> go.Figure | None:
    """A horizontal bar chart of a section table's chart column (None without one)."""
    if table.chart is None:
        return None
    label, value, title = table.chart
    frame = pd.DataFrame(list(table.rows))
    if frame.empty:
        return go.Figure().update_layout(title=title)
    frame = frame.sort_values(value)
    fig = go.Figure(go.Bar(
        x=frame[value], y=[html.escape(str(r)) for r in frame[label]], orientation="h",
        marker_color=OKABE_ITO[2],
        error_x=_error_bars(frame, value) if "ci95_low" in frame else None,
        hovertemplate="%{y}: %{x:.0%}<extra></extra>"))
    fig.update_layout(title=title, xaxis_tickformat=".0%", xaxis_title="share of games",
                      margin={"l": 120, "r": 20, "t": 60, "b": 50},
                      height=max(300, 26 * len(frame) + 120))
    return fig


def figures(report: SimulationReport) -> dict[str, go.Figure]:
    """Win share per seat with its interval, the game's first section chart, game length."""
    t = tables(report)
    seats = t["seats"]
    win = go.Figure(go.Bar(
        x=[f"seat {n} ({level})" if n else str(level)
           for n, level in zip(seats["seat"], seats["level"], strict=True)],
        y=seats["share"], marker_color=OKABE_ITO[4], error_y=_error_bars(seats),
        hovertemplate="%{x}: %{y:.1%} of decided games<extra></extra>"))
    if len(report.seats) > 1:
        fair = report.first_seat_fair
        win.add_hline(y=fair, line_dash="dot", annotation_text=f"fair {fair:.0%}",
                      annotation_position="top left")
    win.update_layout(title="Wins per seat, 95% interval",
                      yaxis_tickformat=".0%", yaxis_title="share of decided games",
                      margin={"l": 60, "r": 20, "t": 60, "b": 50})
    length = t["length"]
    unit = report.length_unit
    bars = go.Figure(go.Bar(x=length[unit], y=length["games"], marker_color=OKABE_ITO[0],
                            hovertemplate=f"%{{x}} {unit}: %{{y}} games<extra></extra>"))
    bars.update_layout(title=f"Game length in {unit}", xaxis_title=unit,
                       yaxis_title="games", margin={"l": 60, "r": 20, "t": 60, "b": 50})
    out = {"wins": win, "length": bars}
    for table in report.section.tables():
        fig = section_figure(table)
        if fig is not None:
            out.setdefault("section", fig)
    return out


PERCENT = st.column_config.NumberColumn(format="percent")
DECIMAL = st.column_config.NumberColumn(format="%.2f")


def _formats(columns: Any, percent: tuple[str, ...] = ("share", "ci95_low", "ci95_high")
             ) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for c in columns:
        if c in percent:
            out[c] = PERCENT
        elif c.startswith("per_game") or c == "value":
            out[c] = DECIMAL
    return out


def _section(report: SimulationReport, key: str) -> None:
    for n, table in enumerate(report.section.tables()):
        st.subheader(table.title)
        st.caption(table.definition)
        fig = section_figure(table)
        if fig is not None:
            plot(fig, f"{key}_section_{n}", f"nothing of the kind happened in "
                 f"{report.games} games")
        frame = pd.DataFrame(list(table.rows))
        if not frame.empty:
            st.dataframe(frame, hide_index=True,
                         column_config=_formats(frame.columns, table.percent))


def _length(report: SimulationReport, key: str) -> None:
    st.subheader("How long games are")
    ln, unit = report.length, report.length_unit
    low, high = report.median_ci
    st.caption(
        f"{unit.capitalize()} per game: median {ln.median:g} (95% interval {low:g}–{high:g}, "
        f"from the order statistics, assuming no distribution); the longest of the "
        f"{report.games} simulated games took {ln.maximum}. The chart counts the simulated "
        "games by length.")
    plot(figures(report)["length"], f"{key}_length")
    st.caption("Why games ended: share of all games, with its 95% Wilson interval.")
    ends = tables(report)["ends"]
    st.dataframe(ends, hide_index=True, column_config=_formats(ends.columns))


def draw(report: SimulationReport, key: str = "balance") -> None:
    """One run's result: headline numbers, then each table beside its chart."""
    t, f = tables(report), figures(report)
    several = len(report.seats) > 1
    cols = st.columns(3 if several else 2)
    cols[0].metric("Games", report.games, help=f"Seed {report.seed}; seats "
                   f"{', '.join(report.seats)}{' rotated each game' if report.rotate else ''}.")
    d = report.draw_rate
    cols[1].metric("Draws", f"{d.share:.1%}" if report.games else "–",
                   help=f"{report.draws} of {report.games} games ended without a winner; "
                        f"95% Wilson interval {d.low:.1%}–{d.high:.1%}.")
    if several:
        first = report.first_seat
        cols[2].metric("First-seat advantage", f"{report.first_seat_advantage:+.1%}",
                       help=f"Seat 1's share of decided games ({first.share:.1%}, 95% interval "
                            f"{first.low:.1%}–{first.high:.1%}) minus the fair share "
                            f"{report.first_seat_fair:.0%}.")
    st.caption(f"Draws: {report.draws} of {report.games} games ({d.share:.1%}, 95% Wilson "
               f"interval {d.low:.1%}–{d.high:.1%}).")
    if len(set(report.seats)) > 1 and not report.rotate:
        st.caption("The seats hold different levels: the seat's advantage and the level's "
                   "strength are mixed here (tick \"Rotate the seats\" to separate them).")
    st.subheader("Who wins")
    st.caption(WIN_DEFINITION + (
        " The game's own seats are the computer players the game brings (not a level "
        "chosen here)." if report.house is not None else ""))
    plot(f["wins"], f"{key}_wins", "no game was decided")
    st.dataframe(t["seats"], hide_index=True, column_config=_formats(t["seats"].columns))
    if len(t["levels"]) > 1:
        st.dataframe(t["levels"], hide_index=True, column_config=_formats(t["levels"].columns))
    _section(report, key)
    _length(report, key)


# -- the page ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunSpec:
    """What the designer asked for: one seating of levels on every part of the rules."""

    game: str
    rules_json: str
    seats: tuple[str, ...]
    seed: int
    rotate: bool


@st.cache_data(max_entries=256, show_spinner=False)
def _results(spec: RunSpec, part: str, part_rules_json: str, start: int, stop: int
             ) -> list[GameResult]:
    # Games start..stop-1 of one part: a pure function of its arguments (seeds derive from
    # the game's number), so "run more" only plays the new games.
    workers = 2 if stop - start >= POOL_FROM else 1
    return play_games(spec.game, json.loads(part_rules_json), spec.seats, spec.seed,
                      spec.rotate, start, stop, workers, part)


def run(spec: RunSpec, games: int) -> list[tuple[str, SimulationReport]]:
    """The reports of ``games`` games per part (played in chunks of the page's runs, each
    cached)."""
    hooks = balance_hooks(spec.game)
    out = []
    for label, part_rules in hooks.parts(json.loads(spec.rules_json)):
        check(spec.game, part_rules, spec.seats, games, 1)
        part_json = json.dumps(part_rules, sort_keys=True)
        results: list[GameResult] = []
        start = 0
        while start < games:
            stop = min(games, max(start + DEFAULT_GAMES, start * 2))
            results += _results(spec, label, part_json, start, stop)
            start = stop
        out.append((label, summarise(spec.game, part_rules, spec.seats, spec.rotate,
                                     spec.seed, results, label)))
    return out


def parts_table(runs: list[tuple[str, SimulationReport]]) -> pd.DataFrame:
    """Per part and level: wins among decided games with the 95% Wilson interval.

    >>> from engine.balance import default_game, simulate
    >>> from engine.players import levels
    >>> lv = levels(default_game())[:2]
    >>> frame = parts_table([("", simulate(default_game(), None, lv, 6, 1))])
    >>> list(frame.columns)[:4], len(frame)
    (['part', 'level', 'games', 'decided'], 2)
    """
    rows = []
    for label, report in runs:
        for level, i in report.level_wins.items():
            rows.append({"part": label or "all", "level": level, "games": report.games,
                         "decided": i.trials, "wins": i.successes, "share": i.share,
                         "ci95_low": i.low, "ci95_high": i.high})
    return pd.DataFrame(rows, columns=["part", "level", "games", "decided", "wins", "share",
                                       "ci95_low", "ci95_high"])


def parts_figure(frame: pd.DataFrame) -> go.Figure:
    """Win share per part, one bar group per level, with 95% intervals."""
    fig = go.Figure()
    for n, (level, rows) in enumerate(frame.groupby("level", sort=False)):
        fig.add_trace(go.Bar(
            x=rows["part"], y=rows["share"], name=html.escape(str(level)),
            marker_color=OKABE_ITO[n % len(OKABE_ITO)], error_y=_error_bars(rows),
            hovertemplate="%{x}: %{y:.0%}<extra>" + html.escape(str(level)) + "</extra>"))
    fig.update_layout(title="Wins per part and level, 95% interval", barmode="group",
                      yaxis_tickformat=".0%", yaxis_title="share of decided games",
                      yaxis_range=[0, 1.05], legend_title_text="level",
                      legend={"orientation": "h", "y": -0.15},  # a phone keeps the width
                      margin={"l": 60, "r": 20, "t": 60, "b": 50})
    return fig


def _defaults(levels: tuple[str, ...], seats: tuple[int, int]) -> str:
    if seats[1] == 1:
        return ",".join(levels[:2])
    pair = levels[:2] if len(levels) > 1 else levels * 2
    return ",".join([*pair, *([pair[0]] * (seats[0] - 2))])


def page(study_id: str, game: str, title: str, rules: Any, levels: tuple[str, ...],
         seats: tuple[int, int]) -> None:
    """The Balance page of a study playing ``game`` under ``rules``: ``levels`` are its
    computer levels, ``seats`` the fewest and most a run may fill."""
    if not levels:
        st.info(f"{title} has no computer players, so it cannot be simulated.")
        return
    hooks = balance_hooks(game)
    allowed = hooks.seat_range or seats
    one_seat = allowed[1] == 1
    try:
        parts = hooks.parts(rules)
    except (EngineError, ValueError) as err:
        st.error(f"These rules cannot be simulated: {err}")
        return
    st.write(
        f"Computer players play many games of {title} under this study's rules, so you "
        "can see who wins, how long games are and how often each rule is felt before "
        "testing it. Every game is seeded: the same settings give the same numbers.")
    if one_seat:
        st.caption(
            f"{title} has one tester's seat: each level below plays it, against the game's "
            "own computer players" + (f", on each of the {len(parts)} parts of the rules "
                                      f"({', '.join(label for label, _ in parts)})"
                                      if len(parts) > 1 else "") + ".")
    default = _defaults(levels, allowed)
    if st.session_state.get("bal_for") != study_id:
        # the seats are the study's game's levels: a field kept from another study's game
        # would name levels this game does not have
        st.session_state["bal_for"] = study_id
        st.session_state["bal_seats"] = default
    with st.form("balance"):
        label = ("Levels to compare (each plays the tester's seat)" if one_seat else
                 f"Seats ({allowed[0]}–{allowed[1]} computer levels, one per seat)"
                 if allowed[0] != allowed[1] else f"Seats ({allowed[0]} computer levels)")
        chosen = st.text_input(label, key="bal_seats",
                               help=f"Levels, easiest first: {', '.join(levels)}.")
        games = st.number_input("Games", 1, 20000, DEFAULT_GAMES, step=10, key="bal_games")
        st.caption("Games are per part of the rules and per level compared. The hardest "
                   "levels search and are slow: start small, then run more.")
        seed = st.number_input("Seed", 0, 10**9, 1, key="bal_seed")
        rotate = False if one_seat else st.checkbox(
            "Rotate the seats every game", key="bal_rotate",
            help="Every level plays every seat equally often: the level table then "
                 "measures strength, not the seat.")
        submitted = st.form_submit_button("Simulate")
    names = [s.strip() for s in chosen.split(",") if s.strip()]
    key = "balance_run"
    if submitted:
        specs = ([RunSpec(game, json.dumps(rules, sort_keys=True), (name,), int(seed), False)
                  for name in dict.fromkeys(names)] if one_seat else
                 [RunSpec(game, json.dumps(rules, sort_keys=True), tuple(names), int(seed),
                          bool(rotate))])
        st.session_state[key] = (study_id, specs, int(games))
    kept = st.session_state.get(key)
    if not kept or kept[0] != study_id:
        return
    _, specs, count = kept
    if st.button(f"Run {count} more games", key="bal_more",
                 help="The first games stay the same (each game has its own seed); only "
                      "the new ones are played."):
        count *= 2
        st.session_state[key] = (study_id, specs, count)
    try:
        with st.spinner(f"Playing {count} games…"):
            runs = [(spec, run(spec, count)) for spec in specs]
    except (SimulationError, EngineError, ValueError) as err:
        st.error(str(err))
        return
    flat = [(label, report) for _, reports in runs for label, report in reports]
    if len(flat) == 1:
        draw(flat[0][1])
        with st.expander("The same as text and JSON (to copy)"):
            st.text(flat[0][1].to_text())
            st.json(flat[0][1].to_dict(), expanded=False)
        return
    _several(flat)


def _several(flat: list[tuple[str, SimulationReport]]) -> None:
    """Several runs (levels compared, parts of the rules): the table of all, then one
    run's details."""
    st.subheader("Who wins, per part and level")
    st.caption(WIN_DEFINITION + " A part is one stage of the rules (\"all\": the rules "
               "have one). The level plays the tester's seat; decided games are those with "
               "a winner.")
    frame = parts_table(flat)
    plot(parts_figure(frame), "balance_parts", "no game was decided")
    st.dataframe(frame, hide_index=True, column_config=_formats(frame.columns))
    names = [f"{label or 'all'} · {' vs '.join(report.seats)}" for label, report in flat]
    pick = st.selectbox("Details of", range(len(flat)), format_func=lambda k: names[k],
                        key="bal_detail")
    label, report = flat[pick if pick is not None else 0]
    draw(report, key=f"balance_{pick}")
    with st.expander("The same as text and JSON (to copy)"):
        st.text(report.to_text())
        st.json(report.to_dict(), expanded=False)

