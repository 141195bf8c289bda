"""One input of a game in one transaction: its actions, its telemetry events, its finish.

A tester's click used to be stored as one transaction for the action, then one for the
click event, then one for each engine event (``place``, ``capture`` …), and the
computer's instant turn that follows it as as many again: about eight commits per click,
each with its own statements, round trips and (on SQLite) the event writer thread's
hand-over. :class:`GameWrites` collects what one input writes, in the order it happens,
and :func:`commit_game_writes` stores it whole in one transaction, written for the
driver directly (fixed statement texts: nothing for SQLAlchemy to compile or cache). The
steps (on PostgreSQL 2 and 3, and 4 and 5, are one statement each):

1. the ``seq`` already stored under any of the events' ``client_event_id`` (a re-sent
   event is stored once: it is dropped from the batch and keeps its first ``seq``);
2. the claim of the game's next action indices (``action_count`` moves from the first
   index to first + k only if it is still the first index and the game is not finished:
   another tab that stored an action at that index makes the claim fail, and the batch
   is rolled back whole as a :class:`ConflictError`);
3. the actions (SQLite: one ``executemany``; PostgreSQL: inserted from the claim's
   ``UPDATE … RETURNING``, so no claim, no actions);
4. the session's counter raised by the number of events, its new value returned: the
   events get the numbers that end there, contiguous, as the row lock orders writers;
5. the events (SQLite: one ``executemany``; PostgreSQL: inserted from the counter's
   ``UPDATE … RETURNING``);
6. the finish (``finished_at_ms`` set once; the tester's ``games_completed`` + 1).

All or nothing: a crash or an error between any two of these statements leaves nothing
of the batch stored (the transaction is not committed), and everything stored before it
stays. The caller answers the tester only after the commit.

>>> from playtest.storage.db import make_engine, upgrade
>>> from playtest.storage import repository as repo
>>> from playtest.storage.events import EventLogger, session_seqs
>>> engine = make_engine("sqlite://"); upgrade(engine)
>>> _ = repo.create_study(engine, title="Demo", study_id="demo")
>>> tester = repo.create_consented_participant(engine, "demo", {"adult": True})
>>> session = repo.start_session(engine, tester.participant_id)
>>> game = repo.create_game(engine, tester.participant_id, session, "standard",
...                         ["human", "ai:easy"], 7)
>>> writes = GameWrites(game, tester.participant_id, session, "demo")
>>> writes.add_action(0, ["roll", [1, 2, 3, 4]])
>>> writes.add_event("roll", {"seat": 1, "dice": [1, 2, 3, 4]}, "nonce-1")
>>> writes.add_event("skip", {"seat": 1})
>>> commit_game_writes(engine, writes)
[1, 2]
>>> repo.load_game(engine, game).actions
(['roll', [1, 2, 3, 4]],)
>>> again = GameWrites(game, tester.participant_id, session, "demo")
>>> again.add_event("roll", {"seat": 1, "dice": [1, 2, 3, 4]}, "nonce-1")  # re-sent
>>> commit_game_writes(engine, again), session_seqs(engine, session)
([1], [1, 2])
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine

from playtest.storage.db import write_lock
from playtest.storage.errors import ConflictError, NotFound, WriteFailed
from playtest.storage.timeutil import now_ms


@dataclass
class GameWrites:
    """What one input of a game writes, collected in order (nothing is stored yet).

    ``add_event`` serialises the props at once: a props dict changed afterwards does not
    change what is stored, and props that are not JSON are refused at the call
    (``ValueError``) with nothing collected.
    """

    game_id: str
    participant_id: str
    session_id: str
    study_id: str
    first_index: int | None = None
    actions: list[tuple[str, int, str, int]] = field(default_factory=list)
    events: list[tuple[int, str, str, str | None]] = field(default_factory=list)
    finish: tuple[str, str, int, int] | None = None  # winner JSON, reason, turns, at_ms

    def add_action(self, index: int, action: Any) -> None:
        """Action number ``index`` of the game; the batch's indices must follow each other."""
        if self.first_index is None:
            self.first_index = index
        expected = self.first_index + len(self.actions)
        if index != expected:
            raise ConflictError(f"game {self.game_id}: action {index} would leave a gap "
                                f"after {expected}")
        self.actions.append((self.game_id, index, json.dumps(action), now_ms()))

    def add_event(self, type_: str, props: Any, client_event_id: str | None = None,
                  at_ms: int | None = None) -> None:
        try:
            props_json = json.dumps(dict(props), separators=(",", ":"))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"event props are not JSON: {exc}") from None
        self.events.append((now_ms() if at_ms is None else at_ms, type_, props_json,
                            client_event_id))

    def set_finish(self, winner: Any, reason: str, turns: int) -> None:
        self.finish = (json.dumps(winner), reason, turns, now_ms())

    @property
    def empty(self) -> bool:
        return not self.actions and not self.events and self.finish is None


