"""The Bricks & Walls board's Python side: what it shows (view), what it says (catalog),
and a click judged by the rules as the session logs it (no browser here; the board shell's
protocol is tests/board/test_shell.py, the board in Chromium tests/browser)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from engine.core import Refusal
from engine.morris import MorrisGame, Move, Place, Remove
from playtest.games.morris.catalog import REFUSAL_REASONS, REQUIRED_KEYS, load_catalog
from playtest.games.morris.view import COMPUTER, HUMAN, Sides, board_data, prompt
from playtest.games.plugin import click_props
from playtest.games.registry import game_plugin
from playtest.messages.catalog import CatalogError
from playtest.messages.catalog import load_catalog as load_catalog_file

M12 = {"d7": "W", "a4": "W", "g4": "W", "d1": "W", "c5": "W", "e3": "W",
       "a7": "B", "g7": "B", "a1": "B", "g1": "B"}  # fmt: skip


def test_static_files_are_real_files_and_referenced() -> None:
    board = game_plugin("morris").board
    assert board is not None
    js = board.script_path.read_text(encoding="utf-8")
    css = (board.static_dir / "board.css").read_text(encoding="utf-8")
    assert "export default {" in js and "data-target" in js and 'css: "board.css"' in js
    assert ".mb.turn-B" in css and ".pt.grey" in css and ".pt.sel .inner" in css


def test_every_engine_refusal_reason_a_click_can_meet_has_a_message() -> None:
    source = (Path(__file__).parents[2] / "engine/morris/state.py").read_text(encoding="utf-8")
    codes = set(re.findall(r'Refusal\(\s*"([a-z_]+)"', source))
    assert {"walled", "occupied", "not_adjacent", "no_moves"} <= codes
    # click() routes by phase, so these come only from apply_action; not_a_point is the
    # engine's answer to a target that is no point (the catalog's "other" message)
    not_from_clicks = {"no_removal", "placement_over", "still_placing", "not_a_point"}
    assert codes - not_from_clicks == set(REFUSAL_REASONS)
    catalog = load_catalog()
    for reason in REFUSAL_REASONS:
        msg = catalog.render(f"refused_{reason}", enemy_of="Black's")
        assert msg.text and msg.tone in ("bad", "info")


def test_the_seed_sentence_for_a_wall() -> None:
    s = MorrisGame().state_from_position({"a7": "W", "d7": "W", "b6": "B"}, {"W": 7, "B": 8})
    s.apply(Place("g7"))
    assert prompt(s).text == "Wall! Take one of Black's bricks."
    vs = Sides((HUMAN, COMPUTER))
    assert prompt(s, sides=vs).text == "Wall! Take one of the computer's bricks."


def test_catalog_errors_name_file_and_key(tmp_path: Path) -> None:
    obj = yaml.safe_load(
        (Path(__file__).parents[2] / "playtest/games/morris/messages.yaml").read_text()
    )
    del obj["messages"]["wall"]
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(obj))
    with pytest.raises(CatalogError, match="bad.yaml.*wall"):
        load_catalog_file(bad, REQUIRED_KEYS)


def test_board_data_during_removal_greys_walled_bricks() -> None:
    s = MorrisGame().state_from_position(
        {"a7": "W", "d7": "W", "b6": "B", "d6": "B", "f6": "B", "b4": "B"}, {"W": 6, "B": 5}
    )
    s.apply(Place("g7"))
    data = board_data(s)
    assert data["phase"] == "remove" and sorted(data["grey"]) == ["b6", "d6", "f6"]
    assert data["targets"] == ["b4"] and data["walls"] == ["a7", "d7", "g7"]
    assert data["placing"] and data["counts"]["B"]["reserve"] == 5
    # rule 5: when every enemy brick is walled none is grey (any may be taken)
    s2 = MorrisGame().state_from_position(
        {"a7": "W", "d7": "W", "b6": "B", "d6": "B", "f6": "B"}, {"W": 7, "B": 6}
    )
    s2.apply(Place("g7"))
    assert board_data(s2)["grey"] == []


def test_board_data_movement_selection_and_counts() -> None:
    s = MorrisGame().state_from_position(M12, {"W": 0, "B": 0})
    data = board_data(s, selection=["c5"])
    assert data["selection"] == "c5" and data["targets"] == ["d5", "c4"]
    assert data["movable"]["c5"] == ["d5", "c4"] and data["movable"]["d7"] == ["d6"]
    assert not data["placing"] and data["counts"]["W"]["board"] == 6
    assert prompt(s, selection=["c5"]).key == "selected"
    # a selection that is not the mover's brick is ignored
    assert board_data(s, selection=["a7"])["selection"] is None
    s.apply(Move("c5", "d5"))  # Black is blocked: skipped
    data = board_data(s)
    assert prompt(s).key == "skipped" and data["toMove"] == "W"
    assert prompt(s).text == "Black cannot move any brick, so White goes again."


def test_a_refusal_and_the_computers_turn_are_said() -> None:
    s = MorrisGame().new_initial_state()
    said = prompt(s, refusal=Refusal("occupied", "x"))
    assert said.key == "refused_occupied" and said.sound == "wrong"
    vs = Sides((COMPUTER, HUMAN))
    assert not board_data(s, sides=vs)["interactive"]
    assert prompt(s, sides=vs).key == "computer_thinking"


def test_a_click_is_logged_with_the_games_own_fields() -> None:
    s = MorrisGame().state_from_position(M12, {"W": 0, "B": 0})
    result = s.click("c4", ("c5",))
    assert result.ok and result.action is not None
    assert click_props(1, "c4", result, 10, "mouse") == {
        "seat": 1, "target": "c4", "point": "c4", "from": "c5", "ok": True, "ms": 10,
        "via": "mouse"}
    refused = s.click("a7")
    assert click_props(1, "a7", refused, 10, "touch") == {
        "seat": 1, "target": "a7", "point": "a7", "ok": False, "ms": 10, "via": "touch",
        "reason": "not_yours"}


def test_highlight_setting_is_passed_to_the_browser() -> None:
    s = MorrisGame().new_initial_state()
    assert board_data(s)["highlight"] is True
    assert board_data(s, highlight=False)["highlight"] is False


def test_a_taken_brick_is_an_emptied_point_the_board_marks() -> None:
    """After a removal the point is empty and listed in ``taken`` (the renderer marks it);
    before it nothing is."""
    s = MorrisGame().state_from_position(
        {"a7": "W", "d7": "W", "b6": "B", "d6": "B", "f6": "B", "b4": "B"}, {"W": 6, "B": 5}
    )
    s.apply(Place("g7"))
    assert board_data(s)["taken"] == []
    s.apply(Remove("b4"))
    data = board_data(s)
    assert data["taken"] == ["b4"] and "b4" not in data["cells"]
    assert "b4" in data["lastPoints"]
