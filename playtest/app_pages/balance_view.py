"""The Balance page's results as tables and charts (the engine's report was aligned text).

:func:`tables` turns an :class:`engine.simulate.SimulationReport` into data frames, one
per question a designer asks (who wins, how often each rule is felt, how long games
are); :func:`figures` draws them; :func:`draw` puts both on the page.

>>> from engine.simulate import simulate
>>> from engine.vapoosh import Rules
>>> report = simulate(Rules.preset("standard"), ["easy", "easy"], 20, 3, workers=1)
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

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from analytics.figures import OKABE_ITO
from engine.simulate import SimulationReport
from playtest.app_pages.empty import plot


def tables(report: SimulationReport) -> dict[str, pd.DataFrame]:
    """``seats`` (wins per seat, share of decided games, 95% Wilson interval),
    ``levels`` (the same per computer level), ``rules`` (per game, share of games),
    ``length`` (histogram of game length in rolls) and ``ends`` (end reasons)."""
    seats = pd.DataFrame([
        {"seat": number, "level": "(rotated)" if report.rotate else level,
         "wins": i.successes, "share": i.share, "ci95_low": i.low, "ci95_high": i.high}
        for number, (level, i) in enumerate(zip(report.seats, report.seat_wins, strict=True),
                                            start=1)])
    levels = pd.DataFrame([
        {"level": level, "wins": i.successes, "share": i.share, "ci95_low": i.low,
         "ci95_high": i.high} for level, i in report.level_wins.items()],
        columns=["level", "wins", "share", "ci95_low", "ci95_high"])
    rules = pd.DataFrame([
        {"rule": kind.replace("_", " "), "per_game": rate.per_game,
         "share_of_games": rate.games_share} for kind, rate in report.rules_fired.items()],
        columns=["rule", "per_game", "share_of_games"]).sort_values(
        "share_of_games", ascending=False, kind="stable", ignore_index=True)
    length = pd.DataFrame([
        {"rolls": f"{low}–{high - 1}", "from": low, "games": count}
        for low, high, count in report.length.histogram], columns=["rolls", "from", "games"])
    ends = pd.DataFrame([{"end": reason.replace("_", " "), "games": count,
                          "share": count / report.games if report.games else 0.0}
                         for reason, count in report.end_reasons.items()],
                        columns=["end", "games", "share"])
    return {"seats": seats, "levels": levels, "rules": rules, "length": length, "ends": ends}


def figures(report: SimulationReport) -> dict[str, go.Figure]:
    """Win share per seat with its interval, rules by share of games, game length."""
    t = tables(report)
    seats = t["seats"]
    win = go.Figure(go.Bar(
        x=[f"seat {n} ({level})" for n, level in zip(seats["seat"], seats["level"], strict=True)],
        y=seats["share"], marker_color=OKABE_ITO[4],
        error_y={"type": "data", "symmetric": False,
                 "array": (seats["ci95_high"] - seats["share"]).tolist(),
                 "arrayminus": (seats["share"] - seats["ci95_low"]).tolist()},
        hovertemplate="%{x}: %{y:.1%} of decided games<extra></extra>"))
    fair = report.first_seat_fair
    win.add_hline(y=fair, line_dash="dot", annotation_text=f"fair {fair:.0%}",
                  annotation_position="top left")
    win.update_layout(title="Wins per seat, 95% interval",
                      yaxis_tickformat=".0%", yaxis_title="share of decided games",
                      margin={"l": 60, "r": 20, "t": 60, "b": 50})
    rules = t["rules"].sort_values("share_of_games")
    felt = go.Figure(go.Bar(
        x=rules["share_of_games"], y=[html.escape(str(r)) for r in rules["rule"]],
        orientation="h", marker_color=OKABE_ITO[2],
        customdata=rules[["per_game"]].to_numpy(),
        hovertemplate="%{y}: in %{x:.0%} of games, %{customdata[0]:.2f} per game"
                      "<extra></extra>"))
    felt.update_layout(title="Share of games with the rule",
                       xaxis_tickformat=".0%", xaxis_title="share of games",
                       margin={"l": 120, "r": 20, "t": 60, "b": 50},
                       height=max(300, 26 * len(rules) + 120))
    length = t["length"]
    rolls = go.Figure(go.Bar(x=length["rolls"], y=length["games"], marker_color=OKABE_ITO[0],
                             hovertemplate="%{x} rolls: %{y} games<extra></extra>"))
    rolls.update_layout(title="Game length in rolls", xaxis_title="rolls",
                        yaxis_title="games", margin={"l": 60, "r": 20, "t": 60, "b": 50})
    return {"wins": win, "rules": felt, "length": rolls}


def draw(report: SimulationReport) -> None:
    """The whole result: headline numbers, then each table beside its chart."""
    t, f = tables(report), figures(report)
    cols = st.columns(3)
    cols[0].metric("Games", report.games, help=f"Seed {report.seed}; seats "
                   f"{', '.join(report.seats)}{' rotated each game' if report.rotate else ''}.")
    cols[1].metric("Draws", f"{report.draws / report.games:.1%}" if report.games else "–",
                   help=f"{report.draws} of {report.games} games ended without a winner.")
    first = report.first_seat
    cols[2].metric("First-seat advantage", f"{report.first_seat_advantage:+.1%}",
                   help=f"Seat 1's share of decided games ({first.share:.1%}, 95% interval "
                        f"{first.low:.1%}–{first.high:.1%}) minus the fair share "
                        f"{report.first_seat_fair:.0%}.")
    if len(set(report.seats)) > 1 and not report.rotate:
        st.caption("The seats hold different levels: the seat's advantage and the level's "
                   "strength are mixed here.")
    percent = st.column_config.NumberColumn(format="percent")
    st.subheader("Who wins")
    plot(f["wins"], "balance_wins", "no game was decided")
    st.dataframe(t["seats"], hide_index=True, column_config={
        "share": percent, "ci95_low": percent, "ci95_high": percent})
    if len(t["levels"]) > 1:
        st.dataframe(t["levels"], hide_index=True, column_config={
            "share": percent, "ci95_low": percent, "ci95_high": percent})
    st.subheader("How often each rule is felt")
    plot(f["rules"], "balance_rules", "no rule fired")
    st.dataframe(t["rules"], hide_index=True, column_config={
        "per_game": st.column_config.NumberColumn(format="%.2f"),
        "share_of_games": percent})
    st.subheader("How long games are")
    ln = report.length
    st.caption(f"Rolls per game: mean {ln.mean:.1f}, median {ln.median:g}, middle half "
               f"{ln.p25:g}–{ln.p75:g}, 90% of games within {ln.p90:g}, longest {ln.maximum}.")
    plot(f["length"], "balance_length")
    st.dataframe(t["ends"], hide_index=True, column_config={"share": percent})
