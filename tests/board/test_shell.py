"""The board shell's Python side (no browser): the inputs a browser sends, checked and
gated; the front end as real files (the shell's and each game's renderer), shipped in the
wheel and mounted by path, not code; the data of one rerun under one top-level key, with
the notes of the sound it plays; and Vapoosh!'s seat styles in step with Python."""

from __future__ import annotations

import fnmatch
import json
import re
import tomllib
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from playtest.board import sounds
from playtest.board.component import COMPONENT_NAME, CSS_FILE, JS_FILE, STATIC_DIR, renderer_url
from playtest.board.protocol import BoardEventError, BoardInput, EventGate, parse_inputs
from playtest.games.registry import game_names, game_plugin, games

ROOT = Path(__file__).resolve().parents[2]
HARNESS = str(ROOT / "benchmarks" / "board_harness_app.py")
GOOD = {"kind": "click", "target": "d5", "hold": ["d6"], "nonce": "n", "ms": 3.7,
        "via": "touch", "token": "g:4"}


# -- the protocol ---------------------------------------------------------------------------


def test_inputs_are_parsed_with_their_stamp() -> None:
    click, draw, mute = parse_inputs({"inputs": [
        GOOD, {"kind": "draw", "nonce": "r", "ms": 812, "via": "keyboard", "token": "g:4"},
        {"kind": "mute", "value": True, "nonce": "m"}]})
    assert click == BoardInput("click", "n", "g:4", 4, "touch", "d5", ("d6",), None)
    assert (draw.kind, draw.ms, draw.via, draw.target) == ("draw", 812, "keyboard", "")
    assert (mute.kind, mute.value, mute.token) == ("mute", True, "")


@pytest.mark.parametrize("bad", [
    None, {"inputs": "d5"}, {"inputs": ["d5"]},
    {"inputs": [dict(GOOD, kind="undo")]},
    {"inputs": [dict(GOOD, target="<script>")]},
    {"inputs": [dict(GOOD, target="x" * 40)]},
    {"inputs": [dict(GOOD, hold=["<b>"])]},
    {"inputs": [dict(GOOD, hold="d6")]},
    {"inputs": [dict(GOOD, via="telepathy")]},
    {"inputs": [dict(GOOD, ms=float("nan"))]},
    {"inputs": [dict(GOOD, ms=True)]},
    {"inputs": [dict(GOOD, nonce="x" * 500)]},
    {"inputs": [dict(GOOD, nonce="")]},
    {"inputs": [{"kind": "mute", "value": "yes", "nonce": "m"}]},
])
def test_hostile_inputs_are_typed_errors(bad: object) -> None:
    with pytest.raises(BoardEventError):
        parse_inputs(bad)


@pytest.mark.parametrize("field", ["nonce", "token", "target", "via", "kind"])
def test_a_100_kb_field_is_refused_without_being_repeated(field: str) -> None:
    with pytest.raises(BoardEventError) as caught:
        parse_inputs({"inputs": [dict(GOOD, **{field: "x" * 100_000})]})
    assert len(str(caught.value)) < 200  # the message never carries the 100 KB value


def test_one_trigger_is_read_up_to_its_limit() -> None:
    assert len(parse_inputs({"inputs": [GOOD] * 100})) == 32


def test_the_gate_drops_duplicates_stale_and_not_interactive_inputs() -> None:
    gate = EventGate()
    gate.shown("g:1", interactive=True)
    assert gate.admit("a", "g:1") is None
    assert gate.admit("a", "g:1") == "duplicate"  # the same trigger sent again
    assert gate.admit("b", "g:0") == "stale"  # made on an older position
    gate.shown("g:2", interactive=False)  # the computer's turn, a dialog open
    assert gate.admit("c", "g:2") == "not_interactive"
    assert gate.admit("m", None) is None  # a setting: only de-duplicated
    assert gate.dropped == {"duplicate": 1, "not_interactive": 1, "stale": 1, "malformed": 0}
    assert gate.recent() == ["a", "b", "c", "m"]  # acknowledged: not sent again


