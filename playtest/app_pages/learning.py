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
from typing import Any

import pandas as pd
import streamlit as st

from analytics import game_analytics, learning, learning_facts, learning_figures, learning_view
from playtest.app_pages.empty import no_testers_yet, plot
from playtest.storage import facts_export
from playtest.storage.survey_records import parsed_definitions
from surveys import SurveyDefinition, SurveyDefinitionError, load_survey, quiz_results

TITLE = "Learning"


def _quiz_items(definition: SurveyDefinition) -> set[str]:
    return {item.id for _, item in definition.items() if getattr(item, "correct", None) is not None}


def quiz_by_phase(responses: pd.DataFrame, stored: Mapping[str, SurveyDefinition]
                  ) -> tuple[pd.DataFrame, dict[str, str]]:
    """The rules quiz per tester, question and phase (``participant_id, item, correct,
    phase``), scored with the study's stored survey definitions, else the bundled ones;
    and each question's text by its item id."""
    definitions: dict[str, SurveyDefinition] = {}
    for survey in responses["survey"].astype(str).unique():
        try:
            definitions[survey] = stored[survey] if survey in stored else load_survey(survey)
        except (SurveyDefinitionError, OSError, ValueError):
            continue
    quiz_items = {survey: _quiz_items(d) for survey, d in definitions.items()}
    wanted = responses[[item in quiz_items.get(str(survey), ()) for survey, item in
                        zip(responses["survey"], responses["item"], strict=True)]]
    rows: list[tuple[Any, ...]] = []
    texts: dict[str, str] = {}
    for (pid, survey, phase), group in wanted.groupby(["participant_id", "survey", "phase"],
                                                      sort=False):
        definition = definitions[str(survey)]
        answers = dict(zip(group["item"], group["value"], strict=True))
        for item, right in quiz_results(definition, answers).items():
            if right is not None:
                rows.append((pid, item, bool(right), phase))
                texts.setdefault(str(item), str(definition.item(item).text or item))
    return pd.DataFrame(rows, columns=["participant_id", "item", "correct", "phase"]), texts


def view_of(data: Any) -> tuple[learning_view.LearningView, dict[str, str]]:
    """The study's :class:`analytics.learning_view.LearningView` (its game's facts, if any),
    and the rules quiz's question texts by item id."""
    game = game_analytics.for_study(data)
    title = game.title if game is not game_analytics.GENERIC else game_analytics.game_of(data)
    quiz, texts = quiz_by_phase(data.responses, parsed_definitions(data.study))
    return learning_view.learning_view(data, quiz, title, game.fact_attempts,
                                  game.reason_occasions), texts


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
            box(f"**{arm.experiment}: {arm.verdict}**: {arm.summary()[len(arm.verdict) + 2:]}")
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
    named = view.quiz.assign(item=[_short(texts.get(i, i)) for i in view.quiz["item"]])
    plot(learning_figures.quiz_figure(named), "learning-quiz")
    if view.quiz_change.n:
        st.markdown(f"Share of quiz questions right, after − before play: "
                    f"{view.quiz_change.text('pp', 100.0)}.")
    if not (view.quiz["phase"] == "pre").any():
        st.caption("The pre-play form asks no rules-quiz question, so only after play is "
                   "shown: ask the same questions (the same item ids) before play to "
                   "measure a change.")
    st.caption(learning.QUIZ_DEFINITION)


def page() -> None:
    from playtest.app_pages import designer  # the shared study picker, data and guard

    designer._guard()
    study = designer.pick_study()
    if study is None:
        return
    st.title(TITLE)
    b = designer.bundle(study.study_id)
    if no_testers_yet(len(b.data.participants), "the learning page"):
        return
    view, texts = designer.memo(b, ("learning",), lambda: view_of(b.data))
    if view.has_facts:
        _headline(view)
        _facts_section(view)
    else:
        st.info(f"{view.game_title} asks no times-table facts, so there are no fact gains "
                "to show: this page shows how well testers understand its rules before and "
                "after play.")
    _rules_section(view, texts)
    facts = designer.memo(b, ("learning-facts",), lambda: facts_export.facts_of(b.data))
    if len(facts):
        st.download_button("Download every answer to a fact (CSV)", facts_export.csv_bytes(facts),
                           file_name=f"{study.study_id}.facts.csv", mime="text/csv",
                           key="learning-facts-csv",
                           help="One row per answer: tester, fact, attempt, phase (pre, play, "
                                "post), correct, ms. Also: playtest export --format facts-csv.")
    st.header("Every number")
    st.dataframe(pd.DataFrame(learning_view.plan_rows(view)).rename(columns={
        "measure": "Measure", "result": "Result (95% interval)", "definition": "Definition"}),
        hide_index=True, key="learning-numbers")


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def st_page() -> st.Page:
    """The page for the designer's navigation."""
    return st.Page(page, title=TITLE, url_path="learning", icon=":material/school:")
