"""Dokusen in a study: the tester's play step (the page glue the registry's
``play_module`` names), on the game's own board component.

One game is one stage (the study's rules: a stage id or stage object). It is stored as
it is played: its record (``games`` row with ``game="dokusen"``, one ``game_actions``
row per engine action, stored *before* the state changes), and the telemetry of
telemetry-format.md: ``game_start``, the engine's events of every action (``place``,
``grow`` with ``before``/``after``, ``meteor``, ``win``/``loss``: what
analytics/games/dokusen reads), one ``click`` per click or tap with ``at`` and the
engine's refusal reason, ``ai_move`` for the computer colours' placements and
``game_end`` with the whole record. A reload or a server restart replays the record.

Seats: one ``"human"`` seat; the computer colours and their levels come from the stage
(:func:`engine.dokusen.ai.computer_action`), meteors are chance actions drawn from
the game's seed and the action number, so a replayed game is the same game.

>>> import random
>>> chance_rng(7, 3).random() == random.Random("dokusen:7:3").random()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

import streamlit as st

from engine.core import CHANCE, Event
from engine.dokusen.ai import computer_action
from engine.dokusen.state import DokusenState
from playtest import services
from playtest.games.dokusen.component import JudgedClick, render_board
from playtest.games.dokusen.plugin import PLUGIN
from playtest.games.play_step import (
    GamePlay,
    apply_stored,
    current_play,
    finish_if_over,
    game_sink,
    new_play,
    replayed_play,
    way_on,
)
from playtest.storage import repository as repo

SESSION_KEY = "dokusen_play"


def chance_rng(seed: int, action_number: int) -> random.Random:
    """The generator of action ``action_number`` of a game (a meteor's impact, a random
    computer colour's square): ``"<game>:<seed>:<draw>"`` as every game's seeds."""
    return random.Random(f"{PLUGIN.seed_prefix}:{seed}:{action_number}")


@dataclass
class DokusenPlay(GamePlay):
    """One tester's game in progress (:class:`~playtest.games.play_step.GamePlay`) and the
    events not yet shown (the board animates them square by square)."""

    state: DokusenState
    unseen: list[Event] = field(default_factory=list)


def _sink(tester: services.Tester, game_id: str) -> services.DbGameSink:
    return game_sink(tester, game_id)


def _replayed(record: repo.GameRecord) -> DokusenPlay:
    return replayed_play(record, PLUGIN, DokusenPlay)


def _new_game(tester: services.Tester) -> DokusenPlay:
    return new_play(tester, PLUGIN, DokusenPlay)


def _apply(tester: services.Tester, play: DokusenPlay, action: int) -> bool:
    """Store action number ``len(play.actions)`` first, then apply it (logging the
    engine's events); False when another tab stored a different action there (the page
    reloads the record)."""
    events = apply_stored(tester, play, action, session_key=SESSION_KEY)
    if events is None:
        return False
    play.unseen.extend(events)
    return True


def _outcome(state: DokusenState) -> tuple[int | None, str]:
    outcome = state.outcome
    winner = 1 if outcome is not None and outcome.won else None
    return winner, f"{outcome.result}:{outcome.reason}" if outcome is not None else "over"


def _finish_if_over(tester: services.Tester, play: DokusenPlay) -> None:
    finish_if_over(tester, play, _outcome)


def _computer_moves(tester: services.Tester, play: DokusenPlay) -> None:
    """The computer colours' placements and the meteors, until the tester is to move."""
    while not play.state.is_terminal() and play.state.current_player() != 0:
        mover = play.state.current_player()
        action = computer_action(play.state, chance_rng(play.seed, len(play.actions)))
        as_json = play.game.action_to_json(action)
        if not _apply(tester, play, action):
            return
        if mover != CHANCE:
            _sink(tester, play.game_id).log("ai_move", {"seat": mover + 1, "action": as_json})
    _finish_if_over(tester, play)


def _current(tester: services.Tester) -> DokusenPlay | None:
    return current_play(tester, session_key=SESSION_KEY, game=PLUGIN.name,
                        replayed=_replayed, new_game=_new_game)


def play_page(tester: services.Tester, *, to_post_survey: Callable[[], None]) -> None:
    """Draw the play step: the board, then (after the study's games) the way on."""
    play = _current(tester)
    if play is not None:
        _computer_moves(tester, play)

        def on_click(judged: JudgedClick) -> None:
            assert play is not None
            _sink(tester, play.game_id).log("click", judged.telemetry())
            if judged.result.action is not None and not _apply(tester, play,
                                                               judged.result.action):
                return
            play.refusal = judged.refusal
            _computer_moves(tester, play)
            _finish_if_over(tester, play)

        def on_action(name: str) -> None:
            # "retry" (and "next", not offered: the stage order is the study's) starts
            # the study's next game while games remain; the button below says so too.
            del name
            st.session_state.pop(SESSION_KEY, None)

        render_board(play.state, key=f"dokusen-{play.game_id}", events=play.unseen,
                     on_click=on_click, on_action=on_action, refusal=play.refusal,
                     game_id=play.game_id, has_next=False)
        play.unseen = []  # animated once
        play.refusal = None  # a refusal is said once
        if not play.state.is_terminal():
            return
    way_on(tester, session_key=SESSION_KEY, key_prefix="dokusen",
           to_post_survey=to_post_survey)
