"""What the designer's Learning page reads (:mod:`playtest.app_pages.designer.learning`):
the study's :class:`analytics.learning_view.LearningView`, with the rules quiz scored per
phase here, because analytics cannot import ``surveys`` (layers; as
:mod:`playtest.study_data` scores the quiz for the other pages).

>>> rows = pd.DataFrame({"participant_id": ["p1"], "survey": ["their_survey"],
...                      "phase": ["post"], "item": ["nope"], "value": [1]})
>>> quiz, texts = quiz_by_phase(rows, {})
>>> list(quiz.columns), texts
(['participant_id', 'item', 'correct', 'phase'], {})
>>> short("a question far longer than forty characters, surely", 20)
'a question far long…'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from analytics import game_analytics, learning_view
from analytics.data import StudyData
from playtest.storage.survey_records import parsed_definitions
from surveys import SurveyDefinition, SurveyDefinitionError, load_survey, quiz_results


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
        except (SurveyDefinitionError, OSError, ValueError, KeyError):
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


def short(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis ends a cut one)."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def view_of(data: StudyData) -> tuple[learning_view.LearningView, dict[str, str]]:
    """The study's :class:`analytics.learning_view.LearningView` (its game's facts, if
    any), and the rules quiz's question texts by item id."""
    game = game_analytics.for_study(data)
    title = game.title if game is not game_analytics.GENERIC else game_analytics.game_of(data)
    quiz, texts = quiz_by_phase(data.responses, parsed_definitions(data.study))
    return learning_view.learning_view(data, quiz, title, game.fact_attempts,
                                       game.reason_occasions), texts


def quiz_named(view: learning_view.LearningView, texts: Mapping[str, str]) -> pd.DataFrame:
    """The view's quiz rows with each question named by its text, shortened for a chart."""
    return view.quiz.assign(item=[short(texts.get(i, i)) for i in view.quiz["item"]])


def numbers_table(view: learning_view.LearningView) -> pd.DataFrame:
    """Every number of the view, its 95 % interval and its definition, as the page shows
    them."""
    return pd.DataFrame(learning_view.plan_rows(view)).rename(columns={
        "measure": "Measure", "result": "Result (95% interval)", "definition": "Definition"})
