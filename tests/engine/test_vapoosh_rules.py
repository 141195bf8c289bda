"""One test (or a few) per rule of vapoosh-rules.md, on hand-built positions."""

from __future__ import annotations

import pytest
from vapoosh_testkit import dice_for, kinds, position

from engine.core import CHANCE, TERMINAL, IllegalActionError
from engine.vapoosh import Brown, Outcome, Place, Roll
from engine.vapoosh.actions import DICE


def refused(state, action) -> IllegalActionError:  # type: ignore[no-untyped-def]
    """Apply a forbidden action; check the state is untouched; return the error."""
    before = state.to_json()
    clone = state.clone()
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert state.to_json() == before
    assert state == clone
    return info.value


# ----- board, dice, options ------------------------------------------------------------


def test_options_are_both_orders_of_the_sums_and_share_the_product() -> None:
    s = position()
    events = s.apply(Roll((2, 3, 4, 4)))
    assert s.options == ((5, 8), (8, 5))
    assert s.dice == (2, 3, 4, 4)
    assert events[0].kind == "roll" and events[0].data["product"] == 40
    assert s.phase == "place" and s.current_player() == 0


def test_equal_sums_give_one_option() -> None:
    s = position()
    s.apply(Roll((1, 5, 3, 3)))
    assert s.options == ((6, 6),)
    assert s.targets() == [Place(6, 6)]


def test_row_and_column_one_are_never_rolled() -> None:
    sums = {d[0] + d[1] for d in DICE} | {d[2] + d[3] for d in DICE}
    assert sums == set(range(2, 13))


# ----- empty priority and captures ----------------------------------------------------


def test_empty_priority_forbids_the_taken_option() -> None:
    s = position({(7, 5): "2"})
    s.apply(Roll((3, 4, 2, 3)))
    assert s.targets() == [Place(5, 7)]
    err = refused(s, Place(7, 5))
    assert err.reason == "empty_priority"
    assert str(err) == "(7,5) is taken and (5,7) is empty: the counter must go on the empty tile"
    assert kinds(s.apply(Place(5, 7))) == ["place"]
    assert s.to_move == 2


def test_capture_when_blocked_replaces_the_opponent() -> None:
    s = position({(7, 5): "2", (5, 7): "2"})
    s.apply(Roll((3, 4, 2, 3)))
    assert s.targets() == [Place(7, 5), Place(5, 7)]
    events = s.apply(Place(5, 7))
    assert kinds(events) == ["capture", "place"]
    assert events[0].data["from_seat"] == 2 and events[0].tiles == ((5, 7),)
    assert s.owner(5, 7) == 1 and s.owner(7, 5) == 2


def test_capture_any_has_no_priority() -> None:
    s = position({(7, 5): "2"}, rules="classic")
    s.apply(Roll((3, 4, 2, 3)))
    assert s.targets() == [Place(7, 5), Place(5, 7)]
    assert kinds(s.apply(Place(7, 5))) == ["capture", "place"]
    assert s.owner(7, 5) == 1


def test_own_tile_is_never_a_target() -> None:
    s = position({(7, 5): "1"})
    s.apply(Roll((3, 4, 2, 3)))
    assert s.targets() == [Place(5, 7)]
    assert refused(s, Place(7, 5)).reason == "own_tile"


def test_a_tile_that_is_not_rolled_is_refused() -> None:
    s = position()
    s.apply(Roll((3, 4, 2, 3)))
    err = refused(s, Place(2, 2))
    assert err.reason == "not_an_option"
    assert "(7,5) and (5,7)" in str(err)


# ----- suicide tiles ------------------------------------------------------------------

SURROUND_5_7 = {(5, 6): "2", (5, 8): "2", (4, 7): "2", (6, 7): "2"}


def test_suicide_tile_is_not_a_target() -> None:
    s = position(SURROUND_5_7)
    s.apply(Roll((3, 4, 2, 3)))
    assert s.targets() == [Place(7, 5)]
    err = refused(s, Place(5, 7))
    assert err.reason == "suicide" and "suicide" in str(err)


def test_suicide_and_opponent_options_capture_the_opponent() -> None:
    s = position({**SURROUND_5_7, (7, 5): "2"})
    s.apply(Roll((3, 4, 2, 3)))
    assert s.targets() == [Place(7, 5)]


def test_edge_tile_needs_three_neighbours_for_suicide() -> None:
    cells = {(12, 4): "2", (12, 6): "2", (11, 5): "2"}
    s = position(cells)
    s.apply(Roll(dice_for(12, 5)))
    assert s.targets() == [Place(5, 12)]


