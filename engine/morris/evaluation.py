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


#: Each line's points as a mask (bit ``i``: point ``i``), and each point's neighbours.
_LINE_MASKS = tuple(sum(1 << j for j in line) for line in LINES)
_ADJACENT_MASKS = tuple(sum(1 << j for j in ADJACENT[i]) for i in range(SIZE))
_BOARD = (1 << SIZE) - 1


def features(state: MorrisState, seat: int) -> dict[str, float]:
    """Own-minus-opponent features of ``state`` from ``seat``'s side (counted on the
    state's bit masks: an evaluation is asked of every position a search looks at).

    >>> from engine.morris import MorrisGame
    >>> features(MorrisGame().new_initial_state(), 0)
    {'bricks': 0.0, 'open_walls': 0.0, 'mobility': 0.0}
    """
    white, black = state.masks()
    mine, theirs = (white, black) if seat == 0 else (black, white)
    reserve = [state.reserve["W"], state.reserve["B"]]
    bricks = (mine.bit_count() + reserve[seat]) - (theirs.bit_count() + reserve[1 - seat])
    if state.pending_removal:
        bricks += 1 if state.current_player() == seat else -1
    empty = _BOARD & ~(white | black)

    def open_walls(own: int) -> int:
        # two of the line's points own, its third empty
        return sum(1 for line in _LINE_MASKS
                   if (line & own).bit_count() == 2 and line & empty)

    def mobility(own: int) -> int:
        # steps to an empty neighbour, over every own brick
        return sum((_ADJACENT_MASKS[i] & empty).bit_count()
                   for i in range(SIZE) if own >> i & 1)

    mob = 0.0
    if state.placement_over:
        mob = float(mobility(mine) - mobility(theirs))
    return {
        "bricks": float(bricks),
        "open_walls": float(open_walls(mine) - open_walls(theirs)),
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
