"""A tester's click and the computer's turn after it are each stored in one transaction:
when the database refuses the commit, nothing of the input is stored and the game on
screen goes back to where it was, so the tester's retry is stored exactly once.

Runs on a SQLite file and on PostgreSQL, the database locked by another writer for real
(the engine here waits 0.3 s for a lock instead of the app's 5 s, to keep the test short).
"""

from __future__ import annotations

import contextlib
import importlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from faults_support import events_of, fault_postgres_server, make_tester
from sqlalchemy import Engine, event, func, select, text

from playtest.games.vapoosh.controller import PlayController
from playtest.games.vapoosh.session import open_game
from playtest.storage import repository as repo
from playtest.storage.db import make_engine, upgrade
from playtest.storage.errors import WriteFailed
from playtest.storage.events import EventLogger, session_seqs
from playtest.storage.models import EventRow, GameActionRow
from tests.databases import empty_database

__all__ = ["fault_postgres_server"]

ROOT = Path(__file__).resolve().parents[2]


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


def _to_a_placement(ctrl: PlayController) -> None:
    ctrl.play_computers()
    while ctrl.state.phase != "place":
        assert not ctrl.is_over
        ctrl.roll()
        ctrl.play_computers()


def test_a_refused_commit_stores_nothing_and_the_game_goes_back(quick_engine: Engine) -> None:
    engine = quick_engine
    tester, logger, session = make_tester(engine, seats=["human", "ai:easy"])
    ctrl = open_game(engine, logger, tester, session, seed=11)
    _to_a_placement(ctrl)
    board, actions, stored = ctrl.state.to_json(), list(ctrl.actions), _stored(engine)
    tile = ctrl.legal_tiles()[0]
    brown = ctrl.brown_choice() == "forced"
    with locked(engine), pytest.raises(WriteFailed):
        ctrl.click(*tile, brown=brown, client_event_id="the-click")
    # Nothing of the click (its placement, its click event, the engine's events) is kept,
    # and the controller is where it was: the same board, the same actions.
    assert _stored(engine) == stored
    assert ctrl.state.to_json() == board and ctrl.actions == actions
    assert ctrl.state.phase == "place" and ctrl.human_to_act
    # The tester clicks again: stored once, with everything it caused.
    assert ctrl.click(*tile, brown=brown, client_event_id="the-click").accepted
    ctrl.play_computers()
    record = repo.load_game(engine, ctrl.game_id)
    assert record is not None and list(record.actions) == ctrl.actions
    clicks = [e for e in events_of(engine, tester.code, "click")]
    assert [c["props"]["ok"] for c in clicks] == [True]
    seqs = session_seqs(engine, session)
    assert seqs == list(range(1, len(seqs) + 1))


def test_a_refused_computer_turn_is_played_again_from_the_same_position(
    quick_engine: Engine,
) -> None:
    engine = quick_engine
    tester, logger, session = make_tester(engine, seats=["human", "ai:easy"])
    ctrl = open_game(engine, logger, tester, session, seed=12)
    _to_a_placement(ctrl)
    tile = ctrl.legal_tiles()[0]
    assert ctrl.click(*tile, brown=ctrl.brown_choice() == "forced").accepted
    if not ctrl.computer_to_act:
        pytest.skip("this seed's click ended the turn with the tester again")
    board, stored = ctrl.state.to_json(), _stored(engine)
    with locked(engine), pytest.raises(WriteFailed):
        ctrl.play_computers()
    assert ctrl.state.to_json() == board and _stored(engine) == stored
    ctrl.play_computers()
    assert not ctrl.computer_to_act
    reopened = open_game(engine, logger, tester, repo.start_session(engine, tester.code))
    assert reopened.state.to_json() == ctrl.state.to_json()


# -- the other games: Bricks & Walls, Vasco, Dokusen (playtest/games/play_step.py) --------

OTHER_GAMES = ("morris", "vasco", "dokusen")

