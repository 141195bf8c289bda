"""One game input in one transaction (``playtest.storage.game_writes``), on SQLite and
PostgreSQL: stored whole or not at all, ``seq`` without gaps, a re-sent event once, and
a process killed between two of the transaction's statements leaves nothing of it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, func, select, text

from playtest.storage import repository as repo
from playtest.storage.errors import ConflictError, NotFound
from playtest.storage.events import EventLogger, session_seqs
from playtest.storage.game_writes import GameWrites, commit_game_writes
from playtest.storage.models import EventRow, GameActionRow, GameRow, ParticipantRow, SessionRow

ROOT = Path(__file__).resolve().parents[2]


def _game(engine: Engine) -> tuple[str, str, str]:
    """(participant, session, game) of a new consented tester with one logged event."""
    repo.create_study(engine, title="t", study_id="s")
    pid = repo.create_consented_participant(engine, "s", {"adult": True}).participant_id
    session = repo.start_session(engine, pid)
    game = repo.create_game(engine, pid, session, "standard", ["human", "ai:easy"], 7)
    assert EventLogger(engine).log(session, pid, "page", {"page": "play"}, "page-1") == 1
    return pid, session, game


def _writes(pid: str, session: str, game: str, first: int, nonce: str = "click-1") -> GameWrites:
    writes = GameWrites(game, pid, session, "s")
    writes.add_action(first, ["roll", [2, 3, 4, 5]])
    writes.add_event("roll", {"seat": 1, "dice": [2, 3, 4, 5]}, nonce)
    writes.add_action(first + 1, ["place", [2, 4]])
    writes.add_event("place", {"seat": 1, "tiles": [[2, 4]]})
    writes.add_event("ai_move", {"seat": 2, "reason": "x"})
    return writes


def _stored(engine: Engine, game: str, session: str) -> tuple[int, int, int, int]:
    """(action_count, action rows, event rows, the session's counter)."""
    with engine.connect() as conn:
        return (
            conn.execute(select(GameRow.action_count).where(GameRow.game_id == game)).scalar_one(),
            conn.execute(select(func.count()).select_from(GameActionRow)
                         .where(GameActionRow.game_id == game)).scalar_one(),
            conn.execute(select(func.count()).select_from(EventRow)).scalar_one(),
            conn.execute(select(SessionRow.last_seq)
                         .where(SessionRow.session_id == session)).scalar_one(),
        )  # type: ignore[call-overload]


def test_one_input_is_stored_whole_with_contiguous_seqs(engine: Engine) -> None:
    pid, session, game = _game(engine)
    writes = _writes(pid, session, game, 0)
    writes.set_finish(1, "win", 2)
    assert commit_game_writes(engine, writes) == [2, 3, 4]
    record = repo.load_game(engine, game)
    assert record is not None and record.finished and record.winner == 1
    assert record.actions == (["roll", [2, 3, 4, 5]], ["place", [2, 4]])
    assert session_seqs(engine, session) == [1, 2, 3, 4]
    assert _stored(engine, game, session) == (2, 2, 4, 4)
    assert repo.get_participant(engine, pid).games_completed == 1  # type: ignore[union-attr]
    # A single event afterwards continues the same numbers.
    assert EventLogger(engine).log(session, pid, "page", {"page": "done"}, "page-2") == 5


def test_a_claim_refused_at_the_commit_stores_nothing_of_the_batch(engine: Engine) -> None:
    """Another tab stored action 0 first: the batch is refused whole, no seq is used."""
    pid, session, game = _game(engine)
    assert repo.append_game_action(engine, game, 0, ["roll", [1, 1, 1, 1]])
    before = _stored(engine, game, session)
    with pytest.raises(ConflictError, match="another tab"):
        commit_game_writes(engine, _writes(pid, session, game, 0))
    assert _stored(engine, game, session) == before == (1, 1, 1, 1)
    assert commit_game_writes(engine, _writes(pid, session, game, 1)) == [2, 3, 4]
    assert session_seqs(engine, session) == [1, 2, 3, 4]


def test_a_finished_game_or_an_unknown_session_stores_nothing(engine: Engine) -> None:
    pid, session, game = _game(engine)
    with pytest.raises(NotFound):  # its actions were claimed and inserted: undone too
        commit_game_writes(engine, _writes(pid, "no-such-session", game, 0))
    assert _stored(engine, game, session) == (0, 0, 1, 1)
    repo.finish_game(engine, game, None, "restarted", 0)
    with pytest.raises(ConflictError, match="finished"):
        commit_game_writes(engine, _writes(pid, session, game, 0))
    assert _stored(engine, game, session) == (0, 0, 1, 1)


def test_a_resent_event_keeps_its_first_seq_and_is_stored_once(engine: Engine) -> None:
    pid, session, game = _game(engine)
    assert commit_game_writes(engine, _writes(pid, session, game, 0, "n-1")) == [2, 3, 4]
    again = GameWrites(game, pid, session, "s")
    again.add_event("roll", {"seat": 1}, "n-1")  # stored before: keeps seq 2
    again.add_event("click", {"seat": 1}, "n-2")
    again.add_event("click", {"seat": 1}, "n-2")  # twice in one batch: once
    again.add_event("page", {"page": "play"}, "page-1")  # the logger's event: seq 1
    assert commit_game_writes(engine, again) == [2, 5, 5, 1]
    assert session_seqs(engine, session) == [1, 2, 3, 4, 5]


def test_props_that_are_not_json_are_refused_at_once() -> None:
    writes = GameWrites("g", "p", "s", "s")
    with pytest.raises(ValueError, match="not JSON"):
        writes.add_event("click", {"bad": object()})
    props = {"seat": 1}
    writes.add_event("click", props)
    props["seat"] = 2  # changed afterwards: what is stored is what was logged
    assert json.loads(writes.events[0][2]) == {"seat": 1}
    writes.add_action(3, ["roll", [1, 1, 1, 1]])
    with pytest.raises(ConflictError, match="gap"):
        writes.add_action(5, ["place", [1, 1]])


# -- kill -9 between two statements of the transaction ------------------------------------

_CHILD = """
import json, os, signal, sys
from sqlalchemy import event
from playtest.storage.db import make_engine
from playtest.storage.game_writes import GameWrites, commit_game_writes

url, pid, session, game = sys.argv[1:5]
engine = make_engine(url)
if engine.dialect.name == "sqlite":
    def die_at_the_counter(statement):
        if statement.startswith("UPDATE sessions"):
            os.kill(os.getpid(), signal.SIGKILL)  # the claim and the actions ran, uncommitted

    event.listen(engine, "connect",
                 lambda conn, _record: conn.set_trace_callback(die_at_the_counter))
writes = GameWrites(game, pid, session, "s")
writes.add_action(0, ["roll", [2, 3, 4, 5]])
writes.add_event("roll", {"seat": 1}, "crash-1")
print("started", flush=True)
commit_game_writes(engine, writes)
print("committed", flush=True)
"""


def _wait_for(condition: Any, what: str, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def test_a_process_killed_between_statements_leaves_nothing_of_the_input(
    engine: Engine,
) -> None:
    """SQLite: the child kills itself when its counter UPDATE starts. PostgreSQL: the
    session row is locked, the child blocks at its counter UPDATE and is killed there.
    Either way its claim and its actions ran and were never committed."""
    pid, session, game = _game(engine)
    before = _stored(engine, game, session)
    url = engine.url.render_as_string(hide_password=False)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-c", _CHILD, url, pid, session, game]
    if engine.dialect.name == "sqlite":
        child = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
        assert child.returncode == -signal.SIGKILL, child.stderr
    else:
        with engine.connect() as holder:
            holder.execute(text("SELECT 1 FROM sessions WHERE session_id = :s FOR UPDATE"),
                           {"s": session})
            proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, text=True)
            try:
                def blocked() -> bool:
                    with engine.connect() as conn:
                        return bool(conn.execute(text(
                            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = "
                            "'Lock' AND query LIKE '%UPDATE sessions%' "
                            "AND datname = current_database()")).scalar_one())

                _wait_for(blocked, "the child to wait at its counter update")
                proc.send_signal(signal.SIGKILL)
                assert proc.wait(timeout=60) == -signal.SIGKILL
            finally:
                if proc.poll() is None:
                    proc.kill()
            holder.rollback()

        def gone() -> bool:
            with engine.connect() as conn:
                return not conn.execute(text(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND pid <> pg_backend_pid() AND (query LIKE '%UPDATE sessions%' "
                    "OR state = 'idle in transaction')")).scalar_one()

        _wait_for(gone, "the killed client's transaction to end")
    assert _stored(engine, game, session) == before == (0, 0, 1, 1)
    # The input again, as the tester's retry: stored once, numbers without a gap.
    again = GameWrites(game, pid, session, "s")
    again.add_action(0, ["roll", [2, 3, 4, 5]])
    again.add_event("roll", {"seat": 1}, "crash-1")
    assert commit_game_writes(engine, again) == [2]
    assert _stored(engine, game, session) == (1, 1, 2, 2)
    with engine.connect() as conn:
        assert conn.execute(select(ParticipantRow.games_completed)).scalar_one() == 0  # type: ignore[call-overload]
