"""Vapoosh!'s board on the designer's Replay page (``PLUGIN.replay_module``): a stored game
step by step, each position drawn on the game's own board with the telemetry up to it
(:func:`playtest.replay.replay_steps`)."""

from __future__ import annotations

import streamlit as st
from sqlalchemy.engine import Engine

from playtest.games.vapoosh.component import render_board
from playtest.games.vapoosh.view import board_view
from playtest.replay import ReplayStep, replay_steps
from playtest.replay_board import show_timeline
from playtest.storage.repository import GameRecord


def replay_page(engine: Engine, game: GameRecord) -> None:
    """The slider over ``game``'s steps, the board at the chosen one, its caption and
    timeline."""
    steps = replay_steps(engine, game)
    if not steps:
        st.info("This game has no moves yet.")
        return
    # Steps are numbered from 1 on the slider, as in the caption ("Step 3 of 40").
    number = st.slider("Step", 1, len(steps), len(steps), key=f"replay_step-{game.game_id}") \
        if len(steps) > 1 else 1
    step: ReplayStep = steps[number - 1]
    view = board_view(step.rows, dice=step.dice, options=step.options, highlight=True,
                      glow=step.glow, seats=step.seat_kinds, to_move=step.to_move,
                      phase=step.phase, turn=step.turn, message=step.caption, interactive=False)
    render_board(view, key="replay_board")
    st.caption(step.caption)
    show_timeline(step.timeline)
