"""The Replay page's step-through for a game whose folder draws a read-only board:
the slider over the game's steps, the board at the chosen step (a static SVG that the
game's ``replay.py`` builds from its own view data, shown by a one-line component:
``st.html`` sanitizes SVG away), the step's caption and timeline.

A game's ``replay_page(engine, game)`` (``GamePlugin.replay_module``) calls
:func:`board_replay_page` with its drawing function; nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st
from sqlalchemy.engine import Engine

from playtest.board.component import PROJECT_NAME
from playtest.people_tables import replay_log
from playtest.replay import ReplayPosition, replay_positions
from playtest.storage.repository import GameRecord

#: Puts the board's markup (built and escaped in Python) into the component's element.
_SHOW_JS = """export default function (component) {
  const { data, parentElement } = component;
  let root = parentElement.querySelector(".replay-root");
  if (!root) {
    root = document.createElement("div");
    root.className = "replay-root";
    parentElement.appendChild(root);
  }
  root.innerHTML = data && typeof data.html === "string" ? data.html : "";
}"""

_renderer: list[Any] = []


def _show(markup: str, key: str) -> None:
    """Mount ``markup`` (trusted: every text in it escaped by its builder) under ``key``."""
    if not _renderer:
        _renderer.append(st.components.v2.component(f"{PROJECT_NAME}.replay_board",
                                                    js=_SHOW_JS))
    _renderer[0](key=key, data={"html": markup})


def board_replay_page(engine: Engine, game: GameRecord,
                      draw: Callable[[Any, tuple[Any, ...]], str]) -> None:
    """Draw ``game`` step by step: ``draw(state, events)`` returns the board's HTML
    (one ``<svg>``, sized to the page's width) after an action with its engine events."""
    positions = replay_positions(engine, game)
    if not positions:
        st.info("This game has no moves yet.")
        return
    # Steps are numbered from 1 on the slider, as in the caption ("Step 3 of 40").
    number = st.slider("Step", 1, len(positions), len(positions),
                       key=f"replay_step-{game.game_id}") if len(positions) > 1 else 1
    position: ReplayPosition = positions[number - 1]
    _show(draw(position.state, position.events), key=f"replay_board-{game.game_id}")
    st.caption(position.caption)
    show_timeline(position.timeline)


def show_timeline(timeline: list[dict[str, Any]]) -> None:
    """The replay's log so far: the designer's local time, and what happened in words."""
    if not timeline:
        return
    try:
        zone = st.context.timezone  # the browser's (None in AppTest)
    except Exception:  # noqa: BLE001 - no browser context
        zone = None
    st.dataframe(replay_log(timeline, zone if isinstance(zone, str) else None),
                 hide_index=True, key="replay_log", column_config={
                     "What happened": st.column_config.TextColumn(width="large")})
