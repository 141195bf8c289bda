"""What every computer player shares, for any game of the engine core.

A player sees a state only through :class:`engine.core.State` (current_player,
legal_actions, chance_outcomes, apply_action, clone, is_terminal, returns) and a game's
:class:`Heuristics` (its evaluation, and its words for a move). Randomness comes only from
the player's own ``random.Random`` (made from ``seed``, or passed in as ``rng``): the same
seed and the same positions give the same decisions, and nothing else is drawn from.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from engine.core import EngineError, State


class PlayerError(EngineError):
    """A player was asked for something it cannot do (unknown level, nobody to move)."""


@dataclass(frozen=True)
class Decision:
    """A computer player's move and why, in one line for the designer's replay.

    ``action`` is the game's own form of the move (:meth:`Heuristics.action_object`; the
    action id for games without one).

    >>> Decision(7, "Random pick: 7").action
    7
    """

    action: Any
    reason: str


class Heuristics(Protocol):
    """A game's knowledge the generic players use.

    - ``values(states)``: for each state, a value per seat in -1..1 (about 2*P(win) - 1;
      a finished game its ``returns()``); called with many states at once so a game can
      score them in one batch;
    - ``describe(state, action)``: the move in words ("places at (6,7)");
    - ``notes(state, action)``: why the move matters tactically, in short phrases;
    - ``chance_outcomes(state)``: the chance node's outcomes as ``(action, probability)``,
      grouped when many outcomes lead to the same decisions (four dice: 1296 rolls, 74
      kinds); ``state.chance_outcomes()`` is always a correct answer;
    - ``action_object(state, action)``: what ``Player.choose`` returns for an action id.
    """

    def values(self, states: Sequence[Any]) -> Sequence[Sequence[float]]: ...

    def describe(self, state: Any, action: int) -> str: ...

    def notes(self, state: Any, action: int) -> list[str]: ...

    def chance_outcomes(self, state: Any) -> list[tuple[int, float]]: ...

    def action_object(self, state: Any, action: int) -> Any: ...


class PlainHeuristics:
    """Heuristics of a game that only offers the core API: returns as values (0 while the
    game goes on), actions as numbers, every chance outcome on its own.

    >>> PlainHeuristics().describe(None, 12)
    'plays 12'
    """

    def values(self, states: Sequence[Any]) -> list[list[float]]:
        out = []
        for s in states:
            out.append(list(s.returns()))
        return out

    def describe(self, state: Any, action: int) -> str:
        return f"plays {action}"

    def notes(self, state: Any, action: int) -> list[str]:
        return []

    def chance_outcomes(self, state: Any) -> list[tuple[int, float]]:
        return list(state.chance_outcomes())

    def action_object(self, state: Any, action: int) -> Any:
        return action


class TwoSeatHeuristics(PlainHeuristics):
    """Heuristics of a two-seat game whose ``evaluate(state, seat)`` is antisymmetric
    (one seat's value negated is the other's; returns are +1/-1): ``values`` scores
    seat 0 only, for half the work. A game sets ``evaluate`` (as ``staticmethod``) and
    its words for a move.

    >>> class Fixed(TwoSeatHeuristics):
    ...     evaluate = staticmethod(lambda state, seat: 0.25)
    >>> Fixed().values([None, None])
    [[0.25, -0.25], [0.25, -0.25]]
    """

    @staticmethod
    def evaluate(state: Any, seat: int, /) -> float:
        """Seat ``seat``'s value of ``state`` in -1..1."""
        raise NotImplementedError

    def values(self, states: Sequence[Any]) -> list[list[float]]:
        evaluate = self.evaluate
        out = []
        for s in states:
            first = evaluate(s, 0)
            out.append([first, -first])
        return out


class Player(ABC):
    """A seeded computer player for the seat to move.

    ``decide(state)`` returns a :class:`Decision` whose action is the action id;
    ``choose(state)`` the same decision with the game's own action object (what the app
    applies and logs). Neither changes ``state``.
    """

    level: ClassVar[str] = ""

    def __init__(
        self,
        seed: int = 1,
        heuristics: Heuristics | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.seed = seed
        self.heuristics: Heuristics = heuristics if heuristics is not None else PlainHeuristics()
        self._rng = rng if rng is not None else random.Random(seed)

    def decide(self, state: State) -> Decision:
        """Pick a legal action id for the seat to move."""
        if state.current_player() < 0:
            raise PlayerError(
                "a computer player only decides when a seat is to move "
                "(not at a chance node or after the end)"
            )
        legal = state.legal_actions()
        if not legal:
            raise PlayerError("no legal move in this position")
        if len(legal) == 1:
            return Decision(
                legal[0], f"Only legal move: {self.heuristics.describe(state, legal[0])}"
            )
        decision = self._decide(state, legal)
        # The replay shows one line per move: fold any stray line breaks.
        line = " ".join(decision.reason.split()) or self.heuristics.describe(
            state, decision.action
        )
        return Decision(decision.action, line)

    def choose(self, state: State) -> Decision:
        """:meth:`decide`, with the game's own action object."""
        decision = self.decide(state)
        return Decision(self.heuristics.action_object(state, decision.action), decision.reason)

    @abstractmethod
    def _decide(self, state: State, legal: list[int]) -> Decision:
        """Pick among at least two legal action ids."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"


def after(state: State, action: int) -> Any:
    """A clone of ``state`` with ``action`` applied (the original is untouched)."""
    child = state.clone()
    child.apply_action(action)
    return child


def capitalised(text: str) -> str:
    """``text`` with its first letter upper-case."""
    return text[:1].upper() + text[1:]


def pick_best(rng: random.Random, values: Sequence[float]) -> int:
    """Index of the largest value; ties (within 1e-9) broken by ``rng``, which is drawn
    from only when there is a tie."""
    best = max(values)
    tied = [k for k, v in enumerate(values) if v >= best - 1e-9]
    return tied[0] if len(tied) == 1 else rng.choice(tied)
