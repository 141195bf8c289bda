"""A study's data for the dashboard and the report: records, instrument scores, quiz.

Analytics cannot import ``surveys`` (layers), so the instrument scores and quiz
correctness are computed here from item-level responses and handed over as frames.

Speed (10,000 demo testers, 223k responses): one pass over plain lists instead of a
pandas group per answer set, and scoring remembered by the answers a scorer reads
(:class:`_Memo`): 14.5 s → 1.3–2.9 s on the shared 2-core machine, same frames.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd
from sqlalchemy.engine import Engine

from analytics import game_analytics
from analytics.data import QUIZ_COLUMNS, SCORE_COLUMNS, StudyData
from playtest.storage.exchange import load_study_data
from playtest.storage.survey_records import (
    DEFINITIONS_KEY,
    Unscorable,
    parsed_definitions,
    unscorable,
)
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


class _KeyProbe(Mapping[str, Any]):
    """An empty answer mapping that notes which answers a scorer looks up."""

    def __init__(self) -> None:
        self.looked_up: list[str] = []
        self.listed = False  # the scorer walked all answers: no key subset to go by

    def __getitem__(self, key: str) -> Any:
        self.looked_up.append(key)
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        self.looked_up.append(str(key))
        return False

    def __iter__(self) -> Iterator[str]:
        self.listed = True
        return iter(())

    def __len__(self) -> int:
        self.listed = True
        return 0


def _hashable(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    return value


class _Memo:
    """``scorer(definition, answers)`` remembered by the answers it reads.

    Scoring walks the definition's (pydantic) items on every call, ~0.3 ms, though a
    scorer reads only a few answers: the instrument items (``score_definition_answers``)
    or the quiz items (``quiz_results``), whatever was answered. Which answers it reads is
    learnt once per definition with an empty :class:`_KeyProbe`; then testers who gave
    the same answers to those items share one result (every pre-play survey: no
    instrument; most children: a 5-face and a 3-choice item). A scorer that walks all
    answers is simply not remembered.
    """

    def __init__(self, scorer: Callable[[Any, Mapping[str, Any]], dict[str, Any]]) -> None:
        self.scorer = scorer
        self.keys: dict[str, tuple[str, ...] | None] = {}
        self.results: dict[tuple[Any, ...], dict[str, Any]] = {}

    def __call__(self, survey_id: str, definition: Any, answers: Mapping[str, Any]) -> dict[str, Any]:
        if survey_id not in self.keys:
            probe = _KeyProbe()
            try:
                self.scorer(definition, probe)
            except Exception:  # e.g. a scorer that rejects an empty answer set
                probe.listed = True
            self.keys[survey_id] = None if probe.listed else tuple(dict.fromkeys(probe.looked_up))
        keys = self.keys[survey_id]
        if keys is None:
            return self.scorer(definition, answers)
        memo_key = (survey_id, *(_hashable(answers.get(k)) for k in keys))
        result = self.results.get(memo_key)
        if result is None:
            result = self.results[memo_key] = self.scorer(definition, answers)
        return result


def _answer_sets(responses: pd.DataFrame) -> dict[tuple[Any, Any, Any], dict[Any, Any]]:
    """``{(participant, survey, phase): {item: value}}`` in order of first appearance.

    One pass over plain lists: a pandas ``groupby`` with a slice per group cost about
    0.2 ms per group, i.e. seconds for ten thousand testers. A repeated item keeps its
    last value, as ``dict(zip(items, values))`` did.
    """
    sets: dict[tuple[Any, Any, Any], dict[Any, Any]] = {}
    columns = (responses[name].tolist()
               for name in ("participant_id", "survey", "phase", "item", "value"))
    for participant_id, survey_id, phase, item, value in zip(*columns, strict=True):
        key = (participant_id, survey_id, phase)
        answers = sets.get(key)
        if answers is None:
            answers = sets[key] = {}
        answers[item] = value
    return sets


def scores_and_quiz(responses: pd.DataFrame,
                    definitions: Mapping[str, SurveyDefinition] | None = None
                    ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Instrument scores (one row per scale) and quiz correctness from item answers.

    ``definitions`` (survey id → definition) are the ones the study keeps (imported with
    its ``survey`` records): they come before the bundled surveys of the same id.

    >>> rows = pd.DataFrame({"participant_id": ["p1"], "survey": ["their_survey"],
    ...                      "phase": ["post"], "item": ["nope"], "value": [1]})
    >>> scores, quiz = scores_and_quiz(rows)
    >>> list(scores.columns) == SCORE_COLUMNS and list(quiz.columns) == QUIZ_COLUMNS
    True
    """
    if responses.empty:
        return pd.DataFrame(columns=SCORE_COLUMNS), pd.DataFrame(columns=QUIZ_COLUMNS)
    # Column lists, not a dict per row: a DataFrame from 100k dicts costs ~0.3 s.
    score_cols: dict[str, list[Any]] = {name: [] for name in SCORE_COLUMNS}
    quiz_cols: dict[str, list[Any]] = {name: [] for name in QUIZ_COLUMNS}

    def score_row(participant_id: Any, phase: Any, instrument: str, scale: str,
                  value: float, grade: Any) -> None:
        row = {"participant_id": participant_id, "phase": phase, "instrument": instrument,
               "scale": scale, "value": value, "grade": grade}
        for name in SCORE_COLUMNS:
            score_cols[name].append(row.get(name))

    cache: dict[str, SurveyDefinition | None] = dict(definitions or {})
    scored, quizzed = _Memo(score_definition_answers), _Memo(quiz_results)
    for (participant_id, survey_id, phase), answers in _answer_sets(responses).items():
        definition = _definition(str(survey_id), cache)
        if definition is None:
            continue
        for instrument, result in scored(str(survey_id), definition, answers).items():
            if result.score is not None:
                score_row(participant_id, phase, instrument, "total", float(result.score),
                          result.grade)
            for scale, value in result.scales.items():
                score_row(participant_id, phase, instrument, scale, float(value), None)
        for item, correct in quizzed(str(survey_id), definition, answers).items():
            if correct is not None:
                row = {"participant_id": participant_id, "item": item, "correct": bool(correct)}
                for name in QUIZ_COLUMNS:
                    quiz_cols[name].append(row.get(name))
    return (pd.DataFrame(score_cols, columns=SCORE_COLUMNS),
            pd.DataFrame(quiz_cols, columns=QUIZ_COLUMNS))


