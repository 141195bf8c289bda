"""Vasco's rules, one test (or more) per rule of rules-other-games.md §2.3–2.7."""

from __future__ import annotations

import json
from typing import Any

import pytest
import vasco_oracle as oracle

from engine.core import (
    TERMINAL,
    ClickResult,
    GameRecord,
    IllegalActionError,
    PlayableState,
    RulesError,
    State,
    make_game,
)
from engine.vasco import (
    STATES,
    Place,
    VascoGame,
    VascoState,
    decode,
    encode,
    judge,
    legal_states,
    paths,
    play,
)
from engine.vasco import geometry as geo
from engine.vasco.board import REASONS, Auto, blocked_cells, candidate_cells, is_connected

MODULES = [
    "engine.vasco",
    "engine.vasco.geometry",
    "engine.vasco.board",
    "engine.vasco.state",
    "engine.vasco.scenario",
    "engine.vasco.evaluation",
    "engine.vasco.players",
]


def reason(board: dict[Any, str], cell: tuple[int, int], state: str, left: int = 50) -> str:
    with pytest.raises(IllegalActionError) as info:
        play(board, left, cell, state)
    return info.value.reason


def position(
    tiles: dict[tuple[int, int], str], to_move: int = 1, left: int | None = None
) -> VascoState:
    return VascoGame().state_from_position(tiles, to_move, left)


# ----- 2.3 geometry ---------------------------------------------------------------------

CELLS = [(r, c) for r in range(-3, 4) for c in range(-4, 5)]


def test_up_and_down_cells() -> None:
    assert geo.is_up((0, 0)) and not geo.is_up((0, 1)) and not geo.is_up((1, 0))


@pytest.mark.parametrize("cell", CELLS)
def test_edges_pair_up_and_share_their_corners(cell: tuple[int, int]) -> None:
    for e in range(3):
        n = geo.neighbour(cell, e)
        assert geo.neighbour(n, geo.OPPOSITE[e]) == cell
        assert set(geo.edge_vertices(cell, e)) == set(geo.edge_vertices(n, geo.OPPOSITE[e]))
    assert all((x + y) % 2 == 1 for x, y in geo.vertices(cell))


def test_six_cells_meet_at_every_vertex() -> None:
    meet: dict[tuple[int, int], int] = {}
    for r in range(-6, 7):
        for c in range(-8, 9):
            for v in geo.vertices((r, c)):
                meet[v] = meet.get(v, 0) + 1
    inner = [n for (x, y), n in meet.items() if abs(y) <= 4 and abs(x) <= 5]
    assert inner and set(inner) == {6}


@pytest.mark.parametrize("cell", CELLS)
def test_touching_is_exactly_the_cells_sharing_a_corner(cell: tuple[int, int]) -> None:
    mine = oracle.corners(cell)
    window = [(cell[0] + dr, cell[1] + dc) for dr in range(-3, 4) for dc in range(-4, 5)]
    want = {w for w in window if w != cell and oracle.corners(w) & mine}
    assert set(geo.touching(cell)) == want and len(want) == 12


def test_six_states_and_their_faces() -> None:
    assert sorted(STATES) == sorted(["ox*", "o*x", "xo*", "x*o", "*ox", "*xo"])
    fronts = [s for s in STATES if geo.face((0, 0), s) == "front"]
    assert len(fronts) == 3 and "ox*" in fronts and geo.face((0, 0), "xo*") == "back"
    # a down cell reads its clockwise order the other way round
    assert {geo.face((0, 1), s) for s in STATES} == {"front", "back"}
    assert geo.face((0, 1), "*xo") != geo.face((0, 0), "*xo")


# ----- 2.4 terms ------------------------------------------------------------------------


def test_fit_and_legal_states() -> None:
    board = {(0, 0): "ox*"}
    # 0,1 must carry x on its L edge (0,0's R edge is x)
    assert legal_states(board, (0, 1)) == ("xo*", "x*o")
    assert all(s[0] == "x" for s in legal_states(board, (0, 1)))


