"""``VapooshState.board_rows`` (walked over the masks' set bits, issue 12) says for every
tile what :meth:`VapooshState.owner` says, over random games of 1-4 seats (brown counters
included)."""

from __future__ import annotations

import random

import pytest
from vapoosh_testkit import position

from engine.vapoosh import VapooshGame, VapooshState


def _rows_by_owner(state: VapooshState) -> list[str]:
    return ["".join(".1234B"[state.owner(c, r)] for c in range(1, 13)) for r in range(1, 13)]


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_board_rows_match_owner_on_every_tile_of_random_games(seats: int) -> None:
    rng = random.Random(seats)
    compared = 0
    for _ in range(6):
        game = VapooshGame("house", players=seats)
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            assert state.board_rows() == _rows_by_owner(state)
            compared += 1
    assert compared > 100


def test_brown_and_every_seat_in_one_position() -> None:
    s = position({(1, 1): "1", (2, 1): "2", (3, 1): "3", (4, 1): "4", (12, 12): "B"},
                 players=4)
    rows = s.board_rows()
    assert rows[0] == "1234........" and rows[11] == "...........B"
    assert rows == _rows_by_owner(s)
