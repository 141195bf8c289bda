"""Bricks & Walls' computer levels, from the generic players and the game's evaluation.

The levels, easiest first:

- ``easy``: :class:`~engine.players.RandomPlayer` (a random legal action);
- ``medium``: :class:`~engine.players.GreedyPlayer` on :func:`engine.morris.evaluation.evaluate`
  (one ply: the best position after its own action);
- ``hard``: :class:`~engine.players.SearchPlayer` on the same evaluation (each side's best
  replies, as deep as :data:`HARD_BUDGET` positions per decision allow).

>>> from engine.players import levels, make_player
>>> levels("morris")
('easy', 'medium', 'hard')
>>> from engine.morris import MorrisGame
>>> s = MorrisGame().state_from_position({"a7": "W", "d7": "W", "b6": "B"}, {"W": 7, "B": 8})
>>> make_player("medium", seed=1, game="morris").choose(s).action  # completes the wall
Place(to='g7')
"""

from __future__ import annotations

from typing import Any

from engine.morris.actions import Move, Place, Remove, decode
from engine.morris.evaluation import evaluate
from engine.players import register_levels, standard_levels
from engine.players.base import TwoSeatHeuristics, after

#: Positions one Hard decision may create: two plies while placing, three while moving.
HARD_BUDGET = 1500
#: Rules the levels are measured under: standard, but a draw after 40 movement turns
#: without a removal (standard has no such cap, and two careful players can shuffle
#: bricks for ever).
STRENGTH_RULES = {"base": "standard", "move_cap": 40}


class MorrisHeuristics(TwoSeatHeuristics):
    """What the generic players need to know about Bricks & Walls (engine.players.Heuristics)."""

    # antisymmetric (own minus the opponent's, through tanh): White's negated is Black's
    evaluate = staticmethod(evaluate)

    def describe(self, state: Any, action: int) -> str:
        move = decode(action)
        if isinstance(move, Place):
            return f"places a brick on {move.to}"
        if isinstance(move, Move):
            return f"moves {move.frm} to {move.to}"
        assert isinstance(move, Remove)
        return f"takes the brick on {move.at}"

    def notes(self, state: Any, action: int) -> list[str]:
        child = after(state, action)
        if not child.is_terminal() and child.pending_removal:
            return ["builds a wall"]
        return []

    def action_object(self, state: Any, action: int) -> Any:
        return decode(action)


HEURISTICS = MorrisHeuristics()


#: The levels, easiest first.
LEVELS: dict[str, Any] = standard_levels(HEURISTICS, HARD_BUDGET)
register_levels("morris", LEVELS, rules=STRENGTH_RULES)