def test_a_legal_state_creates_no_same_colour_point() -> None:
    # 0,1 between 0,0 and 0,2: a state whose R edge matched 0,1's x end would be a point
    board = {(0, 0): "ox*"}
    assert "x" not in {s[0] for s in legal_states(board, (0, 2))}
    assert legal_states(board, (0, 2)) == oracle_legal(board, (0, 2))


def oracle_legal(board: dict[Any, str], cell: tuple[int, int]) -> tuple[str, ...]:
    return tuple(s for s in STATES if s in oracle.legal(board, cell))


def test_a_dead_cell_has_two_ends_alike() -> None:
    assert reason({(0, 0): "ox*"}, (0, 2), "xo*") == "dead_cell"  # Figure 4: x and x at 0,1
    # * facing 0,0's x leaves 0,1 playable (x and * differ): a corner move, joined by 0,1
    assert play({(0, 0): "ox*"}, 53, (0, 2), "*ox").tiles_used == 2


def test_purple_ends_make_a_dead_cell_too() -> None:
    # 1,0 lies under 0,0 (H = *) and left of 1,1: a * on 1,1's L edge would face another *
    assert reason({(0, 0): "ox*"}, (1, 1), "*ox") == "dead_cell"


def test_a_hole_with_three_different_ends_is_forced() -> None:
    ring = {(0, 0): "o*x", (0, 1): "*xo", (0, -1): "xo*", (-1, 0): "o*x", (-1, 1): "*xo"}
    # the ring minus (-1,-1): the last cell has two fixed edges: forced, and it closes an o loop
    assert blocked_cells(ring) == ((-1, -1),)
    assert legal_states(ring, (-1, -1)) == ("xo*",)


# ----- 2.5 move legality ----------------------------------------------------------------


def test_the_first_tile_goes_in_the_middle_in_any_state() -> None:
    s = VascoGame().new_initial_state()
    assert {decode(a) for a in s.legal_actions()} == {Place(0, 0, st) for st in STATES}
    assert reason({}, (0, 1), "ox*") == "centre_first"


def test_occupied_no_contact_and_mismatch() -> None:
    board = {(0, 0): "ox*"}
    assert reason(board, (0, 0), "ox*") == "occupied"
    assert reason(board, (0, 4), "ox*") == "no_contact"
    assert reason(board, (0, 1), "ox*") == "mismatch"
    assert reason(board, (0, 1), "bad") == "bad_tile"


def test_figure_2_and_figure_3() -> None:
    board = play({(0, 0): "ox*"}, 53, (0, 1), "xo*").board
    move = play(board, 52, (1, 2), "ox*")
    assert move.autos == (
        Auto((0, 2), "ox*", 2),
        Auto((1, 0), "ox*", 1),
        Auto((1, 1), "xo*", 2),
    )
    assert move.tiles_used == 4


def test_corner_contact_is_legal_when_a_forced_tile_joins_it() -> None:
    move = play({(0, 0): "ox*"}, 53, (0, 2), "ox*")
    assert [(a.cell, a.state) for a in move.autos] == [((0, 1), "xo*")]
    assert is_connected(move.board)


def test_corner_contact_is_refused_when_nothing_joins_it() -> None:
    assert reason({(0, 0): "o*x"}, (-1, 0), "o*x") == "not_connected"


def test_a_tile_touching_nothing_is_refused_even_if_a_cascade_would_reach_it() -> None:
    assert reason({(0, 0): "x*o"}, (-1, -2), "o*x") == "no_contact"


def test_forced_tiles_come_from_the_pool() -> None:
    board = {(0, 0): "ox*", (0, 1): "xo*"}
    assert reason(board, (1, 2), "ox*", left=3) == "not_enough_tiles"
    assert play(board, 4, (1, 2), "ox*").tiles_used == 4
    assert reason(board, (0, 2), "ox*", left=0) == "not_enough_tiles"


