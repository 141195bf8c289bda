"""Bricks & Walls' own move choice for a computer seat: one ply on the evaluation.

The generic players (engine/players) cover random and search play over the core API;
this one is the game's quick heuristic, used by the board harness and as a level.

>>> import random
>>> from engine.morris import MorrisGame, Place, decode
>>> s = MorrisGame().state_from_position({"a7": "W", "d7": "W", "b6": "B"}, {"W": 7, "B": 8})
>>> decode(greedy_action(s, random.Random(0)))  # completes the wall
Place(to='g7')
"""

from __future__ import annotations

import random

from engine.morris.evaluation import evaluate
from engine.morris.state import MorrisState


def greedy_action(state: MorrisState, rng: random.Random) -> int:
    """The legal action whose result ``evaluate`` likes best for the mover (ties: random)."""
    seat = state.current_player()
    best: list[int] = []
    best_value = -2.0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        value = evaluate(child, seat)
        if value > best_value + 1e-12:
            best, best_value = [action], value
        elif abs(value - best_value) <= 1e-12:
            best.append(action)
    return rng.choice(best)
