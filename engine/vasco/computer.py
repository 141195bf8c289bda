"""Two Vasco computer players over the core API: legal random and greedy.

The greedy player looks one move ahead with :func:`engine.vasco.evaluation.evaluate`:
a move that closes its own loop scores +1 and one that closes the opponent's -1, so it
takes the first and avoids the second whenever it can; otherwise it prefers open paths
whose ends come together and shorter longest paths late in the game. Generic search
players (the players helper's) can use the same evaluation.

>>> from engine.vasco import VascoGame, Place
>>> ring = {(0, 0): "o*x", (0, 1): "*xo", (0, -1): "xo*", (-1, 0): "o*x", (-1, 1): "*xo"}
>>> s = VascoGame().state_from_position(ring, to_move=1)
>>> greedy = GreedyPlayer(seed=1)
>>> move = greedy.choose(s)
>>> after = s.clone(); _ = after.apply_action(move.action); after.winner
1
>>> move.reason
'closes its own loop'
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.vasco.evaluation import evaluate
from engine.vasco.state import VascoState, decode


@dataclass(frozen=True)
class Choice:
    """A move (action id) and why, in a few words for a designer's replay."""

    action: int
    reason: str


class RandomPlayer:
    """Picks uniformly among the legal moves (seeded)."""

    level = "random"

    def __init__(self, seed: int = 1) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: VascoState) -> Choice:
        return Choice(self._rng.choice(state.legal_actions()), "a legal move at random")


class GreedyPlayer:
    """One ply on the evaluation; ties broken by the seeded generator."""

    level = "greedy"

    def __init__(self, seed: int = 1) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: VascoState) -> Choice:
        me = state.current_player()
        best: list[int] = []
        best_score = -2.0
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            score = evaluate(child, me)
            if score > best_score + 1e-12:
                best, best_score = [action], score
            elif abs(score - best_score) <= 1e-12:
                best.append(action)
        action = self._rng.choice(best)
        return Choice(action, _why(state, action, best_score))


def _why(state: VascoState, action: int, score: float) -> str:
    child = state.clone()
    child.apply_action(action)
    out = child.outcome
    if out is not None and out.reason in ("loop", "both_loops"):
        return "closes its own loop" if out.winner == state.to_move else "had to close a loop"
    if score <= -1.0:
        return "every move loses"
    place = decode(action)
    return f"places {place.state} on {place.r},{place.c} (score {score:+.2f})"