def test_the_cascade_order_is_row_major_and_its_set_is_order_free() -> None:
    move = play({(0, 0): "o*x"}, 53, (-1, 0), "xo*")
    cells = [a.cell for a in move.autos]
    assert cells == sorted(cells) and len(cells) == 4
    got = oracle.apply({(0, 0): "o*x"}, 53, (-1, 0), "xo*")
    assert got is not None and set(got[1]) == {(a.cell, a.state) for a in move.autos}


def test_a_refused_move_leaves_the_state_untouched() -> None:
    s = position({(0, 0): "ox*"}, 2)
    before = s.to_json()
    for place in (Place(0, 2, "xo*"), Place(0, 1, "ox*"), Place(4, 4, "ox*")):
        with pytest.raises(IllegalActionError):
            s.apply(place)
    assert s.to_json() == before


def test_the_wrong_seat_cannot_click_through_a_finished_game() -> None:
    s = VascoGame({"pool": 1}).new_initial_state()
    s.apply(Place(0, 0, "ox*"))
    assert s.is_terminal() and s.current_player() == TERMINAL and s.legal_actions() == []
    with pytest.raises(IllegalActionError) as info:
        s.apply(Place(0, 1, "xo*"))
    assert info.value.reason == "game_over"


def test_every_reason_has_a_meaning() -> None:
    assert set(REASONS) >= {
        "mismatch",
        "dead_cell",
        "no_contact",
        "not_enough_tiles",
        "unplayable",
        "not_connected",
    }


# ----- 2.6 paths, loops, lengths --------------------------------------------------------

RING_O = {
    (0, 0): "o*x",
    (0, 1): "*xo",
    (0, -1): "xo*",
    (-1, 0): "o*x",
    (-1, 1): "*xo",
    (-1, -1): "xo*",
}


def test_the_smallest_loop_has_six_tiles() -> None:
    loops = [p for p in paths(RING_O, "o") if p.closed]
    assert [p.length for p in loops] == [6]
    assert sorted(oracle.components(RING_O, "o")) == [(6, True)]
    # the x arcs of the same ring pair up across the * spokes: three paths of two
    assert sorted(p.length for p in paths(RING_O, "x")) == [2, 2, 2]


def test_path_lengths_count_tiles() -> None:
    row = {(0, 0): "ox*", (0, 1): "xo*", (0, 2): "ox*", (0, 3): "xo*"}
    assert sorted(p.length for p in paths(row, "x")) == [2, 2]
    assert sorted(p.length for p in paths(row, "o")) == [1, 1, 2]
    assert sorted(oracle.components(row, "o")) == [(1, False), (1, False), (2, False)]


# ----- 2.7 end conditions ---------------------------------------------------------------


def test_closing_your_own_loop_wins() -> None:
    ring = dict(RING_O)
    last = ring.pop((-1, -1))
    s = position(ring, 1)
    # the gap is forced, so any legal move closes the loop; O plays the gap itself
    events = s.apply(Place(-1, -1, last))
    assert events[-1].kind == "win" and events[-1].seat == 1
    assert s.winner == 1 and s.outcome is not None and s.outcome.reason == "loop"
    assert set(s.outcome.highlight) == set(RING_O) and s.returns() == [1.0, -1.0]


def test_a_loop_closed_by_the_opponent_wins_for_its_owner() -> None:
    ring = dict(RING_O)
    last = ring.pop((-1, -1))
    s = position(ring, 2)
    s.apply(Place(-1, -1, last))
    assert s.winner == 1 and s.returns() == [1.0, -1.0]


