"""A study's language travels with it, and its export says the language of every answer:
stored with the study's settings, written in the study record and on each response
record, read back by an import; an English study's records stay as they were (no
``language`` key: absent means English)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import Engine

from playtest import services
from playtest.games.registry import game_names
from playtest.storage import repository as repo
from playtest.storage.events import EventLogger
from playtest.storage.exchange import export_jsonl, import_jsonl
from playtest.study_config import (
    StudyConfig,
    StudyConfigError,
    parse_study_config,
    study_record_problem,
)
from surveys import load_survey
from tests.databases import migrated

GAME = game_names()[-1]  # any game: the language is the study's, whatever its game


def answered(engine: Engine, study_id: str, language: str) -> list[dict]:
    """A study in ``language`` whose one tester answered the first page of its pre-play
    survey through the app's response store; the study's export, record by record."""
    config = StudyConfig(game=GAME, language=language)
    study = services.create_study(engine, title="Sprachstudie", config=config,
                                  study_id=study_id)
    participant = repo.create_consented_participant(engine, study.study_id, {"child": False})
    tester = services.load_tester(engine, participant.participant_id)
    assert tester is not None and tester.config.language == language
    definition = load_survey(str(config.pre_survey))
    page = definition.pages[0]
    answers = {item.id: "x" for item in page.items if item.type != "info"}
    assert answers
    session = repo.start_session(engine, tester.code, user_agent="pytest")
    store = services.DbResponseStore(engine, tester, definition, "pre", EventLogger(engine),
                                     session)
    store.save_page(page.id, answers, 12.0)
    return _export(engine, study_id)


def _export(engine: Engine, study_id: str) -> list[dict]:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "study.jsonl"
        export_jsonl(engine, study_id, path)
        return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def test_a_german_study_says_de_on_every_answer_and_imports_back(engine: Engine,
                                                                tmp_path: Path) -> None:
    records = answered(engine, "de-study", "de")
    study = next(r for r in records if r["record"] == "study")
    responses = [r for r in records if r["record"] == "response"]
    assert study["language"] == "de"
    assert responses and {r["language"] for r in responses} == {"de"}
    path = tmp_path / "de.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    with migrated(f"sqlite:///{tmp_path / 'other.sqlite'}") as other:
        import_jsonl(other, path, check_study=study_record_problem)
        again = _export(other, "de-study")
    assert [r for r in again if r["record"] in ("study", "response")] == \
        [r for r in records if r["record"] in ("study", "response")]


def test_an_english_study_writes_no_language(engine: Engine) -> None:
    records = answered(engine, "en-study", "en")
    assert not any("language" in r for r in records if r["record"] in ("study", "response"))


def test_an_unknown_language_is_refused_in_words() -> None:
    with pytest.raises(StudyConfigError, match="language: unknown language 'xx'"):
        parse_study_config({"game": GAME, "language": "xx"})
    assert study_record_problem({"rules": "standard", "experiments": [],
                                 "language": "xx"}) is not None
