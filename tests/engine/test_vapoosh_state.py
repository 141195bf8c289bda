"""Core contract, rule options, actions, deals, JSON, records and click classification."""

from __future__ import annotations

import dataclasses
import json
import math
import random

import pytest
from vapoosh_testkit import dice_for, drive_random, position

from engine.core import (
    CHANCE,
    Event,
    GameRecord,
    IllegalActionError,
    RulesError,
    make_game,
    sample_chance,
)
from engine.vapoosh import (
    PRESETS,
    Brown,
    ClickVerdict,
    Deal,
    Place,
    Roll,
    Rules,
    VapooshGame,
    VapooshState,
    action_from_json,
    classify_click,
    deal_preplaced,
    decode,
    encode,
)
from engine.vapoosh.board import ROLLABLE, has_pattern, index

# ----- rules and presets --------------------------------------------------------------


def test_presets_match_the_table() -> None:
    table = {
        "capture": ("when_blocked", "any", "when_blocked"),
        "surround": ("tile", "off", "tile"),
        "suicide": (True, False, True),
        "vapooh": ("optional_brown", "off", "brown_and_miss_next"),
        "square_extra_turn": (True, False, True),
        "quad_skips_next": (False, False, True),
        "own_suicide_rerolls": (3, 0, 3),
        "preplaced": (0, 0, 12),
        "max_turns": (400, 400, 400),
    }
    for k, name in enumerate(("standard", "classic", "house")):
        rules = Rules.preset(name)
        assert {f: getattr(rules, f) for f in table} == {f: v[k] for f, v in table.items()}
        assert rules.name == name and PRESETS[name] is rules


ALTERNATIVES = {
    "capture": "any",
    "surround": "group",
    "suicide": False,
    "vapooh": "off",
    "square_extra_turn": False,
    "quad_skips_next": True,
    "own_suicide_rerolls": 1,
    "preplaced": 6,
    "max_turns": 50,
}


@pytest.mark.parametrize("option", sorted(ALTERNATIVES))
def test_every_option_switches_alone(option: str) -> None:
    base = Rules.preset("standard")
    changed = Rules.from_obj({"base": "standard", option: ALTERNATIVES[option]})
    diff = {
        f.name
        for f in dataclasses.fields(Rules)
        if getattr(base, f.name) != getattr(changed, f.name)
    }
    assert diff == {option}
    assert changed.name == "custom"
    assert Rules.from_obj(changed.to_obj()) == changed
    assert Rules.from_obj(json.loads(json.dumps(changed.to_obj()))) == changed


def test_rules_from_obj_accepts_names_and_on_off() -> None:
    assert Rules.from_obj("house") == Rules.preset("house")
    assert Rules.from_obj({"base": "classic", "suicide": "on"}).suicide is True
    assert Rules.from_obj({}) == Rules.preset("standard")


@pytest.mark.parametrize(
    ("obj", "field"),
    [
        ("chess", "rules"),
        ({"base": "nope"}, "rules"),
        ({"surround": "ring"}, "rules.surround"),
        ({"capture": 3}, "rules.capture"),
        ({"suicide": 1}, "rules.suicide"),
        ({"own_suicide_rerolls": -1}, "rules.own_suicide_rerolls"),
        ({"max_turns": "400"}, "rules.max_turns"),
        ({"preplaced": 200}, "rules.preplaced"),
        ({"vapooh": "maybe"}, "rules.vapooh"),
        ({"colour": "red"}, "rules.colour"),
        (42, "rules"),
    ],
)
def test_bad_rules_name_the_field(obj: object, field: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_obj(obj)
    assert str(info.value).startswith(field + ":")
    assert "\n" not in str(info.value)


def test_game_validates_players_and_deal_size() -> None:
    for bad in (0, 5, True, "2"):
        with pytest.raises(RulesError, match="^players:"):
            VapooshGame("standard", bad)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="^rules.preplaced:"):
        VapooshGame({"base": "house", "preplaced": 5}, 2)
    assert VapooshGame("house", 4).rules.preplaced == 12


# ----- actions ------------------------------------------------------------------------


def test_action_ids_round_trip() -> None:
    for a in range(1296 + 144 + 144):
        obj = decode(a)
        assert encode(obj) == a
        assert encode(action_from_json(json.loads(json.dumps(obj.to_json())))) == a
    assert decode(0) == Roll((1, 1, 1, 1)) and decode(1295) == Roll((6, 6, 6, 6))
    assert isinstance(decode(1296), Place) and isinstance(decode(1440), Brown)


