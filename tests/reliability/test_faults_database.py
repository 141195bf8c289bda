"""Database faults under a tester's page (issue 11 item 2): a write lock held past the busy
timeout, a full disk, a database server that is down.

The tester used to see ``OperationalError`` with the SQL and its parameters (in the consent
case the would-be participant code); with the server down every visitor saw its user, host
and port. Now: a calm line that tries again, the details in the server log, nothing lost.
The lock runs on SQLite and PostgreSQL, the full disk on a small tmpfs (SQLite).
"""

from __future__ import annotations

import socket
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from faults_support import (
    APP,
    fault_postgres_server,
    fill,
    make_study,
    small_disk,
    write_lock_held,
)
from sqlalchemy import Engine, func, select
from streamlit.testing.v1 import AppTest

from playtest import runtime
from playtest.app_pages import trouble
from playtest.storage import repository as repo
from playtest.storage.db import make_engine, upgrade
from playtest.storage.models import EventRow, ParticipantRow
from tests.databases import empty_database, migrated

__all__ = ["fault_postgres_server", "small_disk"]

LEAKS = ("OperationalError", "INSERT", "SELECT", "UPDATE", "Traceback", "sqlite3", "psycopg",
         "locked", "disk is full", "parameters")


def _shown(at: AppTest) -> str:
    parts = [*at.title, *at.markdown, *at.text, *at.error, *at.warning, *at.info,
             *at.exception, *at.code, *at.caption, *at.success]
    return "\n".join(str(getattr(e, "value", "") or getattr(e, "message", "")) for e in parts)


def _count(engine: Engine, table: type) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def app_url(request: pytest.FixtureRequest, tmp_path: Path,
            monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Engine]]:
    """The database the app under test opens, on SQLite or PostgreSQL."""
    with empty_database(request, tmp_path, "fault_postgres_server") as url:
        monkeypatch.setenv("DATABASE_URL", url)
        monkeypatch.chdir(tmp_path)
        with migrated(url) as engine:
            try:
                yield url, engine
            finally:
                runtime._database(url).dispose()


def _recover(at: AppTest) -> None:
    """The page's own retry (its clock fragment) once the database is back."""
    at.run()
    assert trouble.TROUBLE not in at.session_state


def test_consent_while_the_database_is_locked_is_calm_and_retried(
    app_url: tuple[str, Engine],
) -> None:
    url, engine = app_url
    study = make_study(engine, audience="adults", pre_survey=None)
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["study"] = study.study_id
    at.run()
    at.checkbox(key="consent_agree").check()
    with write_lock_held(engine, url):
        at.button[0].click().run()
    assert not at.exception
    shown = _shown(at)
    assert trouble.CALM in shown
    assert not [leak for leak in LEAKS if leak in shown], shown
    assert _count(engine, ParticipantRow) == 0  # rolled back whole: no half tester
    log = runtime.log_file(url).read_text(encoding="utf-8")
    assert "database fault" in log and "OperationalError" in log
    _recover(at)
    at.checkbox(key="consent_agree").check()
    at.button[0].click().run()
    assert not at.exception
    people = repo.list_participants(engine, study.study_id)
    assert len(people) == 1 and people[0].stage == "play"


def test_an_action_while_locked_keeps_what_was_stored(app_url: tuple[str, Engine]) -> None:
    url, engine = app_url
    study = make_study(engine, audience="adults", pre_survey=None)
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["study"] = study.study_id
    at.run()
    at.checkbox(key="consent_agree").check()
    at.button[0].click().run()
    game = at.session_state["play"]
    before = _count(engine, EventRow)
    with write_lock_held(engine, url):
        at.button(key="rules_button").click().run()
    assert not at.exception
    shown = _shown(at)
    assert trouble.CALM in shown and not [leak for leak in LEAKS if leak in shown]
    assert _count(engine, EventRow) == before
    _recover(at)
    again = at.session_state["play"]
    assert again.game_id == game.game_id and again.state.to_json() == game.state.to_json()
    _close_rules(at)
    at.button(key="rules_button").click().run()
    assert not at.exception and _count(engine, EventRow) > before


