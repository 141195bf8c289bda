"""A small Streamlit app that plays Bricks & Walls on the real board component, for the
browser tests and for looking at the board by hand (not part of the product):

    streamlit run benchmarks/morris_board_app.py            # pass-and-play
    open http://localhost:8501/?mode=computer               # you (White) against the computer

Every judged click's telemetry props are appended as one JSON line to the file named by
``MORRIS_HARNESS_LOG`` (or ``?log=<name>`` in the folder ``MORRIS_HARNESS_LOG_DIR``), and
shown under the board; ``?seed=N`` (or ``MORRIS_SEED``) seeds the computer.
"""

from __future__ import annotations

import json
import os
import random

import streamlit as st

from engine.morris import MorrisGame
from engine.morris.heuristics import greedy_action
from playtest.games.morris.component import JudgedClick, dropped_clicks, render_board
from playtest.games.morris.view import COMPUTER, HUMAN, Sides

st.set_page_config(page_title="Bricks & Walls board", layout="centered")

mode = st.query_params.get("mode", "pass")
sides = Sides((HUMAN, COMPUTER)) if mode == "computer" else Sides((HUMAN, HUMAN))
variant = st.query_params.get("variant", "default")
highlight = st.query_params.get("highlight", "1") != "0"
ss = st.session_state
if "morris_state" not in ss:
    ss.morris_state = MorrisGame().new_initial_state()
    ss.morris_selection = ()
    ss.morris_refusal = None
    ss.morris_log = []
    ss.morris_game = 1
    ss.morris_rng = random.Random(int(st.query_params.get("seed")
                                      or os.environ.get("MORRIS_SEED", "7")))


def _log_path() -> str | None:
    """Where clicks are logged: ``?log=<name>`` in the folder MORRIS_HARNESS_LOG_DIR
    (a test's own log on a server its module shares), else the file MORRIS_HARNESS_LOG."""
    name, folder = st.query_params.get("log"), os.environ.get("MORRIS_HARNESS_LOG_DIR")
    if name and folder and name.replace("-", "").isalnum():
        return os.path.join(folder, f"{name}.jsonl")
    return os.environ.get("MORRIS_HARNESS_LOG")


def on_click(judged: JudgedClick) -> None:
    props = judged.telemetry()
    ss.morris_log.append(props)
    path = _log_path()
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"type": "click", "game": ss.morris_game, "props": props}) + "\n")
    if judged.result.action is not None:
        ss.morris_state.apply_action(judged.result.action)
    ss.morris_selection = judged.result.selection
    ss.morris_refusal = judged.refusal


state = ss.morris_state
while not state.is_terminal() and sides.kinds[state.current_player()] == COMPUTER:
    state.apply_action(greedy_action(state, ss.morris_rng))

render_board(
    state,
    key="morris",
    selection=ss.morris_selection,
    sides=sides,
    on_click=on_click,
    refusal=ss.morris_refusal,
    variant=variant,
    game_id=str(ss.morris_game),
    highlight=highlight,
)
ss.morris_refusal = None  # a refusal is said once

if st.button("New game", key="morris-new"):
    ss.morris_state = MorrisGame().new_initial_state()
    ss.morris_selection = ()
    ss.morris_game += 1
    st.rerun()
with st.expander("Clicks sent to Python (telemetry)"):
    st.write(f"{len(ss.morris_log)} clicks; dropped: {dropped_clicks('morris')}")
    st.code("\n".join(json.dumps(p) for p in ss.morris_log[-8:]) or "none yet", language="json")
