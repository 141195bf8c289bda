"""PostgreSQL connections are pinged before use only after lying idle (``db.IDLE_PING_S``).

A dead connection (the server restarted, or killed the backend) that lay idle is found by
the ping at checkout and replaced, so the statement works; one in steady use fails its
statement once, SQLAlchemy then drops the pool's older connections and the next works.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from playtest.storage import db
from tests.pg_server import create_database, drop_database

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_engine(postgres_server_url: str) -> Iterator[Engine]:
    url = create_database(postgres_server_url)
    engine = db.make_engine(url, pool_size=2, max_overflow=0)
    try:
        yield engine
    finally:
        engine.dispose()
        drop_database(postgres_server_url, url)


def _backend_pid(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT pg_backend_pid()")).scalar_one())


def _kill_backend(engine: Engine, pid: int) -> None:
    """Another session ends the pooled connection's server process, as a restart would."""
    killer = db.make_engine(engine.url.render_as_string(hide_password=False), poolclass=None)
    try:
        with killer.connect() as conn:
            assert conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid}).scalar()
    finally:
        killer.dispose()


def test_an_idle_dead_connection_is_replaced_before_use(
        pg_engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    pid = _backend_pid(pg_engine)
    _kill_backend(pg_engine, pid)
    monkeypatch.setattr(db, "IDLE_PING_S", 0.0)  # every pooled connection counts as idle
    assert _backend_pid(pg_engine) != pid  # no error: the ping found it dead


def test_a_connection_in_steady_use_is_not_pinged_and_fails_once(
        pg_engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    pid = _backend_pid(pg_engine)
    _kill_backend(pg_engine, pid)
    monkeypatch.setattr(db, "IDLE_PING_S", 3600.0)  # just used: no round trip before use
    with pytest.raises(DBAPIError) as failed:
        _backend_pid(pg_engine)
    assert failed.value.connection_invalidated
    assert _backend_pid(pg_engine) != pid  # the next checkout has a new connection
