"""A tester's input and the computer's turn after it are stored in one transaction, in
every game (the one game session, :mod:`playtest.session`): when the database refuses
the commit, nothing of the input is stored and the game on screen goes back to where it
was, so the tester's retry is stored exactly once; an input another tab beat to the
action index is stored alone, marked stale, and the page reloads the game.

Runs on a SQLite file and on PostgreSQL, the database locked by another writer for real
(the engine here waits 0.3 s for a lock instead of the app's 5 s, to keep the test short).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest
from faults_support import events_of, fault_postgres_server, make_tester
from sqlalchemy import Engine, event, func, select, text

from playtest.demo_play import click_path
from playtest.games.registry import game_names, game_plugin
from playtest.session import GameSession, Next, Pace, Play
from playtest.session.store import open_session
from playtest.storage import repository as repo
from playtest.storage.db import make_engine, upgrade
from playtest.storage.errors import WriteFailed
from playtest.storage.events import EventLogger, session_seqs
from playtest.storage.models import EventRow, GameActionRow
from tests.databases import empty_database

__all__ = ["fault_postgres_server"]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def quick_engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    with empty_database(request, tmp_path, "fault_postgres_server") as url:
        if url.startswith("sqlite"):
            engine = make_engine(url)
            event.listen(engine, "connect",  # after the app's own pragmas (5 s)
                         lambda conn, _record: conn.execute("PRAGMA busy_timeout=300"))
        else:
            engine = make_engine(url, connect_args={"options": "-c lock_timeout=300"})
        upgrade(engine)
        try:
            yield engine
        finally:
            engine.dispose()


@contextlib.contextmanager
def locked(engine: Engine) -> Iterator[None]:
    """Another writer holds the database (SQLite) or the game tables (PostgreSQL)."""
    if engine.dialect.name == "sqlite":
        holder = sqlite3.connect(str(engine.url.database), isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        return
    with engine.connect() as conn:
        conn.execute(text("LOCK TABLE games, game_actions, sessions, events IN EXCLUSIVE MODE"))
        try:
            yield
        finally:
            conn.rollback()


def _stored(engine: Engine) -> tuple[int, int]:
    with engine.connect() as conn:
        return (conn.execute(select(func.count()).select_from(GameActionRow)).scalar_one(),
                conn.execute(select(func.count()).select_from(EventRow)).scalar_one())


def _playing(engine: Engine, game: str) -> tuple[GameSession, str]:
    """A new tester of ``game`` whose computer moved first (at once), at their first input;
    (their game session, its session id)."""
    plugin = game_plugin(game)
    seats = list(plugin.default_seats) if len(plugin.default_seats) < 2 else \
        ["ai:easy", "human"]  # the computer moves first: an input follows its turn
    tester, logger, session_id = make_tester(engine, study_id=f"s-{game}", game=game,
                                             rules=plugin.default_rules, seats=seats)
    session = open_session(engine, logger, tester, session_id, seed=11)
    assert session.tester_to_act
    return session, session_id


def _last_input(session: GameSession) -> Callable[[str | None], Any]:
    """The tester's input that completes a move (a roll; a click, after the clicks that
    only select), ready to send with a nonce: one transaction of its own."""
    play = session.play
    if session.next() is Next.TESTER_DRAW:
        return lambda nonce: session.draw(nonce=nonce)
    action = play.state.legal_actions()[0]
    path = click_path(play.state, action)
    assert path is not None
    for target in path[:-1]:  # selecting stores a click, not an action
        session.click(target)
    return lambda nonce: session.click(path[-1], nonce=nonce)


def _game_rows(engine: Engine, game_id: str) -> tuple[int, int, list[str]]:
    """(action_count, action rows, the game's event types in seq order)."""
    with engine.connect() as conn:
        count = conn.execute(text("SELECT action_count FROM games WHERE game_id = :g"),
                             {"g": game_id}).scalar_one()
        rows = conn.execute(text("SELECT count(*) FROM game_actions WHERE game_id = :g"),
                            {"g": game_id}).scalar_one()
        types = conn.execute(text("SELECT type FROM events WHERE game_id = :g ORDER BY seq"),
                             {"g": game_id}).scalars().all()
    return int(count), int(rows), list(types)


def _replays_to(engine: Engine, play: Play) -> bool:
    record = repo.load_game(engine, play.game_id)
    assert record is not None
    again = Play.replayed(game_plugin(record.game), game_id=record.game_id,
                          participant_id=record.participant_id, seats=record.seats,
                          seed=int(record.seed or 0), rules=record.rules,
                          actions=record.actions, finished=record.finished)
    return bool(again.actions == play.actions
                and again.state.legal_actions() == play.state.legal_actions()
                and again.state.current_player() == play.state.current_player())


@pytest.mark.parametrize("game", game_names())
def test_an_input_is_stored_whole_in_one_transaction(quick_engine: Engine, game: str) -> None:
    engine = quick_engine
    session, session_id = _playing(engine, game)
    play = session.play
    send = _last_input(session)
    before = _game_rows(engine, play.game_id)
    send("the-input")
    after = _game_rows(engine, play.game_id)
    # The input, its action and its engine events, the computer's answer, the message
    # shown: all stored, in the order they happened.
    assert after[0] == after[1] == len(play.actions) > before[0]
    new_types = after[2][len(before[2]):]
    assert new_types[0] in ("click", "roll") and len(new_types) >= 2
    assert new_types[-1] == "message"
    assert _replays_to(engine, play)
    seqs = session_seqs(engine, session_id)
    assert seqs == list(range(1, len(seqs) + 1))


@pytest.mark.parametrize("game", game_names())
def test_a_refused_commit_stores_nothing_and_the_game_goes_back(
    quick_engine: Engine, game: str,
) -> None:
    engine = quick_engine
    session, session_id = _playing(engine, game)
    play = session.play
    send = _last_input(session)
    state, actions, stored = play.state, list(play.actions), _stored(engine)
    shown = play.shown
    with locked(engine), pytest.raises(WriteFailed):
        send("the-input")
    # Nothing of the input (its action, its own event, the engine's events, the
    # computer's answer, the message) is kept, and the game is where it was.
    assert _stored(engine) == stored
    assert play.state is state and play.actions == actions and play.shown == shown
    assert not session.stale  # the same game plays on
    # The tester sends it again: stored once, with everything it caused.
    send("the-input")
    assert _replays_to(engine, play)
    with engine.connect() as conn:
        sent = conn.execute(select(func.count()).select_from(EventRow).where(
            EventRow.client_event_id == "the-input")).scalar_one()  # type: ignore[arg-type]
    assert sent == 1
    seqs = session_seqs(engine, session_id)
    assert seqs == list(range(1, len(seqs) + 1))


def test_a_refused_computer_turn_is_played_again_from_the_same_position(
    quick_engine: Engine,
) -> None:
    engine = quick_engine
    tester, logger, session_id = make_tester(engine, seats=["human", "ai:easy"])
    session = open_session(engine, logger, tester, session_id, seed=12)
    paced = Pace(1000)  # the computer's move waits: it is an input of its own
    for _ in range(6):  # the tester's roll and placement, the computer then due
        if session.next() is Next.TESTER_DRAW:
            session.draw(pace=paced)
        elif session.next() is Next.TESTER:
            tile = session.play.state.legal_targets()[0]
            session.click(tile, pace=paced)
        else:
            break
    if session.next() is not Next.COMPUTER:
        pytest.skip("this seed's turn ended with the tester again")
    play = session.play
    board, stored = play.state.to_json(), _stored(engine)
    with locked(engine), pytest.raises(WriteFailed):
        session.step(pace=paced)
    assert play.state.to_json() == board and _stored(engine) == stored
    while session.next() is Next.COMPUTER:
        session.step(pace=paced)
    reopened = open_session(engine, logger, tester, repo.start_session(engine, tester.code))
    assert reopened.play.state.to_json() == play.state.to_json()


@pytest.mark.parametrize("game", game_names())
def test_an_input_refused_by_another_tab_reloads_and_is_stored_as_stale(
    quick_engine: Engine, game: str,
) -> None:
    engine = quick_engine
    session, session_id = _playing(engine, game)
    play = session.play
    send = _last_input(session)
    state, actions = play.state, list(play.actions)
    types_before = _game_rows(engine, play.game_id)[2]
    a_click = session.next() is Next.TESTER
    other_tab = _other_tabs_action(play)
    assert repo.append_game_action(engine, play.game_id, len(play.actions), other_tab)
    send("late")  # refused at its commit: no raise
    assert session.stale  # the page drops this game and reloads the record
    assert play.state is state and play.actions == actions
    count, rows, types = _game_rows(engine, play.game_id)
    assert count == rows == len(actions) + 1
    if a_click:  # a click is kept alone, marked stale: never the tester's answer
        assert types == [*types_before, "click"]
        stale = events_of(engine, play.participant_id, "click")[-1]["props"]
        assert stale["stale"] is True and stale["ok"] is False
    else:  # a roll another tab beat has nothing of its own to keep
        assert types == types_before
    reloaded = open_session(engine, EventLogger(engine), _tester_of(engine, play), session_id,
                            new=False)
    # the other tab's move, then (resumed) the computer's answer to it, if its turn
    assert reloaded.play.actions[:len(actions) + 1] == actions + [list(other_tab)]
    seqs = session_seqs(engine, session_id)
    assert seqs == list(range(1, len(seqs) + 1))


def _other_tabs_action(play: Play) -> list[Any]:
    """An action another tab may have stored at this index (a draw of other dice, the
    last legal move)."""
    state = play.state
    if state.current_player() < 0:
        outcomes = state.chance_outcomes()
        return list(play.game.action_to_json(outcomes[-1][0]))
    return list(play.game.action_to_json(state.legal_actions()[-1]))


def _tester_of(engine: Engine, play: Play) -> Any:
    from playtest import services

    tester = services.load_tester(engine, play.participant_id)
    assert tester is not None
    return tester


# A child process that sends one input of a game through the session and is killed
# between two statements of the input's transaction (SQLite: it kills itself when its
# counter UPDATE starts; PostgreSQL: it blocks there on the session row the parent holds).
# The clicks that only select (Vasco's piece before its tile) are sent and stored first;
# then it says "ready" and waits for "go" before the input, so the parent locks the
# session row for the input's own transaction, not a selecting click's. It is forked
# from this process (the modules already imported, instead of a new interpreter
# importing the app again); it opens the database as the app does, through
# ``DATABASE_URL`` and :mod:`playtest.runtime`, with engines of its own.
def _game_child(url: str, code: str, session_id: str, parent: Connection) -> None:
    import os
    import signal

    from playtest import runtime, services
    from playtest.settings import DATABASE_URL_ENV

    os.environ[DATABASE_URL_ENV] = url
    engine = runtime.database()
    if engine.dialect.name == "sqlite":
        seen: list[str] = []

        def die_at_the_counter(statement: str) -> None:
            seen.append(statement.split(" (")[0])
            # the input's claim and its actions ran in this transaction, not yet committed
            if statement.startswith("UPDATE sessions") and "INSERT INTO game_actions" in seen \
                    and "COMMIT" not in seen[seen.index("INSERT INTO game_actions"):]:
                os.kill(os.getpid(), signal.SIGKILL)

        event.listen(engine, "connect",
                     lambda conn, _record: conn.set_trace_callback(die_at_the_counter))
        engine.dispose()  # the connection the migration opened has no trace callback
    tester = services.load_tester(engine, code)
    assert tester is not None
    session = open_session(engine, runtime.event_logger(), tester, session_id, new=False)
    drawing = session.next() is Next.TESTER_DRAW
    path: tuple[str, ...] | None = () if drawing else click_path(
        session.play.state, session.play.state.legal_actions()[0])
    assert path is not None
    for target in path[:-1]:
        session.click(target)
    parent.send("ready")
    assert parent.recv() == "go"
    if drawing:
        session.draw(nonce="the-input")
    else:
        session.click(path[-1], nonce="the-input")
    parent.send("committed")


@pytest.mark.parametrize("game", game_names())
def test_an_input_killed_between_statements_leaves_nothing(
    quick_engine: Engine, game: str,
) -> None:
    import multiprocessing
    import signal
    import time

    engine = quick_engine
    session, session_id = _playing(engine, game)
    play = session.play
    before = _game_rows(engine, play.game_id)
    url = engine.url.render_as_string(hide_password=False)
    ours, theirs = multiprocessing.Pipe()
    child = multiprocessing.get_context("fork").Process(
        target=_game_child, args=(url, play.participant_id, session_id, theirs))
    child.start()
    try:
        assert ours.poll(180) and ours.recv() == "ready", "the child ended before its input"
        if engine.dialect.name == "sqlite":
            ours.send("go")
            child.join(timeout=180)
            assert child.exitcode == -signal.SIGKILL, "the child was not killed mid-input"
        else:
            with engine.connect() as holder:
                holder.execute(text("SELECT 1 FROM sessions WHERE session_id = :s "
                                    "FOR UPDATE"), {"s": session_id})
                ours.send("go")
                deadline = time.monotonic() + 120
                while (waiting := _waiting_at_the_counter(engine)) is None:
                    assert child.is_alive(), "the child ended before the counter"
                    assert time.monotonic() < deadline, "the child never got there"
                    time.sleep(0.05)
                # Its claim and its actions ran in the same, open transaction.
                assert _holds_lock_on(engine, waiting, "game_actions")
                child.kill()
                child.join(timeout=60)
                assert child.exitcode == -signal.SIGKILL
                holder.rollback()
            deadline = time.monotonic() + 60
            while _busy(engine):
                assert time.monotonic() < deadline, "the killed client's transaction lives on"
                time.sleep(0.05)
    finally:
        if child.is_alive():
            child.kill()
        child.join(timeout=60)
    # Nothing of the input: no action, no engine event, no computer move, no message.
    after = _game_rows(engine, play.game_id)
    assert after[:2] == before[:2] and after[2][:len(before[2])] == before[2]
    # at most a click that only selected (and what the board then said)
    assert set(after[2][len(before[2]):]) <= {"click", "message"}
    # This tab sends the same input: stored once, numbers without a gap.
    _last_input(session)("the-input")
    assert _replays_to(engine, play)
    seqs = session_seqs(engine, session_id)
    assert seqs == list(range(1, len(seqs) + 1))


def _waiting_at_the_counter(engine: Engine) -> int | None:
    """The backend waiting at the session counter's UPDATE, if one is."""
    with engine.connect() as conn:
        pid = conn.execute(text(
            "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND query LIKE '%UPDATE sessions%' AND datname = current_database()")).first()
    return None if pid is None else int(pid[0])


def _holds_lock_on(engine: Engine, pid: int, table: str) -> bool:
    with engine.connect() as conn:
        return bool(conn.execute(text(
            "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
            "WHERE l.pid = :pid AND c.relname = :table AND l.granted "
            "AND l.mode = 'RowExclusiveLock'"), {"pid": pid, "table": table}).scalar_one())


def _busy(engine: Engine) -> bool:
    with engine.connect() as conn:
        return bool(conn.execute(text(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND (query LIKE '%UPDATE sessions%' "
            "OR state = 'idle in transaction')")).scalar_one())
