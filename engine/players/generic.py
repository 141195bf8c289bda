"""Computer players for any game of the engine core: random, greedy and search.

- :class:`RandomPlayer`: a uniformly random legal action;
- :class:`GreedyPlayer`: one ply: the action whose resulting position the game's
  evaluation likes best for the mover (an immediate win first);
- :class:`SearchPlayer`: expectimax (max-n for the seats, probability-weighted means at
  chance nodes) deepened one level at a time while a budget of positions lasts; the
  evaluation scores the positions where it stops. Strength is set by ``budget`` (how
  many positions one decision may create), never by the clock, so the same seed gives
  the same decision on any machine.

``tests/engine/test_players_generic.py`` plays them on a small dice game written there
and on every registered game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from engine.core import CHANCE, State
from engine.players.base import Decision, Heuristics, Player, after, capitalised, pick_best


class RandomPlayer(Player):
    """A uniformly random legal action (one draw of the player's generator)."""

    level = "random"

    def _decide(self, state: State, legal: list[int]) -> Decision:
        action = self._rng.choice(legal)
        return Decision(action, f"Random pick: {self.heuristics.describe(state, action)}")


def _immediate_win(
    heuristics: Heuristics, state: State, legal: Sequence[int], children: Sequence[Any]
) -> Decision | None:
    """The first action that ends the game with the mover ahead of everyone, if any."""
    seat = state.current_player()
    for action, child in zip(legal, children, strict=True):
        if child.is_terminal():
            returns = child.returns()
            if returns[seat] > 0 and returns[seat] == max(returns):
                return Decision(action, f"Wins: {heuristics.describe(state, action)}")
    return None


def _reason(
    heuristics: Heuristics,
    state: State,
    legal: Sequence[int],
    values: Sequence[float],
    k: int,
    word: str,
) -> str:
    action = legal[k]
    parts = [capitalised(heuristics.describe(state, action)), *heuristics.notes(state, action)]
    runner = max((j for j in range(len(legal)) if j != k), key=lambda j: values[j])
    parts.append(
        f"{word} {values[k]:+.2f} vs {values[runner]:+.2f} for "
        f"{heuristics.describe(state, legal[runner])}"
    )
    return "; ".join(parts)


class GreedyPlayer(Player):
    """One ply on the game's evaluation: the best resulting position for the mover."""

    level = "greedy"

    def _decide(self, state: State, legal: list[int]) -> Decision:
        children = [after(state, a) for a in legal]
        win = _immediate_win(self.heuristics, state, legal, children)
        if win is not None:
            return win
        seat = state.current_player()
        values = [float(v[seat]) for v in self.heuristics.values(children)]
        k = pick_best(self._rng, values)
        return Decision(legal[k], _reason(self.heuristics, state, legal, values, k, "score"))


class _OutOfBudget(Exception):
    pass


class SearchPlayer(Player):
    """Expectimax with chance nodes, deepened while ``budget`` positions last.

    Depth 1 is :class:`GreedyPlayer`'s look; each further level expands one more node
    of every line: a chance node into its outcomes (``heuristics.chance_outcomes``,
    weighted by probability) or a seat's turn into its legal actions (that seat takes
    the best for itself). A level that would create more than ``budget`` positions in
    all is abandoned and the last complete level decides.

    With ``width``, each level after the first looks further only at the ``width`` moves
    the level before valued best (a beam; ties kept in the order of the legal moves), so
    a game with many moves a turn still sees its opponent's replies to its likely moves
    within the budget; the others are never chosen once a deeper level is complete.

    >>> from engine.players.base import PlainHeuristics
    >>> SearchPlayer(3, PlainHeuristics(), budget=500, width=4)
    SearchPlayer(seed=3, budget=500, width=4)
    """

    level = "search"

    def __init__(
        self,
        seed: int = 1,
        heuristics: Heuristics | None = None,
        rng: random.Random | None = None,
        budget: int = 2000,
        width: int | None = None,
    ) -> None:
        super().__init__(seed, heuristics, rng)
        if budget < 1:
            raise ValueError("budget: must be at least 1 position")
        if width is not None and width < 1:
            raise ValueError("width: must be at least 1 move")
        self.budget = budget
        self.width = width
        self._nodes = 0
        self._frontier: list[Any] = []

    def _decide(self, state: State, legal: list[int]) -> Decision:
        children = [after(state, a) for a in legal]
        win = _immediate_win(self.heuristics, state, legal, children)
        if win is not None:
            return win
        seat = state.current_player()
        self._nodes = len(children)
        values: list[float] = []
        looked = list(range(len(children)))  # the moves this level looks at
        depth = 0
        while True:
            self._frontier = []
            # per move looked at: its cut lines (a slice of the frontier) and positions made
            spans: list[tuple[int, int, int]] = []
            trees = []
            try:
                for i in looked:
                    cuts, nodes = len(self._frontier), self._nodes
                    trees.append(self._expand(children[i], depth))
                    spans.append((cuts, len(self._frontier), self._nodes - nodes))
            except _OutOfBudget:
                break
            leaves: list[Any] = []
            for tree in trees:
                _leaves(tree, leaves)
            scored = self.heuristics.values(leaves)
            values = [-math.inf] * len(children)
            for i, tree in zip(looked, trees, strict=True):
                values[i] = float(_backup(tree, scored)[seat])
            depth += 1
            if not self._frontier:  # every line reached the end of the game
                break
            if self.width is not None and len(looked) > self.width:
                best = sorted(range(len(looked)), key=lambda j: -values[looked[j]])
                kept = sorted(best[: self.width])
                looked = [looked[j] for j in kept]
                self._frontier = [cut for j in kept for cut in
                                  self._frontier[spans[j][0]:spans[j][1]]]
                spans = [spans[j] for j in kept]
            # The next level re-creates this one and expands every cut line once more:
            # stop now if that cannot fit in what is left of the budget.
            # (Summed lazily: a game whose legal moves are dear to list stops at the first
            # cut line that overflows instead of listing every one.)
            deeper = sum(span[2] for span in spans)
            for cut in self._frontier:
                deeper += self._branching(cut)
                if self._nodes + deeper > self.budget:
                    break
            if self._nodes + deeper > self.budget:
                break
        k = pick_best(self._rng, values)
        reason = _reason(self.heuristics, state, legal, values, k, "expects")
        return Decision(legal[k], f"{reason}; looked {depth} steps ahead (moves and chance draws)")

    def _branching(self, state: Any) -> int:
        if state.current_player() == CHANCE:
            return len(self.heuristics.chance_outcomes(state))
        return len(state.legal_actions())

    def _expand(self, state: Any, depth: int) -> Any:
        """A tree node: ``("leaf", state)``, ``("max", seat, [nodes])`` or
        ``("chance", [(p, node)])``."""
        if state.is_terminal():
            return ["leaf", state, -1]
        if depth == 0:
            self._frontier.append(state)
            return ["leaf", state, -1]
        player = state.current_player()
        if player == CHANCE:
            outcomes = self.heuristics.chance_outcomes(state)
            self._spend(len(outcomes))
            return [
                "chance",
                [(p, self._expand(after(state, a), depth - 1)) for a, p in outcomes],
            ]
        legal = state.legal_actions()
        self._spend(len(legal))
        return ["max", player, [self._expand(after(state, a), depth - 1) for a in legal]]

    def _spend(self, nodes: int) -> None:
        self._nodes += nodes
        if self._nodes > self.budget:
            raise _OutOfBudget

    def __repr__(self) -> str:
        width = "" if self.width is None else f", width={self.width}"
        return f"{type(self).__name__}(seed={self.seed}, budget={self.budget}{width})"


def _leaves(node: list[Any], out: list[Any]) -> None:
    """Collect the leaf states in order, numbering each leaf by its place in ``out``."""
    kind = node[0]
    if kind == "leaf":
        node[2] = len(out)
        out.append(node[1])
    elif kind == "chance":
        for _, child in node[1]:
            _leaves(child, out)
    else:
        for child in node[2]:
            _leaves(child, out)


def _backup(node: list[Any], scored: Sequence[Sequence[float]]) -> list[float]:
    """The value vector (one per seat) of ``node``, from the scored leaves."""
    kind = node[0]
    if kind == "leaf":
        return [float(v) for v in scored[node[2]]]
    if kind == "chance":
        total: list[float] | None = None
        for p, child in node[1]:
            v = _backup(child, scored)
            total = [p * x for x in v] if total is None else [t + p * x for t, x in zip(total, v, strict=True)]
        assert total is not None
        return total
    seat = node[1]
    best: list[float] | None = None
    for child in node[2]:
        v = _backup(child, scored)
        if best is None or v[seat] > best[seat] + 1e-12:
            best = v
    assert best is not None
    return best
