"""Imports keep their surveys (issue 9, item 6): the ``survey`` record travels with the
study, scores its answers, and answers nothing can score are kept, counted and named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import Engine

from playtest.storage.errors import ImportRejected
from playtest.storage.exchange import export_jsonl, import_jsonl, load_study_data
from playtest.study_data import load_bundle, unscorable_answers
from surveys import load_survey

AT = "2026-02-01T10:00:00.000Z"


def _their_survey() -> dict[str, object]:
    """A survey the project does not ship: the bundled short post-play survey renamed."""
    definition = load_survey("vapoosh_post_short").model_dump(
        mode="json", by_alias=True, exclude_none=True)
    return {**definition, "id": "their_post", "version": "7"}


def _file(tmp_path: Path, with_survey: bool) -> Path:
    lines: list[dict[str, object]] = [
        {"record": "study", "study_id": "site2", "title": "Site 2", "game": "vapoosh",
         "rules": "standard", "experiments": []}]
    if with_survey:
        lines.append({"record": "survey", "survey": "their_post", "survey_version": "7",
                      "definition": _their_survey()})
    for number in range(3):
        pid = f"p{number}"
        lines.append({"record": "participant", "study_id": "site2", "participant_id": pid,
                      "created_at": AT, "consented_at": AT})
        lines += [{"record": "response", "participant_id": pid, "survey": "their_post",
                   "survey_version": "7", "phase": "post", "item": item, "value": value,
                   "at": AT}
                  for item, value in (("umux.1", 6), ("umux.2", 5),
                                      ("open.liked", "the dice"))]
    path = tmp_path / "site2.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_a_survey_record_scores_the_imported_answers_and_exports_again(
    engine: Engine, tmp_path: Path
) -> None:
    report = import_jsonl(engine, _file(tmp_path, with_survey=True))
    assert report.added["survey"] == 1 and report.unscorable == []
    bundle = load_bundle(engine, "site2")
    umux = bundle.scores[bundle.scores["instrument"] == "umux_lite"]
    assert len(umux) >= 3  # each tester's UMUX-Lite, scored with the imported definition
    assert unscorable_answers(bundle.data) == []
    out = tmp_path / "out.jsonl"
    counts = export_jsonl(engine, "site2", out)
    assert counts["survey"] == 1
    records = [json.loads(line) for line in out.read_text().splitlines()]
    survey = next(r for r in records if r["record"] == "survey")
    assert survey["definition"]["id"] == "their_post" and survey["survey_version"] == "7"
    assert "survey_definitions" not in records[0]  # not repeated in the study record
    assert import_jsonl(engine, out).added["survey"] == 0  # idempotent


def test_answers_without_a_definition_are_kept_counted_and_named(
    engine: Engine, tmp_path: Path
) -> None:
    report = import_jsonl(engine, _file(tmp_path, with_survey=False))
    assert [(u.survey, u.survey_version, u.answers, u.testers)
            for u in report.unscorable] == [("their_post", "7", 9, 3)]
    assert "9 answers from 3 testers to survey 'their_post' (version 7) cannot be scored" \
        in report.summary()
    data = load_study_data(engine, "site2")
    assert len(data.responses) == 9  # kept
    assert [u.answers for u in unscorable_answers(data)] == [9]


def test_a_broken_survey_definition_rejects_the_file_and_stores_nothing(
    engine: Engine, tmp_path: Path
) -> None:
    path = _file(tmp_path, with_survey=True)
    lines = path.read_text().splitlines()
    broken = json.loads(lines[1])
    broken["definition"]["pages"] = "not pages"
    lines[1] = json.dumps(broken)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ImportRejected) as rejected:
        import_jsonl(engine, path)
    assert rejected.value.problems[0][0] == 2
    assert "survey: definition is not a valid survey" in rejected.value.problems[0][1]
    with pytest.raises(Exception, match="no study"):
        load_study_data(engine, "site2")
