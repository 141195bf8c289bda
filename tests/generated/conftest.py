"""Fixtures of the generated-data tests: a real SQLite file per test (the one the CLI and
the app under test open too, through ``DATABASE_URL``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine

from tests.databases import app_sqlite


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Engine]:
    """A migrated SQLite file in ``tmp_path`` (also the working folder)."""
    with app_sqlite(tmp_path, monkeypatch) as engine:
        yield engine
