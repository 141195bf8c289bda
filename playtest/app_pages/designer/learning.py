"""The designer's Learning page: did they learn? (:mod:`analytics.learning`,
:mod:`analytics.learning_facts`, :mod:`analytics.learning_view`)

For a game that asks facts (its analytics plug-in has ``fact_attempts``): the fluency
probe's gains before → after play, per experiment arm with the verdict, which facts
improved (probe and play), and the in-play learning curve. For every game: rule
understanding over games and the rules quiz. A game without facts says so. Every number
comes with its definition and its 95 % interval.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import streamlit as st

from analytics import learning, learning_facts, learning_figures, learning_view
from analytics.text_safety import markdown_literal
from playtest import learning_data
from playtest.app_pages.designer.opening import open_results_page
from playtest.app_pages.designer.study_cache import bundle
from playtest.app_pages.empty import plot
from playtest.storage import facts_export

TITLE = "Learning"


def _headline(view: learning_view.LearningView) -> None:
    gains = view.gains
    if gains is None:
        return
    st.markdown(f"Before play testers answered **{gains.pre_cpm.text(signed=False)}** "
                f"correct facts a minute, after play **{gains.post_cpm.text(signed=False)}**: "
                f"a gain of **{gains.gain_cpm.text('facts/min')}** (means; the gain's "
                "interval is paired).")


def _facts_table(table: pd.DataFrame, name: str) -> None:
    if table.empty:
        st.caption("No fact has tries on both sides yet.")
        return
    if learning_facts.facts_stand_apart(table):
        plot(learning_figures.facts_figure(learning_facts.facts_to_draw(table),
                                           "Facts that changed most"),
             f"facts-{name}")
    else:
        first = table.iloc[0]
        change = learning.Estimate(first["change"], first["change_low"], first["change_high"],
                                   len(table)).text("pp", 100.0)
        st.markdown(f"No fact changed differently from the others beyond chance: every "
                    f"fact is estimated at the common change in share right, {change} "
                    "(n: facts).")
    st.dataframe(learning_facts.facts_for_people(table), hide_index=True, key=f"facts-table-{name}")


def _facts_section(view: learning_view.LearningView) -> None:
    st.header("Times-table facts")
    if view.gains is None:
        st.info(f"No tester has answered the fluency probe before and after play yet "
                f"(before: {view.probe_testers.get('pre', 0)}, after: "
                f"{view.probe_testers.get('post', 0)}). Add a `fluency_probe` item to the "
                "pre and post forms (the bundled forms ending in `_probe` carry one).")
    else:
        summaries = [view.gains] + [s for group in view.by_variant.values() for s in group]
        plot(learning_figures.gains_figure(summaries), "learning-gains")
        st.caption(f"{learning.CPM_DEFINITION} {learning.GAIN_DEFINITION}")
        for arm in view.arms:
            box = st.success if arm.verdict.endswith("learned more") else st.info
            rest = arm.summary()[len(arm.verdict) + 2:]  # variant names: the designer's words
            box(f"**{markdown_literal(arm.experiment)}: {markdown_literal(arm.verdict)}**: "
                f"{markdown_literal(rest)}")
        if view.arms:
            st.caption(learning.ARMS_DEFINITION)
    probe_tab, play_tab = st.tabs(["Probe: before → after play", "Play: first try → later tries"])
    for tab, table, name in ((probe_tab, view.probe_facts, "probe"),
                             (play_tab, view.play_facts, "play")):
        with tab:
            _facts_table(table, name)
    st.caption(learning.FACT_DEFINITION)
    if not view.curve.empty:
        plot(learning_figures.curve_figure(view.curve), "learning-curve")
        st.caption(learning.CURVE_DEFINITION)


def _rules_section(view: learning_view.LearningView, texts: Mapping[str, str]) -> None:
    st.header("Rule understanding")
    if view.rules.change.n:
        plot(learning_figures.rules_figure(view.rules), "learning-rules")
        st.markdown(f"Turns with a rule error: first half of a tester's turns "
                    f"{view.rules.first.text('%', 100, signed=False)}, second half "
                    f"{view.rules.later.text('%', 100, signed=False)}; change "
                    f"{view.rules.change.text('pp', 100)}.")
    else:
        st.caption("No tester has played two turns yet.")
    st.caption(learning.RULES_DEFINITION)
    if view.quiz.empty:
        st.caption("This study's forms ask no rules-quiz question.")
        return
    named = learning_data.quiz_named(view, texts)
    plot(learning_figures.quiz_figure(named), "learning-quiz")
    if view.quiz_change.n:
        st.markdown(f"Share of quiz questions right, after − before play: "
                    f"{view.quiz_change.text('pp', 100.0)}.")
    if not (view.quiz["phase"] == "pre").any():
        st.caption("The pre-play form asks no rules-quiz question, so only after play is "
                   "shown: ask the same questions (the same item ids) before play to "
                   "measure a change.")
    st.caption(learning.QUIZ_DEFINITION)


def learning_page() -> None:
    opened = open_results_page(TITLE)
    if opened is None:
        return
    study_id = opened.study.study_id
    loaded = bundle(study_id)
    data = loaded.bundle.data
    view, texts = loaded.memo(("learning",), lambda: learning_data.view_of(data))
    if view.has_facts:
        _headline(view)
        _facts_section(view)
    else:
        st.info(f"{view.game_title} asks no times-table facts, so there are no fact gains "
                "to show: this page shows how well testers understand its rules before and "
                "after play.")
    _rules_section(view, texts)
    facts = loaded.memo(("learning-facts",), lambda: facts_export.facts_of(data))
    if len(facts):
        st.download_button("Download every answer to a fact (CSV)", facts_export.csv_bytes(facts),
                           file_name=f"{study_id}.facts.csv", mime="text/csv",
                           key="learning-facts-csv",
                           help="One row per answer: tester, fact, attempt, phase (pre, play, "
                                "post), correct, ms. Also: playtest export --format facts-csv.")
    st.header("Every number")
    st.dataframe(learning_data.numbers_table(view), hide_index=True, key="learning-numbers")