def test_the_gate_forgets_only_old_nonces() -> None:
    gate = EventGate(remember=3)
    gate.shown("v", interactive=True)
    for n in "abcd":
        assert gate.admit(n, "v") is None
    assert gate.admit("d", "v") == "duplicate"
    assert gate.admit("a", "v") is None  # fell out of the window of 3


# -- the front end ---------------------------------------------------------------------------


def test_the_shell_owns_the_protocol_and_the_renderers_only_draw() -> None:
    shell = (STATIC_DIR / JS_FILE).read_text("utf-8")
    assert "export default function" in shell and 'st.trigger("input"' in shell
    assert "import(url)" in shell and "import.meta.url" in shell
    for plugin in games():
        board = plugin.board
        assert board is not None
        js = board.script_path.read_text("utf-8")
        assert "export default {" in js and "build" in js and "update" in js, plugin.name
        # nothing of the protocol in a renderer: no triggers, nonces, audio or tokens
        for shell_only in ("setTriggerValue", "trigger(", "randomUUID", "AudioContext"):
            assert shell_only not in js, (plugin.name, shell_only)
        css = re.search(r'css: "([^"]+)"', js)
        assert css is not None and (board.static_dir / css.group(1)).is_file()
        assert renderer_url(plugin) == f"../playtest-lab.{plugin.name}/{board.script}"


def test_a_normal_install_ships_every_front_end_file() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())[
        "tool"]["setuptools"]["package-data"]["playtest"]
    files = [STATIC_DIR / JS_FILE, STATIC_DIR / CSS_FILE]
    files += [f for p in games() if p.board for f in p.board.static_dir.iterdir()]
    for path in files:
        rel = path.relative_to(ROOT / "playtest").as_posix()
        assert any(fnmatch.fnmatch(rel, p) for p in patterns), rel


@pytest.mark.parametrize("game", game_names())
def test_a_rerun_carries_the_shells_path_and_one_key_of_data(game: str) -> None:
    at = AppTest.from_file(HARNESS, default_timeout=60)
    at.query_params["game"] = game
    at.run()
    assert not at.exception
    (board,) = at.get("bidi_component")
    proto = board.proto
    assert proto.component_name == COMPONENT_NAME and proto.js_source_path == JS_FILE
    assert (proto.js_content, proto.html_content) == ("", "")
    data = json.loads(proto.json)
    assert list(data) == ["board"]  # one top-level value for Streamlit to look at
    shell = data["board"]
    assert shell["renderer"] == renderer_url(game_plugin(game)) and shell["token"]
    assert {"interactive", "message", "end", "muted", "view", "ack"} <= set(shell)
    assert proto.ByteSize() < 8000  # the data only, never the code


def test_the_sound_of_a_message_rides_with_it_as_a_fresh_copy_of_its_notes() -> None:
    first = sounds.cue_notes("place")
    assert first == sounds.cue_spec()["place"]
    assert first is not None
    first[0]["gain"] = 99.0  # a caller changing what it was given ...
    first.append({"at": 0.0})
    assert sounds.cue_notes("place") == sounds.cue_spec()["place"]  # ... changes nothing


# -- a game's own styles ---------------------------------------------------------------------


def test_the_dice_games_seat_styles_in_its_css_are_the_python_ones() -> None:
    from playtest.games.vapoosh.view import SEAT_STYLES

    board = game_plugin("vapoosh").board
    assert board is not None
    css = (board.static_dir / "board.css").read_text("utf-8")
    for owner, style in SEAT_STYLES.items():
        assert f".tile.o{owner} {{ color: {style.text_colour}; }}" in css
        shape = f"background: {style.colour}; clip-path: var(--shape-{style.shape});"
        assert f".tile.o{owner}::before {{ {shape} }}" in css
        assert f".vb-swatch.o{owner} {{ {shape} }}" in css
    assert {int(n) for n in re.findall(r"\.tile\.o(\d)\b", css)} == {0, *SEAT_STYLES}
    assert 'content: "\\2605"' in css and 'content: "\\2699"' in css
