"""The Replay page's step-through, for every game: the slider over a stored game's
steps, the game's own board at the chosen step (drawn by its renderer in the board shell,
read-only, from the same view data as the play screen), the step's caption and timeline.

A game's plug-in names :func:`board_replay_page` as its ``replay``; nothing here names a
game.
"""

from __future__ import annotations

from typing import Any

import streamlit as st
from sqlalchemy.engine import Engine

from playtest.board.component import mount
from playtest.board.protocol import EventGate
from playtest.games.registry import game_plugin
from playtest.people_tables import replay_log
from playtest.replay import ReplayPosition, replay_positions
from playtest.session.play import Play
from playtest.session.view import Moment
from playtest.storage.repository import GameRecord


def position_play(game: GameRecord, index: int) -> Play:
    """The stored game at step ``index`` (its first ``index + 1`` actions played)."""
    return Play.replayed(game_plugin(game.game), game_id=game.game_id,
                         participant_id=game.participant_id, seats=game.seats,
                         seed=int(game.seed or 0), rules=game.rules,
                         actions=game.actions[:index + 1], finished=False)


def position_view(game: GameRecord, index: int) -> dict[str, Any]:
    """What the Replay board draws at step ``index`` of ``game``: its plug-in's view of
    that position, options highlighted (as the page passes it to the board shell).

    >>> from datetime import datetime, timezone
    >>> from playtest.games.registry import games
    >>> for plugin in games():
    ...     state = plugin.make_game(plugin.default_rules, 2).new_initial_state()
    ...     first = state.game.action_to_json(state.legal_actions()[0])
    ...     record = GameRecord("g", "p", None, plugin.default_rules, ["human", "human"],
    ...                         1, (first,), datetime.now(timezone.utc), False,
    ...                         game=plugin.name)
    ...     assert isinstance(position_view(record, 0), dict), plugin.name
    """
    plugin = game_plugin(game.game)
    assert plugin.view is not None, f"{plugin.name} has no board view"
    play = position_play(game, index)
    return plugin.view(Moment(play, tuple(play.steps[-1:]), {"highlight_options": True}))


def board_replay_page(engine: Engine, game: GameRecord) -> None:
    """Draw ``game`` step by step on its own board."""
    plugin = game_plugin(game.game)
    positions = replay_positions(engine, game)
    if not positions:
        st.info("This game has no moves yet.")
        return
    # Steps are numbered from 1 on the slider, as in the caption ("Step 3 of 40").
    number = st.slider("Step", 1, len(positions), len(positions),
                       key=f"replay_step-{game.game_id}") if len(positions) > 1 else 1
    position: ReplayPosition = positions[number - 1]
    view = position_view(game, position.index)
    data = {"token": "replay", "interactive": False, "picture": True, "turn": None,
            "message": None, "end": None, "muted": True, "mute_control": False,
            "labels": {}, "view": view}
    mount(plugin, data, key=f"replay_board-{game.game_id}", gate=EventGate())
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
