"""(Test-only: the plain growth the differential test compares with, main at a3440bd.)

The Dokusen grid and its growth step (rules-other-games.md §3.2, §3.4 step 3, §3.5).

A position is a flat tuple of owners, row-major: :data:`VOID` (not a square),
:data:`BLACK` (unowned) or a player id 0–9. :class:`Grid` knows the mask (which cells are
squares) and each square's orthogonal square neighbours; :func:`grow` is one generation,
computed from the board as it was before growth (simultaneous), where a colour with
strictly the most neighbours takes the square and a tie changes nothing.

>>> g = Grid.from_rows(["...", ".1.", "..."])
>>> cells = g.parse(["...", ".1.", "..."])
>>> g.rows_of(grow(g, cells))      # the centre has no coloured neighbour: unchanged
['.1.', '111', '.1.']
>>> line = Grid.from_rows(["..."])
>>> line.rows_of(grow(line, line.parse(["0.1"])))   # the middle: a 1-1 tie, unchanged
['0.1']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["BLACK", "VOID", "Grid", "grow", "strike", "counts", "neighbour_counts"]

#: A cell that is not a square.
VOID = -2
#: An unowned square.
BLACK = -1


@dataclass(frozen=True)
class Grid:
    """The board's shape: ``rows`` × ``cols`` cells, ``squares`` (row-major indices of the
    non-void cells) and ``neighbours[i]`` (the orthogonal square neighbours of cell i,
    in the order up, left, right, down)."""

    rows: int
    cols: int
    is_square: tuple[bool, ...]
    neighbours: tuple[tuple[int, ...], ...]

    @classmethod
    def from_rows(cls, mask: Sequence[str]) -> Grid:
        """The grid of a board mask (``#`` void; anything else a square)."""
        rows, cols = len(mask), len(mask[0])
        sq = tuple(ch != "#" for row in mask for ch in row)
        nbs = []
        for i in range(rows * cols):
            r, c = divmod(i, cols)
            near = []
            if sq[i]:
                for rr, cc in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)):
                    if 0 <= rr < rows and 0 <= cc < cols and sq[rr * cols + cc]:
                        near.append(rr * cols + cc)
            nbs.append(tuple(near))
        return cls(rows, cols, sq, tuple(nbs))

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @property
    def total(self) -> int:
        """The number of squares."""
        return sum(self.is_square)

    def index(self, r: int, c: int) -> int:
        return r * self.cols + c

    def coord(self, i: int) -> tuple[int, int]:
        r, c = divmod(i, self.cols)
        return (r, c)

    def on_board(self, r: int, c: int) -> bool:
        return 0 <= r < self.rows and 0 <= c < self.cols

    def parse(self, rows: Sequence[str]) -> tuple[int, ...]:
        """Owners of a board written as rows (``#``, ``.``, ``0``–``9``)."""
        out = []
        for row in rows:
            for ch in row:
                out.append(VOID if ch == "#" else BLACK if ch == "." else int(ch))
        return tuple(out)

    def rows_of(self, cells: Sequence[int]) -> list[str]:
        """The inverse of :meth:`parse`."""
        chars = ["#" if o == VOID else "." if o == BLACK else str(o) for o in cells]
        return ["".join(chars[r * self.cols : (r + 1) * self.cols]) for r in range(self.rows)]

    def within(self, at: int, radius: int) -> tuple[int, ...]:
        """The squares within Manhattan distance ``radius`` of square ``at`` (row-major)."""
        r0, c0 = self.coord(at)
        out = []
        for r in range(max(0, r0 - radius), min(self.rows, r0 + radius + 1)):
            span = radius - abs(r - r0)
            for c in range(max(0, c0 - span), min(self.cols, c0 + span + 1)):
                if self.is_square[r * self.cols + c]:
                    out.append(r * self.cols + c)
        return tuple(out)


def neighbour_counts(grid: Grid, cells: Sequence[int], i: int) -> dict[int, int]:
    """How many of square ``i``'s neighbours each colour owns (black and void not counted).

    >>> g = Grid.from_rows(["...", "...", "..."])
    >>> neighbour_counts(g, g.parse(["01.", "1.2", ".1."]), 4)
    {1: 3, 2: 1}
    """
    found: dict[int, int] = {}
    for j in grid.neighbours[i]:
        o = cells[j]
        if o >= 0:
            found[o] = found.get(o, 0) + 1
    return found


def grown_owner(grid: Grid, cells: Sequence[int], i: int) -> int:
    """What square ``i`` becomes in one growth step: the colour with strictly the most
    neighbours, else (none, or a tie for the top count) what it is now."""
    found = neighbour_counts(grid, cells, i)
    if not found:
        return cells[i]
    best = max(found.values())
    top = [o for o, n in found.items() if n == best]
    return top[0] if len(top) == 1 else cells[i]


def grow(grid: Grid, cells: Sequence[int]) -> tuple[int, ...]:
    """One generation, every square judged on ``cells`` as it was before growth."""
    return tuple(o if o == VOID else grown_owner(grid, cells, i) for i, o in enumerate(cells))


def strike(grid: Grid, cells: Sequence[int], at: int, radius: int) -> tuple[int, ...]:
    """A meteor at square ``at``: every square within ``radius`` becomes black.

    >>> g = Grid.from_rows(["...", "...", "..."])
    >>> g.rows_of(strike(g, g.parse(["111", "111", "111"]), 4, 1))
    ['1.1', '...', '1.1']
    """
    out = list(cells)
    for j in grid.within(at, radius):
        out[j] = BLACK
    return tuple(out)


def counts(cells: Sequence[int], colours: int) -> dict[str, int]:
    """Squares per owner: ``{"0": n0, ..., "black": b, "total": t}``.

    >>> counts((0, -1, 1, -2, 1), 2)
    {'0': 1, '1': 2, 'black': 1, 'total': 4}
    """
    out = {str(p): 0 for p in range(colours)}
    black = total = 0
    for o in cells:
        if o == VOID:
            continue
        total += 1
        if o == BLACK:
            black += 1
        else:
            out[str(o)] = out.get(str(o), 0) + 1
    out["black"] = black
    out["total"] = total
    return out
