"""A study whose free text matches no theme reports without crashing; answers an import
could not score are named on the Questionnaires page (issue 9, items 5 and 6)."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest.cli import main as cli_main
from playtest.storage.exchange import import_jsonl
from tests.app.test_designer_pages import PAGE_APP

AT = "2026-02-01T10:00:00.000Z"


def _import(db: Engine, tmp_path: Path, survey: str, answers: dict[str, object],
            study_id: str) -> None:
    # (each test its own study id: the pages cache bundles by study id and fingerprint)
    lines: list[dict[str, object]] = [
        {"record": "study", "study_id": study_id, "title": "Tiny", "game": "vapoosh",
         "rules": "standard", "experiments": []},
        {"record": "participant", "study_id": study_id, "participant_id": "p1",
         "created_at": AT, "consented_at": AT}]
    lines += [{"record": "response", "participant_id": "p1", "survey": survey,
               "survey_version": "1.0.0", "phase": "post", "item": item, "value": value,
               "at": AT} for item, value in answers.items()]
    path = tmp_path / "tiny.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    import_jsonl(db, path)


def test_report_does_not_crash_when_no_answer_matches_a_theme(
    db: Engine, tmp_path: Path
) -> None:
    _import(db, tmp_path, "vapoosh_post_short", {"open.liked": "ok"}, "tiny")
    out, data = tmp_path / "plan.md", tmp_path / "plan.json"
    assert cli_main(["report", "--study", "tiny", "--out", str(out),
                     "--json", str(data)]) == 0
    report = json.loads(data.read_text())
    assert report["confusion_points"] == [] and report["what_works"] == []
    assert "No confusion point has enough evidence" in out.read_text()
    at = AppTest.from_file(PAGE_APP, default_timeout=60)
    at.query_params["page"] = "questionnaires"
    at.session_state["designer_signed_in"] = True
    at.run()
    assert not at.exception, at.exception


def test_questionnaires_page_names_answers_it_cannot_score(db: Engine, tmp_path: Path) -> None:
    _import(db, tmp_path, "their_survey", {"q1": 3, "q2": "fine"}, "other-site")
    at = AppTest.from_file(PAGE_APP, default_timeout=60)
    at.query_params["page"] = "questionnaires"
    at.session_state["designer_signed_in"] = True
    at.run()
    assert not at.exception, at.exception
    assert any("2 answers cannot be scored" in w.value for w in at.warning)
    table = next(frame.value for frame in at.dataframe if "Survey" in frame.value)
    assert table.to_dict("records") == [{"Survey": "their_survey", "Version": "1.0.0",
                                         "Answers": 2, "Testers": 1}]