@dataclass(frozen=True)
class _Statements:
    """The batch's SQL in one driver's parameter style."""

    claim: str
    insert_action: str
    count_events: str
    insert_event: str
    finish: str
    count_finished: str

    @staticmethod
    def build(mark: str, json_value: str) -> _Statements:
        def sql(text: str) -> str:
            return text.replace("?", mark).replace("J(" + mark + ")", json_value)

        return _Statements(
            claim=sql("UPDATE games SET action_count = action_count + ? WHERE game_id = ? "
                      "AND action_count = ? AND finished_at_ms IS NULL"),
            insert_action=sql("INSERT INTO game_actions (game_id, idx, action, at_ms) "
                              "VALUES (?, ?, J(?), ?)"),
            count_events=sql("UPDATE sessions SET last_seq = last_seq + ? WHERE session_id = ? "
                             "AND participant_id = ? RETURNING last_seq"),
            insert_event=sql("INSERT INTO events (study_id, participant_id, session_id, seq, "
                             "at_ms, type, props, game_id, client_event_id) "
                             "VALUES (?, ?, ?, ?, ?, ?, J(?), ?, ?)"),
            finish=sql("UPDATE games SET finished_at_ms = ?, winner = J(?), reason = ?, "
                       "turns = ? WHERE game_id = ? AND finished_at_ms IS NULL"),
            count_finished=sql("UPDATE participants SET games_completed = games_completed + 1 "
                               "WHERE participant_id = (SELECT participant_id FROM games "
                               "WHERE game_id = ?)"),
        )


_SQL = {
    "sqlite": _Statements.build("?", "?"),
    "postgresql": _Statements.build("%s", "CAST(%s AS jsonb)"),
}


def supports(engine: Engine) -> bool:
    """Whether :func:`commit_game_writes` speaks this engine's database."""
    return engine.dialect.name in _SQL


def commit_game_writes(engine: Engine, writes: GameWrites) -> list[int]:
    """Store ``writes`` in one transaction; return each event's ``seq`` (in order).

    Raises :class:`ConflictError` when the game's record moved past ``first_index``
    (another tab stored an action there, or the game is finished), :class:`NotFound`
    for an unknown game or session, and :class:`WriteFailed` when the database refuses
    the write (locked past its timeout, disk full, connection lost). In every one of
    these cases nothing of the batch is stored.
    """
    if writes.empty:
        return []
    # The lock first, then a connection: a thread waiting for the lock holds none (with
    # 50 testers, waiting threads holding connections made the pool open extra ones).
    with write_lock(engine):
        return _commit(engine, writes)


def _commit(engine: Engine, writes: GameWrites) -> list[int]:
    sql = _SQL[engine.dialect.name]
    sqlite = engine.dialect.name == "sqlite"
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        try:
            if sqlite:
                cursor.execute("BEGIN IMMEDIATE")
            seqs = _store(cursor, sql, writes, sqlite)
            raw.commit()
        except BaseException:
            raw.rollback()
            raise
        finally:
            cursor.close()
        return seqs
    except (ConflictError, NotFound):
        raise
    except Exception as exc:
        if _driver_error(exc):
            if _connection_lost(raw):
                raw.invalidate()  # the pool opens a new one; this one is gone
            first = str(exc).strip().splitlines()
            raise WriteFailed(f"could not store the game's input: "
                              f"{first[0] if first else type(exc).__name__}") from exc
        raise
    finally:
        raw.close()


def _store(cursor: Any, sql: _Statements, writes: GameWrites, sqlite: bool) -> list[int]:
    known: dict[str, int] = {}
    nonces = [e[3] for e in writes.events if e[3] is not None]
    if nonces:
        mark = "?" if sqlite else "%s"
        cursor.execute(
            "SELECT client_event_id, seq FROM events WHERE client_event_id IN ("
            + ", ".join([mark] * len(nonces)) + ")", nonces)
        known = {str(nonce): int(seq) for nonce, seq in cursor.fetchall()}
    if writes.actions:
        first = writes.first_index
        if sqlite:
            cursor.execute(sql.claim, (len(writes.actions), writes.game_id, first))
            claimed = cursor.rowcount == 1
            if claimed:
                cursor.executemany(sql.insert_action, writes.actions)
        else:
            claimed = _claim_and_insert_postgres(cursor, writes)
        if not claimed:
            raise _refused_claim(cursor, writes, sqlite)
    fresh: list[int] = []
    first_of: dict[int, int] = {}  # an event whose nonce came earlier in this batch
    pending: dict[str, int] = {}
    for i, e in enumerate(writes.events):
        nonce = e[3]
        if nonce is not None and nonce in known:
            continue
        if nonce is not None and nonce in pending:
            first_of[i] = pending[nonce]
            continue
        if nonce is not None:
            pending[nonce] = i
        fresh.append(i)
    seqs: dict[int, int] = {}
    if fresh and not sqlite:
        last = _count_and_insert_events_postgres(cursor, writes, fresh)
        for seq, index in enumerate(fresh, start=last - len(fresh) + 1):
            seqs[index] = seq
    elif fresh:
        cursor.execute(sql.count_events,
                       (len(fresh), writes.session_id, writes.participant_id))
        counter = cursor.fetchone()
        if counter is None:
            raise _no_session(writes)
        start = int(counter[0]) - len(fresh) + 1
        rows = []
        for seq, index in enumerate(fresh, start=start):
            at_ms, type_, props, nonce = writes.events[index]
            rows.append((writes.study_id, writes.participant_id, writes.session_id, seq,
                         at_ms, type_, props, writes.game_id, nonce))
            seqs[index] = seq
        cursor.executemany(sql.insert_event, rows)
    if writes.finish is not None:
        winner, reason, turns, at_ms = writes.finish
        cursor.execute(sql.finish, (at_ms, winner, reason, turns, writes.game_id))
        if cursor.rowcount == 1:
            cursor.execute(sql.count_finished, (writes.game_id,))
    for i, first in first_of.items():
        seqs[i] = seqs[first]
    return [seqs[i] if i in seqs else known[str(e[3])] for i, e in enumerate(writes.events)]


