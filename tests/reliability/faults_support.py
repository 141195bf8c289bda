"""Shared pieces of the fault tests (``test_faults_*.py``): a database per backend, a tester.

Every fault test that is about storage runs on a SQLite file and on a real PostgreSQL
(``tests/pg_server.py``); the ``engine`` fixture here is parametrised over both. Test
modules import the fixtures from here (this folder's ``conftest.py`` belongs to the
hostile-input suite).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, select, text

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from playtest import services  # noqa: E402
from playtest.storage import repository as repo  # noqa: E402
from playtest.storage.events import EventLogger  # noqa: E402
from playtest.storage.models import EventRow  # noqa: E402
from playtest.study_config import StudyConfig  # noqa: E402
from tests.databases import app_sqlite, empty_database, migrated  # noqa: E402
from tests.pg_server import postgres_url_or_skip  # noqa: E402

EVENTS = EventRow.__table__  # type: ignore[attr-defined]


@pytest.fixture(scope="session")
def fault_postgres_server() -> Iterator[str]:
    yield from postgres_url_or_skip()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def fault_engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """A migrated engine on a fresh SQLite file or a fresh PostgreSQL database."""
    with empty_database(request, tmp_path, "fault_postgres_server") as url, migrated(url) as engine:
        yield engine


def make_tester(engine: Engine, study_id: str = "s1", **settings: Any
                ) -> tuple[services.Tester, EventLogger, str]:
    """A consented tester of a new study, an event logger and a session."""
    if repo.get_study(engine, study_id) is None:
        config = StudyConfig(**{"ai_think_ms": 0, **settings})
        services.create_study(engine, title="Fault study", config=config, study_id=study_id)
    study = repo.get_study(engine, study_id)
    assert study is not None
    participant = services.consent(engine, study, {"child": False})
    tester = services.load_tester(engine, participant.participant_id)
    assert tester is not None
    return tester, EventLogger(engine), repo.start_session(engine, tester.code)


def events_of(engine: Engine, participant_id: str, type_: str | None = None
              ) -> list[dict[str, Any]]:
    query = select(EVENTS.c.type, EVENTS.c.props, EVENTS.c.game_id, EVENTS.c.session_id,
                   EVENTS.c.seq).where(EVENTS.c.participant_id == participant_id)
    if type_ is not None:
        query = query.where(EVENTS.c.type == type_)
    with engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(query.order_by(EVENTS.c.event_id))]


APP = str(ROOT / "playtest" / "app.py")


@pytest.fixture
def app_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Engine]:
    """A migrated SQLite file that the app under test opens (via ``DATABASE_URL``)."""
    with app_sqlite(tmp_path, monkeypatch) as engine:
        yield engine


def make_study(engine: Engine, study_id: str = "s1", **settings: Any) -> repo.Study:
    config = StudyConfig(**{"ai_think_ms": 0, **settings})
    return services.create_study(engine, title="Fault study", config=config, study_id=study_id)


# -- a full disk (a small tmpfs) ------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        # Mounting needs root; test_faults_database's max_page_count test covers a full
        # database everywhere (CI included).
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path) -> Path:
    """Fill ``disk`` to the last block; the file that does it (unlink it for space)."""
    filler = disk / "filler"
    with contextlib.suppress(OSError), filler.open("wb", buffering=0) as handle:
        while True:
            handle.write(b"\0" * 4096)
    assert os.statvfs(disk).f_bavail == 0
    return filler


# -- a writer that holds the database past the busy timeout ----------------------------------


@contextlib.contextmanager
def write_lock_held(engine: Engine, url: str) -> Iterator[None]:
    """Another process's writer holds the database (or the tables) longer than 5 s."""
    if engine.dialect.name == "sqlite":
        holder = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        return
    with engine.connect() as conn:
        conn.execute(text("LOCK TABLE participants, sessions, events, games, game_actions, "
                          "assignments, studies IN EXCLUSIVE MODE"))
        try:
            yield
        finally:
            conn.rollback()
