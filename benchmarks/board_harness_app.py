"""A small app that shows one game's board alone, for manual viewing, the board latency
benchmark and the board shell's browser tests.

    streamlit run benchmarks/board_harness_app.py
    # options as query parameters: ?game=vapoosh (any registered game) &seats=human,ai:easy
    #   &seed=7 &rules=standard (or a rules object: &rules={"base":"standard","pool":12})
    #   &highlight=1 &speed=2 (1 slow, 3 fast) &interactive=0 (a dialog's pause: no input
    #   taken) &muted=1 (start with sound off) &log=0 (no input log below the board)
    #   &log=<name> (also every stored click's props, one JSON line each, appended to
    #   <name>.jsonl in the folder BOARD_HARNESS_LOG_DIR: a test's own log on a server
    #   its module shares) &actions=[["place","a7"],...] (a later start: these actions,
    #   the game's JSON forms, already played, as a stored game is replayed; then the
    #   game goes on as a new one would, a computer to move moving at once)

It is the real board: the board shell with the game's renderer, its view and words, on
the one game session (the computer moving at once), whose records go to a recorder in
this browser session instead of a database (the demo's). Every input that reached the
page's callback, and what the gate dropped, is written in a text element (key
``harness_log``) so tests can see what reached Python.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import streamlit as st

from playtest.board.component import mount
from playtest.board.page import board_data
from playtest.board.protocol import BoardInput, EventGate, position_token
from playtest.demo import EventRecorder
from playtest.games.registry import game_plugin
from playtest.session import GameSession, Play

_T0 = time.perf_counter()
st.set_page_config(page_title="Board harness", layout="centered")

q = st.query_params
GAME = q.get("game", "vapoosh")
PLUGIN = game_plugin(GAME)
SEATS = tuple(q.get("seats", ",".join(PLUGIN.default_seats)).split(","))
SETTINGS = {"highlight_options": q.get("highlight") == "1", "show_computer_dice": True,
            "speed": int(q.get("speed", "2"))}
PAUSED = q.get("interactive", "1") == "0"

ss = st.session_state
if "h_play" not in ss:
    ss.h_records = []
    RULES = q.get("rules", PLUGIN.default_rules)  # a preset, or a rules object as JSON
    ss.h_play = Play.replayed(PLUGIN, game_id="harness", participant_id="harness",
                              seats=SEATS, seed=int(q.get("seed", "7")),
                              rules=json.loads(RULES) if RULES.startswith("{") else RULES,
                              actions=json.loads(q.get("actions", "[]")), finished=False)
    ss.h_log = []
    ss.h_muted = q.get("muted") == "1"
    ss.h_gate = EventGate()


def _session() -> GameSession:
    sink = EventRecorder(ss.h_records, "harness", "harness", [time.time() * 1000], [0],
                         "harness")
    return GameSession(PLUGIN, ss.h_play, sink, settings=SETTINGS)


if not ss.h_records:
    _session().start()


def on_input(item: BoardInput) -> None:
    ss.h_log.append(f"{item.kind} target={item.target} hold={item.hold or ''} "
                    f"via={item.via} value={item.value} nonce={item.nonce}")
    if item.kind == "mute":
        ss.h_muted = bool(item.value)
    elif item.kind == "draw":
        _session().draw(nonce=item.nonce)
    else:
        _session().click(item.target, ms=item.ms, via=item.via, nonce=item.nonce,
                         selection=item.hold)


def _click_log() -> Path | None:
    """Where stored clicks are logged: ``?log=<name>`` in BOARD_HARNESS_LOG_DIR."""
    name, folder = q.get("log"), os.environ.get("BOARD_HARNESS_LOG_DIR")
    if name and name != "0" and folder and name.replace("-", "").isalnum():
        return Path(folder) / f"{name}.jsonl"
    return None


def _write_clicks() -> None:
    """Append the clicks stored since the last run to the test's log file."""
    path = _click_log()
    if path is None:
        return
    written = ss.get("h_written", 0)
    with path.open("a", encoding="utf-8") as fh:
        for record in ss.h_records[written:]:
            if record.get("type") == "click":
                fh.write(json.dumps({"type": "click", "props": record["props"]}) + "\n")
    ss.h_written = len(ss.h_records)


_write_clicks()
session = _session()
play = session.play
interactive = session.tester_to_act and not PAUSED
token = position_token(play.game_id, len(play.actions))
ss.h_gate.shown(token, interactive=interactive)
data = board_data(session, session.moment(interactive=interactive, extra={"zoom": True}),
                  token=token, muted=ss.h_muted)
mount(PLUGIN, data, key="board", gate=ss.h_gate, on_input=on_input,
      token_now=lambda: position_token(ss.h_play.game_id, len(ss.h_play.actions)))
if q.get("log", "1") != "0":  # the benchmark turns the log off: it times the board alone
    with st.container(key="harness_log"):
        shown = play.shown[0].text if play.shown else ""
        last = ss.h_log[-1] if ss.h_log else "none"
        st.text(f"inputs={len(ss.h_log)} actions={len(play.actions)} last={last}")
        st.text(f"dropped={ss.h_gate.dropped}")
        st.text(f"message={shown}")
        # the script body's own time (callbacks included: they run inside the same run)
        st.text(f"script_ms={(time.perf_counter() - _T0) * 1000:.2f}")
