"""The floor of a play-screen rerun: a Streamlit app that draws (almost) nothing but the
board, for :mod:`benchmarks.rerun_floor`.

    RERUN_FLOOR_MODE=component streamlit run benchmarks/rerun_floor_app.py

``RERUN_FLOOR_MODE`` picks what a rerun draws:

- ``bare``: one line of text (what any Streamlit rerun costs);
- ``component``: Vapoosh!'s board component (the same component, the same
  ``{"view": ...}`` payload as the play screen sends: a mid-game board with dice,
  highlighted options, glows, a message and a sound cue's notes), its three trigger
  callbacks parsing the event and doing nothing else;
- ``page``: the component in the play screen's two columns, with the play screen's
  Streamlit widgets beside it (a caption, three buttons and the speed control), still
  without any game, database or telemetry;
- ``fragment``: ``page`` inside an ``st.fragment``, as the play screen draws it
  (:mod:`playtest.games.play_fragment`): a board click reruns the fragment alone;
- ``board-fragment``: ``page`` with only the board in a fragment (the columns and the
  widgets beside the board drawn by full runs only): what a click would cost if the
  controls beside the board were not drawn again.

The payload changes on every rerun (its token and message nonce), as the real board's
does. Nothing is stored anywhere.
"""

from __future__ import annotations

import contextlib
import os
import random
from typing import Any

import streamlit as st

from playtest.games.vapoosh.component import board_data, parse_click, parse_roll
from playtest.games.vapoosh.view import board_view

MODE_ENV = "RERUN_FLOOR_MODE"
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
    """A board as the play screen sends it (``{"view": board data}``), of the size the load
    test's boards have (median about 1.55 KB of JSON over its reruns): nine counters of two
    players, the last roll's dice and its two highlighted tiles,
    the last placement glowing, a message and the "place" cue's notes; ``rerun`` makes
    the token and nonce new, as every real rerun's are."""
    rng = random.Random(20261124)
    cells = ["."] * 144
    for index in rng.sample(range(144), COUNTERS):
        cells[index] = rng.choice("12")
    rows = ["".join(cells[r * 12:(r + 1) * 12]) for r in range(12)]
    view = board_view(
        rows, dice=(3, 4, 2, 6), dice_seat=1, options=((7, 8), (8, 7)), highlight=True,
        glow={(5, 5): "placed", (6, 6): "computer"}, seats=("human", "computer"),
        to_move=1, phase="place", turn=14,
        message="You rolled pink 7 and green 8: find 56 on the board.", tone="info",
        message_ms=4000, sound="place", nonce=str(rerun), names=("you", "the computer"),
        zoom=True,
    )
    data = board_data(view, mute_control=True)
    data["token"] = f"t{rerun}"
    return {"view": data}


def _ignore(name: str, key: str) -> None:
    """A trigger's callback: the event parsed as the play screen parses it, nothing done."""
    value = st.session_state.get(key)
    payload = getattr(value, name, None) if value is not None else None
    if payload is None:
        return
    with contextlib.suppress(ValueError):
        (parse_click if name == "click" else parse_roll)(payload)


def _mount() -> None:
    from playtest.games.vapoosh.component import _board

    count = st.session_state["reruns"] = st.session_state.get("reruns", 0) + 1
    _board()(key="board", data=sample_payload(count),
             on_click_change=lambda: _ignore("click", "board"),
             on_roll_change=lambda: _ignore("roll", "board"),
             on_mute_change=lambda: None)


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
    mode = os.environ.get(MODE_ENV, "component")
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
