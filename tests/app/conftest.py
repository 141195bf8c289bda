"""Fixtures for the app's tests: a real SQLite file per test, studies to test against."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine

from playtest import services
from playtest.storage import repository as repo
from playtest.study_config import Experiment, StudyConfig
from tests.databases import app_sqlite

APP = str(Path(__file__).resolve().parents[2] / "playtest" / "app.py")



@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Engine]:
    """A migrated SQLite file, also what the app under test opens (via DATABASE_URL)."""
    with app_sqlite(tmp_path, monkeypatch) as engine:
        yield engine


@pytest.fixture
def make_study(db: Engine) -> Callable[..., repo.Study]:
    def make(study_id: str = "s1", **settings: Any) -> repo.Study:
        config = StudyConfig(**{"ai_think_ms": 0, **settings})
        return services.create_study(db, title="Test study", config=config, study_id=study_id)

    return make


WORDING = Experiment(key="wording", target="message:extra_turn",
                     variants={"A": "default", "B": "formal"})
