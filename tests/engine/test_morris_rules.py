"""Bricks & Walls rules, one test (or more) per rule of rules-other-games.md section 1."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.core import (
    TERMINAL,
    GameRecord,
    IllegalActionError,
    PlayableState,
    RulesError,
    State,
    make_game,
)
from engine.morris import ADJACENT, LINES, POINTS, MorrisGame, MorrisState, Move, Place, Remove
from engine.morris.actions import NUM_ACTIONS, decode, encode
from engine.morris.evaluation import evaluate
from tests.engine import morris_oracle as oracle

SCENARIOS = json.loads(
    (Path(__file__).parent / "scenarios" / "morris" / "section4.json").read_text(encoding="utf-8")
)


def initial_of(sid: str) -> dict[str, Any]:
    return next(s["initial"] for s in SCENARIOS if s["id"] == sid)


def pos(
    board: dict[str, str],
    reserve: dict[str, int] | None = None,
    to_move: str = "W",
    pending: bool = False,
    rules: Any = "standard",
) -> MorrisState:
    return MorrisGame(rules).state_from_position(
        board, reserve or {"W": 0, "B": 0}, to_move, pending
    )


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


# ----- the board (1.2) ---------------------------------------------------------------


def test_board_matches_the_spec_adjacency_and_lines() -> None:
    assert sorted(POINTS) == oracle.POINTS
    for i, p in enumerate(POINTS):
        assert sorted(POINTS[j] for j in ADJACENT[i]) == sorted(oracle.ADJ[p]), p
    assert {frozenset(POINTS[j] for j in ln) for ln in LINES} == {
        frozenset(ln) for ln in oracle.LINES
    }
    assert sum(len(a) for a in ADJACENT) == 64  # 32 edges
    assert "d4" not in POINTS


def test_index_is_8_layer_plus_spot() -> None:
    assert POINTS[0] == "a7" and POINTS[8 + 1] == "d6" and POINTS[16 + 4] == "e3"


# ----- placement, turn order (1.3, 1.5-1) --------------------------------------------


def test_new_game_white_places_first_from_full_reserves() -> None:
    s = MorrisGame().new_initial_state()
    assert isinstance(s, State) and isinstance(s, PlayableState)
    assert s.current_player() == 0 and s.to_move == "W" and s.phase == "place"
    assert s.reserve == {"W": 9, "B": 9}
    assert s.legal_actions() == list(range(24))


def test_placing_on_an_occupied_point_is_refused_and_changes_nothing() -> None:
    s = pos({"d7": "W"}, {"W": 8, "B": 9}, "B")
    before = s.to_json()
    with pytest.raises(IllegalActionError) as err:
        s.apply(Place("d7"))
    assert err.value.reason == "occupied"
    assert s.to_json() == before


def test_moving_while_placing_is_refused() -> None:
    s = pos({"a7": "W"}, {"W": 8, "B": 9}, "B")
    with pytest.raises(IllegalActionError) as err:
        s.apply(Move("a7", "d7"))
    assert err.value.reason == "still_placing"


def test_placement_phase_lasts_exactly_18_placements() -> None:
    s = MorrisGame().new_initial_state()
    rng = random.Random(3)
    placements = 0
    while s.phase in ("place", "remove"):
        if s.phase == "place":
            placements += 1
        s.apply_action(rng.choice(s.legal_actions()))
    assert placements == 18
    assert s.reserve == {"W": 0, "B": 0}


# ----- walls and removal (1.4, 1.5-3, 1.5-4) -----------------------------------------


def test_a_wall_requests_exactly_one_removal_even_for_two_walls() -> None:
    s = pos({"a7": "W", "d7": "W", "g4": "W", "g1": "W", "b6": "B", "d6": "B"}, {"W": 5, "B": 7})
    assert kinds(s.apply(Place("g7"))) == ["place", "wall", "wall"]
    assert s.phase == "remove" and s.current_player() == 0
    assert kinds(s.apply(Remove("b6"))) == ["remove"]
    assert s.phase == "place" and s.to_move == "B"


def test_removal_is_mandatory_nothing_else_is_accepted() -> None:
    s = pos({"a7": "W", "d7": "W", "b6": "B"}, {"W": 7, "B": 8})
    s.apply(Place("g7"))
    legal = {decode(a) for a in s.legal_actions()}
    assert legal == {Remove("b6")}
    for bad in (Place("a1"), Move("a7", "a4")):
        with pytest.raises(IllegalActionError) as err:
            s.apply(bad)
        assert err.value.reason == "removal_pending"


def test_walled_is_computed_from_the_position() -> None:
    s = pos({"a7": "W", "d7": "W", "g7": "W", "a4": "W", "a1": "W", "d1": "B"})
    assert s.walled("a7") and s.walled("d7") and s.walled("a1")
    assert not s.walled("d1") and not s.walled("g1")


def test_unwalled_enemy_bricks_only_then_rule_5_any() -> None:
    s = pos({"a7": "W", "d7": "W", "b6": "B", "d6": "B", "f6": "B", "b4": "B"}, {"W": 6, "B": 5})
    s.apply(Place("g7"))
    assert s.legal_targets() == ["b4"]
    assert s.click("d6").refusal is not None and s.click("d6").refusal.reason == "walled"
    s2 = pos({"a7": "W", "d7": "W", "b6": "B", "d6": "B", "f6": "B"}, {"W": 7, "B": 6})
    s2.apply(Place("g7"))
    assert s2.legal_targets() == ["b6", "d6", "f6"]  # rule 5


def test_no_enemy_brick_on_the_board_means_no_removal() -> None:
    s = pos({"a7": "W", "d7": "W"}, {"W": 7, "B": 9})
    assert kinds(s.apply(Place("g7"))) == ["place", "wall"]
    assert not s.pending_removal and s.to_move == "B"


def test_only_walls_completed_by_this_action_count() -> None:
    s = pos(
        {"a7": "W", "d7": "W", "g7": "W", "c3": "W", "b6": "B", "d5": "B", "e3": "B", "f2": "B"}
    )
    assert kinds(s.apply(Move("c3", "c4"))) == ["move"]


def test_reforming_a_wall_counts_again() -> None:
    s = pos(
        {
            "a7": "W",
            "d7": "W",
            "g7": "W",
            "a1": "W",
            "c3": "W",
            "d5": "B",
            "e3": "B",
            "b2": "B",
            "f2": "B",
        }
    )
    s.apply(Move("g7", "g4"))
    s.apply(Move("b2", "b4"))
    assert kinds(s.apply(Move("g4", "g7"))) == ["move", "wall"]


def test_removing_own_or_empty_is_refused_with_reasons() -> None:
    s = pos({"a7": "W", "d7": "W", "b6": "B"}, {"W": 7, "B": 8})
    s.apply(Place("g7"))
    assert s.refusal(Remove("a7")).reason == "remove_own"  # type: ignore[union-attr]
    assert s.refusal(Remove("a1")).reason == "remove_empty"  # type: ignore[union-attr]
    fresh = pos({"a7": "W"}, {"W": 8, "B": 9}, "B")
    assert fresh.refusal(Remove("a7")).reason == "no_removal"  # type: ignore[union-attr]


# ----- movement, flying, rule 6 (1.4, 1.5-2, 1.5-5b) ---------------------------------


def test_moves_are_steps_to_adjacent_empty_points() -> None:
    s = MorrisGame().state_from_json(
        {"board": initial_of("M12")["board"], "reserve": {"W": 0, "B": 0}, "toMove": "W"}
    )
    assert s.phase == "move"
    moves = sorted(decode(a).to_json()[1:] for a in s.legal_actions())  # type: ignore[union-attr]
    # by hand: d7-d6, a4-b4, g4-f4, d1-d2, c5-d5, c5-c4, e3-e4, e3-d3
    assert len(moves) == 8
    assert ["c5", "d5"] in moves and ["c5", "c4"] in moves and ["a4", "b4"] in moves


def test_flying_with_exactly_three_bricks() -> None:
    s = pos({"a7": "W", "c3": "W", "e5": "W", "b6": "B", "d6": "B", "f4": "B", "d2": "B"})
    assert s.phase == "fly"
    assert len(s.legal_actions()) == 3 * 17  # three bricks, 17 empty points
    s.apply(Move("a7", "g1"))
    assert s.phase == "move"  # Black has 4: steps only
    with pytest.raises(IllegalActionError) as err:
        s.apply(Move("b6", "e4"))
    assert err.value.reason == "not_adjacent"


def test_no_flying_without_the_option() -> None:
    s = pos(
        {"a7": "W", "c3": "W", "e5": "W", "b6": "B", "d6": "B", "f4": "B", "d2": "B"},
        rules={"base": "standard", "flying": False},
    )
    assert s.phase == "move" and len(s.legal_actions()) < 10


def test_blocked_player_is_skipped_repeatedly() -> None:
    s = pos(initial_of("M12")["board"])
    assert [(e.kind, e.seat) for e in s.apply(Move("c5", "d5"))] == [("move", 1), ("skip", 2)]
    assert s.to_move == "W"
    assert kinds(s.apply(Move("d5", "c5"))) == ["move", "skip"]
    assert kinds(s.apply(Move("d7", "d6"))) == ["move"]
    assert s.to_move == "B"


def test_blocked_player_loses_in_the_classic_preset() -> None:
    s = pos(initial_of("M12")["board"], rules="classic")
    assert kinds(s.apply(Move("c5", "d5"))) == ["move", "win"]
    assert s.winner == "W" and s.current_player() == TERMINAL


def test_three_bricks_are_never_skipped() -> None:
    s = pos(initial_of("M20")["board"], to_move="B")
    assert kinds(s.apply(Move("c5", "d5"))) == ["move"]
    assert s.to_move == "W" and s.phase == "fly"


# ----- the end (1.5-4, 1.5-5a, 1.6) ----------------------------------------------------


def test_wall_against_three_bricks_wins_at_once() -> None:
    s = pos({"a7": "W", "d7": "W", "g4": "W", "c3": "W", "b6": "B", "d5": "B", "e3": "B"})
    events = s.apply(Move("g4", "g7"))
    assert kinds(events) == ["move", "wall", "win"] and events[-1].data["reason"] == "wall"
    assert s.is_terminal() and s.returns() == [1.0, -1.0] and s.legal_actions() == []
    assert s.click("b6").refusal.reason == "game_over"  # type: ignore[union-attr]


def test_wall_against_three_bricks_during_placement_only_removes() -> None:
    s = pos({"a7": "W", "d7": "W", "b6": "B", "d5": "B", "e3": "B"}, {"W": 5, "B": 6})
    assert kinds(s.apply(Place("g7"))) == ["place", "wall"]
    assert s.phase == "remove"


def test_fewer_than_three_when_placement_ends_loses() -> None:
    s = pos({"a7": "W", "g1": "W", "b6": "B", "e4": "B", "c3": "B"}, {"W": 0, "B": 1}, "B")
    assert kinds(s.apply(Place("b2"))) == ["place", "win"]
    assert s.winner == "B" and s.returns() == [-1.0, 1.0]


def test_two_bricks_during_placement_do_not_lose() -> None:
    s = pos({"a7": "W", "b6": "B", "e4": "B", "c3": "B"}, {"W": 2, "B": 2})
    s.apply(Place("g1"))
    assert not s.is_terminal() and s.to_move == "B"


def test_move_cap_draw_is_off_by_default_and_works_when_set() -> None:
    board = initial_of("M13")["board"]
    s = pos(board, rules={"base": "standard", "move_cap": 2})
    s.apply(Move("a7", "g1"))
    events = s.apply(Move("b6", "b4"))
    assert kinds(events) == ["move", "draw"] and s.is_terminal() and s.winner is None
    assert s.returns() == [0.0, 0.0]
    assert MorrisGame().rules.move_cap == 0


# ----- the state's contract ------------------------------------------------------------


def test_legal_actions_are_exactly_the_unrefused_ones() -> None:
    rng = random.Random(11)
    for _ in range(20):
        s = MorrisGame().new_initial_state()
        while not s.is_terminal():
            legal = s.legal_actions()
            assert legal == sorted(set(legal))
            assert legal == [a for a in range(NUM_ACTIONS) if s.refusal(decode(a)) is None]
            s.apply_action(rng.choice(legal))


def test_clicks_select_switch_drop_and_move() -> None:
    s = pos(
        {"a7": "W", "d6": "W", "b2": "W", "c3": "W", "d7": "B", "a4": "B", "g1": "B", "e3": "B"}
    )
    r = s.click("a7")  # a7 is hemmed in by d7 and a4
    assert r.refusal is not None and r.refusal.reason == "no_moves" and r.selection == ()
    r = s.click("d6")
    assert r.ok and r.action is None and r.selection == ("d6",)
    assert s.legal_targets(["d6"]) == ["b6", "f6", "d5"]
    assert s.click("d6", ["d6"]).selection == ()  # clicking it again drops it
    assert s.click("b2", ["d6"]).selection == ("b2",)  # another own brick: switch
    r = s.click("g7", ["d6"])
    assert r.refusal is not None and r.refusal.reason == "not_adjacent"
    assert r.selection == ("d6",) and r.fields == {"point": "g7", "from": "d6"}
    r = s.click("d5", ["d6"])
    assert r.ok and r.action == encode(Move("d6", "d5")) and r.selection == ()
    assert s.click("d7").refusal.reason == "not_yours"  # type: ignore[union-attr]
    assert s.click("f6").refusal.reason == "select_first"  # type: ignore[union-attr]
    assert s.click("d4").refusal.reason == "not_a_point"  # type: ignore[union-attr]
    assert "a7" not in s.legal_targets()


def test_click_is_pure() -> None:
    s = pos({"a7": "W", "d7": "W", "b6": "B"}, {"W": 7, "B": 8})
    before = s.to_json()
    for p in POINTS:
        s.click(p)
        s.click(p, ["a7"])
    assert s.to_json() == before


def test_json_round_trip_and_bad_json() -> None:
    s = MorrisGame("classic").new_initial_state()
    for a in (Place("a7"), Place("b6"), Place("d7")):
        s.apply(a)
    again = MorrisState.from_json(json.loads(json.dumps(s.to_json())))
    assert again == s and again.to_text() == s.to_text()
    with pytest.raises(RulesError, match="toMove"):
        MorrisState.from_json({"board": {}, "toMove": "X"})
    with pytest.raises(RulesError, match="board"):
        MorrisState.from_json({"board": {"d4": "W"}})
    with pytest.raises(RulesError, match="more than 9"):
        MorrisState.from_json({"board": {p: "W" for p in POINTS[:10]}})


def test_registered_game_and_record_replay() -> None:
    game = make_game("morris", "standard", 2)
    s = game.new_initial_state()
    for a in (Place("a7"), Place("b6"), Place("d7"), Place("d6"), Place("g7"), Remove("b6")):
        s.apply_action(game.encode(a))
    rec = GameRecord.from_json(json.loads(json.dumps(s.record().to_json())))
    assert rec.replay() == s
    start = game.start_state(s.to_json())
    start.apply(Place("b6"))
    rec2 = start.record()
    assert rec2.actions == (["place", "b6"],) and rec2.replay() == start
    with pytest.raises(RulesError):
        make_game("morris", "standard", 3)


def test_actions_encode_decode_every_id() -> None:
    assert [encode(decode(a)) for a in range(NUM_ACTIONS)] == list(range(NUM_ACTIONS))
    with pytest.raises(RulesError):
        decode(NUM_ACTIONS)


def test_to_text_shows_board_and_counts() -> None:
    s = pos({"a7": "W", "d7": "B", "b6": "B"}, {"W": 0, "B": 0})
    text = s.to_text()
    assert text.splitlines()[0] == "7 W-----B-----."
    assert "Bricks left: White 1, Black 2." in text


# ----- perft: the engine against the independent oracle --------------------------------


def perft(s: MorrisState, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for a in s.legal_actions():
        c = s.clone()
        c.apply_action(a)
        total += perft(c, depth - 1)
    return total


def test_perft_from_the_start_counts_placements() -> None:
    s = MorrisGame().new_initial_state()
    assert [perft(s, d) for d in (1, 2, 3)] == [24, 24 * 23, 24 * 23 * 22]


@pytest.mark.parametrize("sid", ["M06", "M09", "M10", "M12", "M13", "M15", "M18", "M20"])
def test_perft_matches_the_oracle(sid: str) -> None:
    init = initial_of(sid)
    s = MorrisGame().state_from_position(
        init["board"], init["reserve"], init["toMove"], init["pendingRemoval"]
    )
    o = oracle.Pos(init["board"], init["reserve"], init["toMove"], init["pendingRemoval"])
    for depth in (1, 2, 3):
        assert perft(s, depth) == oracle.perft(o, depth), (sid, depth)


# ----- random playouts -----------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_random_game_ends_and_replays_to_the_identical_state(seed: int) -> None:
    rng = random.Random(seed)
    s = MorrisGame().new_initial_state()
    o = oracle.Pos({}, {"W": 9, "B": 9}, "W")
    steps = 0
    while not s.is_terminal():
        a = rng.choice(s.legal_actions())
        j = decode(a).to_json()
        assert sorted(decode(x).to_json() for x in s.legal_actions()) == sorted(
            list(m) for m in oracle.moves(o)
        )
        s.apply_action(a)
        o = oracle.play(o, tuple(j))
        steps += 1
        assert steps < 5000, "random game did not end"
    assert o.over and s.winner is not None
    again = s.record().replay()
    assert again == s and again.to_json() == s.to_json()


def test_evaluation_is_bounded_and_favours_the_side_ahead() -> None:
    s = pos({"a7": "W", "d7": "W", "g7": "W", "c3": "W", "b6": "B", "d5": "B", "e3": "B"})
    assert 0 < evaluate(s, 0) < 1 and -1 < evaluate(s, 1) < 0
    assert evaluate(s, 0) == pytest.approx(-evaluate(s, 1))


@pytest.mark.parametrize(
    "name",
    [
        "engine.morris",
        "engine.morris.board",
        "engine.morris.actions",
        "engine.morris.rules",
        "engine.morris.state",
        "engine.morris.scenario",
        "engine.morris.evaluation",
    ],
)
def test_doctests(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_wall_against_fewer_than_three_after_placement_also_wins_at_once() -> None:
    # the reading of 1.5-4 for an opponent already below 3: no removal is requested
    s = pos({"a7": "W", "d7": "W", "b6": "B", "e3": "B"}, {"W": 1, "B": 0})
    assert kinds(s.apply(Place("g7"))) == ["place", "wall", "win"]
    assert s.winner == "W" and not s.pending_removal


def test_both_below_three_when_placement_ends_the_mover_wins() -> None:
    s = pos({"a7": "W", "b6": "B", "e3": "B"}, {"W": 0, "B": 1}, "B")
    assert kinds(s.apply(Place("g1"))) == ["place", "win"]
    assert s.winner == "B"


def test_a_player_blocked_when_movement_begins_is_skipped_at_once() -> None:
    # Black makes the 18th placement and White (4 bricks) cannot step: Black moves again
    board = {"a7": "W", "g7": "W", "a1": "W", "g1": "W", "d7": "B", "a4": "B", "g4": "B"}
    s = pos(board, {"W": 0, "B": 1}, "B")
    events = s.apply(Place("d1"))
    assert [(e.kind, e.seat) for e in events] == [("place", 2), ("skip", 1)]
    assert s.to_move == "B" and s.phase == "move"


def test_positions_that_cannot_arise_are_refused() -> None:
    with pytest.raises(RulesError, match="reserve.W"):
        pos({}, {"W": 0, "B": 1}, "W")  # White to place with nothing left while Black has some
    with pytest.raises(RulesError, match="pendingRemoval"):
        pos({"a7": "W"}, {"W": 8, "B": 9}, "W", pending=True)  # nothing to take
