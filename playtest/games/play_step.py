"""What every game's own play step shares (``playtest/games/<game>/play.py``): the sink
that logs and stores a game's records, finding the tester's game (this tab's, the stored
unfinished one, or a new one), and the way on once the study's games are played.

Each game keeps its own state object in ``st.session_state[session_key]`` and says how to
replay a stored record and how to start a new game; nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import streamlit as st

from playtest import runtime, services
from playtest.app_pages.common import tester_session
from playtest.storage import repository as repo


class _Play(Protocol):
    participant_id: str


PlayT = TypeVar("PlayT", bound=_Play)


def game_sink(tester: services.Tester, game_id: str) -> services.DbGameSink:
    """Where the tester's game ``game_id`` logs its events and stores its actions."""
    return services.DbGameSink(runtime.database(), runtime.event_logger(),
                               participant_id=tester.code, session_id=tester_session(tester),
                               game_id=game_id)


def current_play(tester: services.Tester, *, session_key: str, game: str,
                 replayed: Callable[[repo.GameRecord], PlayT],
                 new_game: Callable[[services.Tester], PlayT]) -> PlayT | None:
    """The tester's game in progress (this tab's, or replayed from the store), a new one
    while games remain to play, or None when the study's games are played."""
    play: Any = st.session_state.get(session_key)
    if play is not None and play.participant_id == tester.code:
        return play
    engine = runtime.database()
    record = repo.latest_unfinished_game(engine, tester.code)
    if record is not None and record.game == game:
        play = replayed(record)
    elif services.games_finished(engine, tester) < tester.config.games_per_tester:
        play = new_game(tester)
    else:
        return None
    st.session_state[session_key] = play
    return play


def way_on(tester: services.Tester, *, session_key: str, key_prefix: str,
           to_post_survey: Callable[[], None]) -> None:
    """Under a finished game: the next game while the study has more, else the way to the
    last questions."""
    finished = services.games_finished(runtime.database(), tester)
    needed = tester.config.games_per_tester
    if finished < needed:
        if st.button(f"Next game ({finished + 1} of {needed})", type="primary",
                     key=f"{key_prefix}_next_game"):
            st.session_state.pop(session_key, None)
            st.rerun()
        return
    st.markdown(f"**You have played {finished} game{'s' if finished != 1 else ''}. Thank you!**")
    if st.button("Continue to the last questions", type="primary", key="to_post"):
        st.session_state.pop(session_key, None)
        to_post_survey()
