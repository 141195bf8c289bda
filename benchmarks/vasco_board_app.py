"""Vasco's board in a small Streamlit app: you (Red, O) against the greedy computer.

    streamlit run benchmarks/vasco_board_app.py
    # query parameters: ?pool=12 (a shorter game) &seed=3 (the computer's tie-breaks)

For looking at the board and for browser tests: every click goes through the engine's
``click`` (a refusal shows its sentence), the computer answers at once, and the text
container with key ``vasco_log`` lists what happened, one line per event.
"""

from __future__ import annotations

import streamlit as st

from engine.players import make_player
from engine.vasco import VascoGame
from playtest.games.vasco.board import ClickEvent, render_board
from playtest.games.vasco.view import board_view

st.set_page_config(page_title="Vasco board", layout="centered")
params = st.query_params
pool = int(params.get("pool", "54"))
seed = int(params.get("seed", "1"))

if "vasco_state" not in st.session_state:
    st.session_state.vasco_state = VascoGame({"pool": pool}).new_initial_state()
    st.session_state.vasco_selection = ()
    st.session_state.vasco_events = []
    st.session_state.vasco_message = "Tap a green cell, then choose its tile."
    st.session_state.vasco_log = []
    st.session_state.vasco_player = make_player("medium", seed, game="vasco")


def on_click(ev: ClickEvent) -> None:
    ss = st.session_state
    state = ss.vasco_state
    result = state.click(ev.target, ss.vasco_selection)
    ok = "ok" if result.ok else f"refused {result.refusal.reason}"
    ss.vasco_log.append(f"click {ev.target} {ok}")
    if result.refusal is not None:
        ss.vasco_message = result.refusal.message
        ss.vasco_selection = ()
        return
    if result.action is None:
        ss.vasco_selection = result.selection
        ss.vasco_message = "Now choose one of the tiles below."
        return
    events = state.apply_action(result.action)
    ss.vasco_selection = ()
    ss.vasco_log.extend(f"{e.kind} {e.tiles}" for e in events)
    ss.vasco_message = ""
    if not state.is_terminal():
        choice = ss.vasco_player.decide(state)
        reply = state.apply_action(choice.action)
        ss.vasco_log.extend(f"computer {e.kind} {e.tiles}" for e in reply)
        events = reply
    ss.vasco_events = events


state = st.session_state.vasco_state
view = board_view(
    state,
    seats=("human", "computer"),
    selection=st.session_state.vasco_selection,
    events=st.session_state.vasco_events,
    message=st.session_state.vasco_message,
)
render_board(view, key="vasco", on_click=on_click)
with st.container(key="vasco_log"):
    st.text("\n".join(st.session_state.vasco_log[-12:]) or "(no events yet)")
