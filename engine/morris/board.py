"""The Bricks & Walls board: 24 points on three squares, 32 edges, 16 lines.

Points are named algebraically (columns a-g, rows 1-7, row 7 on top); index =
8*layer + spot, layer 0 the outer square, spot 0..7 clockwise from the top-left
corner (rules-other-games.md 1.2).

>>> POINTS[:3], index("d6"), name(9)
(('a7', 'd7', 'g7'), 9, 'd6')
>>> [name(j) for j in ADJACENT[index("d6")]]
['b6', 'f6', 'd7', 'd5']
>>> len(LINES), sum(len(a) for a in ADJACENT) // 2
(16, 32)
>>> [name(j) for j in LINES_THROUGH[index("a7")][0]]
['a7', 'd7', 'g7']
>>> xy("a7"), xy("d1")
((0, 0), (3, 6))
"""

from __future__ import annotations

from engine.core import RulesError

#: The 24 point names by index (8*layer + spot).
POINTS: tuple[str, ...] = (
    "a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4",  # layer 0, outer
    "b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4",  # layer 1, middle
    "c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4",  # layer 2, inner
)  # fmt: skip
SIZE = len(POINTS)
_INDEX = {p: i for i, p in enumerate(POINTS)}


def index(point: str) -> int:
    """Index of a point name; raises :class:`RulesError` for anything else.

    >>> index("c4")
    23
    >>> index("d4")
    Traceback (most recent call last):
    ...
    engine.core.RulesError: point: 'd4' is not a point of the board (a7, d7, g7, ... c4)
    """
    if isinstance(point, str) and point in _INDEX:
        return _INDEX[point]
    raise RulesError(f"point: {point!r} is not a point of the board (a7, d7, g7, ... c4)")


def name(i: int) -> str:
    """Name of point index ``i``."""
    return POINTS[i]


def is_point(point: object) -> bool:
    """True for one of the 24 point names."""
    return isinstance(point, str) and point in _INDEX


def _adjacent(i: int) -> tuple[int, ...]:
    layer, spot = divmod(i, 8)
    out = [8 * layer + (spot - 1) % 8, 8 * layer + (spot + 1) % 8]
    if spot % 2 == 1:
        out += [8 * n + spot for n in (layer - 1, layer + 1) if 0 <= n <= 2]
    # order: along the square first (left/up neighbour before right/down), then across
    return tuple(sorted(out[:2], key=lambda j: (xy(POINTS[j])[1], xy(POINTS[j])[0]))) + tuple(
        out[2:]
    )


def xy(point: str) -> tuple[int, int]:
    """Drawing position: x = column (a=0 .. g=6), y = 7 - row (row 7 at the top)."""
    return ord(point[0]) - ord("a"), 7 - int(point[1])


#: ``ADJACENT[i]``: indexes of the points joined to point ``i`` by a drawn line.
ADJACENT: tuple[tuple[int, ...], ...] = tuple(_adjacent(i) for i in range(SIZE))


def _lines() -> tuple[tuple[int, int, int], ...]:
    out: list[tuple[int, int, int]] = []
    for layer in range(3):  # the four sides of each square
        for corner in (0, 2, 4, 6):
            out.append(tuple(8 * layer + (corner + k) % 8 for k in range(3)))  # type: ignore[arg-type]
    for spot in (1, 3, 5, 7):  # the four connectors
        out.append((spot, 8 + spot, 16 + spot))
    return tuple(out)


#: The 16 lines that make a wall, each three point indexes.
LINES: tuple[tuple[int, int, int], ...] = _lines()
#: ``LINES_THROUGH[i]``: the (two) lines through point ``i``.
LINES_THROUGH: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(line for line in LINES if i in line) for i in range(SIZE)
)
