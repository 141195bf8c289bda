"""Engines: which database, its connection settings, and migrations to the newest schema.

``DATABASE_URL`` picks the database; without it the data lives in ``playtest.sqlite`` in
the working folder. SQLite connections get WAL, ``synchronous=NORMAL``, a 5 s busy
timeout and foreign keys on every connect (measured in ``streamlit-notes.md``: 0.19 ms per
insert+commit, no "database is locked" with 16 writers). ``postgresql://`` URLs use
psycopg 3. One engine per process: :func:`get_engine`.

>>> normalise_url("postgres://u@localhost/db")
'postgresql+psycopg://u@localhost/db'
>>> normalise_url("sqlite:///playtest.sqlite")
'sqlite:///playtest.sqlite'
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DisconnectionError, NoSuchModuleError, SQLAlchemyError

from playtest.settings import DEFAULT_URL, database_url_now
from playtest.storage.errors import DatabaseUnavailable

SQLITE_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA busy_timeout=5000",
    "PRAGMA foreign_keys=ON",
    # Freed cells are zeroed, so a deleted tester's bytes do not stay in the file.
    "PRAGMA secure_delete=ON",
)
# Switching a new file to WAL can answer "database is locked" at once, busy timeout or
# not, while another connection opens the same new file (several processes starting
# together): it is tried again for up to this long.
_WAL_SWITCH_S = 5.0
LOCK_TIMEOUT_MS = 5000  # PostgreSQL's lock_timeout, the counterpart of busy_timeout
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

_engines: dict[str, Engine] = {}
_engines_lock = threading.Lock()
# One in-process writer lock per SQLite engine: threads then queue on a lock that wakes
# them at once, instead of SQLite's busy handler that sleeps 1, 2, 5 … 100 ms between
# retries (that sleeping is what made p99 79 ms with 16 writer threads).
_sqlite_write_locks: dict[int, threading.Lock] = {}


def database_url() -> str:
    """``DATABASE_URL`` from the environment, else a SQLite file in the working folder
    (:mod:`playtest.settings`)."""
    return database_url_now()


def normalise_url(url: str) -> str:
    """Route ``postgresql://`` and ``postgres://`` URLs to the psycopg 3 driver."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def safe_url(url: str) -> str:
    """The URL with any password hidden, for messages."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<unparseable URL>"


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def _set_sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        for pragma in SQLITE_PRAGMAS:
            deadline = time.monotonic() + _WAL_SWITCH_S
            pause = 0.005
            while True:
                try:
                    cursor.execute(pragma)
                    break
                except sqlite3.OperationalError as exc:
                    locked = "locked" in str(exc) or "busy" in str(exc)
                    if not (locked and pragma.startswith("PRAGMA journal_mode")) \
                            or time.monotonic() + pause > deadline:
                        raise
                    time.sleep(pause)  # another connection is switching the file now
                    pause = min(pause * 2, 0.1)
    finally:
        cursor.close()


# A pooled PostgreSQL connection is pinged before use only when it lay idle this long (a
# server restarted or a proxy's idle cut shows there). SQLAlchemy's ``pool_pre_ping``
# pinged on every checkout: a tester's click checks out ~7 connections, so that was 7
# extra round trips and ~7 % of the app's CPU per click under the load test. A connection
# that dies while in steady use fails its statement once; SQLAlchemy then drops every
# connection of the pool older than that failure, and the page's calm notice retries.
IDLE_PING_S = 5.0


def _note_used(_dbapi_connection: Any, record: Any) -> None:
    record.info["playtest_used_at"] = time.monotonic()


def _ping_if_idle(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
    used = record.info.get("playtest_used_at")
    if used is not None and time.monotonic() - used < IDLE_PING_S:
        return
    try:
        with dbapi_connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        dbapi_connection.rollback()
    except Exception as exc:  # noqa: BLE001 - any driver error: a dead connection
        # The pool discards this connection and checks out (or opens) another one.
        raise DisconnectionError(f"idle connection is gone: {_first_line(exc)}") from exc
    record.info["playtest_used_at"] = time.monotonic()


def _create_private(database: str | None) -> None:
    """Create a SQLite file that does not exist yet readable by its owner only: SQLite
    gives its ``-wal`` and ``-shm`` files the database file's permissions, and all three
    hold tester data. (An existing file keeps its permissions.)"""
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    # it may exist, or its folder may not: SQLite says so when it connects
    with contextlib.suppress(OSError):
        os.close(os.open(database, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def make_engine(url: str | None = None, **kwargs: Any) -> Engine:
    """A new engine for ``url`` (default :func:`database_url`) with our connection settings.

    Raises :class:`DatabaseUnavailable` for a URL that names no usable database driver.
    Connecting is lazy; :func:`check_connection` or :func:`upgrade` connect for real.
    """
    raw = url if url is not None else database_url()
    target = normalise_url(raw)
    # An error's text never carries a statement's values (a tester's code, answers): it
    # reaches logs (playtest.server_log renders what is left without quoted values).
    kwargs.setdefault("hide_parameters", True)
    try:
        parsed = make_url(target)
        if parsed.get_backend_name() == "sqlite":
            _create_private(parsed.database)
            kwargs.setdefault("connect_args", {})
            kwargs["connect_args"].setdefault("check_same_thread", False)
            kwargs["connect_args"].setdefault("timeout", 5.0)
            engine = create_engine(target, **kwargs)
            event.listen(engine, "connect", _set_sqlite_pragmas)
            _sqlite_write_locks[id(engine)] = threading.Lock()
        else:
            # Like SQLite's busy timeout: a lock held by someone else for more than 5 s
            # is an error the app can show calmly, not a tester's page that hangs.
            kwargs.setdefault("connect_args", {})
            kwargs["connect_args"].setdefault("options", f"-c lock_timeout={LOCK_TIMEOUT_MS}")
            kwargs.setdefault("pool_size", 10)
            kwargs.setdefault("max_overflow", 40)
            engine = create_engine(target, **kwargs)
            if not kwargs.get("pool_pre_ping"):
                event.listen(engine, "connect", _note_used)
                event.listen(engine, "checkin", _note_used)
                event.listen(engine, "checkout", _ping_if_idle)
    except (ArgumentError, NoSuchModuleError, ImportError, ValueError) as exc:
        raise DatabaseUnavailable(
            f"DATABASE_URL {safe_url(raw)!r} is not a usable database URL: {_first_line(exc)}"
        ) from None
    return engine


def get_engine() -> Engine:
    """The process's one engine for :func:`database_url` (created on first use)."""
    url = database_url()
    with _engines_lock:
        engine = _engines.get(url)
        if engine is None:
            engine = make_engine(url)
            _engines[url] = engine
        return engine


