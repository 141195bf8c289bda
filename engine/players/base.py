"""What every computer player shares: the decision value object, errors and helpers."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core import EngineError
from engine.players import geometry as geo
from engine.vapoosh import Brown, Place

Move = Place | Brown


class PlayerError(EngineError):
    """A player was asked for something it cannot do (unknown level, wrong phase or seat)."""


@dataclass(frozen=True)
class Decision:
    """A computer player's move and why, in one line for the designer's replay.

    >>> Decision(Place(6, 7), "Blocks seat 1's four-in-a-row at (6,7)").action
    Place(c=6, r=7)
    """

    action: Move
    reason: str


class Player(ABC):
    """A seeded computer player. ``choose`` decides in phase "place" for the seat to move.

    The seed only breaks ties (and drives Easy's random choice), so the same seed and the
    same positions give the same decisions.
    """

    level: ClassVar[str]

    def __init__(self, seed: int = 1) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, state: Any) -> Decision:
        """Pick a legal move for ``state.to_move`` in phase "place"."""
        if state.phase != "place":
            raise PlayerError(
                f"a computer player only decides in phase 'place', not {state.phase!r}"
            )
        targets = list(state.targets())
        if not targets:
            raise PlayerError("no legal move in this position")
        if len(targets) == 1:
            return Decision(targets[0], f"Only legal move: {describe(state, targets[0])}")
        decision = self._choose(state, targets)
        # The replay shows one line per move: fold any stray line breaks.
        line = " ".join(decision.reason.split()) or describe(state, decision.action)
        return Decision(decision.action, line)

    @abstractmethod
    def _choose(self, state: Any, targets: list[Move]) -> Decision:
        """Pick among at least two legal targets."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"


def tile_of(action: Move) -> int:
    """Flat tile index of a Place or Brown."""
    return geo.index(action.c, action.r)


def describe(state: Any, action: Move, board: list[int] | None = None) -> str:
    """The move in words: "places at (6,7)", "captures seat 2's counter at (6,7)", ...

    ``board`` (from :func:`engine.players.tactics.board_of`) saves reading it again.
    """
    owner = board[tile_of(action)] if board is not None else state.owner(action.c, action.r)
    where = f"({action.c},{action.r})"
    if isinstance(action, Brown):
        if owner == 0:
            return f"puts a brown counter on empty {where}"
        if owner == state.to_move:
            return f"puts a brown counter on its own {where}"
        return f"puts a brown counter on seat {owner}'s counter at {where}"
    if owner == 0:
        return f"places at {where}"
    return f"captures seat {owner}'s counter at {where}"


def after(state: Any, action: Move) -> Any:
    """A clone of ``state`` with ``action`` applied (the original is untouched)."""
    child = state.clone()
    child.apply(action)
    return child


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]
