"""Vasco's computer levels, from the generic players and the game's evaluation.

The levels, easiest first:

- ``easy``: :class:`~engine.players.RandomPlayer` (a random legal placement);
- ``medium``: :class:`~engine.players.GreedyPlayer` on :func:`engine.vasco.evaluation.evaluate`
  (one ply: closing its own loop scores +1 and closing the opponent's -1, so it takes the
  first whenever it can and avoids the second whenever it can; otherwise open paths whose
  ends come together, and shorter longest paths late in the game);
- ``hard``: :class:`~engine.players.SearchPlayer` on the same evaluation (the opponent's
  best reply to each of its :data:`HARD_WIDTH` best moves at one ply, as far as
  :data:`HARD_BUDGET` positions per decision allow).

``python -m engine bench --strength --game vasco`` prints how they fare against each other.

>>> from engine.players import levels, make_player
>>> levels("vasco")
('easy', 'medium', 'hard')
>>> from engine.vasco import VascoGame
>>> ring = {(0, 0): "o*x", (0, 1): "*xo", (0, -1): "xo*", (-1, 0): "o*x", (-1, 1): "*xo"}
>>> s = VascoGame().state_from_position(ring, to_move=1)   # Red (O) to move
>>> decision = make_player("medium", seed=1, game="vasco").choose(s)
>>> decision.reason.startswith("Wins: places")   # Red closes its own loop
True
>>> after_move = s.clone(); _ = after_move.apply(decision.action); after_move.winner
1
"""

from __future__ import annotations

from typing import Any

from engine.players import register_levels, standard_levels
from engine.players.base import TwoSeatHeuristics, after
from engine.vasco.evaluation import evaluate
from engine.vasco.state import Place, decode

#: Positions one Hard decision may create. Two plies (each reply of the opponent to each
#: of its moves) need about legal × legal positions: 45 × 55 early, ~100 × 100 in the
#: middle game; past the budget it stops at one ply (then it plays like Medium).
HARD_BUDGET = 5000
#: Moves (the best at one ply) whose replies Hard looks at. Measured on 60 seeded
#: self-play positions: all of them (before) took 390-560 ms at the 95th percentile, 10
#: take 223 ms (the target is 300); in 40 games each, 10 scored 0.60 against Medium (all
#: of them: 0.55) and 0.60 against Hard looking at all of them.
HARD_WIDTH = 10


class VascoHeuristics(TwoSeatHeuristics):
    """What the generic players need to know about Vasco (engine.players.Heuristics)."""

    # antisymmetric (O's value negated is X's), and exact once finished
    evaluate = staticmethod(evaluate)

    def describe(self, state: Any, action: int) -> str:
        place = decode(action)
        return f"places {place.state} on {place.r},{place.c}"

    def notes(self, state: Any, action: int) -> list[str]:
        child = after(state, action)
        notes: list[str] = []
        forced = sum(e.kind == "auto" for e in child.last_events)
        if forced:
            notes.append(f"forces {forced} tile{'s' if forced != 1 else ''}")
        out = child.outcome
        if out is not None and out.reason in ("loop", "both_loops"):
            mover = state.current_player() + 1
            notes.append("closes its own loop" if out.winner == mover else "closes a loop")
        return notes

    def chance_outcomes(self, state: Any) -> list[tuple[int, float]]:
        return []  # Vasco has no chance

    def action_object(self, state: Any, action: int) -> Place:
        return decode(action)


HEURISTICS = VascoHeuristics()


#: The levels, easiest first.
LEVELS: dict[str, Any] = standard_levels(HEURISTICS, HARD_BUDGET, hard_width=HARD_WIDTH)
register_levels("vasco", LEVELS, rules="standard")
