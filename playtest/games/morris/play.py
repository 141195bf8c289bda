"""Bricks & Walls in a study: the tester's play step (the page glue the registry's
``play_module`` names), on the game's own board component.

A game is stored as it is played: its record (``games`` row with ``game="morris"``,
one ``game_actions`` row per engine action, stored *before* the state changes), and the
telemetry of telemetry-format.md: ``game_start``, the engine's events of every action
(``place``, ``move``, ``wall``, ``remove``, ``win``… what analytics/games/morris reads),
one ``click`` per click or tap with the engine's refusal reason, ``ai_move`` for the computer's actions and ``game_end`` with the
whole record. A reload or a server restart replays the stored record.

Seats: ``"human"`` or ``"ai:<level>"`` (White first); the computer plays the greedy
heuristic of ``engine/morris/heuristics.py``, its random tie-breaks seeded by the game's
seed and the action number, so a replayed game is the same game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from engine.morris.heuristics import greedy_action
from engine.morris.state import MorrisState
from playtest import services
from playtest.games.morris.component import JudgedClick, render_board
from playtest.games.morris.plugin import PLUGIN
from playtest.games.morris.view import COMPUTER, HUMAN, Sides
from playtest.games.play_fragment import (
    note_shown,
    page_unless_shown,
    play_fragment,
    session_game,
    whole_page,
)
from playtest.games.play_step import (
    GamePlay,
    apply_stored,
    current_play,
    finish_if_over,
    game_sink,
    new_play,
    one_input,
    replayed_play,
    way_on,
)
from playtest.storage import repository as repo

SESSION_KEY = "morris_play"


@dataclass
class MorrisPlay(GamePlay):
    """One tester's game in progress (:class:`~playtest.games.play_step.GamePlay`) and the
    brick held selected."""

    state: MorrisState
    selection: tuple[str, ...] = ()

    @property
    def sides(self) -> Sides:
        kinds = tuple(HUMAN if s == "human" else COMPUTER for s in self.seats)
        return Sides((kinds[0], kinds[1]))


def _sink(tester: services.Tester, game_id: str) -> services.DbGameSink:
    return game_sink(tester, game_id)


def _replayed(record: repo.GameRecord) -> MorrisPlay:
    return replayed_play(record, PLUGIN, MorrisPlay)


def _new_game(tester: services.Tester) -> MorrisPlay:
    return new_play(tester, PLUGIN, MorrisPlay)


def _apply(tester: services.Tester, play: MorrisPlay, action: int) -> bool:
    """Store action number ``len(play.actions)`` first, then apply it (logging the
    engine's events); False when another tab stored a different action there."""
    return apply_stored(tester, play, action, session_key=SESSION_KEY) is not None


def _outcome(state: MorrisState) -> tuple[int | None, str]:
    returns = state.returns()
    winner = next((s + 1 for s, r in enumerate(returns) if r > 0), None)
    reason = next((e.data.get("reason", e.kind) for e in state.last_events
                   if e.kind in ("win", "draw")), "over")
    return winner, str(reason)


def _finish_if_over(tester: services.Tester, play: MorrisPlay) -> None:
    finish_if_over(tester, play, _outcome)


def _computer_moves(tester: services.Tester, play: MorrisPlay) -> None:
    while not play.state.is_terminal() and \
            play.seats[play.state.current_player()] != "human":
        rng = random.Random(f"{PLUGIN.seed_prefix}:{play.seed}:{len(play.actions)}")
        seat = play.state.current_player() + 1
        action = greedy_action(play.state, rng)
        as_json = play.game.action_to_json(action)
        if not _apply(tester, play, action):
            return
        _sink(tester, play.game_id).log("ai_move", {"seat": seat, "action": as_json})
    _finish_if_over(tester, play)


def _current(tester: services.Tester) -> MorrisPlay | None:
    return current_play(tester, session_key=SESSION_KEY, game=PLUGIN.name,
                        replayed=_replayed, new_game=_new_game)


@play_fragment
def play_page(tester: services.Tester, *, to_post_survey: Callable[[], None]) -> None:
    """Draw the play step: the board, then (after the study's games) the way on.

    It is a fragment (:mod:`playtest.games.play_fragment`): a click reruns it alone;
    the game's end, and a game that is not the one the page showed, rerun the app."""
    page_unless_shown(session_game(SESSION_KEY, tester.code))
    play = _current(tester)
    note_shown(None if play is None else play.game_id)
    if play is not None:
        with one_input(tester, play, session_key=SESSION_KEY):
            _computer_moves(tester, play)

        def on_click(judged: JudgedClick) -> None:
            assert play is not None
            click = judged.telemetry()
            with one_input(tester, play, session_key=SESSION_KEY, click=click):
                _sink(tester, play.game_id).log("click", click)
                if judged.result.action is not None and not _apply(tester, play,
                                                                   judged.result.action):
                    return
                play.selection = tuple(judged.result.selection)
                play.refusal = judged.refusal
                _computer_moves(tester, play)
                _finish_if_over(tester, play)
            if play.state.is_terminal():
                whole_page()  # the end and the way on: drawn by a full run

        render_board(play.state, key=f"morris-{play.game_id}", selection=play.selection,
                     sides=play.sides, on_click=on_click, refusal=play.refusal,
                     game_id=play.game_id, highlight=tester.effective.highlight_options)
        play.refusal = None  # a refusal is said once
        if not play.state.is_terminal():
            return
    way_on(tester, session_key=SESSION_KEY, key_prefix="morris",
           to_post_survey=to_post_survey)
