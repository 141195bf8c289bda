"""Answers as telemetry ``response`` records (design/telemetry-format.md).

>>> from surveys.loader import EXAMPLE_SURVEY, load_survey
>>> d = load_survey(EXAMPLE_SURVEY)
>>> recs = response_records(d, {"child.smileyometer": 5, "child.again": "no"})
>>> [(r["item"], r["value"]) for r in recs]
[('child.smileyometer', 5), ('child.again', 'no')]
>>> recs[0]["survey"], recs[0]["survey_version"], recs[0]["phase"]
('example_post', '1.0.0', 'post')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from surveys.logic import visible_answers
from surveys.model import SurveyDefinition


def response_records(definition: SurveyDefinition, answers: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One record per answered, visible item, in survey order, with ``survey``,
    ``survey_version``, ``survey_hash``, ``phase``, ``item``, ``value``. The caller
    adds ``participant_id`` and ``at``. Answers to hidden or unknown items are dropped;
    ``None`` values are kept (the item was shown and left empty)."""
    kept = visible_answers(definition, answers)
    return [
        {"survey": definition.id, "survey_version": definition.version, "survey_hash": definition.content_hash,
         "phase": definition.phase, "item": aid, "value": kept[aid]}
        for aid in definition.answer_ids() if aid in kept
    ]
