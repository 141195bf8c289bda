"""A static evaluation of Vasco positions for generic computer players.

Scores are from one player's point of view (0-based, like ``returns()``), in
``[-1, 1]``: a finished game scores its return; an open position scores a blend of

- **loop chances**: each open path of a colour whose two loose ends lie close together
  could become a loop, and a loop wins for its owner. A path of ``n`` tiles whose
  end cells are ``d`` cell-widths apart adds ``n / (n + 4) / (1 + d)``;
- **length risk**: when the pool runs out the longer path loses, so the difference of
  the longest paths counts against its owner, more as the pool empties.

A one-ply search on this score is the issue's *greedy* player: it never closes the
opponent's loop when it can avoid it (that scores -1) and closes its own when it can
(+1). No weight was fitted; the defaults are a designer's guess (see the report).

>>> from engine.vasco import VascoGame, Place
>>> s = VascoGame().new_initial_state()
>>> evaluate(s, 0)
0.0
>>> _ = s.apply(Place(0, 0, "ox*")); _ = s.apply(Place(0, 1, "xo*"))
>>> f = features(s)
>>> f.longest, f.pool_used
((1, 2), 0.037)
>>> evaluate(s, 0) == -evaluate(s, 1)
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from engine.vasco.board import Path
from engine.vasco.geometry import Cell, neighbours, vertices
from engine.vasco.state import VascoState

_SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class Weights:
    """How much each feature counts; the score is squashed into (-1, 1) by tanh."""

    loop: float = 1.0
    length: float = 0.15


@dataclass(frozen=True)
class Features:
    """Per colour ``(o, x)``: loop chances, longest path; and the share of the pool used."""

    loop_chance: tuple[float, float]
    longest: tuple[int, int]
    pool_used: float


@lru_cache(maxsize=1 << 14)
def centre(cell: Cell) -> tuple[float, float]:
    """The cell's centroid in side-length units (x right, y down).

    >>> centre((0, 0)), centre((0, 1))[0]
    ((0.5, 0.577), 1.0)
    """
    xs, ys = zip(*vertices(cell), strict=True)
    return (round(sum(xs) / 6.0, 3), round(sum(ys) / 3.0 * _SQRT3 / 2.0, 3))


def _loose_ends(path: Path, board: dict[Cell, str]) -> list[Cell]:
    """The empty cells the two ends of an open path lead into."""
    ends: list[Cell] = []
    for tip in {path.cells[0], path.cells[-1]}:
        state = board[tip]
        for e, k in enumerate(state):
            if k in (path.colour, "*"):
                n = neighbours(tip)[e]
                if n not in board:
                    ends.append(n)
    return ends


def _chance(colour_paths: list[Path], board: dict[Cell, str]) -> float:
    total = 0.0
    for p in colour_paths:
        if p.closed:
            continue
        ends = _loose_ends(p, board)
        if len(ends) < 2:
            continue
        (ax, ay), (bx, by) = centre(ends[0]), centre(ends[-1])
        d = math.hypot(ax - bx, ay - by)
        total += p.length / (p.length + 4.0) / (1.0 + d)
    return total


def features(state: VascoState) -> Features:
    """The features of a position (cheap: one pass over the paths)."""
    board = state.tiles
    runs = {k: state.paths(k) for k in ("o", "x")}
    longest = tuple(max((p.length for p in runs[k]), default=0) for k in ("o", "x"))
    chance = tuple(round(_chance(runs[k], board), 4) for k in ("o", "x"))
    pool = state.rules.pool
    used = round(1.0 - state.tiles_remaining / pool, 3) if pool else 1.0
    return Features(chance, longest, used)  # type: ignore[arg-type]


def evaluate(state: VascoState, player: int, weights: Weights = Weights()) -> float:
    """The position's worth to ``player`` (0 = O, 1 = X) in [-1, 1]; exact when finished."""
    if state.is_terminal():
        return state.returns()[player]
    if not state.tiles:
        return 0.0
    f = features(state)
    me, other = (0, 1) if player == 0 else (1, 0)
    loop = f.loop_chance[me] - f.loop_chance[other]
    length = (f.longest[other] - f.longest[me]) * f.pool_used
    raw = weights.loop * loop + weights.length * length
    # squash, and keep a finished game's +-1 strictly out of reach
    return 0.99 * math.tanh(raw)


def describe(state: VascoState) -> str:
    """One line for a designer's replay: the features in words.

    >>> from engine.vasco import VascoGame
    >>> describe(VascoGame().new_initial_state())
    'longest paths O 0, X 0; loop chances O 0.00, X 0.00; pool used 0%'
    """
    f = features(state)
    return (
        f"longest paths O {f.longest[0]}, X {f.longest[1]}; loop chances "
        f"O {f.loop_chance[0]:.2f}, X {f.loop_chance[1]:.2f}; pool used {f.pool_used:.0%}"
    )


__all__ = ["Features", "Weights", "centre", "describe", "evaluate", "features"]
