"""The Confusion page: the ranked confusion points, the game's own charts and sections,
messages followed by trouble and the rules overlay's use."""

from __future__ import annotations

from typing import Any

import streamlit as st

from analytics import game_analytics, severity
from playtest import page_results
from playtest.app_pages.designer.filters import UNFILTERED, filtered, filters
from playtest.app_pages.designer.opening import Opened, open_results_page
from playtest.app_pages.designer.study_cache import whole_study
from playtest.app_pages.empty import plot
from playtest.display_words import reasons_in_words
from playtest.games.registry import game_plugin
from playtest.people_tables import (
    AFTERMATH_NAMES,
    OVERLAY_NAMES,
    confusion_points_table,
    people_table,
)


def _tables(opened: Opened) -> dict[str, Any]:
    study_id = opened.study.study_id
    fkey, chosen = filters(opened.study, opened.head.data)
    if fkey == UNFILTERED:
        tables = whole_study(study_id, "confusion",
                             lambda b: page_results.confusion_tables(b.data))
    else:
        loaded, data = filtered(study_id, fkey, chosen)
        tables = loaded.memo(("confusion", *fkey),
                             lambda: page_results.confusion_tables(data))
    # the study's game (its charts and sections) is added on each run: functions, not kept
    return page_results.with_game(tables, opened.head.data)


def confusion_page() -> None:
    opened = open_results_page("Confusion points")
    if opened is None:
        return
    t = _tables(opened)
    points = t["points"]
    st.caption("Ranked by severity: the extra trouble per occasion, weighted by how many "
               "testers it reached, whether it persisted after the first game, and impact.")
    with st.expander("How severity is defined"):
        st.caption(severity.severity_definition(t["game"].occasions))
    if points:
        st.dataframe(confusion_points_table(points), hide_index=True, key="points_table",
                     column_config=confusion_columns())
    else:
        st.info("No confusion point has enough evidence yet: each needs at least "
                f"{severity.MIN_OCCASIONS} occasions and {severity.MIN_TESTERS} testers.")
    _game_sections(t)
    st.subheader("Messages followed by trouble")
    st.caption("Trouble: a wrong click in the next turn, hesitation above the study's 75th "
               "percentile, or a rules lookup from the message. "
               + game_analytics.turn_definition(t["game"]))
    st.dataframe(people_table(t["aftermath"], AFTERMATH_NAMES), hide_index=True)
    st.subheader("Rules overlay use")
    st.dataframe(people_table(t["overlay"], OVERLAY_NAMES), hide_index=True)


def confusion_columns() -> dict[str, Any]:
    """The points table's point and advice get the room (a phone scrolls to the rest)."""
    return {"Confusion point": st.column_config.TextColumn(width="medium"),
            "What to do": st.column_config.TextColumn(width="large")}


def _game_sections(t: dict[str, Any]) -> None:
    """The game's own charts, then its sections (heading, caption, charts, table)."""
    game = t["game"]
    side_by_side = [chart for chart in game.charts if chart.group and not chart.section]
    for column, chart in zip(st.columns(len(side_by_side)) if side_by_side else [],
                             side_by_side, strict=True):
        with column:
            plot(t["charts"][chart.name], chart.key or chart.name)
    for chart in game.charts:
        if not chart.section and not chart.group:
            plot(t["charts"][chart.name], chart.key or chart.name)
    for section in game.sections:
        st.subheader(section.heading or section.title)
        if section.caption:
            st.caption(section.caption)
        for chart in game.charts:
            if chart.section == section.key:
                plot(t["charts"][chart.name], chart.key or chart.name)
        if section.key in t["frames"]:
            # refusal reasons in the play screen's words (select_first: "First click...")
            frame = reasons_in_words(t["frames"][section.key],
                                     game_plugin(game.name).refusal_words)
            st.dataframe(people_table(frame, dict(section.page_columns)),
                         hide_index=True, placeholder="–")
