"""Storage fixtures: every ``engine`` test runs on a SQLite file and on a real PostgreSQL.

The PostgreSQL server comes from ``tests/pg_server.py`` (one per test session); each test
gets a fresh, empty database on it, migrated by ``upgrade``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.databases import empty_database, migrated  # noqa: E402
from tests.pg_server import postgres_url_or_skip  # noqa: E402


@pytest.fixture(scope="session")
def postgres_server_url() -> Iterator[str]:
    yield from postgres_url_or_skip()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a new, empty database (no tables yet)."""
    with empty_database(request, tmp_path, "postgres_server_url") as url:
        yield url


@pytest.fixture
def engine(empty_database_url: str) -> Iterator[Engine]:
    """A migrated engine on a fresh database."""
    with migrated(empty_database_url) as engine:
        yield engine


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The dashboard's cache folder (``PLAYTEST_CACHE_DIR``) for this test alone."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("PLAYTEST_CACHE_DIR", str(folder))
    return folder