def test_both_loops_the_longer_loses_and_equal_is_a_draw() -> None:
    ring_x = {cell: st.translate(str.maketrans("ox", "xo")) for cell, st in RING_O.items()}
    far_x = {(r, c + 6): st for (r, c), st in ring_x.items()}
    both = {**RING_O, **far_x}
    out = judge(both, 10, lambda: True)
    assert out is not None and (out.winner, out.reason, out.lengths) == (None, "both_loops", (6, 6))
    # one colour's loop alone: its owner wins
    assert judge(RING_O, 10, lambda: True).winner == 1  # type: ignore[union-attr]
    assert judge(ring_x, 10, lambda: True).winner == 2  # type: ignore[union-attr]


def test_pool_empty_the_longer_path_loses() -> None:
    s = VascoGame({"pool": 2}).new_initial_state()
    s.apply(Place(0, 0, "ox*"))
    events = s.apply(Place(0, 1, "xo*"))
    assert s.outcome is not None
    assert (s.winner, s.outcome.reason, s.outcome.lengths) == (1, "pool_empty", (1, 2))
    assert events[-1].kind == "win" and events[-1].data["reason"] == "pool_empty"


def test_pool_empty_equal_paths_draw() -> None:
    s = VascoGame({"pool": 1}).new_initial_state()
    events = s.apply(Place(0, 0, "ox*"))
    assert s.winner is None and s.outcome is not None and s.outcome.reason == "pool_empty"
    assert events[-1].kind == "draw" and s.returns() == [0.0, 0.0]


def test_no_legal_move_is_judged_like_an_empty_pool() -> None:
    row = {(0, 0): "ox*", (0, 1): "xo*"}
    out = judge(row, 30, lambda: False)
    assert out is not None and (out.winner, out.reason, out.lengths) == (1, "no_move", (1, 2))
    assert judge(row, 30, lambda: True) is None


def test_a_position_with_a_dead_cell_has_no_legal_move() -> None:
    # 1,1 sits between 1,0 and 1,2 whose facing ends are both o: nobody can ever move
    tiles = {(0, 0): "ox*", (0, 1): "xo*", (0, 2): "ox*", (1, 0): "xo*", (1, 2): "ox*"}
    s = position(tiles)
    assert not s.has_legal_move() and s.legal_actions() == []


def test_loops_are_checked_before_the_empty_pool() -> None:
    ring = dict(RING_O)
    last = ring.pop((-1, -1))
    s = position(ring, 1, left=1)
    s.apply(Place(-1, -1, last))
    assert s.tiles_remaining == 0 and s.outcome is not None and s.outcome.reason == "loop"


# ----- the state: core protocols, JSON, records, clicks ---------------------------------


def test_the_state_is_a_core_state_and_a_playable_state() -> None:
    s = make_game("vasco", "standard", 2).new_initial_state()
    assert isinstance(s, State) and isinstance(s, PlayableState)
    assert s.phase == "place" and s.chance_outcomes() == []


def test_rules_and_players_are_checked() -> None:
    with pytest.raises(RulesError, match="players"):
        VascoGame("standard", 3)
    with pytest.raises(RulesError, match="rules.pool"):
        VascoGame({"pool": "many"})
    with pytest.raises(RulesError, match="unknown option"):
        VascoGame({"size": 3})
    assert VascoGame({"pool": 54}).rules_obj() == "standard"


def test_actions_encode_and_json_round_trip() -> None:
    for place in (Place(0, 0, "ox*"), Place(-40, 77, "*xo"), Place(3, -2, "x*o")):
        a = encode(place)
        assert decode(a) == place
        game = VascoGame()
        assert game.action_from_json(json.loads(json.dumps(game.action_to_json(a)))) == a
    with pytest.raises(RulesError):
        Place(0, 0, "oox")
    with pytest.raises(IllegalActionError):
        decode(-1)


def test_state_json_round_trip_and_record_replay() -> None:
    s = position({(0, 0): "ox*", (0, 1): "xo*"})
    s.apply(Place(1, 2, "ox*"))
    s.apply(Place(-1, 1, next(iter(s.legal_states_at((-1, 1))))))
    again = VascoState.from_json(json.loads(json.dumps(s.to_json())))
    assert again == s and again.to_json() == s.to_json()
    record = GameRecord.from_json(json.loads(json.dumps(s.record().to_json())))
    assert record.replay() == s


