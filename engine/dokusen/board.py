"""The Dokusen grid and its growth step (rules-other-games.md §3.2, §3.4 step 3, §3.5).

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
from functools import cached_property
from itertools import repeat
from operator import call, itemgetter
from typing import Any

__all__ = ["BLACK", "VOID", "Grid", "grow", "strike", "counts", "neighbour_counts", "top_colour"]

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

    @cached_property
    def growers(self) -> tuple[itemgetter[Any], ...]:
        """Per cell, the getter of its own owner followed by its square neighbours' (a
        tuple; the owner alone for a cell without square neighbours): what growth reads."""
        return tuple(itemgetter(i, *nbs) for i, nbs in enumerate(self.neighbours))

    @property
    def total(self) -> int:
        """The number of squares."""
        return sum(self.is_square)

    # ----- byte masks: the position as one int per colour, a byte per cell ------------
    # Cell ``i`` is byte ``i`` (bit ``8 * i``) of a mask, 1 where the colour owns it: bit
    # operations judge every square at once (growth), and ``mask.to_bytes(size,
    # "little")`` is the cells' 0/1 flags in board order (for :func:`itertools.compress`).

    @cached_property
    def cell_bits(self) -> tuple[int, ...]:
        """Per cell ``i``, its bit in a byte mask: ``1 << 8 * i``."""
        return tuple(1 << 8 * i for i in range(self.size))

    @cached_property
    def square_mask(self) -> int:
        """The squares as a byte mask."""
        return sum(b for b, sq in zip(self.cell_bits, self.is_square, strict=True) if sq)

    @cached_property
    def _edges(self) -> tuple[int, int]:
        """The byte masks of the cells not in the first column and not in the last one."""
        cols = self.cols
        bits = self.cell_bits
        return (
            sum(b for i, b in enumerate(bits) if i % cols),
            sum(b for i, b in enumerate(bits) if i % cols != cols - 1),
        )

    def masks_of(self, cells: Sequence[int], colours: int) -> list[int]:
        """Per colour ``0..colours-1``, the byte mask of the squares it owns in ``cells``.

        >>> g = Grid.from_rows(["...", "..."])
        >>> [list(m.to_bytes(g.size, "little")) for m in g.masks_of((0, -1, 1, 1, -1, 0), 2)]
        [[1, 0, 0, 0, 0, 1], [0, 0, 1, 1, 0, 0]]
        """
        out = [0] * colours
        for b, o in zip(self.cell_bits, cells, strict=True):
            if o >= 0:
                out[o] |= b
        return out

    def grow_masks(self, masks: Sequence[int]) -> tuple[list[int], int]:
        """One growth step on byte masks (:meth:`masks_of`): the masks after it, and the
        byte mask of the squares whose owner changed.

        The rule of :func:`grown_owner`, bit-parallel: a colour takes the squares it
        dominates, those where it owns at least k of the (up to four) square neighbours
        and no other colour owns k, for k = 1 or 2 (a colour with 3 or 4 has them at 2
        alone); the other squares keep their owner.

        >>> g = Grid.from_rows(["...", "...", "..."])
        >>> after, changed = g.grow_masks(g.masks_of(g.parse([".1.", "021", ".0."]), 3))
        >>> g.rows_of(g.cells_of(after)), list(changed.to_bytes(9, "little"))
        (['.21', '222', '02.'], [0, 1, 1, 1, 0, 1, 1, 1, 0])
        """
        row = 8 * self.cols
        not_first, not_last = self._edges
        any1 = two1 = any2 = two2 = 0
        levels: list[tuple[int, int]] = []  # per colour: at least 1, at least 2 neighbours
        for m in masks:
            if not m:
                levels.append((0, 0))
                continue
            up = m << row  # cell i's byte: whether the square above i is this colour's
            down = m >> row
            left = (m << 8) & not_first
            right = (m >> 8) & not_last
            vert = up | down
            horiz = left | right
            ge1 = vert | horiz  # at least one neighbour of this colour
            ge2 = (up & down) | (left & right) | (vert & horiz)  # at least two
            two1 |= any1 & ge1
            any1 |= ge1
            two2 |= any2 & ge2
            any2 |= ge2
            levels.append((ge1, ge2))
        squares = self.square_mask
        alone1 = squares ^ (squares & two1)  # squares where at most one colour has one
        alone2 = squares ^ (squares & two2)
        taken = kept = 0
        tops = []
        for m, (ge1, ge2) in zip(masks, levels, strict=True):
            top = (ge1 & alone1) | (ge2 & alone2)
            tops.append(top)
            taken |= top
            kept |= top & m
        rest = squares ^ taken
        return [(m & rest) | top for m, top in zip(masks, tops, strict=True)], taken ^ kept

    def cells_of(self, masks: Sequence[int]) -> list[int]:
        """The inverse of :meth:`masks_of`: the owners, row-major."""
        code = sum(k * m for k, m in enumerate(masks, 1)) + self.square_mask
        return [o - 2 for o in code.to_bytes(self.size, "little")]

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


def top_colour(owners: Sequence[int]) -> int | None:
    """The colour owning strictly the most of ``owners`` (a square's neighbours' owners;
    black and void do not count), or None: no colour, or a tie for the top count.

    >>> top_colour((1, 1, 2, -1)), top_colour((1, 2)), top_colour((-1, -1)), top_colour((3,))
    (1, None, None, 3)
    """
    found: dict[int, int] = {}
    for o in owners:
        if o >= 0:
            found[o] = found.get(o, 0) + 1
    if not found:
        return None
    best = max(found.values())
    top = [o for o, n in found.items() if n == best]
    return top[0] if len(top) == 1 else None


def grown_owner(grid: Grid, cells: Sequence[int], i: int) -> int:
    """What square ``i`` becomes in one growth step: the colour with strictly the most
    neighbours, else (none, or a tie for the top count) what it is now (looked up by
    what it reads, as :func:`grow_cells` does: a search asks it of every square near
    every placement it tries).

    >>> g = Grid.from_rows(["...", "...", "..."])
    >>> cells = g.parse(["01.", "1.2", ".1."])
    >>> grown_owner(g, cells, 4), grown_owner(g, cells, 0), grown_owner(g, cells, 8)
    (1, 1, -1)
    """
    if cells[i] == VOID:  # read as it is, whatever its grid says
        top = top_colour([cells[j] for j in grid.neighbours[i]])
        return cells[i] if top is None else top
    key = grid.growers[i](cells)
    found = _GROWN.get(key)
    if found is None:
        found = _GROWN[key] = _grown(key)
    return found


def _grown(key: Any) -> int:
    """:func:`grown_owner` from what it reads: the owner alone, or ``(owner, *neighbours'
    owners)``; a void cell stays void."""
    if not isinstance(key, tuple):
        return int(key)
    top = top_colour(key[1:])
    return key[0] if top is None or key[0] == VOID else top


#: :func:`_grown` by its key, learnt as met (the keys are few: the owners of five cells;
#: :func:`grown_owner` reads it too).
_GROWN: dict[Any, int] = {}


def grow_cells(grid: Grid, cells: Sequence[int]) -> list[int]:
    """:func:`grow` as a list: every cell's key read by its getter, looked up in one pass."""
    keys = list(map(call, grid.growers, repeat(cells)))
    out = list(map(_GROWN.get, keys))
    if None in out:
        for k, key in enumerate(keys):
            if out[k] is None:
                out[k] = _GROWN[key] = _grown(key)
    return out  # type: ignore[return-value]


def grow(grid: Grid, cells: Sequence[int]) -> tuple[int, ...]:
    """One generation, every square judged on ``cells`` as it was before growth
    (:func:`grown_owner` of every square)."""
    return tuple(grow_cells(grid, cells))


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
