"""The Questionnaires page says how UEQ-S scores a scale with a missing item (issue 22,
item 8), and the score is what it says: the mean of the items answered."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine

from playtest.storage.exchange import import_jsonl
from playtest.study_data import load_bundle
from tests.app.designer_support import designer_page

AT = "2026-02-01T10:00:00.000Z"
SURVEY = "vapoosh_post_long"


def test_ueq_s_with_a_missing_item(db: Engine, tmp_path: Path) -> None:
    # pragmatic items 1-4 with item 2 left out; hedonic items 5-8 all answered
    answers = {"ueq_s.1": 7, "ueq_s.3": 6, "ueq_s.4": 5,
               "ueq_s.5": 4, "ueq_s.6": 4, "ueq_s.7": 4, "ueq_s.8": 4}
    lines: list[dict[str, object]] = [
        {"record": "study", "study_id": "ueq", "title": "UEQ-S", "game": "vapoosh",
         "rules": "standard", "experiments": []},
        {"record": "participant", "study_id": "ueq", "participant_id": "p1",
         "created_at": AT, "consented_at": AT}]
    lines += [{"record": "response", "participant_id": "p1", "survey": SURVEY,
               "survey_version": "1.1.0", "phase": "post", "item": item, "value": value,
               "at": AT} for item, value in answers.items()]
    path = tmp_path / "ueq.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    import_jsonl(db, path)

    scores = load_bundle(db, "ueq").scores
    ueq = scores[scores["instrument"] == "ueq_s"].set_index("scale")["value"]
    assert ueq["pragmatic"] == pytest.approx(((7 - 4) + (6 - 4) + (5 - 4)) / 3)
    assert ueq["hedonic"] == 0.0

    at = designer_page("questionnaires", "ueq")
    rules = [c.value for c in at.caption if "a missing item" in c.value]
    assert len(rules) == 1, [c.value for c in at.caption]
    assert "mean of the items answered when at least 2 of its 4 are" in rules[0]
    assert "states no rule for a missing one" in rules[0]
