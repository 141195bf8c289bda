"""The board view's fast paths (issue 12: the play screen builds a view on every click)
draw exactly what the plain way does: every tile made one by one with ``_tile``, the
token from the tiles' owners, the browser's data from every tile. Random boards of 1-4
seats with brown counters, options (lit or not), glow marks and names."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from playtest.games.vapoosh.view import (
    GLOW_KINDS,
    SIZE,
    BoardView,
    BoardViewError,
    _tile,
    board_view,
    default_label,
)


def _plain_tiles(view: BoardView, owners: list[int], glow: dict[tuple[int, int], str]) -> list[Any]:
    """The tiles as the view made them before its fast path: one ``_tile`` call each."""
    marks = {(r - 1) * SIZE + (c - 1): kind for (c, r), kind in glow.items()}
    tiles = []
    for i, owner in enumerate(owners):
        is_option = (i % SIZE + 1, i // SIZE + 1) in view.options
        tiles.append(_tile(i, owner, marks.get(i, ""), is_option, view.highlight and is_option,
                           view.seats, view.names))
    return tiles


def _plain_token(view: BoardView) -> str:
    basis = json.dumps([[t.owner for t in view.tiles], view.dice, view.options, view.to_move,
                        view.phase, view.turn, view.interactive, view.highlight])
    return hashlib.blake2b(basis.encode(), digest_size=8).hexdigest()


def _plain_data(view: BoardView) -> dict[str, Any]:
    return {
        "owners": "".join(".1234B"[t.owner] for t in view.tiles),
        "glow": {str(t.index): t.glow for t in view.tiles if t.glow},
        "hl": [t.index for t in view.tiles if t.highlighted],
        "labels": {str(t.index): t.label for t in view.tiles
                   if t.label != default_label(t.c, t.r)},
    }


def _random_case(rng: random.Random) -> tuple[list[str], dict[str, Any], list[int],
                                               dict[tuple[int, int], str]]:
    seats = rng.randint(1, 4)
    chars = ".B" + "1234"[:seats]
    owners_chars = [rng.choice(chars) if rng.random() < 0.4 else "." for _ in range(SIZE * SIZE)]
    rows = ["".join(owners_chars[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE)]
    tiles = [(c, r) for c in range(1, SIZE + 1) for r in range(1, SIZE + 1)]
    glow = {t: rng.choice(GLOW_KINDS) for t in rng.sample(tiles, rng.randint(0, 6))}
    kwargs: dict[str, Any] = {
        "seats": [rng.choice(["human", "computer"]) for _ in range(seats)],
        "options": rng.sample(tiles, rng.randint(0, 2)),
        "highlight": rng.random() < 0.5,
        "glow": glow,
        "dice": tuple(rng.randint(1, 6) for _ in range(4)) if rng.random() < 0.8 else None,
        "to_move": rng.randint(1, seats),
        "phase": rng.choice(["roll", "place", "over"]),
        "turn": rng.randint(0, 40),
        "names": ["you", "the computer", "Blue", "Pink"][:seats] if rng.random() < 0.5 else None,
    }
    return rows, kwargs, [".1234B".index(ch) for ch in owners_chars], glow


@pytest.mark.parametrize("seed", range(40))
def test_fast_view_equals_the_plain_way(seed: int) -> None:
    rows, kwargs, owners, glow = _random_case(random.Random(seed))
    view = board_view(rows, **kwargs)
    assert list(view.tiles) == _plain_tiles(view, owners, glow)
    assert view.token == _plain_token(view)
    data = view.to_data()
    assert {k: data[k] for k in ("owners", "glow", "hl", "labels")} == _plain_data(view)


def test_the_same_board_twice_is_the_same_view_and_a_changed_one_is_not() -> None:
    rows = ["." * SIZE] * SIZE
    first = board_view(rows, seats=("human", "computer"))
    again = board_view(list(rows), seats=("human", "computer"))
    moved = board_view(["1" + "." * (SIZE - 1)] + rows[1:], seats=("human", "computer"))
    assert first == again and first.token == again.token
    assert moved.tile(1, 1).owner == 1 and moved.token != first.token


@pytest.mark.parametrize(("rows", "message"), [
    (["." * SIZE] * 11, "the board needs 12 row strings, got 11"),
    (["." * SIZE] * 11 + ["." * 11], "row 12 must be a string of 12 characters"),
    (["." * SIZE] * 11 + ["." * 11 + "x"], "row 12, column 12: 'x' is not one of"),
    (["3" + "." * 11] + ["." * SIZE] * 11, "the board holds seat 3's counter but there are 2"),
])
def test_bad_rows_are_named_as_before(rows: list[str], message: str) -> None:
    with pytest.raises(BoardViewError, match=message):
        board_view(rows, seats=("human", "computer"))
