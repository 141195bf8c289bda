"""The Balance page's drawing: one run's headline numbers, then each table beside its
chart (:func:`draw`, :func:`details`); several runs compared, then one run's details
(:func:`several`)."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from engine.balance import SimulationReport
from playtest.app_pages.empty import plot
from playtest.balance_tables import (
    WIN_DEFINITION,
    figures,
    parts_figure,
    parts_table,
    section_figure,
    tables,
)

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


def several(flat: list[tuple[str, SimulationReport]]) -> None:
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
    details(report, key=f"balance_{pick}")


def details(report: SimulationReport, key: str = "balance") -> None:
    """One run drawn, then the same as text and JSON to copy."""
    draw(report, key)
    with st.expander("The same as text and JSON (to copy)"):
        st.text(report.to_text())
        st.json(report.to_dict(), expanded=False)
