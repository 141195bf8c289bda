"""Bytes on disk after ``participant delete``: the code and free text are gone from every file.

Issue 11 item 5: after a delete, ``playtest.sqlite-wal`` still held the code 576 times
with the tester's free text (the main file was clean). Here the files are read as bytes.
"""

from __future__ import annotations

from pathlib import Path

from faults_support import fault_engine, fault_postgres_server, make_tester
from sqlalchemy import Engine, func, select

from playtest.storage import repository as repo
from playtest.storage.models import ParticipantRow
from playtest.storage.privacy import delete_participant
from tests.app.session_support import moves, open_play

__all__ = ["fault_engine", "fault_postgres_server"]

FREE_TEXT = "my-secret-free-text-ZQXJ-about-the-brown-counter"


def _busy_tester(engine: Engine, study_id: str = "s1") -> str:
    """A tester with a played game, many events and a free-text answer."""
    tester, logger, session = make_tester(engine, study_id, seats=["human", "ai:easy"])
    moves(open_play(engine, tester, seed=3, session_id=session), 40)
    repo.save_responses(engine, tester.code, "vapoosh_post", "1", None, "post", "p1",
                        {"free_text": FREE_TEXT}, 12.0)
    for i in range(200):
        logger.log(session, tester.code, "setting", {"name": "note", "value": FREE_TEXT},
                   client_event_id=f"{tester.code}:note:{i}")
    return tester.code


def _files(db_path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in db_path.parent.iterdir()
            if p.name.startswith(db_path.name)}


def test_a_deleted_tester_leaves_no_bytes_in_the_sqlite_files(tmp_path: Path) -> None:
    from playtest.storage.db import make_engine, upgrade

    path = tmp_path / "playtest.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    try:
        keep = _busy_tester(engine)
        code = _busy_tester(engine)
        files = _files(path)
        assert any(code.encode() in data for data in files.values())
        assert any(FREE_TEXT.encode() in data for data in files.values())
        # The app's pooled connections stay open while a designer deletes.
        with engine.connect() as conn:
            conn.execute(select(func.count()).select_from(ParticipantRow))
        delete_participant(engine, code)
        files = _files(path)
        assert set(files) >= {"playtest.sqlite"}
        for name, data in files.items():
            assert data.count(code.encode()) == 0, name
        # The other tester's data is untouched (their free text is the same string, so
        # only the code is checked here; their rows are read back below).
        assert repo.get_participant(engine, keep) is not None
        assert repo.load_responses(engine, keep, "vapoosh_post")["free_text"] == FREE_TEXT
    finally:
        engine.dispose()


def test_only_the_deleted_testers_free_text_goes(tmp_path: Path) -> None:
    from playtest.storage.db import make_engine, upgrade

    path = tmp_path / "playtest.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    try:
        code = _busy_tester(engine)
        delete_participant(engine, code)
        for name, data in _files(path).items():
            assert FREE_TEXT.encode() not in data, name
            assert code.encode() not in data, name
    finally:
        engine.dispose()


def test_delete_removes_every_row_of_the_tester_on_both_backends(fault_engine: Engine) -> None:
    keep = _busy_tester(fault_engine)
    code = _busy_tester(fault_engine)
    deleted = delete_participant(fault_engine, code)
    assert deleted["participants"] == 1 and deleted["events"] > 200
    assert repo.get_participant(fault_engine, code) is None
    assert repo.get_participant(fault_engine, keep) is not None
    assert repo.load_responses(fault_engine, keep, "vapoosh_post")["free_text"] == FREE_TEXT