# A child process that plays one input of a game through its play step and is killed
# between two statements of the input's transaction (SQLite: it kills itself when its
# counter UPDATE starts; PostgreSQL: it blocks there on the session row the parent holds).
_GAME_CHILD = """
import importlib, os, signal, sys
import streamlit as st
from sqlalchemy import event
from playtest import runtime, services
from playtest.app_pages import common
from playtest.games.play_step import one_input

game, code, session, action = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
engine = runtime.database()
if engine.dialect.name == "sqlite":
    seen = []

    def die_at_the_counter(statement):
        seen.append(statement.split(" (")[0])
        # the input's claim and its actions ran in this transaction, not yet committed
        if statement.startswith("UPDATE sessions") and "INSERT INTO game_actions" in seen \
                and "COMMIT" not in seen[seen.index("INSERT INTO game_actions"):]:
            os.kill(os.getpid(), signal.SIGKILL)

    event.listen(engine, "connect",
                 lambda conn, _record: conn.set_trace_callback(die_at_the_counter))
    engine.dispose()  # the connection the migration opened has no trace callback
module = importlib.import_module(f"playtest.games.{game}.play")
tester = services.load_tester(engine, code)
st.session_state[common.SESSION_KEY] = {code: session}
play = module._current(tester)
with one_input(tester, play, session_key=module.SESSION_KEY, click={"seat": 1}):
    module._sink(tester, play.game_id).log("click", {"seat": 1, "ok": True})
    module._apply(tester, play, action)
    module._computer_moves(tester, play)
print("committed", flush=True)
"""


@contextlib.contextmanager
def _playing(engine: Engine, game: str, monkeypatch: pytest.MonkeyPatch
             ) -> Iterator[tuple[Any, Any, Any, str]]:
    """(play module, tester, the tester's game at its first human move, session) of a
    new tester of ``game``, the play step's runtime pointed at ``engine``."""
    import streamlit as st

    from playtest import runtime
    from playtest.app_pages import common
    from playtest.games.play_step import one_input
    from playtest.games.registry import game_plugin
    from playtest.settings import DATABASE_URL_ENV

    url = engine.url.render_as_string(hide_password=False)
    monkeypatch.setenv(DATABASE_URL_ENV, url)
    monkeypatch.setitem(runtime._engines, url, engine)
    monkeypatch.setitem(runtime._loggers, url, EventLogger(engine))
    plugin = game_plugin(game)
    seats = list(plugin.default_seats) if len(plugin.default_seats) < 2 else \
        ["ai:easy", "human"]  # the computer moves first: an input follows its turn
    tester, _logger, session = make_tester(engine, study_id=f"s-{game}", game=game,
                                           rules=plugin.default_rules, seats=seats)
    module = importlib.import_module(f"playtest.games.{game}.play")
    sessions = st.session_state.setdefault(common.SESSION_KEY, {})
    sessions[tester.code] = session
    try:
        play = module._current(tester)
        with one_input(tester, play, session_key=module.SESSION_KEY):
            module._computer_moves(tester, play)
        assert not play.state.is_terminal()
        assert play.seats[play.state.current_player()] == "human"
        yield module, tester, play, session
    finally:
        st.session_state.pop(module.SESSION_KEY, None)
        sessions.pop(tester.code, None)


def _tester_input(module: Any, tester: Any, play: Any, action: int) -> None:
    """What the game's ``on_click`` does with a click the engine accepted: the click, its
    action (with the engine's events), the computer's turn, the end."""
    from playtest.games.play_step import one_input

    click = {"seat": play.state.current_player() + 1, "ok": True, "action": action}
    with one_input(tester, play, session_key=module.SESSION_KEY, click=click):
        module._sink(tester, play.game_id).log("click", click)
        assert module._apply(tester, play, action)
        module._computer_moves(tester, play)
        module._finish_if_over(tester, play)


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


