"""A tester's click and the computer's turn after it are each stored in one transaction:
when the database refuses the commit, nothing of the input is stored and the game on
screen goes back to where it was, so the tester's retry is stored exactly once.

Runs on a SQLite file and on PostgreSQL, the database locked by another writer for real
(the engine here waits 0.3 s for a lock instead of the app's 5 s, to keep the test short).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from faults_support import events_of, fault_postgres_server, make_tester
from sqlalchemy import Engine, event, func, select, text

from playtest.games.vapoosh.controller import PlayController
from playtest.games.vapoosh.session import open_game
from playtest.storage import repository as repo
from playtest.storage.db import make_engine, upgrade
from playtest.storage.errors import WriteFailed
from playtest.storage.events import session_seqs
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
