"""A study's data for the dashboard and the report: records, instrument scores, quiz.

Analytics cannot import ``surveys`` (layers), so the instrument scores and quiz
correctness are computed here from item-level responses and handed over as frames.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd
from sqlalchemy.engine import Engine

from analytics.data import QUIZ_COLUMNS, SCORE_COLUMNS, StudyData
from playtest.storage.exchange import load_study_data
from surveys import (
    SurveyDefinition,
    SurveyDefinitionError,
    load_survey,
    quiz_results,
    score_definition_answers,
)


@dataclass(frozen=True)
class StudyBundle:
    """Everything the designer pages and the report read for one study."""

    data: StudyData
    scores: pd.DataFrame
    quiz: pd.DataFrame


def _definition(survey_id: str, cache: dict[str, SurveyDefinition | None]) -> SurveyDefinition | None:
    if survey_id not in cache:
        try:
            cache[survey_id] = load_survey(survey_id)
        except (SurveyDefinitionError, FileNotFoundError, KeyError, ValueError):
            cache[survey_id] = None  # an imported study's own survey we do not have
    return cache[survey_id]


def scores_and_quiz(responses: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Instrument scores (one row per scale) and quiz correctness from item answers."""
    score_rows: list[dict[str, Any]] = []
    quiz_rows: list[dict[str, Any]] = []
    cache: dict[str, SurveyDefinition | None] = {}
    if responses.empty:
        return pd.DataFrame(columns=SCORE_COLUMNS), pd.DataFrame(columns=QUIZ_COLUMNS)
    grouped = responses.groupby(["participant_id", "survey", "phase"], sort=False)
    for (participant_id, survey_id, phase), group in grouped:
        definition = _definition(str(survey_id), cache)
        if definition is None:
            continue
        answers = dict(zip(group["item"], group["value"], strict=True))
        for instrument, result in score_definition_answers(definition, answers).items():
            if result.score is not None:
                score_rows.append({"participant_id": participant_id, "phase": phase,
                                   "instrument": instrument, "scale": "total",
                                   "value": float(result.score), "grade": result.grade})
            for scale, value in result.scales.items():
                score_rows.append({"participant_id": participant_id, "phase": phase,
                                   "instrument": instrument, "scale": scale,
                                   "value": float(value), "grade": None})
        for item, correct in quiz_results(definition, answers).items():
            if correct is not None:
                quiz_rows.append({"participant_id": participant_id, "item": item,
                                  "correct": bool(correct)})
    return (pd.DataFrame(score_rows, columns=SCORE_COLUMNS),
            pd.DataFrame(quiz_rows, columns=QUIZ_COLUMNS))


def load_bundle(engine: Engine, study_id: str) -> StudyBundle:
    data = load_study_data(engine, study_id)
    scores, quiz = scores_and_quiz(data.responses)
    return StudyBundle(data, scores, quiz)
