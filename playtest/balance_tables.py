"""The Balance page's numbers and charts: a :class:`engine.balance.SimulationReport` as
data frames, one per question a designer asks (:func:`tables`), and as Plotly figures
(:func:`figures`); several runs compared (:func:`parts_table`, :func:`parts_figure`).
Nothing here draws on a page (:mod:`playtest.app_pages.designer.balance` does).

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
from dataclasses import dataclass
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from analytics.figures import OKABE_ITO
from engine.balance import SectionTable, SimulationReport, wilson

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


@dataclass(frozen=True)
class RunSpec:
    """What the designer asked for: one seating of levels on every part of the rules."""

    game: str
    rules_json: str
    seats: tuple[str, ...]
    seed: int
    rotate: bool


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


def default_seats(levels: tuple[str, ...], seats: tuple[int, int]) -> str:
    """The seats a run starts with: the two easiest levels (against each other, or each
    in the tester's seat of a one-seat game), the first again for the seats beyond two.

    >>> default_seats(("easy", "medium", "hard"), (2, 4)), default_seats(("easy",), (3, 3))
    ('easy,medium', 'easy,easy,easy')
    """
    if seats[1] == 1:
        return ",".join(levels[:2])
    pair = levels[:2] if len(levels) > 1 else levels * 2
    return ",".join([*pair, *([pair[0]] * (seats[0] - 2))])
