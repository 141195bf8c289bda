"""The board's front end is real files (board.js, board.html, board.css) in the
component's asset dir, served by Streamlit, shipped in the wheel, and in step with Python;
its sound cues are the Python table's notes, sent with the view."""

from __future__ import annotations

import fnmatch
import json
import re
import tomllib
from pathlib import Path

from streamlit.testing.v1 import AppTest

from playtest.board import sounds
from playtest.games.vapoosh.component import (
    BOARD_JS_FILE,
    COMPONENT_NAME,
    FRONT_END_FILES,
    STATIC_DIR,
)
from playtest.games.vapoosh.view import SEAT_STYLES

ROOT = Path(__file__).resolve().parents[2]
HARNESS = str(ROOT / "benchmarks" / "board_harness_app.py")


def _read(name: str) -> str:
    return (STATIC_DIR / name).read_text(encoding="utf-8")


def test_board_module_loads_its_markup_style_and_cues_from_beside_itself() -> None:
    js = _read(BOARD_JS_FILE)
    assert "export default function" in js
    for name in ("board.html", "board.css"):
        assert f'asset("{name}")' in js
    assert "play(d.sound_notes)" in js  # the cue's notes come with the view data
    assert "import.meta.url" in js  # relative to wherever Streamlit serves the module
    assert 'data-testid="vapoosh-board"' in _read("board.html")


def test_seat_styles_in_the_css_are_the_python_ones() -> None:
    css = _read("board.css")
    for owner, style in SEAT_STYLES.items():
        assert f".tile.o{owner} {{ color: {style.text_colour}; }}" in css
        shape = f"background: {style.colour}; clip-path: var(--shape-{style.shape});"
        assert f".tile.o{owner}::before {{ {shape} }}" in css
        assert f".vb-swatch.o{owner} {{ {shape} }}" in css
        assert f"--shape-{style.shape}:" in css
    # no stray seat rule beyond SEAT_STYLES
    assert {int(n) for n in re.findall(r"\.tile\.o(\d)\b", css)} == {0, *SEAT_STYLES}


def test_css_escapes_are_the_intended_symbols() -> None:
    css = _read("board.css")
    assert 'content: "\\2605"' in css  # a star on the winning tiles
    assert 'content: "\\2699"' in css  # a gear on the computer's tile


def test_one_cue_table_for_the_browser_and_the_wav_renderer() -> None:
    # the shared cues and each game's own (the fanfare lives in its game's folder)
    files = sounds.cue_files()
    assert files[0] == sounds.CUES_FILE and len(files) >= 2
    names: list[str] = []
    for path in files:
        table = json.loads(path.read_text(encoding="utf-8"))
        names += list(table)
        for name, entry in table.items():
            assert entry["about"]
            assert [list(note.values()) for note in sounds.cue_spec()[name]] == entry["notes"]
    assert sorted(names) == sorted(sounds.CUE_NAMES)


def test_the_board_sends_the_notes_of_the_cue_it_shows() -> None:
    from playtest.games.vapoosh.component import board_data
    from playtest.games.vapoosh.view import board_view

    for name in sounds.CUE_NAMES:
        view = board_view(["." * 12] * 12, seats=("human", "computer"), sound=name, nonce="1")
        data = board_data(view, mute_control=True)
        assert data["sound"] == name
        assert data["sound_notes"] == sounds.cue_spec()[name]
    silent = board_data(board_view(["." * 12] * 12, seats=("human",)), mute_control=False)
    assert silent["sound_notes"] is None and silent["mute_control"] is False


def test_a_normal_install_ships_the_front_end_files() -> None:
    # setuptools package-data patterns are relative to the package directory
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"].get("playtest.games.vapoosh", [])
    for name in FRONT_END_FILES:
        assert (STATIC_DIR / name).is_file()
        rel = f"{STATIC_DIR.name}/{name}"
        assert any(fnmatch.fnmatch(rel, p) for p in patterns), (rel, patterns)


def test_rerun_message_carries_the_file_path_not_the_code() -> None:
    at = AppTest.from_file(HARNESS, default_timeout=30).run()
    assert not at.exception
    (board,) = at.get("bidi_component")
    proto = board.proto
    assert proto.component_name == COMPONENT_NAME
    assert proto.js_source_path == BOARD_JS_FILE
    assert (proto.js_content, proto.css_content, proto.html_content) == ("", "", "")
    assert proto.ByteSize() < 4000  # the view data only (it was ~20 KB with inline code)
