"""Bricks & Walls: the Nine Men's Morris variant with walls (seed 001), exactly as
rules-other-games.md section 1.

>>> from engine.morris import MorrisGame, Place
>>> s = MorrisGame().new_initial_state()
>>> [e.kind for e in s.apply(Place("d7"))], s.to_move
(['place'], 'B')
>>> from engine.core import make_game
>>> make_game("morris", "standard", 2).new_initial_state().phase
'place'
"""

from __future__ import annotations

from engine.morris.actions import Action, Move, Place, Remove, action_from_json, decode, encode
from engine.morris.board import ADJACENT, LINES, POINTS
from engine.morris.rules import PRESETS, Rules
from engine.morris.state import COLOUR_NAMES, COLOURS, MorrisGame, MorrisState, new_state

__all__ = [
    "ADJACENT",
    "Action",
    "COLOURS",
    "COLOUR_NAMES",
    "LINES",
    "Move",
    "MorrisGame",
    "MorrisState",
    "POINTS",
    "PRESETS",
    "Place",
    "Remove",
    "Rules",
    "action_from_json",
    "decode",
    "encode",
    "new_state",
]
