"""The event logger: one durable, idempotent, gap-free append per tester action.

``log`` returns only after the event is committed, so the UI answers a click after the
click is stored. The per-session counter lives in the session row: a transaction
increments it and inserts the event with that number; if anything fails the whole
transaction (counter included) rolls back, so numbers never skip. A retried or
double-sent event is recognised by its ``client_event_id`` and returns its first ``seq``.

Sessions are per browser tab (``repository.start_session``); two tabs of one tester get
two sessions, and threads writing to one session still get contiguous numbers.

On a SQLite file the logger commits in groups: callers hand their event to one writer
thread, which stores everything waiting in one ``BEGIN IMMEDIATE`` … ``COMMIT`` and then
wakes each caller with its ``seq``. Each caller still returns only after its commit; with
16 writers the queueing on SQLite's single write lock shrinks from 16 commits to one.
On PostgreSQL every call is its own transaction (the session row lock orders them).

>>> from playtest.storage.db import make_engine, upgrade
>>> from playtest.storage import repository as repo
>>> engine = make_engine("sqlite://"); upgrade(engine)
>>> _ = repo.create_study(engine, title="Demo", study_id="demo")
>>> tester = repo.create_consented_participant(engine, "demo", {"adult": True})
>>> session = repo.start_session(engine, tester.participant_id)
>>> logger = EventLogger(engine)
>>> logger.log(session, tester.participant_id, "page", {"page": "play"}, "click-1")
1
>>> logger.log(session, tester.participant_id, "page", {"page": "play"}, "click-1")
1
>>> logger.log(session, tester.participant_id, "setting", {"name": "mute", "value": True}, "c-2")
2
"""

from __future__ import annotations

import json
import queue
import sqlite3
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, insert, select, text, update
from sqlalchemy.exc import IntegrityError, StatementError

from playtest.storage.db import SQLITE_PRAGMAS, write_lock
from playtest.storage.errors import NotFound, StorageError, WriteFailed
from playtest.storage.models import (
    events,
    participants,
    sessions,
)
from playtest.storage.rate_limit import TesterRate
from playtest.storage.timeutil import ms_from

MAX_GROUP = 256
IDLE_SECONDS = 30.0


@dataclass
class _Pending:
    """One event waiting for the writer thread, and the answer it gets back."""

    row: tuple[Any, ...]  # study, participant, session, at_ms, type, props JSON, game, client id
    done: threading.Event = field(default_factory=threading.Event)
    seq: int | None = None
    error: BaseException | None = None


class _SqliteGroupWriter:
    """A thread that owns one SQLite connection and commits queued events in groups."""

    def __init__(self, engine: Engine, path: str) -> None:
        self.engine = engine
        self.path = path
        self.queue: queue.SimpleQueue[_Pending] = queue.SimpleQueue()
        self._start_lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def submit(self, pending: _Pending) -> int:
        self.queue.put(pending)
        self._ensure_thread()
        pending.done.wait()
        if pending.error is not None:
            raise pending.error
        assert pending.seq is not None
        return pending.seq

    def _ensure_thread(self) -> None:
        with self._start_lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="playtest-event-writer", daemon=True
                )
                self._thread.start()

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=False, timeout=5.0
        )
        for pragma in SQLITE_PRAGMAS:
            connection.execute(pragma)
        return connection

    def _run(self) -> None:
        connection: sqlite3.Connection | None = None
        try:
            while True:
                try:
                    first = self.queue.get(timeout=IDLE_SECONDS)
                except queue.Empty:
                    # Idle: let the thread end; the next event starts a new one. The check
                    # and the exit happen under the start lock so no event is stranded.
                    with self._start_lock:
                        if self.queue.empty():
                            self._thread = None
                            return
                    continue
                group = [first]
                while len(group) < MAX_GROUP:
                    try:
                        group.append(self.queue.get_nowait())
                    except queue.Empty:
                        break
                if connection is None:
                    try:
                        connection = self._connect()
                    except sqlite3.Error as exc:
                        self._fail(group, exc)
                        continue
                self._commit_group(connection, group)
        finally:
            if connection is not None:
                connection.close()

    @staticmethod
    def _fail(group: list[_Pending], exc: BaseException) -> None:
        error = WriteFailed(f"could not store the event: {exc}")
        for pending in group:
            pending.seq = None
            pending.error = error
            pending.done.set()

    def _commit_group(self, connection: sqlite3.Connection, group: list[_Pending]) -> None:
        cursor = connection.cursor()
        try:
            with write_lock(self.engine):
                cursor.execute("BEGIN IMMEDIATE")
                try:
                    for pending in group:
                        self._store_one(cursor, pending)
                    cursor.execute("COMMIT")
                except BaseException:
                    cursor.execute("ROLLBACK")
                    raise
        except sqlite3.Error as exc:
            self._fail(group, exc)
            return
        finally:
            cursor.close()
        for pending in group:  # committed: now the callers may answer their clicks
            pending.done.set()

    @staticmethod
    def _store_one(cursor: sqlite3.Cursor, pending: _Pending) -> None:
        study_id, participant_id, session_id, at_ms, kind, props, game_id, client_id = pending.row
        if client_id is not None:
            found = cursor.execute(
                "SELECT seq FROM events WHERE client_event_id = ?", (client_id,)
            ).fetchone()
            if found is not None:
                pending.seq = int(found[0])
                return
        cursor.execute("SAVEPOINT one_event")
        try:
            counter = cursor.execute(
                "UPDATE sessions SET last_seq = last_seq + 1 "
                "WHERE session_id = ? AND participant_id = ? RETURNING last_seq",
                (session_id, participant_id),
            ).fetchone()
            if counter is None:
                raise NotFound(f"no session {session_id!r} of participant {participant_id!r}")
            seq = int(counter[0])
            cursor.execute(
                "INSERT INTO events (study_id, participant_id, session_id, seq, at_ms, type, "
                "props, game_id, client_event_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (study_id, participant_id, session_id, seq, at_ms, kind, props, game_id, client_id),
            )
            cursor.execute("RELEASE one_event")
            pending.seq = seq
        except (NotFound, sqlite3.IntegrityError) as exc:
            # Only this event is undone (counter included); the rest of the group stays.
            cursor.execute("ROLLBACK TO one_event")
            cursor.execute("RELEASE one_event")
            pending.error = (
                exc if isinstance(exc, NotFound) else StorageError(f"event not stored: {exc}")
            )


