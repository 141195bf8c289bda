"""Fresh databases for tests, on SQLite or on the throwaway PostgreSQL server of
``tests/pg_server.py``, migrated by ``upgrade`` the way the app migrates its own.

Reuse from any test folder (``tests`` is importable from the project root)::

    from tests.databases import app_sqlite, empty_database, migrated

    @pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
    def engine(request, tmp_path):
        with (empty_database(request, tmp_path, "postgres_server_url") as url,
              migrated(url) as engine):
            yield engine
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from playtest.storage.db import make_engine, upgrade
from tests.pg_server import create_database, drop_database


@contextlib.contextmanager
def empty_database(
    request: pytest.FixtureRequest, tmp_path: Path, server_fixture: str
) -> Iterator[str]:
    """The URL of a new, empty database for a fixture parametrised over ``"sqlite"`` and
    ``"postgresql"``: a SQLite file in ``tmp_path``, or a new database (dropped after) on
    the PostgreSQL server whose URL the session fixture ``server_fixture`` gives."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'playtest.sqlite'}"
        return
    server_url = request.getfixturevalue(server_fixture)
    url = create_database(server_url)
    try:
        yield url
    finally:
        drop_database(server_url, url)


@contextlib.contextmanager
def migrated(url: str) -> Iterator[Engine]:
    """An engine on ``url`` with every migration applied; disposed after."""
    engine = make_engine(url)
    upgrade(engine)
    try:
        yield engine
    finally:
        engine.dispose()


@contextlib.contextmanager
def app_sqlite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Engine]:
    """A migrated SQLite file in ``tmp_path`` that the app under test opens too (it is
    ``DATABASE_URL``, and ``tmp_path`` the working directory)."""
    url = f"sqlite:///{tmp_path / 'playtest.sqlite'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.chdir(tmp_path)
    with migrated(url) as engine:
        yield engine
