"""The board's front end ships as one generated file, served from the component's asset dir."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

from streamlit.testing.v1 import AppTest

from playtest.board import assets
from playtest.board.component import COMPONENT_NAME

ROOT = Path(__file__).resolve().parents[2]
HARNESS = str(ROOT / "benchmarks" / "board_harness_app.py")


def test_static_board_js_is_the_generated_module() -> None:
    assert assets.static_is_current(), (
        "playtest/board/static/board.js is stale: run `python -m playtest.board.assets`"
    )
    assert assets.main(["--check"]) == 0


def test_board_module_holds_markup_style_and_code() -> None:
    js = assets.BOARD_JS
    assert "export default function" in js
    assert 'data-testid=\\"vapoosh-board\\"' in js  # the markup, as a JS string
    assert ".tile.o1{color:#ffffff;}" in js  # the seat styles from SEAT_STYLES
    assert '"place":[[' in js  # the sound cues from sounds.cue_spec()


def test_write_static_writes_what_static_is_current_checks(tmp_path: Path) -> None:
    assert not assets.static_is_current(tmp_path)
    path = assets.write_static(tmp_path)
    assert path.name == assets.BOARD_JS_FILE
    assert assets.static_is_current(tmp_path)


def test_a_normal_install_ships_the_static_file() -> None:
    # setuptools package-data patterns are relative to the package directory
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"].get("playtest.board", [])
    rel = f"{assets.STATIC_DIR.name}/{assets.BOARD_JS_FILE}"
    assert any(fnmatch.fnmatch(rel, p) for p in patterns), patterns


def test_rerun_message_carries_the_file_path_not_the_code() -> None:
    at = AppTest.from_file(HARNESS, default_timeout=30).run()
    assert not at.exception
    (board,) = at.get("bidi_component")
    proto = board.proto
    assert proto.component_name == COMPONENT_NAME
    assert proto.js_source_path == assets.BOARD_JS_FILE
    assert (proto.js_content, proto.css_content, proto.html_content) == ("", "", "")
    assert proto.ByteSize() < 4000  # the view data only (it was ~20 KB with inline code)
