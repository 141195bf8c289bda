"""What one rerun of the Vapoosh! board sends: the view under one top-level key (so
Streamlit tests one value for a dataframe, not ~25), and the sound cue's notes from a
table built once per process, handed out as copies."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from playtest.board import sounds
from playtest.games.vapoosh.component import board_data
from playtest.games.vapoosh.view import board_view

ROOT = Path(__file__).resolve().parents[2]
HARNESS = str(ROOT / "benchmarks" / "board_harness_app.py")


def test_the_component_gets_the_view_under_one_key() -> None:
    at = AppTest.from_file(HARNESS, default_timeout=30).run()
    assert not at.exception
    (board,) = at.get("bidi_component")
    data = json.loads(board.proto.json)
    assert list(data) == ["view"]
    view = data["view"]
    assert len(view["owners"]) == 144 and view["token"]
    assert {"sound_notes", "mute_control", "interactive", "phase"} <= set(view)


def test_board_js_reads_the_view_from_that_key() -> None:
    js = (ROOT / "playtest" / "games" / "vapoosh" / "static" / "board.js").read_text()
    assert "update(st, data.view)" in js


def test_a_cues_notes_are_a_fresh_copy_on_every_rerun() -> None:
    view = board_view(["." * 12] * 12, seats=("human",), sound="place", nonce="1")
    first = board_data(view, mute_control=False)["sound_notes"]
    assert first == sounds.cue_spec()["place"]
    first[0]["gain"] = 99.0  # a caller changing what it was given ...
    first.append({"at": 0.0})
    again = board_data(view, mute_control=False)["sound_notes"]
    assert again == sounds.cue_spec()["place"]  # ... changes nothing for the next rerun