@pytest.mark.parametrize(
    "obj",
    [
        ["roll", [1, 2, 3]],
        ["roll", [0, 1, 2, 3]],
        ["roll", [1, 2, 3, 7]],
        ["place", [13, 2]],
        ["place", [2]],
        ["brown", "5,8"],
        ["jump", [1, 2]],
        "roll",
        ["deal", [[5, 3, 3]]],
        ["deal", [[1, 3, 3], [2, 3, 3]]],
    ],
)
def test_malformed_actions_raise_rules_error(obj: object) -> None:
    with pytest.raises(RulesError):
        action_from_json(obj)


# ----- the OpenSpiel-shaped interface -------------------------------------------------


def test_chance_node_lists_all_ordered_dice() -> None:
    s = VapooshGame("standard", 2).new_initial_state()
    assert s.current_player() == CHANCE and s.is_chance_node()
    outcomes = s.chance_outcomes()
    assert [a for a, _ in outcomes] == s.legal_actions() == list(range(1296))
    assert math.isclose(math.fsum(p for _, p in outcomes), 1.0)
    assert all(p == 1 / 1296 for _, p in outcomes)
    s.apply(Roll((2, 3, 4, 4)))
    assert s.chance_outcomes() == []
    assert s.legal_actions() == sorted({encode(t) for t in s.targets()})


def test_sample_chance_uses_the_callers_generator() -> None:
    s = VapooshGame("standard", 2).new_initial_state()
    a = sample_chance(s, random.Random(3))
    assert a == sample_chance(s, random.Random(3)) and 0 <= a < 1296


def test_clone_is_independent() -> None:
    s = position()
    c = s.clone()
    assert c == s and c is not s
    c.apply(Roll((2, 3, 4, 4)))
    c.apply(Place(5, 8))
    assert s.phase == "roll" and s.owner(5, 8) == 0 and c.owner(5, 8) == 1
    assert c != s


def test_state_views_for_the_ui() -> None:
    s = position({(1, 1): "2", (2, 1): "B"}, players=3, to_move=2, skips={3: 1})
    assert s.board_rows()[0] == "2B.........."
    assert (s.owner(1, 1), s.owner(2, 1), s.owner(3, 1)) == (2, 5, 0)
    assert (s.to_move, s.skips, s.players, s.turns, s.winner, s.outcome) == (
        2,
        {3: 1},
        3,
        0,
        None,
        None,
    )
    assert s.dice is None and s.options == () and s.targets() == []
    events = s.apply(Roll((2, 3, 4, 4)))
    assert s.last_events == events
    assert events[0] == Event("roll", 2, ((5, 8), (8, 5)), {"dice": [2, 3, 4, 4], "product": 40})


def test_json_round_trip_mid_game_and_over() -> None:
    game = VapooshGame("house", 3)
    state, _ = drive_random(game, random.Random(11))
    assert state.is_terminal()
    for k in range(0, len(state.history) + 1, 7):
        partial = game.new_initial_state()
        for a in state.history[:k]:
            partial.apply_action(a)
        data = json.loads(json.dumps(partial.to_json()))
        again = VapooshState.from_json(data)
        assert again == partial
        assert again.legal_actions() == partial.legal_actions()


def test_record_replays_to_the_same_state_and_round_trips_json() -> None:
    game = VapooshGame("standard", 2)
    state, _ = drive_random(game, random.Random(5))
    record = state.record()
    assert record.game == "vapoosh" and record.players == 2
    assert record.actions[0][0] == "roll"
    assert record.replay() == state
    again = GameRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert again == record and again.replay() == state


def test_record_of_a_scenario_position_carries_its_start() -> None:
    s = position({(7, 5): "2"}, players=3, to_move=3, skips={1: 1})
    s.apply(Roll((3, 4, 2, 3)))
    s.apply(Place(5, 7))
    record = GameRecord.from_json(json.loads(json.dumps(s.record().to_json())))
    assert record.start is not None
    assert record.replay() == s


