"""Vapoosh!'s computer levels: legal moves everywhere, tactics, determinism and reasons."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.bench_engine import decision_positions
from engine.players import Decision, Player, PlayerError, levels
from engine.players import make_player as make_any_player
from engine.vapoosh import Brown, Place, Roll, Rules, VapooshGame
from engine.vapoosh import geometry as geo
from engine.vapoosh.players import EXPERT_BUDGET, ROLL_KINDS

PRESETS = ("standard", "classic", "house")
LEVELS = levels("vapoosh")


def make_player(level: str, seed: int = 1) -> Player:
    return make_any_player(level, seed, game="vapoosh")


def _position(
    board: dict[tuple[int, int], str],
    dice: tuple[int, int, int, int],
    to_move: int = 1,
    preset: str = "standard",
    players: int = 2,
) -> Any:
    rows = [["."] * 12 for _ in range(12)]
    for (c, r), ch in board.items():
        rows[r - 1][c - 1] = ch
    game = VapooshGame(Rules.preset(preset), players=players)
    state = game.state_from_position(["".join(row) for row in rows], to_move=to_move)
    state.apply(Roll(dice))
    assert state.phase == "place"
    return state


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_level_returns_a_legal_move_with_a_one_line_reason(preset: str, players: int) -> None:
    positions = decision_positions(Rules.preset(preset), players, count=6,
                                   seed=players * 7 + len(preset))
    for level in LEVELS:
        player = make_player(level, seed=11)
        # Expert is the slow one: two positions per configuration are plenty.
        for state in positions[: 2 if level == "expert" else None]:
            before = state.board_rows()
            decision = player.choose(state)
            assert isinstance(decision, Decision)
            assert decision.action in state.targets()
            assert decision.reason.strip() and "\n" not in decision.reason
            assert state.board_rows() == before  # choosing never changes the position


def test_house_vapooh_roll_gives_only_brown_moves_and_players_take_one() -> None:
    # Three 6s: options (12, 9) and (9, 12); under house the brown counter is compulsory.
    state = _position({}, (6, 6, 3, 6), preset="house")
    assert all(isinstance(t, Brown) for t in state.targets())
    for level in LEVELS:
        assert isinstance(make_player(level, seed=1).choose(state).action, Brown)


def test_standard_vapooh_offers_place_and_brown_and_all_levels_stay_legal() -> None:
    state = _position({(12, 9): "2", (5, 5): "1"}, (6, 6, 3, 6))
    kinds = {type(t) for t in state.targets()}
    assert kinds == {Place, Brown}
    for level in LEVELS:
        assert make_player(level, seed=2).choose(state).action in state.targets()


# Seat 1 holds (5,6), (6,6), (7,6); the roll 4+4 / 3+3 offers (8,6) and (6,8).
THREE_IN_ROW = {(5, 6): "1", (6, 6): "1", (7, 6): "1"}
EIGHT_SIX = (4, 4, 3, 3)


def _player(level: str, seed: int) -> Player:
    return make_player(level, seed)


@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
def test_takes_an_immediate_win(level: str) -> None:
    state = _position(THREE_IN_ROW, EIGHT_SIX)
    for seed in range(3):
        decision = _player(level, seed).choose(state)
        assert decision.action == Place(8, 6)
        assert decision.reason.startswith("Wins")


@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
def test_blocks_an_opponents_immediate_win(level: str) -> None:
    theirs = {tile: "2" for tile in THREE_IN_ROW}
    state = _position(theirs, EIGHT_SIX, to_move=1)
    for seed in range(2):
        decision = _player(level, seed).choose(state)
        assert decision.action == Place(8, 6)
        assert "blocks seat 2's four-in-a-row at (8,6)" in decision.reason.lower()


def test_medium_captures_when_it_cannot_win_or_block() -> None:
    # (8,6) holds seat 2's counter and (6,8) is seat 1's own: the only move is a capture,
    # so use classic (capture any) where both an empty tile and a capture are offered.
    state = _position({(8, 6): "2"}, EIGHT_SIX, preset="classic")
    assert set(state.targets()) == {Place(8, 6), Place(6, 8)}
    decision = make_player("medium", seed=4).choose(state)
    assert decision.action == Place(8, 6)
    assert decision.reason == "Captures seat 2's counter at (8,6)"


def test_hard_prefers_the_mirror_tile_that_extends_its_own_line() -> None:
    # (6,8) would make three in a column with (6,6), (6,7); (8,6) is out on its own.
    state = _position({(6, 6): "1", (6, 7): "1", (2, 2): "2"}, EIGHT_SIX)
    for level in ("hard", "expert"):
        assert _player(level, 1).choose(state).action == Place(6, 8)


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_decisions(level: str) -> None:
    positions = decision_positions(Rules.preset("standard"), 3,
                                   count=4 if level == "expert" else 10, seed=5)
    first = make_player(level, seed=99)
    second = make_player(level, seed=99)
    assert [first.choose(s) for s in positions] == [second.choose(s) for s in positions]


def test_easy_spreads_its_choices_over_the_legal_moves() -> None:
    state = _position({}, EIGHT_SIX)
    picks = {make_player("easy", seed=s).choose(state).action for s in range(20)}
    assert picks == {Place(8, 6), Place(6, 8)}


def test_wrong_phase_and_unknown_level_are_typed_errors() -> None:
    state = VapooshGame(Rules.preset("standard"), players=2).new_initial_state()
    with pytest.raises(PlayerError, match="only decides when a seat is to move"):
        make_player("hard").choose(state)
    with pytest.raises(PlayerError, match="unknown computer level 'godlike'"):
        make_player("godlike")


def test_chance_classes_cover_all_rolls() -> None:
    assert sum(c.probability for c in geo.CHANCE_CLASSES) == pytest.approx(1.0)
    # 66 unordered sum pairs; (2,2) is always a quad, (12,12) VAPOOSH!, (11,12) a Vapooh.
    assert sum(1 for c in geo.CHANCE_CLASSES if c.kind == "normal") == 63
    kinds = {c.kind for c in geo.CHANCE_CLASSES}
    assert kinds == {"normal", "quad", "vapooh", "vapoosh"}


def test_roll_kinds_are_the_chance_classes_with_a_roll_of_each() -> None:
    assert len(ROLL_KINDS) == len(geo.CHANCE_CLASSES) == 74
    assert sum(p for _, p in ROLL_KINDS) == pytest.approx(1.0)
    assert len({a for a, _ in ROLL_KINDS}) == 74


def test_expert_is_the_search_player_looking_past_the_next_roll() -> None:
    state = _position({(6, 6): "1", (6, 7): "1", (2, 2): "2"}, EIGHT_SIX)
    decision = make_player("expert", seed=1).decide(state)
    # two moves, 74 kinds of roll each, then every reply: two levels past greedy
    assert decision.reason.endswith("looked 3 steps ahead (moves and chance draws)")
    assert make_player("expert").budget == EXPERT_BUDGET  # type: ignore[attr-defined]
