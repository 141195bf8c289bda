"""Alembic migrations build the schema from empty on SQLite and PostgreSQL."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

from playtest.storage.db import current_revision, make_engine, table_names, upgrade

#: The newest migration (tests/storage/test_storage_upgrades.py upgrades stored data to it).
HEAD = "0006"


def test_upgrade_from_empty_creates_every_table(empty_database_url: str) -> None:
    engine = make_engine(empty_database_url)
    try:
        assert current_revision(engine) is None
        upgrade(engine)
        assert current_revision(engine) == HEAD
        assert set(SQLModel.metadata.tables) <= set(table_names(engine))
        # The migrated schema is exactly what the models declare.
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            assert compare_metadata(context, SQLModel.metadata) == []
        upgrade(engine)  # a second start-up changes nothing
        assert current_revision(engine) == HEAD
    finally:
        engine.dispose()


def test_sqlite_connections_get_wal_normal_and_busy_timeout(tmp_path: object) -> None:
    engine = make_engine(f"sqlite:///{tmp_path}/p.sqlite")
    with engine.connect() as connection:
        pragma = connection.exec_driver_sql
        assert pragma("PRAGMA journal_mode").scalar() == "wal"
        assert pragma("PRAGMA synchronous").scalar() == 1  # NORMAL
        assert pragma("PRAGMA busy_timeout").scalar() == 5000
        assert pragma("PRAGMA foreign_keys").scalar() == 1
    engine.dispose()


def test_concurrent_start_ups_migrate_once(empty_database_url: str) -> None:
    """Several processes/threads starting on a fresh database: one migrates, none fails."""
    import threading

    errors: list[BaseException] = []
    engines = [make_engine(empty_database_url) for _ in range(3)]
    start = threading.Barrier(3)

    def start_up(engine: object) -> None:
        start.wait()
        try:
            upgrade(engine)  # type: ignore[arg-type]
        except BaseException as exc:  # collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=start_up, args=(engine,)) for engine in engines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert current_revision(engines[0]) == HEAD
    for engine in engines:
        engine.dispose()