def test_mixed_or_brown_neighbourhood_is_not_suicide() -> None:
    mixed = {**SURROUND_5_7, (6, 7): "3"}
    s = position(mixed, players=3)
    s.apply(Roll((3, 4, 2, 3)))
    assert Place(5, 7) in s.targets()
    browned = {**SURROUND_5_7, (6, 7): "B"}
    s = position(browned)
    s.apply(Roll((3, 4, 2, 3)))
    assert Place(5, 7) in s.targets()


def test_own_neighbours_never_make_suicide() -> None:
    own = {k: "1" for k in SURROUND_5_7}
    s = position(own)
    s.apply(Roll((3, 4, 2, 3)))
    assert Place(5, 7) in s.targets()


def test_suicide_off_makes_the_tile_playable() -> None:
    s = position(SURROUND_5_7, rules={"base": "standard", "suicide": False})
    s.apply(Roll((3, 4, 2, 3)))
    assert s.targets() == [Place(7, 5), Place(5, 7)]


# ----- blocked rolls ------------------------------------------------------------------


def test_both_options_own_two_players_next_player_misses() -> None:
    s = position({(7, 5): "1", (5, 7): "1"})
    events = s.apply(Roll((3, 4, 2, 3)))
    assert kinds(events) == ["roll", "blocked_own", "skip"]
    assert events[2].seat == 2
    assert (s.to_move, s.phase, s.skips) == (1, "roll", {})


def test_both_options_own_three_players_documented_example() -> None:
    s = position({(7, 5): "1", (5, 7): "1"}, players=3)
    assert kinds(s.apply(Roll((3, 4, 2, 3)))) == ["roll", "blocked_own", "skip"]
    assert s.to_move == 3


def test_square_roll_on_own_tile_is_blocked_without_extra_turn() -> None:
    s = position({(7, 7): "1"})
    assert kinds(s.apply(Roll((3, 4, 2, 5)))) == ["roll", "blocked_own", "skip"]


OWN_SUICIDE = {(5, 12): "1", (12, 4): "2", (12, 6): "2", (11, 5): "2"}


def test_own_and_suicide_rerolls_three_times_then_misses() -> None:
    s = position(OWN_SUICIDE)
    dice = Roll(dice_for(12, 5))
    for k in range(3):
        events = s.apply(dice)
        assert kinds(events) == ["roll", "reroll"]
        assert events[1].data["reroll"] == k + 1
        assert (s.to_move, s.phase) == (1, "roll")
    assert kinds(s.apply(dice)) == ["roll", "miss_turn"]
    assert (s.to_move, s.turns) == (2, 4)


def test_rerolls_reset_at_the_next_turn() -> None:
    s = position(OWN_SUICIDE)
    dice = Roll(dice_for(12, 5))
    s.apply(dice)
    s.apply(dice)
    s.apply(Roll(dice_for(3, 9)))
    s.apply(Place(3, 9))
    s.apply(Roll(dice_for(2, 9)))
    s.apply(Place(2, 9))
    assert s.to_move == 1
    for _ in range(3):
        assert kinds(s.apply(dice)) == ["roll", "reroll"]
    assert kinds(s.apply(dice)) == ["roll", "miss_turn"]


def test_no_rerolls_allowed_means_a_missed_turn() -> None:
    s = position(OWN_SUICIDE, rules={"base": "standard", "own_suicide_rerolls": 0})
    assert kinds(s.apply(Roll(dice_for(12, 5)))) == ["roll", "miss_turn"]
    assert s.to_move == 2


def test_both_suicide_or_brown_means_a_missed_turn() -> None:
    both = {
        **SURROUND_5_7,
        **{(7, 4): "2", (7, 6): "2", (6, 5): "2", (8, 5): "2"},
    }
    s = position(both)
    assert kinds(s.apply(Roll((3, 4, 2, 3)))) == ["roll", "miss_turn"]
    assert s.to_move == 2
    s = position({(7, 5): "1", (5, 7): "B"})
    assert kinds(s.apply(Roll((3, 4, 2, 3)))) == ["roll", "miss_turn"]


# ----- square rolls, quads ------------------------------------------------------------


def test_square_roll_gives_an_extra_turn_documented_example() -> None:
    s = position()
    assert kinds(s.apply(Roll((3, 4, 2, 5)))) == ["roll"]
    assert kinds(s.apply(Place(7, 7))) == ["place", "extra_turn"]
    assert (s.to_move, s.phase) == (1, "roll")