def test_record_errors_name_the_field() -> None:
    with pytest.raises(RulesError, match="'actions'"):
        GameRecord.from_json({"game": "vapoosh", "rules": "standard", "players": 2})
    with pytest.raises(RulesError, match="'players'"):
        GameRecord.from_json(
            {"game": "vapoosh", "rules": "standard", "players": "2", "actions": []}
        )
    with pytest.raises(RulesError, match="^game:"):
        make_game("go", "standard", 2)
    with pytest.raises(RulesError, match="^state.board"):
        VapooshState.from_json({**position().to_json(), "board": ["."] * 12})


def test_bad_positions_name_the_field() -> None:
    game = VapooshGame("standard", 2)
    with pytest.raises(RulesError, match="^board: row 2"):
        game.state_from_position(["." * 12, "." * 11] + ["." * 12] * 10)
    with pytest.raises(RulesError, match="^board: row 1, column 1"):
        game.state_from_position(["3" + "." * 11] + ["." * 12] * 11)
    with pytest.raises(RulesError, match="^to_move:"):
        game.state_from_position(None, to_move=3)
    with pytest.raises(RulesError, match="^skips:"):
        game.state_from_position(None, skips={5: 1})


# ----- preplaced counters -------------------------------------------------------------


@pytest.mark.parametrize(("players", "per_seat"), [(1, 12), (2, 6), (3, 4), (4, 3)])
def test_deal_preplaced_is_fair_and_seeded(players: int, per_seat: int) -> None:
    rules = Rules.preset("house")
    rollable = set(ROLLABLE)
    for seed in range(30):
        deal = deal_preplaced(rules, players, seed)
        assert deal == deal_preplaced(rules, players, seed)
        tiles = [index(c, r) for _, c, r in deal.counters]
        assert len(tiles) == 12 == len(set(tiles)) and set(tiles) <= rollable
        for seat in range(1, players + 1):
            mine = [index(c, r) for s, c, r in deal.counters if s == seat]
            assert len(mine) == per_seat
            assert not has_pattern(sum(1 << i for i in mine))
    assert deal_preplaced(rules, players, 1) != deal_preplaced(rules, players, 2)


def test_setup_phase_needs_a_deal_first() -> None:
    game = VapooshGame("house", 2)
    s = game.new_initial_state()
    assert s.phase == "setup" and s.current_player() == CHANCE
    outcomes = s.chance_outcomes()
    assert [a for a, _ in outcomes] == s.legal_actions() == sorted({a for a, _ in outcomes})
    assert math.isclose(math.fsum(p for _, p in outcomes), 1.0)
    with pytest.raises(IllegalActionError) as info:
        s.apply(Roll((1, 2, 3, 4)))
    assert info.value.reason == "must_deal" and s.phase == "setup"
    deal = deal_preplaced(game.rules, 2, 99)
    events = s.apply(deal)
    assert [e.kind for e in events] == ["deal"]
    assert s.phase == "roll" and s.to_move == 1
    assert sum(row.count("1") for row in s.board_rows()) == 6
    with pytest.raises(IllegalActionError) as info:
        s.apply(deal)
    assert info.value.reason == "already_dealt"


@pytest.mark.parametrize(
    ("counters", "words"),
    [
        (((1, 3, 3),), "must place 12"),
        (tuple((1, c, 3) for c in range(2, 8)) + tuple((2, c, 9) for c in range(2, 8)), "winning"),
        (
            tuple((1, 2 * k, 3) for k in range(1, 7))
            + tuple((2, 2 * k, 9) for k in range(1, 6))
            + ((2, 1, 1),),
            "rolled",
        ),
        (
            tuple((1, 2 * k, 3) for k in range(1, 7)) + tuple((3, 2 * k, 9) for k in range(1, 7)),
            "not playing",
        ),
        (
            tuple((1, 2 * k, 3) for k in range(1, 7)) + tuple((1, 2 * k, 9) for k in range(1, 7)),
            "Seat 1 must get 6",
        ),
    ],
)
def test_invalid_deals_are_refused(counters: tuple[tuple[int, int, int], ...], words: str) -> None:
    s = VapooshGame("house", 2).new_initial_state()
    with pytest.raises(IllegalActionError) as info:
        s.apply(Deal(counters))
    assert info.value.reason == "invalid_deal" and words in str(info.value)
    assert s.phase == "setup" and s.board_rows() == ["." * 12] * 12


# ----- wrong clicks --------------------------------------------------------------------


def click(state: VapooshState, c: int, r: int) -> tuple[bool, str | None, str | None]:
    v = classify_click(state, c, r)
    assert isinstance(v, ClickVerdict) and v.clicked == c * r and v.message
    return v.ok, v.kind, v.rule_reason