def _no_session(writes: GameWrites) -> NotFound:
    return NotFound(f"no session {writes.session_id!r} of participant {writes.participant_id!r}")


# PostgreSQL: the claim and the actions in one statement, and the counter and the
# events in another (a round trip each; psycopg's executemany costs more CPU than the
# rows of one input). The counter's UPDATE in a CTE: if the insert fails, so does it.
_PG_CLAIM = ("WITH claim AS (UPDATE games SET action_count = action_count + %s "
             "WHERE game_id = %s AND action_count = %s AND finished_at_ms IS NULL "
             "RETURNING game_id) "
             "INSERT INTO game_actions (game_id, idx, action, at_ms) "
             "SELECT claim.game_id, v.idx, v.action, v.at_ms FROM claim, (VALUES {rows}) "
             "AS v(idx, action, at_ms)")
_PG_ACTION_ROW = "(%s::int, CAST(%s AS jsonb), %s::bigint)"
_PG_EVENTS = ("WITH counter AS (UPDATE sessions SET last_seq = last_seq + %s "
              "WHERE session_id = %s AND participant_id = %s RETURNING last_seq) "
              "INSERT INTO events (study_id, participant_id, session_id, seq, at_ms, type, "
              "props, game_id, client_event_id) "
              "SELECT %s::text, %s::text, %s::text, counter.last_seq - %s::int + v.ord, "
              "v.at_ms, v.type, v.props, %s::text, v.nonce FROM counter, (VALUES {rows}) "
              "AS v(ord, at_ms, type, props, nonce) RETURNING seq")
_PG_EVENT_ROW = "(%s::int, %s::bigint, %s::text, CAST(%s AS jsonb), %s::text)"


def _claim_and_insert_postgres(cursor: Any, writes: GameWrites) -> bool:
    params: list[Any] = [len(writes.actions), writes.game_id, writes.first_index]
    for _game, index, action, at_ms in writes.actions:
        params += (index, action, at_ms)
    cursor.execute(_PG_CLAIM.format(rows=", ".join([_PG_ACTION_ROW] * len(writes.actions))),
                   params)
    return bool(cursor.rowcount == len(writes.actions))


def _count_and_insert_events_postgres(cursor: Any, writes: GameWrites,
                                      fresh: list[int]) -> int:
    """Insert the ``fresh`` events; return the session's counter after them."""
    n = len(fresh)
    params: list[Any] = [n, writes.session_id, writes.participant_id, writes.study_id,
                         writes.participant_id, writes.session_id, n, writes.game_id]
    for ordinal, index in enumerate(fresh, start=1):
        at_ms, type_, props, nonce = writes.events[index]
        params += (ordinal, at_ms, type_, props, nonce)
    cursor.execute(_PG_EVENTS.format(rows=", ".join([_PG_EVENT_ROW] * n)), params)
    stored = cursor.fetchall()
    if len(stored) != n:
        raise _no_session(writes)
    return max(int(row[0]) for row in stored)


def _refused_claim(cursor: Any, writes: GameWrites, sqlite: bool) -> Exception:
    mark = "?" if sqlite else "%s"
    cursor.execute(f"SELECT action_count, finished_at_ms FROM games WHERE game_id = {mark}",
                   (writes.game_id,))
    state = cursor.fetchone()
    if state is None:
        return NotFound(f"no game {writes.game_id!r}")
    if state[1] is not None:
        return ConflictError(f"game {writes.game_id} is finished")
    return ConflictError(f"game {writes.game_id}: the record holds {state[0]} actions, "
                         f"not {writes.first_index} (played on in another tab)")


def _driver_error(exc: BaseException) -> bool:
    import sqlite3

    if isinstance(exc, sqlite3.Error):
        return True
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg is a dependency
        return False
    return isinstance(exc, psycopg.Error)


def _connection_lost(raw: Any) -> bool:
    closed = getattr(raw.driver_connection, "closed", False)
    broken = getattr(raw.driver_connection, "broken", False)
    return bool(closed) or bool(broken)