def test_no_extra_turn_in_classic() -> None:
    s = position(rules="classic")
    s.apply(Roll((3, 4, 2, 5)))
    assert kinds(s.apply(Place(7, 7))) == ["place"]
    assert s.to_move == 2


def test_no_extra_turn_when_the_placement_wins() -> None:
    s = position({(4, 7): "1", (5, 7): "1", (6, 7): "1"})
    s.apply(Roll((3, 4, 2, 5)))
    assert kinds(s.apply(Place(7, 7))) == ["place", "win"]
    assert s.outcome == Outcome(1, "four_in_row")


def test_quad_skips_the_next_player_and_is_a_square_roll() -> None:
    s = position(rules="house")
    assert kinds(s.apply(Roll((2, 2, 2, 2)))) == ["roll", "quad"]
    assert s.skips == {2: 1}
    assert kinds(s.apply(Place(4, 4))) == ["place", "extra_turn"]
    s.apply(Roll(dice_for(5, 8)))
    events = s.apply(Place(5, 8))
    assert kinds(events) == ["place", "skip"] and events[1].seat == 2
    assert (s.to_move, s.skips) == (1, {})


def test_quad_without_the_option_is_just_a_square_roll() -> None:
    s = position()
    assert kinds(s.apply(Roll((2, 2, 2, 2)))) == ["roll"]
    assert s.skips == {}


# ----- VAPOOSH! and Vapooh ------------------------------------------------------------


@pytest.mark.parametrize("rules", ["standard", "classic", "house"])
def test_four_sixes_win_at_once(rules: str) -> None:
    s = position({(12, 12): "2"}, rules=rules)
    assert kinds(s.apply(Roll((6, 6, 6, 6)))) == ["roll", "vapoosh", "win"]
    assert s.outcome == Outcome(1, "vapoosh")
    assert s.current_player() == TERMINAL and s.is_terminal()
    assert s.returns() == [1.0, -1.0]
    assert refused(s, Roll((1, 1, 1, 2))).reason == "game_over"


def test_vapooh_optional_brown_offers_brown_and_normal() -> None:
    s = position()
    s.apply(Roll((6, 6, 6, 2)))
    assert s.options == ((12, 8), (8, 12))
    assert s.targets() == [Place(12, 8), Place(8, 12), Brown(12, 8), Brown(8, 12)]
    events = s.apply(Brown(8, 12))
    assert kinds(events) == ["brown"]
    assert s.owner(8, 12) == 5 and s.to_move == 2 and s.skips == {}


def test_brown_replaces_an_opponent_or_own_counter() -> None:
    s = position({(12, 8): "2", (8, 12): "1"})
    s.apply(Roll((6, 2, 6, 6)))  # three 6s in another order: options (8,12) and (12,8)
    assert s.targets() == [Place(12, 8), Brown(12, 8), Brown(8, 12)]
    events = s.apply(Brown(12, 8))
    assert events[0].data["replaced"] == 2 and s.owner(12, 8) == 5
    s2 = position({(12, 8): "1", (8, 12): "1"})
    s2.apply(Roll((6, 6, 6, 2)))
    assert s2.targets() == [Brown(12, 8), Brown(8, 12)]  # brown is the only choice
    s2.apply(Brown(8, 12))
    assert s2.owner(8, 12) == 5


def test_vapooh_with_both_options_brown_misses_the_turn() -> None:
    s = position({(12, 8): "B", (8, 12): "B"})
    assert kinds(s.apply(Roll((6, 6, 6, 2)))) == ["roll", "miss_turn"]


def test_brown_on_brown_and_brown_without_vapooh_are_refused() -> None:
    s = position({(12, 8): "B"})
    s.apply(Roll((6, 6, 6, 2)))
    assert refused(s, Brown(12, 8)).reason == "brown"
    assert refused(s, Place(12, 8)).reason == "brown"
    s = position()
    s.apply(Roll((2, 3, 4, 4)))
    assert refused(s, Brown(5, 8)).reason == "brown_not_allowed"


def test_house_vapooh_brown_is_compulsory_and_roller_misses_next_turn() -> None:
    s = position(rules="house")
    s.apply(Roll((6, 6, 6, 2)))
    assert s.targets() == [Brown(12, 8), Brown(8, 12)]
    assert refused(s, Place(12, 8)).reason == "brown_compulsory"
    assert kinds(s.apply(Brown(12, 8))) == ["brown"]
    assert (s.to_move, s.skips) == (2, {1: 1})
    s.apply(Roll(dice_for(5, 8)))
    events = s.apply(Place(5, 8))
    assert kinds(events) == ["place", "skip"] and events[1].seat == 1
    assert s.to_move == 2


