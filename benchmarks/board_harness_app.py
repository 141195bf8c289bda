"""A small app that shows the board for manual viewing and browser tests.

    streamlit run benchmarks/board_harness_app.py
    # options as query parameters: ?highlight=1 &interactive=0 &seats=human,computer
    #   &sums=1 &free=1 (every click on an empty tile places; for the latency benchmark)
    #   &seed=7 (dice) &muted=1 (start with sound off) &log=0 (no event log below the board)

It is not the game (no rules engine): a click on an empty tile during the "place" phase
puts the current seat's counter there, any other click is answered as a wrong tile. It
records every event it receives in a text element (key "harness_log") so tests can see
what reached Python.
"""

from __future__ import annotations

import random
import time
import uuid
from typing import Any

import streamlit as st

from playtest.board.component import MuteEvent
from playtest.games.vapoosh.catalog import load_catalog
from playtest.games.vapoosh.component import (
    ClickEvent,
    RollEvent,
    dropped_events,
    render_board,
)
from playtest.games.vapoosh.view import board_view, tile_index
from playtest.messages import SPEEDS

_T0 = time.perf_counter()
st.set_page_config(page_title="Board harness", layout="centered")

q = st.query_params
HIGHLIGHT = q.get("highlight") == "1"
INTERACTIVE = q.get("interactive", "1") != "0"
FREE = q.get("free") == "1"
SHOW_SUMS = q.get("sums") == "1"
SEATS = tuple(q.get("seats", "human,human").split(","))

ss = st.session_state
if "h_rows" not in ss:
    # a few counters so shapes, brown and glows are visible from the start
    rows = [list("." * 12) for _ in range(12)]
    for seat, (c, r) in [(1, (2, 3)), (2, (3, 3)), (1, (10, 10)), (2, (11, 4)), (1, (4, 4))]:
        rows[r - 1][c - 1] = str(seat)
    rows[7][8] = "B"
    ss.h_rows = rows
    ss.h_rng = random.Random(int(q.get("seed", "7")))
    ss.h_to_move = 1
    ss.h_phase = "place" if FREE else "roll"
    ss.h_dice = None
    ss.h_options = ()
    ss.h_glow = {(4, 4): "placed", (11, 4): "captured", (10, 10): "computer"}
    ss.h_msg = None
    ss.h_nonce = ""
    ss.h_log = []
    ss.h_turn = 0
    ss.h_muted = q.get("muted") == "1"

CATALOG = load_catalog()


def _announce(key: str, **values: Any) -> None:
    ss.h_msg = CATALOG.render(key, **values)
    ss.h_nonce = uuid.uuid4().hex


def on_roll(ev: RollEvent) -> None:
    ss.h_log.append(f"roll nonce={ev.nonce} via={ev.via}")
    dice = tuple(ss.h_rng.randint(1, 6) for _ in range(4))
    p, g = dice[0] + dice[1], dice[2] + dice[3]
    ss.h_dice = dice
    ss.h_options = ((p, g),) if p == g else ((p, g), (g, p))
    ss.h_phase = "place"
    ss.h_turn += 1
    _announce("place_prompt", seat=ss.h_to_move)


def on_click(ev: ClickEvent) -> None:
    ss.h_log.append(f"click index={ev.index} c={ev.c} r={ev.r} nonce={ev.nonce} via={ev.via}")
    row = ss.h_rows[ev.r - 1]
    if ss.h_phase == "place" and row[ev.c - 1] == ".":
        row[ev.c - 1] = str(ss.h_to_move)
        ss.h_glow = {(ev.c, ev.r): "placed"}
        _announce("placed", seat=ss.h_to_move, number=ev.c * ev.r)
        ss.h_to_move = ss.h_to_move % len(SEATS) + 1
        ss.h_turn += 1
        if not FREE:
            ss.h_phase = "roll"
            ss.h_dice, ss.h_options = None, ()
    else:
        _announce("wrong_arithmetic", clicked=ev.c * ev.r, expected=0)


def on_mute(ev: MuteEvent) -> None:
    ss.h_log.append(f"mute muted={ev.muted}")
    ss.h_muted = ev.muted


msg = ss.h_msg
view = board_view(
    ["".join(r) for r in ss.h_rows],
    dice=ss.h_dice,
    dice_seat=ss.h_to_move if ss.h_dice else None,
    options=ss.h_options,
    highlight=HIGHLIGHT,
    glow=ss.h_glow,
    seats=SEATS,
    to_move=ss.h_to_move,
    phase=ss.h_phase,
    turn=ss.h_turn,
    message=msg.text if msg else "",
    tone=msg.tone if msg else "info",
    message_ms=SPEEDS[2].message_ms,
    sound=msg.sound if msg else None,
    nonce=ss.h_nonce,
    muted=ss.h_muted,
    interactive=INTERACTIVE,
    show_sums=SHOW_SUMS,
)
render_board(view, key="board", on_click=on_click, on_roll=on_roll, on_mute=on_mute)

if q.get("log") != "0":  # the benchmark turns the log off: it times the board alone
    with st.container(key="harness_log"):
        last = ss.h_log[-1] if ss.h_log else "none"
        st.text(f"events={len(ss.h_log)} last={last}")
        st.text(f"dropped={dropped_events('board')}")
        st.text(f"options={[tile_index(c, r) for c, r in ss.h_options]}")
        # the script body's own time (callbacks included: they run inside the same run)
        st.text(f"script_ms={(time.perf_counter() - _T0) * 1000:.2f}")
