"""The Bricks & Walls board's Python side: what it shows (view), its catalog, and how
clicks from the browser are parsed, gated and judged (no browser here; see
tests/browser/test_morris_board.py for the board in Chromium)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from engine.core import Refusal
from engine.morris import MorrisGame, Move, Place
from playtest.games.morris.catalog import REFUSAL_REASONS, REQUIRED_KEYS, load_catalog
from playtest.games.morris.component import (
    STATIC_DIR,
    BoardClick,
    BoardEventError,
    ClickGate,
    judge,
    parse_clicks,
    render_board,
)
from playtest.games.morris.view import COMPUTER, HUMAN, Sides, board_data, prompt
from playtest.messages.catalog import CatalogError
from playtest.messages.catalog import load_catalog as load_catalog_file

M12 = {"d7": "W", "a4": "W", "g4": "W", "d1": "W", "c5": "W", "e3": "W",
       "a7": "B", "g7": "B", "a1": "B", "g1": "B"}  # fmt: skip


def test_static_files_are_real_files_and_referenced() -> None:
    js = (STATIC_DIR / "board.js").read_text(encoding="utf-8")
    css = (STATIC_DIR / "board.css").read_text(encoding="utf-8")
    assert "export default function" in js and 'trigger("click"' in js
    assert ".mb.turn-B" in css and ".pt.grey" in css and ".pt.sel .inner" in css


def test_every_engine_refusal_reason_a_click_can_meet_has_a_message() -> None:
    source = (Path(__file__).parents[2] / "engine/morris/state.py").read_text(encoding="utf-8")
    codes = set(re.findall(r'Refusal\(\s*"([a-z_]+)"', source))
    assert {"walled", "occupied", "not_adjacent", "no_moves"} <= codes
    # click() routes by phase, so these come only from apply_action; not_a_point never
    # reaches the engine (parse_clicks refuses it)
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
    assert data["message"]["key"] == "selected"
    # a selection that is not the mover's brick is ignored
    assert board_data(s, selection=["a7"])["selection"] is None
    s.apply(Move("c5", "d5"))  # Black is blocked: skipped
    data = board_data(s)
    assert data["message"]["key"] == "skipped" and data["toMove"] == "W"
    assert data["message"]["text"] == "Black cannot move any brick, so White goes again."


def test_board_data_refusal_and_computer_turn() -> None:
    s = MorrisGame().new_initial_state()
    data = board_data(s, refusal=Refusal("occupied", "x"))
    assert data["message"]["key"] == "refused_occupied" and data["refused"]
    assert data["sound"] is not None and data["sound"]["name"] == "wrong"
    vs = Sides((COMPUTER, HUMAN))
    data = board_data(s, sides=vs)
    assert not data["interactive"] and data["message"]["key"] == "computer_thinking"


def click(point: str, frm: str | None = None, token: str = ":0", nonce: str = "n") -> BoardClick:
    return BoardClick(point, frm, nonce, 10, "mouse", token)


def test_judge_gives_the_telemetry_fields() -> None:
    s = MorrisGame().state_from_position(M12, {"W": 0, "B": 0})
    j = judge(s, click("c4", "c5"))
    assert j.result.ok and j.result.action is not None
    assert j.telemetry() == {"seat": 1, "point": "c4", "from": "c5", "ok": True, "ms": 10}
    j = judge(s, click("a7"))
    assert j.telemetry() == {"seat": 1, "point": "a7", "ok": False, "ms": 10, "reason": "not_yours"}


def test_parse_clicks_refuses_hostile_payloads() -> None:
    good = {"point": "a7", "from": None, "nonce": "n", "ms": 3.7, "via": "touch", "token": ":0"}
    assert parse_clicks({"clicks": [good]})[0].ms == 3
    for bad in (
        None,
        {"clicks": "a7"},
        {"clicks": [dict(good, point="<script>")]},
        {"clicks": [dict(good, via="telepathy")]},
        {"clicks": [dict(good, ms=float("nan"))]},
        {"clicks": [dict(good, nonce="x" * 500)]},
        {"clicks": [dict(good, **{"from": "z9"})]},
    ):
        with pytest.raises(BoardEventError):
            parse_clicks(bad)
    assert len(parse_clicks({"clicks": [good] * 100})) == 32


def test_click_gate_drops_duplicates_stale_and_not_interactive() -> None:
    gate = ClickGate(remember=2)
    assert gate.admit("a", ":1", current=":1", interactive=True) is None
    assert gate.admit("a", ":1", current=":1", interactive=True) == "duplicate"
    assert gate.admit("b", ":0", current=":1", interactive=True) == "stale"
    assert gate.admit("c", ":1", current=":1", interactive=False) == "not_interactive"
    assert gate.dropped == {"duplicate": 1, "stale": 1, "not_interactive": 1, "malformed": 0}


def test_render_board_in_bare_mode_returns_the_data() -> None:
    s = MorrisGame().new_initial_state()
    data = render_board(s, key="b")
    assert data["phase"] == "place" and data["token"] == ":0"


def test_highlight_setting_is_passed_to_the_browser() -> None:
    s = MorrisGame().new_initial_state()
    assert board_data(s)["highlight"] is True
    assert board_data(s, highlight=False)["highlight"] is False


def test_click_gate_remembers_recent_nonces_for_the_browser() -> None:
    gate = ClickGate(remember=3)
    for k, nonce in enumerate("abcd"):
        gate.admit(nonce, ":0", current=":0" if k < 2 else ":1", interactive=True)
    assert gate.recent() == ["b", "c", "d"] and gate.recent(2) == ["c", "d"]
