"""The Replay page: one tester's game, step by step, on the game's own board (or the
engine's text view), with its log in words and local times."""

from __future__ import annotations

import streamlit as st

from playtest import runtime
from playtest.app_pages.designer.opening import open_page
from playtest.app_pages.empty import no_testers_yet
from playtest.games.registry import game_plugin
from playtest.replay import game_label, game_outcome, games_of, text_steps
from playtest.storage import repository as repo


def replay_page() -> None:
    study = open_page("Replay")
    if study is None:
        return
    engine = runtime.database()
    people = repo.list_participant_ids(engine, study.study_id)
    if no_testers_yet(len(people), "Replay"):
        return
    code = st.selectbox("Tester", people, key="replay_tester")
    games = games_of(engine, code)
    if not games:
        st.info("This tester has not started a game.")
        return
    game = st.selectbox("Game", games, key="replay_game", format_func=game_label)
    st.caption(f"This game: {game_outcome(game)}.")
    plugin = game_plugin(game.game)
    if plugin.replay is not None:  # the game's own board, step by step
        plugin.replay(engine, game)
        return
    texts = text_steps(game)  # a game without one: the engine's text view
    if not texts:
        st.info("This game has no moves yet.")
        return
    number = st.slider("Step", 1, len(texts), len(texts),
                       key=f"replay_step-{game.game_id}") if len(texts) > 1 else 1
    st.code(texts[number - 1], language=None)
