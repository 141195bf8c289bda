"""The Overview page: the study's funnel, step by step, with each number defined."""

from __future__ import annotations

from typing import Any

import streamlit as st

from analytics import figures, funnel
from playtest.app_pages.designer.filters import UNFILTERED, filtered, filters
from playtest.app_pages.designer.opening import open_results_page
from playtest.app_pages.designer.study_cache import whole_study
from playtest.app_pages.empty import plot
from playtest.display_words import step_words

FUNNEL_NOTE = (
    "Reached: testers who got to the step (its page, or their k-th game). Drop-off: "
    "testers who reached the previous required step but not this one, and its share of "
    "them. Games beyond the study's games per tester are optional (lighter bars): not "
    "playing one is no drop-off. Median time: from reaching a step to reaching the next.")
COLUMNS: dict[str, Any] = {
    "step": "Step", "reached": "Reached", "drop_off": "Drop-off", "optional": "Optional",
    "drop_off_rate": st.column_config.NumberColumn("Drop-off share", format="percent"),
    "median_seconds": st.column_config.NumberColumn("Median time", format="%.0f s")}


def overview_page() -> None:
    opened = open_results_page("Overview")
    if opened is None:
        return
    study_id = opened.study.study_id
    fkey, chosen = filters(opened.study, opened.head.data)
    if fkey == UNFILTERED:
        table = whole_study(study_id, "funnel", lambda b: funnel.funnel(b.data))
    else:
        loaded, data = filtered(study_id, fkey, chosen)
        table = loaded.memo(("funnel", *fkey), lambda: funnel.funnel(data))
    # people's words for the steps (pre_survey: "Survey before play"); the data keeps keys
    table = table.assign(step=table["step"].map(step_words)) if len(table) else table
    plot(figures.funnel_figure(table), "funnel", "no tester matches these filters")
    st.caption(FUNNEL_NOTE)
    st.dataframe(table, hide_index=True, key="funnel_table", placeholder="–",
                 column_config=COLUMNS)
