"""``playtest demo --language de --game G``: a demo study whose simulated testers answer
in German, its export saying ``de`` on the study and on every answer; an unknown
language is refused in one line and stores nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import Engine

from playtest.games.registry import game_names
from playtest.storage import repository as repo
from tests.cli_command import run_cli

GAME = game_names()[1]




def test_a_german_demo_study_exports_de_on_every_answer(
        engine: Engine, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    status, out, _ = run_cli(engine, monkeypatch, capsys, "demo", "--language", "de",
                         "--game", GAME, "--testers", "3")
    assert status == 0, out
    study_id = f"demo-de-{GAME}"
    assert f"/?study={study_id}" in out
    path = tmp_path / "de.jsonl"
    assert run_cli(engine, monkeypatch, capsys, "export", "--study", study_id,
               "--out", str(path))[0] == 0
    records = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    answers = [r for r in records if r["record"] == "response"]
    assert next(r for r in records if r["record"] == "study")["language"] == "de"
    assert answers and {r["language"] for r in answers} == {"de"}


def test_an_unknown_language_is_refused_in_one_line(
        engine: Engine, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(engine, monkeypatch, capsys, "demo", "--language", "xx",
                         "--game", GAME)
    assert status != 0
    assert err.strip().splitlines() == ["playtest: error: unknown language 'xx' (available: en, de)"]
    assert not [s for s in repo.list_studies(engine) if s.study_id.startswith("demo-xx")]
