"""Alembic environment: uses the connection handed over by ``db.upgrade`` when there is one."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

import playtest.storage.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from playtest.storage.db import make_engine

config = context.config
target_metadata = SQLModel.metadata


def _run(connection: object) -> None:
    context.configure(
        connection=connection,  # type: ignore[arg-type]
        target_metadata=target_metadata,
        render_as_batch=getattr(connection, "dialect", None) is not None
        and connection.dialect.name == "sqlite",  # type: ignore[attr-defined]
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(config.get_main_option("sqlalchemy.url"))
    with engine.begin() as new_connection:
        _run(new_connection)


if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()
else:
    run_migrations_online()
