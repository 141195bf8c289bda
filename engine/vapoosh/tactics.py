"""Small tactical facts about a position, in plain Python, for players and their reasons.

Boards here are sequences of 144 ints (index ``(r-1)*12 + (c-1)``; 0 empty, 1..4 a seat,
5 brown), as made by :func:`board_of`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.vapoosh import geometry as geo
from engine.vapoosh.actions import PLACE_BASE
from engine.vapoosh.primitives import NO_BROWN, roll_targets
from engine.vapoosh.primitives import is_suicide as _is_suicide

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


def masks_of(board: Sequence[int]) -> tuple[list[int], int]:
    """Per-seat masks (seats 1..4 as 0..3) and the brown mask of a 144-int board."""
    masks = [0, 0, 0, 0]
    brown = 0
    for i, owner in enumerate(board):
        if owner == geo.BROWN:
            brown |= 1 << i
        elif owner:
            masks[owner - 1] |= 1 << i
    return masks, brown


def is_suicide(board: Sequence[int], i: int, seat: int) -> bool:
    """Whether empty tile ``i`` is suicide for ``seat`` (the rule of
    :func:`engine.vapoosh.primitives.is_suicide`).

    >>> b = [0] * 144
    >>> for n in geo.NEIGHBOURS[geo.index(1, 5)]:
    ...     b[n] = 2
    >>> is_suicide(b, geo.index(1, 5), 1), is_suicide(b, geo.index(1, 5), 2)
    (True, False)
    """
    masks, _ = masks_of(board)
    return board[i] == 0 and _is_suicide(masks, seat - 1, i)


def can_place(
    masks: Sequence[int], brown: int, i: int, seat: int, capture_any: bool, suicide: bool
) -> bool:
    """Whether ``seat`` could put a normal counter on ``i`` if a roll offered it (and so its
    mirror tile): the rules' own :func:`~engine.vapoosh.primitives.roll_targets`, asked about
    that roll. Under ``capture = "when_blocked"`` an opponent's counter is taken only when
    the mirror tile is unavailable."""
    if not geo.ROLLABLE[i]:
        return False
    m = geo.MIRROR[i]
    options = (i,) if m == i else (i, m)
    return PLACE_BASE + i in roll_targets(
        masks, brown, seat - 1, options, NO_BROWN, capture_any, suicide
    )


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
    masks, brown = masks_of(board)
    mine = masks[seat - 1]
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
        if can_place(masks, brown, missing, seat, capture_any, suicide):
            out[missing] = _PATTERN_WORDS[geo.WINDOW_KINDS[w]]
    return out


def tile_text(i: int) -> str:
    """``"(c,r)"`` for a flat index."""
    c, r = geo.tile(i)
    return f"({c},{r})"
