"""The Questionnaires page: instrument scores, expectation against experience, the rules
quiz, one item's answers, and the free text (always in tables, never as Markdown)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import pandas as pd
import streamlit as st

from analytics import figures, questionnaires
from playtest import page_results
from playtest.app_pages.designer.columns import (
    EXPECTATION_COLUMNS,
    EXPECTATION_NOTE,
    QUIZ_COLUMNS,
    SCORE_COLUMNS,
    SCORE_TABLE_NOTE,
    THEMES_NOTE,
)
from playtest.app_pages.designer.opening import (
    experiment_picker,
    open_results_page,
    variants_of,
)
from playtest.app_pages.designer.study_cache import bundle, whole_study
from playtest.app_pages.empty import plot
from playtest.display_words import as_text, instrument_words, keys_in_words, question_words
from playtest.people_tables import THEME_NAMES, people_table
from playtest.study_data import StudyBundle
from playtest.study_form_checks import asked_surveys
from surveys.instruments import INSTRUMENTS, instrument_info

T = TypeVar("T")


def questionnaires_page() -> None:
    opened = open_results_page("Questionnaires")
    if opened is None:
        return
    study = opened.study
    # The page before any choice is kept with the study's state (page_results); another
    # choice (a split, an instrument, an item, a search) is computed on the study's tables.
    q = whole_study(study.study_id, "questionnaires", page_results.questionnaire_tables)
    if q["unscored"]:
        _unscored(q["unscored"])
    key = experiment_picker(study)

    def on_tables(memo_key: tuple[Any, ...], compute: Callable[[StudyBundle, Any], T]) -> T:
        loaded = bundle(study.study_id)
        variants = loaded.memo(("variants", key), lambda: variants_of(loaded.bundle.data, key))
        return loaded.memo(memo_key, lambda: compute(loaded.bundle, variants))

    asked = question_words(asked_surveys(study.game, study.config))  # item id → question

    def said(item: str) -> str:
        return asked.get(item, item)

    words = {"instrument": instrument_words, "item": said, "pre_question": said,
             "post_question": said}
    st.subheader("Instrument scores")
    st.caption(SCORE_TABLE_NOTE)
    for instrument in q["instruments"]:  # how an unanswered item is scored
        if instrument in INSTRUMENTS and instrument_info(instrument).missing:
            st.caption(f"{instrument_words(instrument)}, a missing item: "
                       f"{instrument_info(instrument).missing}")
    st.dataframe(keys_in_words(q["summary"] if key is None else on_tables(
        ("summary", key), lambda b, v: questionnaires.instrument_summary(b.scores, v)),
        words), hide_index=True, column_config=SCORE_COLUMNS, key="score_table",
        placeholder="–")
    if q["instruments"]:
        chosen = st.selectbox("Distribution of", q["instruments"], key="dist_instrument",
                              format_func=instrument_words)
        plot(q["distribution"][chosen] if chosen in q["distribution"] else on_tables(
            ("dist", chosen), lambda b, v: figures.score_distribution_figure(b.scores, chosen)),
            "dist")
    st.subheader("Expectation (pre) against experience (post)")
    _expectation_table(keys_in_words(q["expectation"], words))
    st.subheader("Rules quiz: correct answers")
    st.dataframe(keys_in_words(q["quiz"] if key is None else on_tables(
        ("quiz", key), lambda b, v: questionnaires.quiz_correctness(b.quiz, v)), words),
        hide_index=True, column_config=QUIZ_COLUMNS, key="quiz_table")
    if q["items"]:
        item = st.selectbox("Answers to item", q["items"], key="dist_item", format_func=said)
        st.dataframe(as_text(q["item"][item] if key is None and item in q["item"] else
                             on_tables(("item", item, key), lambda b, v:
                                       questionnaires.item_distribution(b.data.responses,
                                                                        item, v))),
                     hide_index=True, column_config={
                "share": st.column_config.NumberColumn("Share", format="percent")})
    st.subheader("Free text")
    search = st.text_input("Search answers", key="text_search")
    st.dataframe(as_text(keys_in_words(q["free_text"] if key is None and not search else
                 on_tables(("free_text", search, key), lambda b, v: questionnaires.free_text(
                     b.data.responses, search or None, v, q["text_items"])), words)),
                 hide_index=True)
    st.caption(THEMES_NOTE)
    st.dataframe(people_table(keys_in_words(q["themes"], words), THEME_NAMES),
                 hide_index=True, key="themes_table")


def _unscored(unscored: list[Any]) -> None:
    # survey names are data: shown in a table, never as Markdown
    st.warning(f"{sum(u.answers for u in unscored)} answers cannot be scored: no "
               "definition of their survey is stored or bundled. They are kept (see "
               "the answers below) but are not in the scores. Import the study's "
               "survey records to score them.")
    st.dataframe(pd.DataFrame([{"Survey": u.survey, "Version": u.survey_version,
                                "Answers": u.answers, "Testers": u.testers}
                               for u in unscored]), hide_index=True, key="unscorable")


def _expectation_table(table: pd.DataFrame) -> None:
    """The same question before and after playing, paired per tester (or why not yet)."""
    if table.empty:
        st.info("No data yet: no tester has answered both the before-play and the "
                "after-play question (fun 0–10 for adults, the faces for children).")
        return
    st.caption(EXPECTATION_NOTE)
    st.dataframe(table, hide_index=True, column_config=EXPECTATION_COLUMNS,
                 key="expectation_table")
