"""Privacy operations: removing a tester entirely, from the tables and from the files.

On SQLite a deleted row's bytes outlive the ``DELETE``: in the write-ahead log
(``playtest.sqlite-wal``) until it is checkpointed and truncated, and in the freed pages of
the main file unless ``secure_delete`` is on. Every connection turns ``secure_delete`` on
(:data:`playtest.storage.db.SQLITE_PRAGMAS`), and :func:`delete_participant` ends with
:func:`scrub_files`, so the tester's code and free text are gone from both files. (On
PostgreSQL dead rows stay in the table files and the server's WAL until ``VACUUM`` and
WAL recycling: :func:`scrub_files` runs ``VACUUM`` on the tables it touched.)

>>> from playtest.storage.db import make_engine, upgrade
>>> from playtest.storage import repository as repo
>>> engine = make_engine("sqlite://"); upgrade(engine)
>>> _ = repo.create_study(engine, title="Demo", study_id="demo")
>>> tester = repo.create_consented_participant(engine, "demo", {})
>>> delete_participant(engine, tester.participant_id)["participants"]
1
>>> repo.get_participant(engine, tester.participant_id) is None
True

A tester who finished knows only the completion code the thank-you page gave them:

>>> done = repo.create_consented_participant(engine, "demo", {})
>>> shown = repo.set_completion_code(engine, done.participant_id)
>>> resolve_code(engine, shown.lower()) == done.participant_id
True
"""

from __future__ import annotations

import logging
import time
import uuid

from sqlalchemy import Connection, Engine, delete, func, insert, select, text

from playtest.storage.db import is_sqlite, write_lock
from playtest.storage.errors import NotFound, StorageError
from playtest.storage.models import (
    AppSecretRow,
    AssignmentRow,
    EventRow,
    ExposureRow,
    GameActionRow,
    GameRow,
    PanelIdRow,
    ParticipantRow,
    ResponseRow,
    SessionRow,
)

secrets_table = AppSecretRow.__table__  # type: ignore[attr-defined]


def delete_participant(engine: Engine, participant_id: str) -> dict[str, int]:
    """Delete everything of one tester in one transaction; returns rows deleted per table.

    Events, game actions, games, sessions, responses, assignments, exposures, the
    recruitment panel's ids and the participant row go together or not at all, with a
    new :func:`deletion_mark`. Unknown codes raise :class:`NotFound`.
    """
    tables = {
        "events": EventRow.__table__,  # type: ignore[attr-defined]
        "game_actions": GameActionRow.__table__,  # type: ignore[attr-defined]
        "games": GameRow.__table__,  # type: ignore[attr-defined]
        "sessions": SessionRow.__table__,  # type: ignore[attr-defined]
        "responses": ResponseRow.__table__,  # type: ignore[attr-defined]
        "assignments": AssignmentRow.__table__,  # type: ignore[attr-defined]
        "exposures": ExposureRow.__table__,  # type: ignore[attr-defined]
        "panel_ids": PanelIdRow.__table__,  # type: ignore[attr-defined]
        "participants": ParticipantRow.__table__,  # type: ignore[attr-defined]
    }
    deleted: dict[str, int] = {}
    with write_lock(engine), engine.begin() as conn:
        for name, table in tables.items():
            if name == "game_actions":
                game_ids = select(tables["games"].c.game_id).where(
                    tables["games"].c.participant_id == participant_id
                )
                statement = delete(table).where(table.c.game_id.in_(game_ids))
            else:
                statement = delete(table).where(table.c.participant_id == participant_id)
            deleted[name] = conn.execute(statement).rowcount
        if deleted["participants"] == 0:
            raise NotFound(f"no participant {participant_id!r}")
        _mark_deletion(conn)
    scrub_files(engine, tables=list(tables))
    return deleted


DELETION_MARK = "last_deletion"


def _mark_deletion(conn: Connection) -> None:
    """Say that a tester was deleted (a new random mark): app processes that see the mark
    change drop what they keep of testers in memory (:func:`deletion_mark`)."""
    conn.execute(delete(secrets_table).where(secrets_table.c.name == DELETION_MARK))
    conn.execute(insert(secrets_table).values(name=DELETION_MARK, value=uuid.uuid4().hex,
                                              created_at_ms=int(time.time() * 1000)))


def deletion_mark(engine: Engine) -> str | None:
    """The mark of the last deletion (None: none yet). A process that keeps copies of
    tester data compares it with the mark it saw last.

    >>> from playtest.storage.db import make_engine, upgrade
    >>> engine = make_engine("sqlite://"); upgrade(engine)
    >>> deletion_mark(engine) is None
    True
    """
    with engine.connect() as conn:
        value = conn.execute(select(secrets_table.c.value)
                             .where(secrets_table.c.name == DELETION_MARK)).scalar()
    return None if value is None else str(value)


_log = logging.getLogger(__name__)


def scrub_files(engine: Engine, tables: list[str] | None = None) -> bool:
    """Make deleted rows unreadable on disk; True when the files are known clean.

    SQLite: ``VACUUM`` (``secure_delete`` zeroes freed cells, not the stale cell copies
    a page rebalance leaves behind), then checkpoint the WAL into the main file and
    truncate it to zero bytes. A reader holding an old snapshot
    can make the checkpoint incomplete: then this says False and logs it, and the next
    call (e.g. the next delete) finishes the job. PostgreSQL: ``VACUUM`` the tables.
    """
    if is_sqlite(engine):
        with write_lock(engine), engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA secure_delete=ON")
            # secure_delete zeroes a deleted cell, but not the stale copies of cells
            # that a page rebalance leaves in a page's unused middle (a tester's code
            # was found so, 1 delete in 30). VACUUM writes every page anew.
            conn.commit()  # VACUUM cannot run inside a transaction
            conn.exec_driver_sql("VACUUM")
            busy, _log_frames, _moved = conn.exec_driver_sql(
                "PRAGMA wal_checkpoint(TRUNCATE)").one()
            conn.commit()
        if busy:
            _log.warning("the write-ahead log could not be truncated after a delete "
                         "(a reader was busy); it will be on the next delete")
        return not busy
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            for name in tables or []:
                conn.execute(text(f'VACUUM "{name}"'))
    return True
class AmbiguousCode(StorageError):
    """A completion code that more than one tester was given (codes are 8 random hex
    digits, so two testers can share one): the tester's own code is needed instead."""


def resolve_code(engine: Engine, code: str) -> str:
    """The participant id behind ``code``: a participant code, or a completion code.

    Testers keep either the code of their resume link or, once finished, the completion
    code of the thank-you page; a deletion request may come with either. A participant
    code wins over a completion code (they are never made alike). Completion codes are
    matched without regard to case or surrounding spaces, as people copy them by hand.
    Raises :class:`NotFound` for neither, :class:`AmbiguousCode` when two testers share
    the completion code.
    """
    table = ParticipantRow.__table__  # type: ignore[attr-defined]
    given = code.strip()
    with engine.connect() as conn:
        if conn.execute(select(table.c.participant_id)
                        .where(table.c.participant_id == given)).first() is not None:
            return given
        owners = [row[0] for row in conn.execute(
            select(table.c.participant_id)
            .where(func.upper(table.c.completion_code) == given.upper())).all()] \
            if given else []
    if not owners:
        raise NotFound(f"no participant with the code or completion code {code!r}")
    if len(owners) > 1:
        raise AmbiguousCode(
            f"completion code {code!r} belongs to {len(owners)} testers: ask for the "
            "tester's own code (the one in their link, ?p=…) to delete the right one")
    return str(owners[0])
