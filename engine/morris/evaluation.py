"""A position evaluation for the generic computer players: ``evaluate(state, seat)``.

The score is on the scale of ``2 * P(win) - 1`` (in ``[-1, 1]``; a finished game gives
its ``returns()``), built from what decides Bricks & Walls:

- bricks: on the board plus in reserve (a brick ahead is the main asset);
- open walls: lines with two own bricks and an empty third point (a wall next turn);
- mobility in the movement phase: steps available (a blocked side is skipped, rule 6);
- a pending removal counts as the brick it is about to take.

>>> from engine.morris import MorrisGame, Place
>>> s = MorrisGame().new_initial_state()
>>> evaluate(s, 0)
0.0
>>> for p in ("a7", "b6", "d7"):
...     _ = s.apply(Place(p))
>>> evaluate(s, 0) > 0 > evaluate(s, 1)
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.morris.board import ADJACENT, LINES, SIZE
from engine.morris.state import MorrisState


@dataclass(frozen=True)
class Weights:
    """How much each feature (own minus the opponent's) is worth, in log-odds."""

    bricks: float = 1.0
    open_walls: float = 0.35
    mobility: float = 0.08
    scale: float = 0.5  # tanh(scale * score)


DEFAULT = Weights()


def features(state: MorrisState, seat: int) -> dict[str, float]:
    """Own-minus-opponent features of ``state`` from ``seat``'s side.

    >>> from engine.morris import MorrisGame
    >>> features(MorrisGame().new_initial_state(), 0)
    {'bricks': 0.0, 'open_walls': 0.0, 'mobility': 0.0}
    """
    cells = state.cells()
    reserve = [state.reserve["W"], state.reserve["B"]]
    me, them = seat + 1, 2 - seat
    bricks = (cells.count(me) + reserve[seat]) - (cells.count(them) + reserve[1 - seat])
    if state.pending_removal:
        bricks += 1 if state.current_player() == seat else -1

    def open_walls(v: int) -> int:
        return sum(
            1
            for line in LINES
            if sum(cells[j] == v for j in line) == 2 and any(cells[j] == 0 for j in line)
        )

    def mobility(v: int) -> int:
        return sum(1 for i in range(SIZE) if cells[i] == v for j in ADJACENT[i] if cells[j] == 0)

    mob = 0.0
    if state.placement_over:
        mob = float(mobility(me) - mobility(them))
    return {
        "bricks": float(bricks),
        "open_walls": float(open_walls(me) - open_walls(them)),
        "mobility": mob,
    }


def evaluate(state: MorrisState, seat: int, weights: Weights = DEFAULT) -> float:
    """``seat``'s prospects in ``[-1, 1]`` (0-based seat; terminal states give returns)."""
    if state.is_terminal():
        return state.returns()[seat]
    f = features(state, seat)
    score = (
        weights.bricks * f["bricks"]
        + weights.open_walls * f["open_walls"]
        + weights.mobility * f["mobility"]
    )
    return math.tanh(weights.scale * score)
