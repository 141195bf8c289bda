"""Small tactical facts about a position, in plain Python, for players and their reasons.

Boards here are sequences of 144 ints (index ``(r-1)*12 + (c-1)``; 0 empty, 1..4 a seat,
5 brown), as made by :func:`board_of`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.players import geometry as geo

_PATTERN_WORDS = {
    "row": "four-in-a-row",
    "column": "four-in-a-row",
    "diagonal": "four-in-a-row",
    "square": "square",
}
_WINDOW_MASKS: tuple[int, ...] = tuple(sum(1 << i for i in cells) for cells in geo.WINDOWS)
_OWNER = {".": 0, "1": 1, "2": 2, "3": 3, "4": 4, "B": 5}


def bitboards(state: Any) -> tuple[list[int], int] | None:
    """The state's per-seat bit masks and brown mask, when it keeps them, else None.

    Why not only ``board_rows()``: the search reads hundreds of boards per decision and
    ``board_rows()`` costs ~60 µs each, the masks nothing. They are private to
    VapooshState, so everything falls back to ``board_rows()`` if they ever go away.
    """
    masks = getattr(state, "_masks", None)
    brown = getattr(state, "_brown", None)
    if isinstance(masks, list) and isinstance(brown, int):
        return masks, brown
    return None


def board_of(state: Any) -> list[int]:
    """The board of a Vapoosh! state as 144 ints (0 empty, 1..4 seat, 5 brown)."""
    bits = bitboards(state)
    if bits is None:
        return [_OWNER[ch] for row in state.board_rows() for ch in row]
    masks, brown = bits
    board = [0] * geo.CELLS
    for owner, mask in enumerate([*masks, brown], start=1):
        if owner > len(masks):
            owner = geo.BROWN
        while mask:
            low = mask & -mask
            board[low.bit_length() - 1] = owner
            mask ^= low
    return board


def is_suicide(board: Sequence[int], i: int, seat: int) -> bool:
    """Whether empty tile ``i`` is suicide for ``seat``: every on-board neighbour is one opponent's.

    >>> b = [0] * 144
    >>> for n in geo.NEIGHBOURS[geo.index(1, 5)]:
    ...     b[n] = 2
    >>> is_suicide(b, geo.index(1, 5), 1), is_suicide(b, geo.index(1, 5), 2)
    (True, False)
    """
    if board[i] != 0:
        return False
    owners = {board[n] for n in geo.NEIGHBOURS[i]}
    if len(owners) != 1:
        return False
    (only,) = owners
    return 1 <= only <= 4 and only != seat


def placeable(board: Sequence[int], i: int, seat: int, suicide: bool) -> bool:
    """Whether ``seat`` could put a normal counter on empty tile ``i`` if it were rolled."""
    return board[i] == 0 and geo.ROLLABLE[i] and not (suicide and is_suicide(board, i, seat))


def capturable(board: Sequence[int], i: int, seat: int, capture_any: bool, suicide: bool) -> bool:
    """Whether ``seat`` could capture the opponent counter on ``i`` if it were rolled.

    Under ``capture = "when_blocked"`` that needs the mirror tile to be unavailable
    (a tile on the diagonal is its own mirror).
    """
    owner = board[i]
    if not (1 <= owner <= 4 and owner != seat and geo.ROLLABLE[i]):
        return False
    if capture_any:
        return True
    m = geo.MIRROR[i]
    return m == i or not placeable(board, m, seat, suicide)


def winning_tiles(
    board: Sequence[int], seat: int, capture_any: bool, suicide: bool
) -> dict[int, str]:
    """Tiles where ``seat`` would win at once if the dice offered them, with the pattern.

    >>> b = [0] * 144
    >>> for c in (5, 6, 7):
    ...     b[geo.index(c, 6)] = 1
    >>> sorted((geo.tile(i), p) for i, p in winning_tiles(b, 1, False, True).items())
    [((4, 6), 'four-in-a-row'), ((8, 6), 'four-in-a-row')]
    """
    mine = 0
    for i, owner in enumerate(board):
        if owner == seat:
            mine |= 1 << i
    out: dict[int, str] = {}
    if mine.bit_count() < 3:
        return out
    for w, window_mask in enumerate(_WINDOW_MASKS):
        held = mine & window_mask
        if held == window_mask or held.bit_count() != 3:
            continue
        missing = (window_mask ^ held).bit_length() - 1
        if missing in out:
            continue
        if placeable(board, missing, seat, suicide) or capturable(
            board, missing, seat, capture_any, suicide
        ):
            out[missing] = _PATTERN_WORDS[geo.WINDOW_KINDS[w]]
    return out


def tile_text(i: int) -> str:
    """``"(c,r)"`` for a flat index."""
    c, r = geo.tile(i)
    return f"({c},{r})"