def test_malformed_state_json_names_the_field() -> None:
    snap = VascoGame().new_initial_state().to_json()
    snap["tiles"] = [[0, 0, "ox*"], [0, 1, "ox*"]]
    with pytest.raises(RulesError, match="state.tiles"):
        VascoState.from_json(snap)


def test_legal_targets_cell_then_tile() -> None:
    s = position({(0, 0): "ox*"}, 2)
    cells = s.legal_targets()
    assert "0,1" in cells and "0,4" not in cells
    assert s.legal_targets(("0,1",)) == ["xo*", "x*o"]
    pick = s.click("0,1")
    assert pick == ClickResult(None, None, ("0,1",), {"cell": "0,1"})
    done = s.click("x*o", pick.selection)
    assert done.ok and done.action == encode(Place(0, 1, "x*o"))
    assert done.fields == {"cell": "0,1", "tile": "x*o"}


def test_legal_targets_tile_then_cell() -> None:
    s = position({(0, 0): "ox*"}, 2)
    held = s.click("xo*")
    assert held.selection == ("xo*",) and held.action is None and held.ok
    assert "0,1" in s.legal_targets(held.selection)
    assert s.click("0,1", held.selection).action == encode(Place(0, 1, "xo*"))


def test_refused_clicks_carry_the_engine_reason_in_words() -> None:
    s = position({(0, 0): "ox*"}, 2)
    wrong = s.click("ox*", ("0,1",))
    assert not wrong.ok and wrong.refusal is not None and wrong.refusal.reason == "mismatch"
    assert "0,0" in wrong.refusal.message and wrong.fields == {"cell": "0,1", "tile": "ox*"}
    far = s.click("5,5")
    assert far.refusal is not None and far.refusal.reason == "no_contact"
    dead = s.click("xo*", ("0,2",))
    assert dead.refusal is not None and dead.refusal.reason == "dead_cell"
    assert "x (blue)" in dead.refusal.message
    junk = s.click("<script>")
    assert junk.refusal is not None and junk.refusal.reason == "bad_target"
    held_junk = s.click("ox*", ("1,2,3",))
    assert held_junk.refusal is not None and held_junk.refusal.reason == "bad_target"
    assert s.legal_targets(("nonsense",)) == []


def test_to_text_names_the_mover_and_the_pool() -> None:
    s = position({(0, 0): "ox*", (0, 1): "xo*"})
    text = s.to_text()
    assert text.splitlines()[0] == "Vasco: O (red) to move, 52 tiles left."
    assert "0,1 down xo*" in text


# ----- perft ----------------------------------------------------------------------------


def test_perft_counts() -> None:
    s = VascoGame().new_initial_state()
    first = s.legal_actions()
    assert len(first) == 6
    seconds = []
    for a in first:
        c = s.clone()
        c.apply_action(a)
        seconds.append(len(c.legal_actions()))
    # the six first tiles are images of one another (rotation, flip, colour swap)
    assert seconds == [45] * 6
    c = s.clone()
    c.apply_action(first[0])
    third = 0
    for a in c.legal_actions():
        d = c.clone()
        d.apply_action(a)
        third += len(d.legal_actions())
    assert third == 2526  # perft(3) = 6 * 2526 = 15156


def test_perft_two_agrees_with_the_oracle() -> None:
    board = {(0, 0): "ox*"}
    cells = {(r, c) for r in range(-2, 3) for c in range(-3, 4)}
    legal = {(cell, st) for cell in cells for st in STATES if oracle.apply(board, 53, cell, st)}
    s = position(board, 2)
    assert {(decode(a).cell, decode(a).state) for a in s.legal_actions()} == legal
    assert len(legal) == 45
    assert candidate_cells(board) == sorted(set(geo.touching((0, 0))))
