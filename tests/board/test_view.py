"""board_view: the pure view model of the board component."""

from __future__ import annotations

import json

import pytest

from playtest.games.vapoosh.view import (
    SEAT_STYLES,
    BoardViewError,
    board_view,
    default_label,
    glow_from_events,
    is_square_number,
    tile_at,
    tile_index,
)

EMPTY = ["." * 12] * 12


def _rows(*placed: tuple[int, int, str]) -> list[str]:
    grid = [list("." * 12) for _ in range(12)]
    for c, r, ch in placed:
        grid[r - 1][c - 1] = ch
    return ["".join(row) for row in grid]


def test_tiles_are_the_multiplication_table_in_row_order() -> None:
    view = board_view(EMPTY)
    assert len(view.tiles) == 144
    assert [t.number for t in view.tiles[:12]] == list(range(1, 13))
    assert view.tile(5, 8).number == 40 and view.tile(5, 8).index == 88
    assert all(tile_at(tile_index(c, r)) == (c, r) for c in range(1, 13) for r in range(1, 13))


def test_exactly_the_perfect_squares_glow() -> None:
    view = board_view(EMPTY)
    glowing = {t.number for t in view.tiles if t.square}
    assert glowing == {1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144}
    assert view.tile(2, 8).square and view.tile(3, 12).square  # 16 and 36 off the diagonal
    assert not view.tile(5, 8).square
    assert [n for n in range(1, 50) if is_square_number(n)] == [1, 4, 9, 16, 25, 36, 49]


def test_owners_and_shapes_come_from_the_rows() -> None:
    view = board_view(_rows((5, 8, "1"), (8, 5, "2"), (1, 1, "B")), seats=("human", "computer"))
    assert view.tile(5, 8).owner == 1 and view.tile(8, 5).owner == 2 and view.tile(1, 1).owner == 5
    assert view.tile(5, 8).label == "column 5, row 8, 40, player 1, blue circle"
    assert view.tile(8, 5).label == "column 8, row 5, 40, computer (player 2), orange square"
    assert view.tile(1, 1).label == "column 1, row 1, 1, brown counter"
    # every seat differs in shape as well as colour
    shapes = {s.shape for s in SEAT_STYLES.values()}
    colours = {s.colour for s in SEAT_STYLES.values()}
    assert len(shapes) == len(colours) == len(SEAT_STYLES) == 5


def test_options_are_highlighted_only_when_asked() -> None:
    opts = ((5, 8), (8, 5))
    hidden = board_view(EMPTY, dice=(2, 3, 4, 4), options=opts, phase="place")
    shown = board_view(EMPTY, dice=(2, 3, 4, 4), options=opts, phase="place", highlight=True)
    assert [t.index for t in hidden.tiles if t.option] == [tile_index(8, 5), tile_index(5, 8)]
    assert not any(t.highlighted for t in hidden.tiles)
    assert hidden.to_data()["hl"] == []
    assert sorted(shown.to_data()["hl"]) == sorted([tile_index(5, 8), tile_index(8, 5)])
    assert "a rolled option" in shown.tile(5, 8).label
    assert "option" not in hidden.tile(5, 8).label


def test_glow_tiles_and_their_words() -> None:
    view = board_view(
        _rows((5, 8, "2"), (6, 8, "1")),
        glow={(5, 8): "computer", (6, 8): "captured"},
        seats=("human", "computer"),
    )
    assert view.tile(5, 8).glow == "computer" and view.tile(6, 8).glow == "captured"
    assert view.tile(5, 8).label.endswith("the computer's move")
    assert view.to_data()["glow"] == {"88": "computer", "89": "captured"}
    with pytest.raises(BoardViewError, match="glow kind"):
        board_view(EMPTY, glow={(1, 1): "sparkly"})


def test_glow_from_events_accepts_dicts_and_objects() -> None:
    class Ev:
        kind = "surround_capture"
        tiles = ((6, 8),)

    events = [{"kind": "place", "tiles": [[5, 8]]}, {"kind": "capture", "tiles": [[5, 8]]}, Ev()]
    assert glow_from_events(events) == {(5, 8): "captured", (6, 8): "captured"}
    assert glow_from_events([{"kind": "place", "tiles": [[2, 2]]}], square_roll=True) == {
        (2, 2): "square"
    }
    assert glow_from_events([{"kind": "brown", "tiles": [[3, 3]]}], computer=True) == {
        (3, 3): "computer"
    }
    assert glow_from_events([{"kind": "roll", "tiles": []}]) == {}