def ready_engine() -> Engine:
    """The process's engine (:func:`get_engine`), migrated to the newest schema: what every
    command starts with."""
    engine = get_engine()
    upgrade(engine)
    return engine


def dispose_engines() -> None:
    """Close every engine :func:`get_engine` made (tests, shutdown)."""
    with _engines_lock:
        for engine in _engines.values():
            engine.dispose()
        _engines.clear()


@contextmanager
def write_lock(engine: Engine) -> Iterator[None]:
    """Serialise this process's writers on SQLite (no-op on PostgreSQL's row locks)."""
    lock = _sqlite_write_locks.get(id(engine)) if is_sqlite(engine) else None
    with lock if lock is not None else nullcontext():
        yield


def _first_line(exc: BaseException) -> str:
    message = str(getattr(exc, "orig", None) or exc).strip()
    return message.splitlines()[0] if message else type(exc).__name__


def check_connection(engine: Engine) -> None:
    """Connect once; raise :class:`DatabaseUnavailable` with a one-line reason if it fails."""
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except SQLAlchemyError as exc:
        raise DatabaseUnavailable(
            f"cannot reach the database at {safe_url(str(engine.url))}: {_first_line(exc)}"
        ) from None


def alembic_config(engine: Engine) -> Any:
    """An Alembic ``Config`` for our migrations (no alembic.ini needed)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", str(engine.url).replace("%", "%%"))
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Run the Alembic migrations up to ``revision`` (called at start-up and by the CLI)."""
    from alembic import command

    check_connection(engine)
    config = alembic_config(engine)
    try:
        with engine.begin() as connection:
            # One migrator at a time, all or nothing: two processes starting on a fresh
            # database wait for each other instead of both creating the tables.
            if is_sqlite(engine):
                connection.exec_driver_sql("BEGIN IMMEDIATE")
            elif engine.dialect.name == "postgresql":
                # Another process migrating may take longer than the lock timeout.
                connection.execute(text("SET LOCAL lock_timeout = 0"))
                connection.execute(text("SELECT pg_advisory_xact_lock(7270001)"))
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
    except SQLAlchemyError as exc:
        raise DatabaseUnavailable(
            f"migrating the database at {safe_url(str(engine.url))} failed: {_first_line(exc)}"
        ) from None


def current_revision(engine: Engine) -> str | None:
    """The Alembic revision the database is at (None: not migrated)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def table_names(engine: Engine) -> list[str]:
    return sorted(inspect(engine).get_table_names())


__all__ = [
    "DEFAULT_URL",
    "DatabaseUnavailable",
    "alembic_config",
    "check_connection",
    "current_revision",
    "database_url",
    "dispose_engines",
    "get_engine",
    "is_sqlite",
    "make_engine",
    "normalise_url",
    "safe_url",
    "table_names",
    "upgrade",
    "write_lock",
]