def test_vapooh_off_is_an_ordinary_roll() -> None:
    s = position(rules="classic")
    s.apply(Roll((6, 6, 6, 2)))
    assert s.targets() == [Place(12, 8), Place(8, 12)]


def test_brown_never_counts_for_a_pattern() -> None:
    s = position({(4, 7): "1", (5, 7): "1", (6, 7): "B"})
    s.apply(Roll((3, 4, 2, 5)))
    assert "win" not in kinds(s.apply(Place(7, 7)))


# ----- surround capture ---------------------------------------------------------------


def test_surround_tile_captures_an_enclosed_counter() -> None:
    s = position({(5, 5): "2", (4, 5): "1", (6, 5): "1", (5, 4): "1"})
    s.apply(Roll(dice_for(5, 6)))
    events = s.apply(Place(5, 6))
    assert kinds(events) == ["place", "surround_capture"]
    assert events[1].tiles == ((5, 5),) and events[1].data["from_seat"] == 2
    assert s.owner(5, 5) == 1


def test_surround_counts_edges_as_walls() -> None:
    s = position({(1, 5): "2", (1, 4): "1", (1, 6): "1"})
    s.apply(Roll(dice_for(2, 5)))
    assert kinds(s.apply(Place(2, 5))) == ["place", "surround_capture"]
    assert s.owner(1, 5) == 1


def test_surround_needs_only_the_movers_counters() -> None:
    mixed = {(5, 5): "2", (4, 5): "1", (6, 5): "1", (5, 4): "3"}
    s = position(mixed, players=3)
    s.apply(Roll(dice_for(5, 6)))
    assert kinds(s.apply(Place(5, 6))) == ["place"]
    browned = {(5, 5): "2", (4, 5): "1", (6, 5): "1", (5, 4): "B"}
    s = position(browned)
    s.apply(Roll(dice_for(5, 6)))
    assert kinds(s.apply(Place(5, 6))) == ["place"]


def test_surround_off_in_classic() -> None:
    s = position({(5, 5): "2", (4, 5): "1", (6, 5): "1", (5, 4): "1"}, rules="classic")
    s.apply(Roll(dice_for(5, 6)))
    assert kinds(s.apply(Place(5, 6))) == ["place"]
    assert s.owner(5, 5) == 2


GROUP = {
    (5, 5): "2",
    (6, 5): "2",
    (4, 5): "1",
    (7, 5): "1",
    (5, 4): "1",
    (6, 4): "1",
    (6, 6): "1",
}


def test_surround_group_captures_the_whole_group_tile_mode_does_not() -> None:
    s = position(GROUP)
    s.apply(Roll(dice_for(5, 6)))
    assert kinds(s.apply(Place(5, 6))) == ["place"]
    s = position(GROUP, rules={"base": "standard", "surround": "group"})
    s.apply(Roll(dice_for(5, 6)))
    events = s.apply(Place(5, 6))
    # the captured pair completes the row (4,5)-(7,5) (and a square): captures count
    # for the win, and a line is reported before a square
    assert kinds(events) == ["place", "surround_capture", "win"]
    assert events[1].tiles == ((5, 5), (6, 5))
    assert s.owner(5, 5) == s.owner(6, 5) == 1
    assert s.outcome == Outcome(1, "four_in_row")


def test_surround_capture_counts_for_the_win() -> None:
    cells = {(2, 3): "1", (3, 3): "1", (5, 3): "1", (4, 2): "1", (4, 3): "2"}
    s = position(cells)
    s.apply(Roll(dice_for(4, 4)))
    assert kinds(s.apply(Place(4, 4))) == ["place", "surround_capture", "win"]
    assert s.outcome == Outcome(1, "four_in_row")


def test_replacement_capture_counts_for_the_win() -> None:
    s = position({(4, 7): "1", (5, 7): "1", (6, 7): "1", (7, 7): "2"})
    s.apply(Roll((3, 4, 2, 5)))
    assert kinds(s.apply(Place(7, 7))) == ["capture", "place", "win"]


