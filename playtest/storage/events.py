"""The event logger: one durable, idempotent, gap-free append per tester action.

``log`` returns only after the event is committed, so the UI answers a click after the
click is stored. The per-session counter lives in the session row: the transaction first
increments it (taking the session's write lock), then inserts the event with that number.
If the insert fails — say the same ``client_event_id`` arrives twice — the whole
transaction rolls back, counter included, so numbers never skip. A retried or
double-sent event is recognised by its ``client_event_id`` and returns its first ``seq``.

Sessions are per browser tab (``repository.start_session``); two tabs of one tester get
two sessions, and threads sharing one session still get contiguous numbers.

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

import threading
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError, StatementError

from playtest.storage.db import write_lock
from playtest.storage.errors import ConflictError, NotFound
from playtest.storage.models import EventRow, ParticipantRow, SessionRow
from playtest.storage.timeutil import ms_from

events = EventRow.__table__  # type: ignore[attr-defined]
sessions = SessionRow.__table__  # type: ignore[attr-defined]
participants = ParticipantRow.__table__  # type: ignore[attr-defined]


class EventLogger:
    """Appends events for one engine; safe to share between threads."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # participant_id → study_id; a participant never changes study, so this cache
        # cannot go stale (deleted testers fail at the session update instead).
        self._study_of: dict[str, str] = {}
        self._cache_lock = threading.Lock()

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

    def log(
        self,
        session_id: str,
        participant_id: str,
        type: str,
        props: Mapping[str, Any],
        client_event_id: str | None,
        game_id: str | None = None,
        at: datetime | int | None = None,
    ) -> int:
        """Store one event durably and return its ``seq`` (1, 2, 3 … within the session).

        ``client_event_id`` (unique per event, made by the client) makes the call
        idempotent: the same id again returns the stored event's ``seq`` and stores
        nothing. ``at`` defaults to now; ints are epoch milliseconds.
        """
        study_id = self._study_id(participant_id)
        at_ms = ms_from(at)
        try:
            with write_lock(self.engine), self.engine.begin() as conn:
                counter = conn.execute(
                    update(sessions)
                    .where(sessions.c.session_id == session_id)
                    .where(sessions.c.participant_id == participant_id)
                    .values(last_seq=sessions.c.last_seq + 1)
                    .returning(sessions.c.last_seq)
                ).first()
                if counter is None:
                    raise NotFound(
                        f"no session {session_id!r} of participant {participant_id!r}"
                    )
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

    def seq_of(self, client_event_id: str) -> int | None:
        """The ``seq`` of the event stored under ``client_event_id``, if any."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(events.c.seq, events.c.session_id).where(
                    events.c.client_event_id == client_event_id
                )
            ).first()
        return None if row is None else int(row[0])


def session_seqs(engine: Engine, session_id: str) -> list[int]:
    """The stored ``seq`` numbers of a session, ascending (for checks and tests)."""
    with engine.connect() as conn:
        return [
            int(seq)
            for seq in conn.execute(
                select(events.c.seq)
                .where(events.c.session_id == session_id)
                .order_by(events.c.seq)
            ).scalars()
        ]


__all__ = ["ConflictError", "EventLogger", "session_seqs"]