def _close_rules(at: AppTest) -> None:
    if any(b.key == "rules_close" for b in at.button):
        at.button(key="rules_close").click().run()


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("query", [{}, {"study": "s1"}, {"p": "AAAAAAAAAAAAAAAAAAAAAA"}])
def test_a_database_that_is_down_shows_no_user_host_or_port(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, query: dict[str, str],
) -> None:
    port = _closed_port()
    monkeypatch.setenv("DATABASE_URL",
                       f"postgresql://labowner:hunter2@127.0.0.1:{port}/playtestdb")
    monkeypatch.chdir(tmp_path)
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    shown = _shown(at)
    assert "Please wait a moment" in shown
    for secret in ("labowner", "hunter2", "127.0.0.1", str(port), "playtestdb", "postgresql"):
        assert secret not in shown, secret
    assert f"labowner:***@127.0.0.1:{port}" in runtime.log_file().read_text(encoding="utf-8")


# -- a full disk (a small tmpfs) ------------------------------------------------------------


def test_a_full_disk_is_calm_and_loses_nothing(
    small_disk: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    url = f"sqlite:///{small_disk / 'playtest.sqlite'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv(runtime.LOG_DIR_ENV, str(tmp_path / "logs"))
    monkeypatch.chdir(tmp_path)
    engine = make_engine(url)
    upgrade(engine)
    try:
        study = make_study(engine, audience="adults", pre_survey=None)
        at = AppTest.from_file(APP, default_timeout=60)
        at.query_params["study"] = study.study_id
        at.run()
        at.checkbox(key="consent_agree").check()
        at.button[0].click().run()
        game = at.session_state["play"]
        stored = _count(engine, EventRow)
        filler = fill(small_disk)
        for _ in range(3):  # a few actions on a full disk
            at.button(key="rules_button").click().run()
            assert not at.exception
            if trouble.CALM in _shown(at):
                break
            _close_rules(at)
        shown = _shown(at)
        assert trouble.CALM in shown and not [leak for leak in LEAKS if leak in shown], shown
        filler.unlink()
        _recover(at)
        assert _count(engine, EventRow) >= stored
        again = at.session_state["play"]
        assert again.game_id == game.game_id and again.state.to_json() == game.state.to_json()
        with sqlite3.connect(small_disk / "playtest.sqlite") as check:
            assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        engine.dispose()
        runtime._database(url).dispose()


def test_a_full_database_refuses_a_write_whole_and_keeps_the_rest(tmp_path: Path) -> None:
    """SQLite's ``max_page_count`` makes the file full wherever tmpfs cannot be mounted."""
    from sqlalchemy import event

    from playtest import services
    from playtest.storage.models import AssignmentRow

    url = f"sqlite:///{tmp_path / 'full.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    study = make_study(engine, audience="adults", pre_survey=None)
    first = services.consent(engine, study, {"child": False})
    pages = {"limit": 0}

    def cap(dbapi_connection: Any, _record: Any) -> None:
        if pages["limit"]:
            dbapi_connection.execute(f"PRAGMA max_page_count={pages['limit']}")

    event.listen(engine, "connect", cap)
    with engine.connect() as conn:
        used = int(conn.exec_driver_sql("PRAGMA page_count").scalar_one())
    pages["limit"] = used
    engine.dispose()  # new connections get the cap
    refused = 0
    for _ in range(200):  # fill what is left of the last pages, then be refused
        try:
            services.consent(engine, study, {"child": False, "pad": "x" * 2000})
        except trouble.DB_ERRORS as err:
            assert "full" in str(err)
            refused += 1
            break
    assert refused == 1
    with engine.connect() as conn:
        people = conn.execute(select(ParticipantRow.participant_id)).scalars().all()  # type: ignore[attr-defined]
        assigned = conn.execute(select(AssignmentRow.participant_id)).scalars().all()  # type: ignore[attr-defined]
    assert first.participant_id in people and set(assigned) <= set(people)
    pages["limit"] = 0
    engine.dispose()
    services.consent(engine, study, {"child": False})  # space again: writes go through
    with sqlite3.connect(tmp_path / "full.sqlite") as check:
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    engine.dispose()
