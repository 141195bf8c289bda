"""A small Streamlit app that plays Dokusen on the real board component, for the browser
tests and for looking at the board by hand (not part of the product):

    streamlit run benchmarks/dokusen_board_app.py        # stage S1
    open http://localhost:8501/?stage=S7&speed=0          # another stage, no animation

The computer colours play at their stage's level and meteors are drawn with a seeded
generator (``DOKUSEN_SEED``, default 7). Every judged click's telemetry props are appended
as one JSON line to the file named by ``DOKUSEN_HARNESS_LOG`` (or ``?log=<name>`` in the
folder ``DOKUSEN_HARNESS_LOG_DIR``), and shown under
the board; Retry and Next start the same or the next stage.
"""

from __future__ import annotations

import json
import os
import random

import streamlit as st

from engine.dokusen import DokusenGame, builtin_stages
from engine.dokusen.ai import computer_action
from playtest.games.dokusen.component import JudgedClick, dropped_clicks, render_board

st.set_page_config(page_title="Dokusen board", layout="centered")

STAGES = [s.id for s in builtin_stages()]
ss = st.session_state
variant = st.query_params.get("variant", "default")
speed = int(st.query_params.get("speed", "220"))


def new_game(stage: str) -> None:
    ss.dk_stage = stage
    ss.dk_state = DokusenGame(stage).new_initial_state()
    ss.dk_events = []
    ss.dk_refusal = None
    ss.dk_game = ss.get("dk_game", 0) + 1
    ss.dk_rng = random.Random(int(os.environ.get("DOKUSEN_SEED", "7")) + ss.dk_game)


if "dk_state" not in ss:
    ss.dk_log = []
    new_game(st.query_params.get("stage", "S1"))


def _log_path() -> str | None:
    """Where clicks are logged: ``?log=<name>`` in the folder DOKUSEN_HARNESS_LOG_DIR
    (a test's own log on a server its module shares), else the file DOKUSEN_HARNESS_LOG."""
    name, folder = st.query_params.get("log"), os.environ.get("DOKUSEN_HARNESS_LOG_DIR")
    if name and folder and name.replace("-", "").isalnum():
        return os.path.join(folder, f"{name}.jsonl")
    return os.environ.get("DOKUSEN_HARNESS_LOG")


def on_click(judged: JudgedClick) -> None:
    props = judged.telemetry()
    ss.dk_log.append(props)
    path = _log_path()
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"type": "click", "game": ss.dk_game, "props": props}) + "\n")
    ss.dk_refusal = judged.refusal
    if judged.result.action is not None:
        ss.dk_events = list(ss.dk_state.apply_action(judged.result.action))


def on_action(name: str) -> None:
    here = STAGES.index(ss.dk_stage) if ss.dk_stage in STAGES else -1
    if name == "next" and 0 <= here < len(STAGES) - 1:
        new_game(STAGES[here + 1])
    else:
        new_game(ss.dk_stage)


state = ss.dk_state
# the computer colours and meteors act until the tester is due (or the stage ends)
while not state.is_terminal() and state.current_player() != 0:
    ss.dk_events += state.apply_action(computer_action(state, ss.dk_rng))

here = STAGES.index(ss.dk_stage) if ss.dk_stage in STAGES else -1
render_board(
    state,
    key="dokusen",
    events=ss.dk_events,
    on_click=on_click,
    on_action=on_action,
    refusal=ss.dk_refusal,
    variant=variant,
    game_id=str(ss.dk_game),
    has_next=0 <= here < len(STAGES) - 1,
    speed_ms=speed,
)
ss.dk_refusal = None  # a refusal is said once

with st.expander("Clicks sent to Python (telemetry)"):
    st.write(f"{len(ss.dk_log)} clicks; dropped: {dropped_clicks('dokusen')}")
    st.code("\n".join(json.dumps(p) for p in ss.dk_log[-8:]) or "none yet", language="json")