def test_click_on_a_legal_target_is_ok() -> None:
    s = position()
    s.apply(Roll((2, 3, 4, 4)))
    assert click(s, 8, 5) == (True, None, None)
    assert classify_click(s, 8, 5).expected == 40


@pytest.mark.parametrize(
    ("cells", "players", "reason"),
    [
        ({(7, 5): "2"}, 2, "empty_priority"),
        ({(7, 5): "1"}, 2, "own_tile"),
        ({(7, 5): "B"}, 2, "brown"),
        ({(7, 4): "2", (7, 6): "2", (6, 5): "2", (8, 5): "2"}, 2, "suicide"),
    ],
)
def test_click_on_a_forbidden_option_names_the_rule(
    cells: dict[tuple[int, int], str], players: int, reason: str
) -> None:
    s = position(cells, players=players)
    s.apply(Roll((3, 4, 2, 3)))
    assert click(s, 7, 5) == (False, "rule", reason)
    assert click(s, 5, 7) == (True, None, None)


def test_click_kinds_same_product_near_miss_arithmetic() -> None:
    s = position()
    s.apply(Roll((2, 3, 4, 4)))  # 5 x 8 = 40
    assert click(s, 4, 10) == (False, "same_product", None)
    assert click(s, 10, 4) == (False, "same_product", None)
    assert click(s, 6, 9) == (False, "near_miss", None)  # diagonal of (5,8)
    assert click(s, 8, 6) == (False, "near_miss", None)  # below (8,5)
    assert click(s, 2, 2) == (False, "arithmetic", None)
    v = classify_click(s, 7, 7)
    assert (v.expected, v.clicked) == (40, 49) and "49" in v.message and "40" in v.message


def test_near_miss_is_judged_against_legal_targets_only() -> None:
    s = position({(8, 5): "1"})
    s.apply(Roll((2, 3, 4, 4)))
    assert click(s, 9, 4) == (False, "arithmetic", None)  # next to own (8,5), not a target
    assert click(s, 6, 9) == (False, "near_miss", None)


def test_click_outside_the_place_phase() -> None:
    s = position()
    v = classify_click(s, 5, 8)
    assert (v.ok, v.kind, v.expected) == (False, None, 0)
    s2 = position(rules="house")
    s2.apply(Roll((6, 6, 6, 2)))
    assert click(s2, 12, 8) == (True, None, None)  # the brown counter is the legal move there
    s3 = position({(12, 8): "B"}, rules="house")
    s3.apply(Roll((6, 6, 6, 2)))
    assert click(s3, 12, 8) == (False, "rule", "brown")
    _ = dice_for


# ----- board tables, checked against plain coordinates ---------------------------------


def test_board_tables_match_plain_geometry() -> None:
    from engine.vapoosh.board import ALL_LINES, ALL_SQUARES, NB4, NB8, WIN_WINDOWS, bits, tile

    assert len(ALL_LINES) == 12 * 9 * 2 + 9 * 9 * 2 and len(ALL_SQUARES) == 11 * 11
    for i in range(144):
        c, r = tile(i)
        assert index(c, r) == i
        orth = {(c + dc, r + dr) for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))}
        ring = {(c + dc, r + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1)} - {(c, r)}
        on = {(x, y) for x in range(1, 13) for y in range(1, 13)}
        assert {tile(k) for k in bits(NB4[i])} == orth & on
        assert {tile(k) for k in bits(NB8[i])} == ring & on
        for w in WIN_WINDOWS[i]:
            cells = sorted(tile(k) for k in bits(w))
            assert (c, r) in cells and len(cells) == 4
            xs, ys = {x for x, _ in cells}, {y for _, y in cells}
            square = len(xs) == 2 and len(ys) == 2 and max(xs) - min(xs) == 1 == max(ys) - min(ys)
            line = [
                (
                    cells[0][0] + k * (cells[1][0] - cells[0][0]),
                    cells[0][1] + k * (cells[1][1] - cells[0][1]),
                )
                for k in range(4)
            ]
            assert square or sorted(line) == cells


def test_game_and_state_satisfy_the_core_protocols() -> None:
    from engine.core import Game, State

    game = VapooshGame("standard", 2)
    assert isinstance(game, Game) and isinstance(game.new_initial_state(), State)
    assert make_game("vapoosh", {"base": "classic"}, 3) == VapooshGame("classic", 3)
