"""Questionnaires: declarative survey definitions, validated instruments, scoring and a
Streamlit renderer. Imports nothing else from this project.

>>> from surveys import EXAMPLE_SURVEY, load_survey, list_surveys
>>> d = load_survey(EXAMPLE_SURVEY)
>>> d.version, len(d.content_hash)
('1.0.0', 64)
"""

from __future__ import annotations

from surveys.instruments import (
    INSTRUMENTS,
    InstrumentAnswerError,
    InstrumentInfo,
    ScoreResult,
    instrument_info,
    quiz_results,
    score,
    score_definition_answers,
)
from surveys.loader import (
    EXAMPLE_SURVEY,
    SurveyDefinitionError,
    json_schema,
    list_surveys,
    load_survey,
    parse_survey,
    survey_from_data,
)
from surveys.logic import evaluate, pipe, validate_answer, validate_answers, visible_answers
from surveys.model import Page, SurveyDefinition

__all__ = [
    "EXAMPLE_SURVEY",
    "INSTRUMENTS",
    "InstrumentAnswerError",
    "InstrumentInfo",
    "Page",
    "ScoreResult",
    "SurveyDefinition",
    "SurveyDefinitionError",
    "evaluate",
    "instrument_info",
    "json_schema",
    "list_surveys",
    "load_survey",
    "parse_survey",
    "pipe",
    "quiz_results",
    "score",
    "score_definition_answers",
    "survey_from_data",
    "validate_answer",
    "validate_answers",
    "visible_answers",
]
