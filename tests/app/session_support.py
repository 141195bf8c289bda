"""Driving a tester's game through the one game session, as the play page does, without a
browser: for the tests that need games played, restarted or left.

Import it by its package path::

    from tests.app.session_support import open_play, play_out, moves
"""

from __future__ import annotations

from sqlalchemy.engine import Engine

from playtest import services
from playtest.session import GameSession, Next
from playtest.session.store import open_session
from playtest.storage import repository as repo
from playtest.storage.events import EventLogger


def open_play(engine: Engine, tester: services.Tester, *, seed: int | None = None,
              new: bool = True, session_id: str | None = None) -> GameSession:
    """The tester's game (a new one with ``seed``), the computer moving at once."""
    session_id = session_id or repo.start_session(engine, tester.code)
    return open_session(engine, EventLogger(engine), tester, session_id, new=new, seed=seed)


def one_move(session: GameSession) -> None:
    """One move of the tester: a draw their button makes (a roll), or the first legal
    target clicked until an action is made (a brick picked, then its new point)."""
    play = session.play
    if session.next() is Next.TESTER_DRAW:
        session.draw()
        return
    before = len(play.actions)
    for _ in range(4):
        if session.next() is not Next.TESTER or len(play.actions) > before:
            return
        targets = play.state.legal_targets(play.selection)
        assert targets, "the tester has a legal target"
        session.click(targets[0])


def play_out(session: GameSession, limit: int = 3000) -> None:
    """The tester's moves until the game is over (the computers move at once)."""
    for _ in range(limit):
        if session.play.over:
            return
        one_move(session)
    raise AssertionError("the game did not end")


def moves(session: GameSession, turns: int) -> None:
    """``turns`` of the tester's moves (each a draw or an action)."""
    for _ in range(turns):
        if session.play.over:
            return
        one_move(session)