def _replays_to(engine: Engine, play: Any) -> bool:
    from playtest.games.play_step import replayed_play
    from playtest.games.registry import game_plugin

    record = repo.load_game(engine, play.game_id)
    assert record is not None
    again = replayed_play(record, game_plugin(record.game), type(play))
    return bool(again.actions == play.actions
                and again.state.legal_actions() == play.state.legal_actions()
                and again.state.current_player() == play.state.current_player())


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_a_games_input_is_stored_whole_in_one_transaction(
    quick_engine: Engine, game: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    engine = quick_engine
    with _playing(engine, game, monkeypatch) as (module, tester, play, session):
        before = _game_rows(engine, play.game_id)
        _tester_input(module, tester, play, play.state.legal_actions()[0])
        after = _game_rows(engine, play.game_id)
        # The click, its action and its engine events, and the computer's answer: all
        # stored, in the order they happened.
        assert after[0] == after[1] == len(play.actions) > before[0]
        new_types = after[2][len(before[2]):]
        assert new_types[0] == "click" and len(new_types) > 2
        if game != "dokusen" and not play.state.is_terminal():
            assert "ai_move" in new_types  # the computer's answer came with it
        assert _replays_to(engine, play)
        seqs = session_seqs(engine, session)
        assert seqs == list(range(1, len(seqs) + 1))


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_a_games_refused_commit_stores_nothing_and_the_game_goes_back(
    quick_engine: Engine, game: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    import streamlit as st

    engine = quick_engine
    with _playing(engine, game, monkeypatch) as (module, tester, play, session):
        action = play.state.legal_actions()[0]
        state, actions, stored = play.state, list(play.actions), _game_rows(engine, play.game_id)
        with locked(engine), pytest.raises(WriteFailed):
            _tester_input(module, tester, play, action)
        assert _game_rows(engine, play.game_id) == stored
        assert play.state is state and play.actions == actions
        assert st.session_state[module.SESSION_KEY] is play  # the same game plays on
        # The tester clicks again: stored once, with everything it caused.
        _tester_input(module, tester, play, action)
        assert _replays_to(engine, play)
        assert _game_rows(engine, play.game_id)[2].count("click") == 1
        seqs = session_seqs(engine, session)
        assert seqs == list(range(1, len(seqs) + 1))


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_a_games_input_refused_by_another_tab_reloads_and_is_stored_as_stale(
    quick_engine: Engine, game: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    import streamlit as st

    engine = quick_engine
    with _playing(engine, game, monkeypatch) as (module, tester, play, session):
        state, actions = play.state, list(play.actions)
        legal = play.state.legal_actions()
        other_tab = play.game.action_to_json(legal[-1])
        assert repo.append_game_action(engine, play.game_id, len(play.actions), other_tab)
        _tester_input(module, tester, play, legal[0])  # refused at its commit: no raise
        assert play.state is state and play.actions == actions
        assert module.SESSION_KEY not in st.session_state  # the page reloads the record
        count, rows, types = _game_rows(engine, play.game_id)
        assert count == rows == len(actions) + 1 and types[-1] == "click"
        assert "ai_move" not in types[len(types) - 1:]
        stale = events_of(engine, tester.code, "click")[-1]["props"]
        assert stale["stale"] is True and stale["ok"] is False
        reloaded = module._current(tester)
        assert reloaded is not play and reloaded.actions == actions + [list(other_tab)]
        seqs = session_seqs(engine, session)
        assert seqs == list(range(1, len(seqs) + 1))


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_a_games_input_killed_between_statements_leaves_nothing(
    quick_engine: Engine, game: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    from playtest.settings import DATABASE_URL_ENV

    engine = quick_engine
    with _playing(engine, game, monkeypatch) as (module, tester, play, session):
        action = play.state.legal_actions()[0]
        before = _game_rows(engine, play.game_id)
        url = engine.url.render_as_string(hide_password=False)
        env = {**os.environ, "PYTHONPATH": str(ROOT), DATABASE_URL_ENV: url}
        args = [sys.executable, "-c", _GAME_CHILD, game, tester.code, session, str(action)]
        if engine.dialect.name == "sqlite":
            child = subprocess.run(args, env=env, capture_output=True, text=True,
                                   timeout=180, cwd=ROOT)
            assert child.returncode == -signal.SIGKILL, child.stderr[-2000:]
        else:
            with engine.connect() as holder:
                holder.execute(text("SELECT 1 FROM sessions WHERE session_id = :s "
                                    "FOR UPDATE"), {"s": session})
                proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, text=True,
                                        cwd=ROOT)
                try:
                    deadline = time.monotonic() + 120
                    while (waiting := _waiting_at_the_counter(engine)) is None:
                        assert proc.poll() is None, "the child ended before the counter"
                        assert time.monotonic() < deadline, "the child never got there"
                        time.sleep(0.05)
                    # Its claim and its actions ran in the same, open transaction.
                    assert _holds_lock_on(engine, waiting, "game_actions")
                    proc.send_signal(signal.SIGKILL)
                    assert proc.wait(timeout=60) == -signal.SIGKILL
                finally:
                    if proc.poll() is None:
                        proc.kill()
                holder.rollback()
            deadline = time.monotonic() + 60
            while _busy(engine):
                assert time.monotonic() < deadline, "the killed client's transaction lives on"
                time.sleep(0.05)
        # Nothing of the input: no click, no action, no engine event, no computer move.
        assert _game_rows(engine, play.game_id) == before
        # This tab plays the same input: stored once, numbers without a gap.
        _tester_input(module, tester, play, action)
        assert _replays_to(engine, play)
        seqs = session_seqs(engine, session)
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
