"""The triangular grid of Vasco (rules-other-games.md §2.3): cells, edges, vertices.

A cell is ``(r, c)``; row ``r`` grows downwards. The cell is *up*-pointing iff
``r + c`` is even; ``(0, 0)`` is up. Every cell has three edges, ``L = 0``,
``R = 1`` and ``H = 2`` (H is the horizontal edge: bottom of an up cell, top of
a down cell). Edges pair up as my L = their R, my R = their L, my H = their H.

A tile state is a 3-character string of the colours on the edges ``L R H`` in
that order, drawn from ``o`` (red), ``x`` (blue) and ``*`` (both): all six
permutations are legal on every cell.

>>> is_up((0, 0)), is_up((0, 1)), is_up((1, 1))
(True, False, True)
>>> neighbour((0, 0), H), neighbour((0, 1), H), neighbour((0, 0), L)
((1, 0), (-1, 1), (0, -1))
>>> vertices((0, 0))
((1, 0), (0, 1), (2, 1))
>>> len(touching((0, 0))), len(touching((0, 1)))
(12, 12)
>>> face((0, 0), "ox*"), face((0, 0), "xo*"), face((0, 1), "xo*")
('front', 'back', 'front')
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations

Cell = tuple[int, int]

L, R, H = 0, 1, 2
EDGE_NAMES = ("L", "R", "H")
#: The edge of the neighbour that faces my edge ``e``.
OPPOSITE = (R, L, H)
#: Path-end colours: o = red (seat 1, O), x = blue (seat 2, X), * = both.
COLOURS = ("o", "x", "*")
#: The six tile states, in a fixed order (the action encoding uses it).
STATES: tuple[str, ...] = tuple("".join(p) for p in permutations("ox*"))
STATE_INDEX = {s: i for i, s in enumerate(STATES)}


def is_up(cell: Cell) -> bool:
    """True for an up-pointing cell (``r + c`` even)."""
    return (cell[0] + cell[1]) % 2 == 0


def neighbour(cell: Cell, edge: int) -> Cell:
    """The cell across ``edge`` (L left, R right, H below an up cell / above a down cell)."""
    r, c = cell
    if edge == L:
        return (r, c - 1)
    if edge == R:
        return (r, c + 1)
    return (r + 1, c) if is_up(cell) else (r - 1, c)


@lru_cache(maxsize=1 << 16)  # called for every rule check; cells repeat endlessly
def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell]:
    """The cells across edges L, R, H, in that order."""
    return (neighbour(cell, L), neighbour(cell, R), neighbour(cell, H))


def vertices(cell: Cell) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """The three corners in half-units ``(X, Y)`` (``X + Y`` odd).

    Up cell: apex, bottom-left, bottom-right. Down cell: top-left, top-right, apex.
    Screen position for side ``s``: ``x = X*s/2``, ``y = Y*s*sqrt(3)/2``.
    """
    r, c = cell
    if is_up(cell):
        return ((c + 1, r), (c, r + 1), (c + 2, r + 1))
    return ((c, r), (c + 2, r), (c + 1, r + 1))


def edge_vertices(cell: Cell, edge: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two corners of ``edge``: up L = apex-BL, R = apex-BR, H = BL-BR;
    down L = TL-apex, R = TR-apex, H = TL-TR."""
    a, b, d = vertices(cell)
    if is_up(cell):
        return ((a, b), (a, d), (b, d))[edge]
    return ((a, d), (b, d), (a, b))[edge]


def _touch_offsets(up: bool) -> tuple[tuple[int, int], ...]:
    base: Cell = (0, 0) if up else (0, 1)
    mine = set(vertices(base))
    found = []
    for dr in range(-2, 3):
        for dc in range(-3, 4):
            other = (base[0] + dr, base[1] + dc)
            if other != base and mine & set(vertices(other)):
                found.append((dr, dc))
    return tuple(found)


def _edge_ball_offsets(up: bool, steps: int = 2) -> tuple[tuple[int, int], ...]:
    """Offsets of the cells at most ``steps`` edge-steps away (the cell itself excluded)."""
    base: Cell = (0, 0) if up else (0, 1)
    ring = {base}
    seen = {base}
    for _ in range(steps):
        ring = {n for cell in ring for n in neighbours(cell)} - seen
        seen |= ring
    seen.discard(base)
    return tuple(sorted((r - base[0], c - base[1]) for r, c in seen))


_TOUCH = {True: _touch_offsets(True), False: _touch_offsets(False)}
_BALL2 = {True: _edge_ball_offsets(True), False: _edge_ball_offsets(False)}
_BALL4 = {True: _edge_ball_offsets(True, 4), False: _edge_ball_offsets(False, 4)}


def touching(cell: Cell) -> tuple[Cell, ...]:
    """The 12 cells sharing at least one corner with ``cell`` (edge neighbours included)."""
    r, c = cell
    return tuple((r + dr, c + dc) for dr, dc in _TOUCH[is_up(cell)])


def within_two(cell: Cell) -> tuple[Cell, ...]:
    """The 9 cells at most two edge-steps away: whose legal states a tile here can change."""
    r, c = cell
    return tuple((r + dr, c + dc) for dr, dc in _BALL2[is_up(cell)])


@lru_cache(maxsize=1 << 16)
def within_four(cell: Cell) -> tuple[Cell, ...]:
    """The cells at most four edge-steps away, the cell itself included: what judging a
    tile placed here reads of the board (the cells two steps from it, and what their legal
    states depend on, two steps further).

    >>> len(within_four((0, 0))), (0, 0) in within_four((0, 0))
    (31, True)
    """
    r, c = cell
    return (cell, *((r + dr, c + dc) for dr, dc in _BALL4[is_up(cell)]))


def face(cell: Cell, state: str) -> str:
    """``"front"`` or ``"back"``, for drawing only.

    The clockwise edge order is L, R, H on up cells and H, R, L on down cells; the
    face is the front iff that sequence is a rotation of (o, x, *).
    """
    seq = state if is_up(cell) else state[2] + state[1] + state[0]
    return "front" if seq in ("ox*", "x*o", "*ox") else "back"


def cell_name(cell: Cell) -> str:
    """The cell as the app's target string ``"r,c"``.

    >>> cell_name((-1, 2))
    '-1,2'
    """
    return f"{cell[0]},{cell[1]}"


def parse_cell(text: str) -> Cell:
    """Inverse of :func:`cell_name`; raises ``ValueError`` for anything else.

    >>> parse_cell(" 1, -2 ")
    (1, -2)
    """
    parts = str(text).split(",")
    if len(parts) != 2:
        raise ValueError(f"{text!r} is not a cell 'r,c'")
    return (int(parts[0]), int(parts[1]))