def _sqlite_file(engine: Engine) -> str | None:
    if engine.dialect.name != "sqlite":
        return None
    database = engine.url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return database


class EventLogger:
    """Appends events for one engine; safe to share between threads (one per process)."""

    def __init__(self, engine: Engine, limit: TesterRate | None = None) -> None:
        self.engine = engine
        #: The per-tester input limit (the app's logger has one; commands store freely).
        self.limit = limit
        # participant_id → study_id; a participant never changes study, so this cache
        # cannot go stale (deleted testers fail at the session update instead).
        self._study_of: dict[str, str] = {}
        self._cache_lock = threading.Lock()
        path = _sqlite_file(engine)
        self._group_writer = _SqliteGroupWriter(engine, path) if path else None

    def _study_id(self, participant_id: str) -> str:
        with self._cache_lock:
            cached = self._study_of.get(participant_id)
        if cached is not None:
            return cached
        with self.engine.connect() as conn:
            row = conn.execute(
                select(participants.c.study_id, participants.c.consented_at_ms).where(
                    participants.c.participant_id == participant_id
                )
            ).first()
        if row is None or row.consented_at_ms is None:
            raise NotFound(f"no consented participant {participant_id!r}")
        with self._cache_lock:
            self._study_of[participant_id] = row.study_id
        return str(row.study_id)

    def admit(self, participant_id: str) -> None:
        """Count one input of this tester against :attr:`limit` (raises
        :class:`~playtest.storage.errors.TooFast` past it, before anything is stored)."""
        if self.limit is not None:
            self.limit.admit(participant_id)

    def forget(self) -> None:
        """Drop what this logger remembers of testers (after a deletion)."""
        with self._cache_lock:
            self._study_of.clear()
        if self.limit is not None:
            self.limit.forget()

    def study_of(self, participant_id: str) -> str:
        """The study of a consented participant (cached: a tester never changes study);
        :class:`NotFound` for anyone else."""
        return self._study_id(participant_id)

    def log(
        self,
        session_id: str,
        participant_id: str,
        type: str,
        props: Mapping[str, Any],
        client_event_id: str | None,
        game_id: str | None = None,
        at: datetime | int | None = None,
        *,
        admitted: bool = False,
    ) -> int:
        """Store one event durably and return its ``seq`` (1, 2, 3 … within the session).

        The event is one input of the tester's (:meth:`admit`) unless ``admitted`` (the
        caller counted the input it belongs to).

        ``client_event_id`` (unique per event, made by the client) makes the call
        idempotent: the same id again returns the stored event's ``seq`` and stores
        nothing. ``at`` defaults to now; ints are epoch milliseconds. Raises
        :class:`NotFound` for an unknown session or participant and ``ValueError`` for
        props that are not JSON; neither leaves anything stored.
        """
        if not admitted:
            self.admit(participant_id)
        study_id = self._study_id(participant_id)
        at_ms = ms_from(at)
        if self._group_writer is not None:
            try:
                props_json = json.dumps(dict(props), separators=(",", ":"))
            except (TypeError, ValueError) as exc:
                raise ValueError(f"event props are not JSON: {exc}") from None
            row = (
                study_id, participant_id, session_id, at_ms, type, props_json, game_id,
                client_event_id,
            )  # fmt: skip
            return self._group_writer.submit(_Pending(row))
        return self._log_one_transaction(
            study_id, session_id, participant_id, type, props, client_event_id, game_id, at_ms
        )

    def _log_one_transaction(
        self,
        study_id: str,
        session_id: str,
        participant_id: str,
        type: str,
        props: Mapping[str, Any],
        client_event_id: str | None,
        game_id: str | None,
        at_ms: int,
    ) -> int:
        try:
            if self.engine.dialect.name == "postgresql":
                return self._log_postgres(
                    study_id, session_id, participant_id, type, props, client_event_id,
                    game_id, at_ms,
                )  # fmt: skip
            with write_lock(self.engine), self.engine.begin() as conn:
                counter = conn.execute(
                    update(sessions)
                    .where(sessions.c.session_id == session_id)
                    .where(sessions.c.participant_id == participant_id)
                    .values(last_seq=sessions.c.last_seq + 1)
                    .returning(sessions.c.last_seq)
                ).first()
                if counter is None:
                    raise NotFound(f"no session {session_id!r} of participant {participant_id!r}")
                seq = int(counter[0])
                conn.execute(
                    insert(events).values(
                        study_id=study_id,
                        participant_id=participant_id,
                        session_id=session_id,
                        seq=seq,
                        at_ms=at_ms,
                        type=type,
                        props=dict(props),
                        game_id=game_id,
                        client_event_id=client_event_id,
                    )
                )
            return seq
        except IntegrityError:
            if client_event_id is None:
                raise
            existing = self.seq_of(client_event_id)
            if existing is None:
                raise
            return existing
        except StatementError as exc:
            if isinstance(exc.orig, TypeError | ValueError):
                # The transaction rolled back (counter too): nothing of the event is kept.
                raise ValueError(f"event props are not JSON: {exc.orig}") from None
            raise
        except TypeError as exc:  # psycopg's JSON dumper raises it directly
            raise ValueError(f"event props are not JSON: {exc}") from None

    def _log_postgres(
        self,
        study_id: str,
        session_id: str,
        participant_id: str,
        type: str,
        props: Mapping[str, Any],
        client_event_id: str | None,
        game_id: str | None,
        at_ms: int,
    ) -> int:
        """Counter and insert in one statement: one round trip, the row lock held briefly.

        If the insert fails the statement fails as a whole, counter included.
        """
        statement = text(
            "WITH counter AS (UPDATE sessions SET last_seq = last_seq + 1 "
            "WHERE session_id = :session_id AND participant_id = :participant_id "
            "RETURNING last_seq) "
            "INSERT INTO events (study_id, participant_id, session_id, seq, at_ms, type, props, "
            "game_id, client_event_id) SELECT :study_id, :participant_id, :session_id, "
            "counter.last_seq, :at_ms, :type, CAST(:props AS jsonb), :game_id, "
            ":client_event_id FROM counter RETURNING seq"
        )
        try:
            props_json = json.dumps(dict(props), separators=(",", ":"))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"event props are not JSON: {exc}") from None
        with self.engine.begin() as conn:
            row = conn.execute(
                statement,
                {
                    "session_id": session_id,
                    "participant_id": participant_id,
                    "study_id": study_id,
                    "at_ms": at_ms,
                    "type": type,
                    "props": props_json,
                    "game_id": game_id,
                    "client_event_id": client_event_id,
                },
            ).first()
        if row is None:
            raise NotFound(f"no session {session_id!r} of participant {participant_id!r}")
        return int(row[0])

    def seq_of(self, client_event_id: str) -> int | None:
        """The ``seq`` of the event stored under ``client_event_id``, if any."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(events.c.seq).where(events.c.client_event_id == client_event_id)
            ).first()
        return None if row is None else int(row[0])


def session_seqs(engine: Engine, session_id: str) -> list[int]:
    """The stored ``seq`` numbers of a session, ascending (for checks and tests)."""
    with engine.connect() as conn:
        return [
            int(seq)
            for seq in conn.execute(
                select(events.c.seq).where(events.c.session_id == session_id).order_by(events.c.seq)
            ).scalars()
        ]
