"""Board geometry of Vapoosh!: 12x12 tiles as bits of a Python int.

Tile ``(c, r)`` (column, row, both 1..12) is bit ``(r - 1) * 12 + (c - 1)``.
Every table here is computed once at import; states hold one int per seat.

>>> index(5, 8), tile(index(5, 8))
(88, (5, 8))
>>> sorted(tile(i) for i in bits(NB4[index(1, 1)]))
[(1, 2), (2, 1)]
>>> len(WIN_WINDOWS[index(6, 6)])  # 4+4+4+4 lines and 4 squares through (6,6)
20
"""

from __future__ import annotations

from collections.abc import Iterator

SIZE = 12
TILES = SIZE * SIZE
FULL = (1 << TILES) - 1


def index(c: int, r: int) -> int:
    """Bit index of tile ``(c, r)``."""
    return (r - 1) * SIZE + (c - 1)


def tile(i: int) -> tuple[int, int]:
    """Tile ``(c, r)`` of bit index ``i``."""
    return (i % SIZE + 1, i // SIZE + 1)


def bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _on_board(c: int, r: int) -> bool:
    return 1 <= c <= SIZE and 1 <= r <= SIZE


def _mask(cells: list[tuple[int, int]]) -> int:
    m = 0
    for c, r in cells:
        m |= 1 << index(c, r)
    return m


#: Orthogonal on-board neighbours of each tile (edges are walls: fewer bits).
NB4: tuple[int, ...] = tuple(
    _mask(
        [
            (c + dc, r + dr)
            for dc, dr in ((0, -1), (-1, 0), (1, 0), (0, 1))
            if _on_board(c + dc, r + dr)
        ]
    )
    for r in range(1, SIZE + 1)
    for c in range(1, SIZE + 1)
)

#: Orthogonal and diagonal on-board neighbours of each tile.
NB8: tuple[int, ...] = tuple(
    _mask(
        [
            (c + dc, r + dr)
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dc, dr) != (0, 0) and _on_board(c + dc, r + dr)
        ]
    )
    for r in range(1, SIZE + 1)
    for c in range(1, SIZE + 1)
)


def _windows() -> tuple[list[int], list[int]]:
    lines: list[int] = []
    for r in range(1, SIZE + 1):
        for c in range(1, SIZE + 1):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(_on_board(x, y) for x, y in cells):
                    lines.append(_mask(cells))
    squares = [
        _mask([(c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1)])
        for r in range(1, SIZE)
        for c in range(1, SIZE)
    ]
    return lines, squares


ALL_LINES, ALL_SQUARES = _windows()

#: Four-in-a-row windows (H, V, both diagonals) containing each tile.
LINE_WINDOWS: tuple[tuple[int, ...], ...] = tuple(
    tuple(w for w in ALL_LINES if w >> i & 1) for i in range(TILES)
)
#: 2x2 square windows containing each tile.
SQUARE_WINDOWS: tuple[tuple[int, ...], ...] = tuple(
    tuple(w for w in ALL_SQUARES if w >> i & 1) for i in range(TILES)
)
#: Lines first, then squares (so a tile completing both reports a line).
WIN_WINDOWS: tuple[tuple[int, ...], ...] = tuple(
    LINE_WINDOWS[i] + SQUARE_WINDOWS[i] for i in range(TILES)
)

#: Tiles that dice can name: columns and rows 2..12.
ROLLABLE = tuple(index(c, r) for r in range(2, SIZE + 1) for c in range(2, SIZE + 1))


def _line_groups(i: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Per direction: the tiles of its four-in-a-row windows through ``i``, and those windows."""
    c, r = tile(i)
    out = []
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        windows = []
        for back in range(4):
            cells = [(c + (k - back) * dc, r + (k - back) * dr) for k in range(4)]
            if all(_on_board(x, y) for x, y in cells):
                windows.append(_mask(cells))
        span = 0
        for w in windows:
            span |= w
        if windows:
            out.append((span, tuple(windows)))
    return tuple(out)


#: Per tile: ``(span, windows)`` for each line direction through it (a window can only be
#: complete when at least four tiles of its span are held: a cheap filter before the windows).
LINE_GROUPS: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...] = tuple(
    _line_groups(i) for i in range(TILES)
)
#: Per tile: the 3x3 block around it (every 2x2 square through it lies inside).
SQUARE_BLOCK: tuple[int, ...] = tuple(NB8[i] | 1 << i for i in range(TILES))


def _line_through(mine: int, i: int) -> bool:
    for span, windows in LINE_GROUPS[i]:
        if (mine & span).bit_count() >= 4:
            for w in windows:
                if mine & w == w:
                    return True
    return False


def _square_through(mine: int, i: int) -> bool:
    if (mine & SQUARE_BLOCK[i]).bit_count() >= 4:
        for w in SQUARE_WINDOWS[i]:
            if mine & w == w:
                return True
    return False


def win_reason(mine: int, gained: int) -> str | None:
    """``"four_in_row"`` or ``"square"`` if ``mine`` has a pattern through ``gained``.

    Only windows through the newly gained tiles are checked (a pattern that
    existed before is not a new win). Lines are preferred over squares.

    >>> m = sum(1 << index(c, 3) for c in (2, 3, 4, 5))
    >>> win_reason(m, 1 << index(5, 3))
    'four_in_row'
    >>> win_reason(m, 0) is None
    True
    """
    if gained & (gained - 1) == 0:  # one new tile: the common case (the two checks inlined)
        i = gained.bit_length() - 1
        if i < 0 or not mine & NB8[i]:
            return None
        for span, windows in LINE_GROUPS[i]:
            if (mine & span).bit_count() >= 4:
                for w in windows:
                    if mine & w == w:
                        return "four_in_row"
        if (mine & SQUARE_BLOCK[i]).bit_count() >= 4:
            for w in SQUARE_WINDOWS[i]:
                if mine & w == w:
                    return "square"
        return None
    for i in bits(gained):
        if mine & NB8[i] and _line_through(mine, i):
            return "four_in_row"
    for i in bits(gained):
        if mine & NB8[i] and _square_through(mine, i):
            return "square"
    return None


def has_pattern(mine: int) -> bool:
    """Whether ``mine`` holds any four-in-a-row or 2x2 square anywhere."""
    return any(mine & w == w for w in ALL_LINES) or any(mine & w == w for w in ALL_SQUARES)
