"""The floor of a play-screen rerun: a Streamlit app that draws (almost) nothing but the
board, for :mod:`benchmarks.rerun_floor`.

    RERUN_FLOOR_MODE=component streamlit run benchmarks/rerun_floor_app.py

The page's ``?mode=`` (else ``RERUN_FLOOR_MODE``, else ``component``) picks what a rerun
draws, so one server serves every mode:

- ``bare``: one line of text (what any Streamlit rerun costs);
- ``component``: the board shell with Vapoosh!'s renderer (the same component, the same
  ``{"board": ...}`` payload as the play screen sends: a mid-game board with dice,
  highlighted options, glows, a message and a sound cue's notes), its input trigger
  parsed and gated and nothing else done;
- ``page``: the component in the play screen's two columns, with the play screen's
  Streamlit widgets beside it (a caption, three buttons and the speed control), still
  without any game, database or telemetry;
- ``fragment``: ``page`` inside an ``st.fragment``, as the play screen draws it
  (:mod:`playtest.board.fragment`): a board click reruns the fragment alone;
- ``board-fragment``: ``page`` with only the board in a fragment (the columns and the
  widgets beside the board drawn by full runs only): what a click would cost if the
  controls beside the board were not drawn again.

The payload changes on every rerun (its token and message nonce), as the real board's
does. Nothing is stored anywhere.
"""

from __future__ import annotations

import os
import random
from typing import Any

import streamlit as st

from playtest.board.component import mount
from playtest.board.protocol import EventGate
from playtest.board.sounds import cue_notes
from playtest.games.registry import game_plugin
from playtest.games.vapoosh.session import WORDS
from playtest.games.vapoosh.view import board_view

MODE_ENV = "RERUN_FLOOR_MODE"
MODE_PARAM = "mode"
MODES = ("bare", "component", "page", "fragment", "board-fragment")
# Counters on the sample board: its JSON then has the median size of the board data the
# load test's reruns carry (``python -m benchmarks.loadtest``, 10 turns: 1.0-2.0 KB, median
# 1.55 KB; each counter adds its tile's accessible name).
COUNTERS = 9
# The play screen's own style block (it draws one on every rerun too).
PAGE_CSS = """<style>
.stMainBlockContainer { padding-top: 2.5rem; padding-bottom: 1rem; }
</style>"""


def sample_payload(rerun: int) -> dict[str, Any]:
    """A board as the play screen sends it (the shell's data with the game's view), of
    the size the load test's boards have: nine counters of two players, the last roll's
    dice and its two highlighted tiles, the last placement glowing, a message and the
    "place" cue's notes; ``rerun`` makes the token and message number new, as every real
    rerun's are."""
    rng = random.Random(20261124)
    cells = ["."] * 144
    for index in rng.sample(range(144), COUNTERS):
        cells[index] = rng.choice("12")
    rows = ["".join(cells[r * 12:(r + 1) * 12]) for r in range(12)]
    view = board_view(
        rows, dice=(3, 4, 2, 6), dice_seat=1, options=((7, 8), (8, 7)), highlight=True,
        glow={(5, 5): "placed", (6, 6): "computer"}, seats=("human", "computer"),
        to_move=1, phase="place", turn=14, names=("you", "the computer"), zoom=True,
    ).to_data()
    view["note"] = ""
    view["words"] = WORDS  # the renderer's own words, as the play screen sends them
    for shell_owned in ("message", "tone", "message_ms", "sound", "nonce", "muted"):
        del view[shell_owned]
    return {"token": f"t{rerun}", "interactive": True, "picture": False,
            "turn": view["turn_text"],
            "message": {"text": "You rolled pink 7 and green 8: find 56 on the board.",
                        "tone": "info", "key": "place_prompt", "ms": 4000,
                        "nonce": str(rerun), "sound": "place", "notes": cue_notes("place")},
            "end": None, "muted": False, "mute_control": True,
            "labels": {"sound_on": "Sound on", "sound_off": "Sound off"}, "view": view}


def _mount() -> None:
    count = st.session_state["reruns"] = st.session_state.get("reruns", 0) + 1
    gate: EventGate = st.session_state.setdefault("gate", EventGate())
    data = sample_payload(count)
    gate.shown(data["token"], interactive=True)
    mount(game_plugin("vapoosh"), data, key="board", gate=gate, on_input=lambda item: None)


def _controls() -> None:
    st.caption("Game 1 · Load study")
    st.button("Rules", key="rules_button", width="stretch", wrap=True,
              icon=":material/menu_book:")
    st.segmented_control("Speed", [1, 2, 3], key="speed", wrap=True, width="stretch",
                         format_func=lambda s: ("slow", "normal", "fast")[s - 1])
    st.button("Restart game", key="restart", width="stretch", wrap=True,
              icon=":material/restart_alt:")
    st.button("Back to menu", key="menu_button", width="stretch", wrap=True,
              icon=":material/menu:")


def _page() -> None:
    board_col, side_col = st.columns([3, 1], gap="medium")
    with board_col:
        _mount()
    with side_col:
        _controls()


def main() -> None:
    mode = st.query_params.get(MODE_PARAM) or os.environ.get(MODE_ENV, "component")
    if mode == "bare":
        st.text(f"rerun {st.session_state.setdefault('reruns', 0)}")
        st.session_state["reruns"] += 1
    elif mode == "component":
        _mount()
    elif mode == "page":
        st.html(PAGE_CSS)
        _page()
    elif mode == "fragment":
        st.html(PAGE_CSS)
        st.fragment(_page)()
    elif mode == "board-fragment":
        st.html(PAGE_CSS)
        board_col, side_col = st.columns([3, 1], gap="medium")
        with board_col:
            st.fragment(_mount)()
        with side_col:
            _controls()
    else:
        st.error(f"{MODE_ENV} must be one of {', '.join(MODES)}, not {mode!r}")


if __name__ == "__main__":
    main()
