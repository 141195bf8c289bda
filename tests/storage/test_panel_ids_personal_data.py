"""A recruitment panel's ids are personal data: left out of an export unless asked for,
brought back by an import of an export that has them, deleted with their tester (also
when the deletion request quotes the panel id). SQLite file and PostgreSQL (``engine``)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from sqlalchemy import Engine, func, select

from playtest.cli import main
from playtest.storage import admission
from playtest.storage.admission import PanelIds
from playtest.storage.db import dispose_engines, make_engine, upgrade
from playtest.storage.exchange import export_jsonl, export_tables, import_jsonl
from playtest.storage.models import panel_ids
from tests.storage.helpers import populate

PID = "5f1e2d3c4b5a6978a1b2c3d4"


def _with_panel_ids(engine: Engine) -> tuple[str, str]:
    """Two testers of study s1 who came from Prolific (one more, s1's third, did not)."""
    populate(engine, "s1", testers=1)
    first = admission.admit(engine, "s1", {}, panel=PanelIds("prolific", PID, "st1", "se1"),
                            quota=None).participant.participant_id
    second = admission.admit(engine, "s1", {}, panel=PanelIds("prolific", "other0id"),
                             quota=None).participant.participant_id
    return first, second


def _records(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_an_export_has_no_panel_id_unless_asked(engine: Engine, tmp_path: Path) -> None:
    first, _ = _with_panel_ids(engine)
    plain = tmp_path / "plain.jsonl"
    export_jsonl(engine, "s1", plain)
    assert PID not in plain.read_text(encoding="utf-8")
    tables = export_tables(engine, "s1", tmp_path / "t.csv", "csv")
    assert all(PID not in path.read_text(encoding="utf-8") for path in tables.values())

    asked = tmp_path / "asked.jsonl"
    export_jsonl(engine, "s1", asked, with_panel_ids=True)
    people = {r["participant_id"]: r for r in _records(asked) if r["record"] == "participant"}
    assert {k: people[first].get(k) for k in ("panel", "panel_id", "panel_study",
                                                "panel_session")} == {
        "panel": "prolific", "panel_id": PID, "panel_study": "st1", "panel_session": "se1"}
    assert sum("panel_id" in r for r in people.values()) == 2 and len(people) == 3
    table = export_tables(engine, "s1", tmp_path / "p.csv", "csv", with_panel_ids=True)
    frame = pd.read_csv(table["participant"], dtype=str)
    assert frame.set_index("participant_id").loc[first, "panel_id"] == PID


def test_an_import_of_an_export_with_panel_ids_keeps_them_apart(
        engine: Engine, tmp_path: Path) -> None:
    first, _ = _with_panel_ids(engine)
    asked = tmp_path / "asked.jsonl"
    export_jsonl(engine, "s1", asked, with_panel_ids=True)
    other = make_engine(f"sqlite:///{tmp_path / 'other.sqlite'}")
    upgrade(other)
    try:
        import_jsonl(other, asked)
        import_jsonl(other, asked)  # idempotent
        assert admission.code_of_panel_id(other, "s1", PID) == first
        again = tmp_path / "again.jsonl"
        export_jsonl(other, "s1", again)
        assert PID not in again.read_text(encoding="utf-8")  # not in the tester's extra
        with other.connect() as conn:
            assert conn.execute(select(func.count()).select_from(panel_ids)).scalar_one() == 2
    finally:
        other.dispose()


def test_an_import_refuses_a_panel_id_that_is_not_one(engine: Engine, tmp_path: Path) -> None:
    _with_panel_ids(engine)
    asked = tmp_path / "asked.jsonl"
    export_jsonl(engine, "s1", asked, with_panel_ids=True)
    text = asked.read_text(encoding="utf-8").replace(PID, "<script>")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(text, encoding="utf-8")
    other = make_engine(f"sqlite:///{tmp_path / 'other.sqlite'}")
    upgrade(other)
    try:
        with pytest.raises(Exception, match="panel_id must be a panel id"):
            import_jsonl(other, bad)
    finally:
        other.dispose()


def _delete(engine: Engine, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
            *args: str) -> tuple[int, str, str]:
    monkeypatch.setenv("DATABASE_URL", engine.url.render_as_string(hide_password=False))
    try:
        status = main(["participant", "delete", *args])
    finally:
        dispose_engines()
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_deletion_by_panel_id_removes_the_tester_and_their_ids(
        engine: Engine, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    first, second = _with_panel_ids(engine)
    status, out, err = _delete(engine, monkeypatch, capsys, PID)
    assert status == 0, err
    assert f"deleted participant {first} (panel id {PID})" in out and "1 panel_ids" in out
    assert admission.code_of_panel_id(engine, "s1", PID) is None
    assert admission.panel_ids_of(engine, second) is not None
    # The same panel id in two studies: the study must be named.
    populate(engine, "s2", testers=1)
    admission.admit(engine, "s2", {}, panel=PanelIds("prolific", "other0id"), quota=None)
    status, out, err = _delete(engine, monkeypatch, capsys, "other0id")
    assert status == 2 and "add --study" in err and len(err.strip().splitlines()) == 1
    status, out, err = _delete(engine, monkeypatch, capsys, "other0id", "--study", "s1")
    assert status == 0 and f"deleted participant {second}" in out
    assert admission.code_of_panel_id(engine, "s2", "other0id") is not None
