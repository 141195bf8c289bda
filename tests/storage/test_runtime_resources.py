"""The app's process-wide resources (``playtest.runtime``) follow ``DATABASE_URL``.

They are kept in a dict keyed by the URL (no longer ``st.cache_resource``, which cost
~0.5 ms a call on every rerun): a changed URL must give that database's engine and event
logger at once, and the same URL the same objects, migrated once.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import inspect

from playtest import runtime
from playtest.settings import DEFAULT_URL, database_url_now, load_settings


def test_the_engine_and_logger_follow_database_url(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = f"sqlite:///{tmp_path / 'first.sqlite'}"
    second = f"sqlite:///{tmp_path / 'second.sqlite'}"
    monkeypatch.setenv("DATABASE_URL", first)
    engine = runtime.database()
    assert engine.url.database == str(tmp_path / "first.sqlite")
    assert runtime.database() is engine  # kept, not made again
    assert runtime.event_logger().engine is engine
    assert "events" in inspect(engine).get_table_names()  # migrated on first use
    monkeypatch.setenv("DATABASE_URL", second)
    other = runtime.database()
    assert other is not engine and other.url.database == str(tmp_path / "second.sqlite")
    assert runtime.event_logger().engine is other
    monkeypatch.setenv("DATABASE_URL", first)
    assert runtime.database() is engine
    engine.dispose()
    other.dispose()


@pytest.mark.parametrize("value", [None, "", "   ", "sqlite:///x.sqlite", " postgresql://a@b/c "])
def test_database_url_now_agrees_with_the_settings(
        value: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    if value is None:
        monkeypatch.delenv("DATABASE_URL", raising=False)
    else:
        monkeypatch.setenv("DATABASE_URL", value)
    assert database_url_now() == load_settings().database_url
    if not (value or "").strip():
        assert database_url_now() == DEFAULT_URL
