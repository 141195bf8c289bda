"""Fixed facts about the Vapoosh! board and dice that the computer players reason with.

Built on :mod:`engine.vapoosh.board` (tile numbering, neighbours) and
:mod:`engine.vapoosh.primitives` (what a roll offers, its kind), so the players and the
rules share one geometry. Precomputed once at import: neighbours as tuples, mirror tiles,
the 4-tile windows that make a win (lines and 2x2 squares), how likely each tile is to
be offered by a roll, and the grouped chance outcomes of one roll of four dice.

A tile ``(c, r)`` has the flat index ``(r - 1) * 12 + (c - 1)``:

>>> index(5, 8), tile(index(5, 8))
(88, (5, 8))
>>> tile(MIRROR[index(5, 8)])
(8, 5)
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass

from engine.vapoosh.board import NB4, SIZE, TILES, bits, index, tile
from engine.vapoosh.board import ROLLABLE as ROLLABLE_TILES
from engine.vapoosh.primitives import roll_kind

__all__ = ["SIZE", "CELLS", "index", "tile"]

CELLS = TILES
#: Code used in extended boards for "outside the board" (edges count as walls).
WALL = 6
BROWN = 5

#: Probability of each two-dice sum 2..12 (index = sum).
SUM_PROB: tuple[float, ...] = tuple(
    (6 - abs(s - 7)) / 36 if 2 <= s <= 12 else 0.0 for s in range(13)
)


def _neighbours(i: int) -> tuple[int, ...]:
    return tuple(bits(NB4[i]))


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(i) for i in range(CELLS))
#: Neighbours padded to 4 with CELLS (the wall slot of an extended board).
NEIGHBOURS4: tuple[tuple[int, ...], ...] = tuple(n + (CELLS,) * (4 - len(n)) for n in NEIGHBOURS)
MIRROR: tuple[int, ...] = tuple(index(tile(i)[1], tile(i)[0]) for i in range(CELLS))
#: A tile can be offered by a roll only if both coordinates are 2..12.
ROLLABLE: tuple[bool, ...] = tuple(i in set(ROLLABLE_TILES) for i in range(CELLS))


def _pair_prob(c: int, r: int) -> float:
    """Probability that one roll offers tile (c, r) (and so its mirror)."""
    if c == r:
        return SUM_PROB[c] ** 2
    return 2 * SUM_PROB[c] * SUM_PROB[r]


#: Per tile, the probability that a roll offers it (0 for row 1 / column 1).
TILE_PROB: tuple[float, ...] = tuple(
    _pair_prob(*tile(i)) if ROLLABLE[i] else 0.0 for i in range(CELLS)
)
_MAX_PROB = max(TILE_PROB)
#: TILE_PROB scaled so that the likeliest tile is 1.0.
TILE_REACH: tuple[float, ...] = tuple(p / _MAX_PROB for p in TILE_PROB)


def _windows() -> tuple[tuple[str, tuple[int, int, int, int]], ...]:
    """All 4-tile winning patterns lying wholly on rollable tiles.

    A pattern that includes row 1 or column 1 can never be completed (nobody can
    place there), so it is left out.
    """
    out: list[tuple[str, tuple[int, int, int, int]]] = []
    lo, hi = 2, SIZE
    for c, r in itertools.product(range(lo, hi + 1), repeat=2):
        for kind, cells in (
            ("row", [(c + k, r) for k in range(4)]),
            ("column", [(c, r + k) for k in range(4)]),
            ("diagonal", [(c + k, r + k) for k in range(4)]),
            ("diagonal", [(c + k, r - k) for k in range(4)]),
            ("square", [(c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1)]),
        ):
            if all(lo <= cc <= hi and lo <= rr <= hi for cc, rr in cells):
                a, b, d, e = (index(cc, rr) for cc, rr in cells)
                out.append((kind, (a, b, d, e)))
    return tuple(out)


WINDOW_KINDS: tuple[str, ...]
WINDOWS: tuple[tuple[int, int, int, int], ...]
WINDOW_KINDS, WINDOWS = (
    tuple(k for k, _ in _windows()),
    tuple(w for _, w in _windows()),
)


@dataclass(frozen=True)
class ChanceClass:
    """Rolls that are alike for every decision: same tile pair and same special kind.

    ``kind`` is ``"normal"``, ``"quad"``, ``"vapooh"`` or ``"vapoosh"``; ``dice`` is one
    representative roll (pink, pink, green, green) of the class.
    """

    low: int
    high: int
    kind: str
    probability: float
    dice: tuple[int, int, int, int]


def _chance_classes() -> tuple[ChanceClass, ...]:
    counts: Counter[tuple[int, int, str]] = Counter()
    first: dict[tuple[int, int, str], tuple[int, int, int, int]] = {}
    for a, b, c, e in itertools.product(range(1, 7), repeat=4):
        d = (a, b, c, e)
        p, g = a + b, c + e
        key = (min(p, g), max(p, g), roll_kind(d))
        counts[key] += 1
        first.setdefault(key, d)
    return tuple(
        ChanceClass(low, high, kind, n / 1296, first[(low, high, kind)])
        for (low, high, kind), n in sorted(counts.items())
    )


#: The 1296 rolls of four dice grouped into classes (probabilities sum to 1).
CHANCE_CLASSES: tuple[ChanceClass, ...] = _chance_classes()