def test_roll_button_and_interactivity_follow_phase_and_seat() -> None:
    human = board_view(EMPTY, seats=("human", "computer"), to_move=1, phase="roll")
    computer = board_view(EMPTY, seats=("human", "computer"), to_move=2, phase="roll")
    placing = board_view(EMPTY, to_move=1, phase="place", dice=(1, 1, 1, 1), options=((2, 2),))
    over = board_view(EMPTY, to_move=None, phase="over")
    thinking = board_view(EMPTY, to_move=1, phase="roll", interactive=False)
    assert human.can_roll and not computer.can_roll and not placing.can_roll
    assert not over.interactive and over.turn_text == "Game over"
    assert not thinking.can_roll and not thinking.interactive
    assert computer.turn_text == "Computer (player 2)'s turn"
    # the computer's turn takes no input from the board, even if the app forgets to say so
    assert not computer.interactive
    assert not board_view(EMPTY, phase="setup").interactive


def test_token_tracks_the_board_but_not_the_message() -> None:
    a = board_view(EMPTY, message="hello", nonce="1")
    b = board_view(EMPTY, message="bye", nonce="2", sound="place")
    c = board_view(_rows((5, 8, "1")))
    d = board_view(EMPTY, interactive=False)
    assert a.token == b.token
    assert len({a.token, c.token, d.token}) == 3


def test_view_is_pure_and_json_ready() -> None:
    kwargs = dict(dice=(1, 2, 3, 4), options=((3, 7), (7, 3)), glow={(3, 7): "placed"})
    assert board_view(EMPTY, **kwargs) == board_view(EMPTY, **kwargs)  # type: ignore[arg-type]
    data = board_view(_rows((1, 1, "1")), **kwargs).to_data()  # type: ignore[arg-type]
    assert json.loads(json.dumps(data)) == data
    assert data["owners"] == "1" + "." * 143
    # labels travel only where they differ from the empty default the browser builds
    assert set(data["labels"]) == {"0", str(tile_index(3, 7))}
    assert default_label(5, 8) == board_view(EMPTY).tile(5, 8).label


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rows": ["." * 12] * 11}, "12 row strings"),
        ({"rows": ["." * 11] + ["." * 12] * 11}, "row 1 must be"),
        ({"rows": ["X" + "." * 11] + ["." * 12] * 11}, "not one of"),
        ({"rows": ["3" + "." * 11] + ["." * 12] * 11}, "seat 3's counter"),
        ({"dice": (0, 1, 2, 3)}, "dice are four values"),
        ({"options": ((13, 1),)}, "off the board"),
        ({"phase": "thinking"}, "phase must be"),
        ({"seats": ("human", "robot")}, "seats must be"),
        ({"to_move": 3}, "to_move must be"),
        ({"tone": "loud"}, "tone must be"),
    ],
)
def test_bad_input_is_named(kwargs: dict[str, object], message: str) -> None:
    rows = kwargs.pop("rows", EMPTY)
    with pytest.raises(BoardViewError, match=message):
        board_view(rows, **kwargs)  # type: ignore[arg-type]


def test_the_computers_dice_are_shown_as_its_roll() -> None:
    view = board_view(
        EMPTY,
        dice=(6, 2, 3, 3),
        dice_seat=2,
        seats=("human", "computer"),
        to_move=2,
        phase="place",
        options=((8, 6), (6, 8)),
        glow={(8, 6): "computer"},
    )
    data = view.to_data()
    assert data["dice"] == [6, 2, 3, 3] and data["dice_by"] == "computer (player 2)"
    assert data["glow"] == {str(tile_index(8, 6)): "computer"}
    assert not data["interactive"] and not data["can_roll"]


def test_seats_are_named_as_the_tester_knows_them() -> None:
    view = board_view(
        ["1" + "." * 11] + ["." * 12] * 11,
        dice=(6, 2, 3, 3),
        dice_seat=2,
        seats=("human", "computer"),
        to_move=1,
        names=("you", "the computer"),
    )
    data = view.to_data()
    assert data["turn_text"] == "Your turn" and data["dice_by"] == "the computer"
    assert data["labels"][str(tile_index(1, 1))].startswith("column 1, row 1, 1, yours")
    other = board_view(EMPTY, seats=("human", "human"), to_move=2, names=("Blue", "Orange"))
    assert other.turn_text == "Orange's turn"


def test_brown_choice_zoom_and_win_glow_reach_the_browser() -> None:
    view = board_view(
        EMPTY,
        seats=("human", "computer"),
        phase="place",
        options=((12, 9), (9, 12)),
        brown_tiles=((12, 9), (9, 12)),
        zoom=True,
        glow={(1, 1): "win"},
    )
    data = view.to_data()
    assert sorted(data["brown"]) == sorted([tile_index(12, 9), tile_index(9, 12)])
    assert data["zoom"] is True and data["glow"] == {"0": "win"}
    assert "part of the winning line" in view.tile(1, 1).label
