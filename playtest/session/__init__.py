"""The one game session of every game (no Streamlit): :class:`GameSession` on a
:class:`Play`, what the board says (:class:`Say`, :class:`Shown`) and what its view is
computed from (:class:`Moment`); :mod:`playtest.session.store` finds or starts a
tester's game in the database."""

from __future__ import annotations

from playtest.session.play import Play, Step
from playtest.session.session import (
    ComputerPlayers,
    GameSession,
    GameSink,
    Next,
    Pace,
    SeededPlayers,
    Wording,
)
from playtest.session.view import Moment
from playtest.session.words import MAIN, Say, Shown

__all__ = ["MAIN", "ComputerPlayers", "GameSession", "GameSink", "Moment", "Next", "Pace",
           "Play", "SeededPlayers", "Say", "Shown", "Step", "Wording"]