def with_game(data: StudyData) -> StudyData:
    """``data`` given the analytics plug-in its game's registry entry names
    (:func:`analytics.game_analytics.use`): the app says which plug-in a study's
    analyses use (a game configured from outside the packages too), analytics does not
    look it up. A game the registry does not know gets none (analytics then finds its
    folder by name, else the core alone)."""
    from playtest.games.registry import UnknownGameError, game_plugin

    try:
        plugin = game_plugin(game_analytics.game_of(data))
    except UnknownGameError:
        return data
    found: Any = plugin.analytics
    return game_analytics.use(data, found if isinstance(found, game_analytics.GameAnalytics)
                              else None)


def load_bundle(engine: Engine, study_id: str) -> StudyBundle:
    """The study's records (``storage.load_study_data``) with scores and quiz results,
    given its game's analytics (:func:`with_game`)."""
    data = with_game(load_study_data(engine, study_id))
    scores, quiz = scores_and_quiz(data.responses, parsed_definitions(data.study))
    return StudyBundle(data, scores, quiz)


def unscorable_answers(data: StudyData) -> list[Unscorable]:
    """The study's answers that no stored or bundled survey definition can score."""
    responses = data.responses
    if responses.empty:
        return []
    groups = responses.groupby(["survey", "survey_version"], sort=True)[
        "participant_id"].agg(["size", "nunique"]).reset_index()
    return unscorable([(str(survey), str(version), int(size), int(testers))
                       for survey, version, size, testers in groups.itertuples(index=False)],
                      data.study.get(DEFINITIONS_KEY) or {})
