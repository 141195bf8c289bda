"""Dokusen in a study: the tester's play step (the page glue the registry's
``play_module`` names), on the game's own board component.

One game is one stage. The study's rules name the stages (a stage id, a stage object,
``"all"`` or a course of stages with changed parameters, :mod:`engine.dokusen.course`);
the stage of a new game is the tester's choice on the end screen (**Retry**: the same
stage; **Next stage**: the one after a won stage), else the first stage of the course the
tester has not won yet. What a tester has won is derived from their stored game records
(:meth:`engine.dokusen.progress.Progress.from_records`), so it survives a reload, a
restart and another app process. The game record's rules are the stage played (its id,
or the changed stage's object). It is stored as
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
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from engine.core import CHANCE, Event
from engine.dokusen.ai import computer_action
from engine.dokusen.course import Course
from engine.dokusen.progress import Progress
from engine.dokusen.state import DokusenState
from playtest import runtime, services
from playtest.app_pages.common import tester_session
from playtest.games.dokusen.component import JudgedClick, render_board
from playtest.games.dokusen.plugin import PLUGIN
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
    one_input,
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


def course_of(tester: services.Tester) -> Course:
    """The stages this tester plays (the study's rules with the tester's variants)."""
    return Course.from_rules(tester.effective.rules)


def progress_of(tester: services.Tester) -> Progress:
    """The tester's stages won and attempts, from their stored finished Dokusen games."""
    records = repo.list_games(runtime.database(), tester.code)
    return Progress.from_records((r.rules, r.reason) for r in records
                                 if r.game == PLUGIN.name and r.finished)


def stage_id_of(rules: Any) -> str:
    """The stage a game record's rules play (``"custom"`` for a stage without an id)."""
    if isinstance(rules, str):
        return rules
    return str(rules.get("id") or "custom") if isinstance(rules, dict) else "custom"


def _new_game(tester: services.Tester, stage_id: str | None = None) -> DokusenPlay:
    engine = runtime.database()
    seed = secrets.randbits(31)
    course = course_of(tester)
    if stage_id not in course.order:
        stage_id = progress_of(tester).current(course.order)
    rules, seats = course.record_rules(stage_id), list(tester.effective.seats)
    game_id = repo.create_game(engine, tester.code, tester_session(tester), rules, seats, seed,
                               game=PLUGIN.name)
    game = PLUGIN.make_game(rules, len(seats))
    state: Any = game.new_initial_state()
    _sink(tester, game_id).log("game_start", {"game_id": game_id, "game": PLUGIN.name,
                                              "rules": rules, "stage": stage_id,
                                              "seats": seats, "seed": seed})
    return DokusenPlay(game_id, tester.code, seats, seed, rules, game, state)


def may_play_more(tester: services.Tester) -> bool:
    """Whether the end screen offers another game: while the study's games last, and
    after them when the study lets testers play more."""
    finished = services.games_finished(runtime.database(), tester)
    return finished < tester.config.games_per_tester or tester.config.allow_more_games


def next_stage(tester: services.Tester, play: DokusenPlay) -> str | None:
    """The stage "Next stage" starts: the one after a won stage, if the course has one."""
    outcome = play.state.outcome
    if outcome is None or not outcome.won:
        return None
    course = course_of(tester)
    here = stage_id_of(play.rules)
    return course.after(here) if here in course.order else None


def _apply(tester: services.Tester, play: DokusenPlay, action: int) -> bool:
    """Store action number ``len(play.actions)`` first, then apply it; False when another
    tab stored a different action there (the page reloads the record)."""
    events = apply_stored(tester, play, action, session_key=SESSION_KEY)
    if events is None:
        return False
    play.unseen.extend(events)
    return True


def _outcome(state: DokusenState) -> tuple[int | None, str]:
    """Who won (the tester, seat 1, or nobody: a solo game) and why."""
    outcome = state.outcome
    winner = 1 if outcome is not None and outcome.won else None
    reason = f"{outcome.result}:{outcome.reason}" if outcome is not None else "over"
    return winner, reason


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
                play.refusal = judged.refusal
                _computer_moves(tester, play)
                _finish_if_over(tester, play)
            if play.state.is_terminal():
                whole_page()  # the end and the way on: drawn by a full run

        more = play.state.is_terminal() and may_play_more(tester)
        after = next_stage(tester, play) if more else None
        course = course_of(tester)
        here = stage_id_of(play.rules)
        stage_of = (course.order.index(here) + 1, len(course.order)) \
            if here in course.order else None
        next_name = " · ".join(x for x in (after, course.stage(after).name) if x) \
            if after is not None else ""

        def on_action(name: str) -> None:
            # Retry: the same stage again; Next stage: the one after a won stage. The new
            # game is stored at once, so a reload resumes it.
            assert play is not None
            if not (play.state.is_terminal() and may_play_more(tester)):
                return
            stage = next_stage(tester, play) if name == "next" else stage_id_of(play.rules)
            if stage is None:
                return
            st.session_state[SESSION_KEY] = _new_game(tester, stage)

        render_board(play.state, key=f"dokusen-{play.game_id}", events=play.unseen,
                     on_click=on_click, on_action=on_action, refusal=play.refusal,
                     game_id=play.game_id, has_next=after is not None, has_retry=more,
                     stage_of=stage_of, next_stage=next_name)
        play.unseen = []  # animated once
        play.refusal = None  # a refusal is said once
        if not play.state.is_terminal():
            return
        if services.games_finished(runtime.database(), tester) < \
                tester.config.games_per_tester:
            return  # the end screen's Retry / Next stage start the study's next game
    way_on(tester, session_key=SESSION_KEY, key_prefix="dokusen",
           to_post_survey=to_post_survey)