# ----- wins, draws --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cells", "reason"),
    [
        ({(3, 6): "1", (4, 6): "1", (6, 6): "1"}, "four_in_row"),
        ({(5, 3): "1", (5, 4): "1", (5, 5): "1"}, "four_in_row"),
        ({(2, 3): "1", (3, 4): "1", (4, 5): "1"}, "four_in_row"),
        ({(6, 5): "1", (7, 4): "1", (8, 3): "1"}, "four_in_row"),
        ({(4, 5): "1", (4, 6): "1", (5, 5): "1"}, "square"),
    ],
    ids=["horizontal", "vertical", "diagonal_down", "diagonal_up", "square"],
)
def test_patterns_win(cells: dict[tuple[int, int], str], reason: str) -> None:
    s = position(cells)
    s.apply(Roll(dice_for(5, 6)))
    events = s.apply(Place(5, 6))
    assert kinds(events) == ["place", "win"]
    assert events[-1].data["reason"] == reason
    assert s.outcome == Outcome(1, reason) and s.winner == 1 and s.phase == "over"


def test_three_in_a_row_is_not_a_win_and_opponents_patterns_do_not_count() -> None:
    s = position({(3, 6): "1", (4, 6): "1", (7, 5): "2", (8, 5): "2", (9, 5): "2", (10, 5): "2"})
    s.apply(Roll(dice_for(5, 6)))
    assert kinds(s.apply(Place(5, 6))) == ["place"]


def test_max_turns_ends_in_a_draw() -> None:
    s = position(rules={"base": "standard", "max_turns": 2})
    s.apply(Roll(dice_for(5, 8)))
    s.apply(Place(5, 8))
    s.apply(Roll(dice_for(3, 9)))
    assert kinds(s.apply(Place(3, 9))) == ["place", "draw"]
    assert s.outcome == Outcome(None, "max_turns") and s.winner is None
    assert s.returns() == [0.0, 0.0] and s.current_player() == TERMINAL


def test_max_turns_counts_rerolls() -> None:
    s = position(OWN_SUICIDE, rules={"base": "standard", "max_turns": 2})
    s.apply(Roll(dice_for(12, 5)))
    assert kinds(s.apply(Roll(dice_for(12, 5)))) == ["roll", "reroll", "draw"]


# ----- turn order, owed turns ---------------------------------------------------------


def test_owed_turns_add_up_and_each_pass_over_pays_one() -> None:
    s = position(players=3, skips={2: 2})
    plays = [(5, 8), (3, 9), (2, 9), (4, 9), (5, 9)]
    seen = []
    for c, r in plays:
        s.apply(Roll(dice_for(c, r)))
        events = s.apply(Place(c, r))
        seen.append((kinds(events), s.to_move))
    assert seen == [
        (["place", "skip"], 3),
        (["place"], 1),
        (["place", "skip"], 3),
        (["place"], 1),
        (["place"], 2),
    ]


def test_blocked_own_adds_to_an_owed_turn() -> None:
    s = position({(7, 5): "1", (5, 7): "1"}, players=3, skips={2: 1})
    assert kinds(s.apply(Roll((3, 4, 2, 3)))) == ["roll", "blocked_own", "skip"]
    assert (s.to_move, s.skips) == (3, {2: 1})


# ----- one seat (solo) ----------------------------------------------------------------


def test_solo_play_has_no_opponent() -> None:
    s = position(players=1)
    s.apply(Roll(dice_for(5, 8)))
    assert kinds(s.apply(Place(5, 8))) == ["place"]
    assert s.to_move == 1 and s.current_player() == CHANCE
    s = position({(7, 5): "1", (5, 7): "1"}, players=1)
    assert kinds(s.apply(Roll((3, 4, 2, 3)))) == ["roll", "blocked_own", "skip"]
    assert s.to_move == 1
    s = position({(5, 6): "1", (5, 8): "1", (4, 7): "1", (6, 7): "1"}, players=1)
    s.apply(Roll((3, 4, 2, 3)))
    assert Place(5, 7) in s.targets()  # own neighbours: never suicide


def test_solo_win_returns() -> None:
    s = position({(4, 7): "1", (5, 7): "1", (6, 7): "1"}, players=1)
    s.apply(Roll((3, 4, 2, 5)))
    s.apply(Place(7, 7))
    assert s.winner == 1 and s.returns() == [1.0]


# ----- wrong phase ---------------------------------------------------------------------


def test_actions_in_the_wrong_phase_are_refused() -> None:
    s = position()
    assert refused(s, Place(5, 8)).reason == "must_roll"
    s.apply(Roll((2, 3, 4, 4)))
    err = refused(s, Roll((1, 1, 1, 2)))
    assert err.reason == "must_place"
    with pytest.raises(IllegalActionError) as info:
        s.apply_action(10**9)
    assert info.value.reason == "must_place"
    with pytest.raises(IllegalActionError) as info:
        s.apply_action(-3)
    assert info.value.reason == "unknown_action"
