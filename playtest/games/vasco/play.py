"""Vasco in a study: the tester's play step (the page glue the registry's ``play_module``
names), on the game's own board component (:mod:`playtest.games.vasco.board`).

A game is stored as it is played: its record (``games`` row with ``game="vasco"``, one
``game_actions`` row per engine action, stored *before* the state changes), and the
telemetry of telemetry-format.md: ``game_start``, the engine's events of every action
(``place``, ``auto`` for each forced tile, ``win``…), one ``click`` per click or tap with the
game's own fields ``cell`` and ``tile`` and the engine's refusal reason (``dead_cell``,
``mismatch``, ``not_connected`` …), ``ai_move`` for the computer's placements (with the
player's reason) and ``game_end`` with the whole record. A reload or a server
restart replays the stored record.

Seats: ``"human"`` or ``"ai:<level>"`` (Red first); the computer plays that level of
Vasco's registered computer players (:mod:`engine.vasco.players`: easy random, medium
greedy, hard search), seeded by the game's seed and the action number, so a replayed game
is the same game.

>>> from engine.vasco import VascoGame
>>> first = VascoGame().new_initial_state()
>>> click_telemetry(1, "1,1", 640, "mouse", first.click("1,1"))
{'seat': 1, 'target': '1,1', 'cell': '1,1', 'ok': False, 'ms': 640, 'via': 'mouse', 'reason': 'centre_first'}
>>> click_telemetry(1, "ox*", 90, "key", first.click("ox*", ("0,0",)))
{'seat': 1, 'target': 'ox*', 'cell': '0,0', 'tile': 'ox*', 'ok': True, 'ms': 90, 'via': 'key'}
>>> computer_seed(7, 3) == computer_seed(7, 3) != computer_seed(7, 4)
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import ClickResult, Event
from engine.players import make_player
from engine.vasco.state import VascoState
from playtest import runtime, services
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
from playtest.games.vasco.messages import forced_messages, refusal_text
from playtest.storage import repository as repo

SESSION_KEY = "vasco_play"


def click_telemetry(seat: int, target: str, ms: int, via: str,
                    result: ClickResult) -> dict[str, Any]:
    """The props of a ``click`` event: the seat, what was clicked (a cell or a tile
    preview), the game's own fields ``cell`` and ``tile`` (the held cell and the tile
    picked), ``ok``, the time since the board was shown, how, and the refusal."""
    props: dict[str, Any] = {"seat": seat, "target": target}
    props.update({k: result.fields[k] for k in ("cell", "tile") if k in result.fields})
    props.update({"ok": result.ok, "ms": ms, "via": via})
    if result.refusal is not None:
        props["reason"] = result.refusal.reason
    return props


def seat_level(seat: str) -> str:
    """The computer level of an ``"ai:<level>"`` seat.

    >>> seat_level("ai:hard")
    'hard'
    """
    return seat.partition(":")[2]


def computer_seed(game_seed: int, action_number: int) -> int:
    """The computer's tie-break seed for action ``action_number`` of a game."""
    return game_seed * 100_003 + action_number


@dataclass
class VascoPlay(GamePlay):
    """One tester's game in progress (:class:`~playtest.games.play_step.GamePlay`) and the
    cell or tile held selected."""

    state: VascoState
    selection: tuple[str, ...] = ()
    refused_cell: str | None = None
    # the number of actions after which the board's messages were last logged
    messages_logged: int = -1

    @property
    def view_seats(self) -> tuple[str, ...]:
        return tuple("human" if s == "human" else "computer" for s in self.seats)


def _sink(tester: services.Tester, game_id: str) -> services.DbGameSink:
    return game_sink(tester, game_id)


def _plugin() -> Any:
    from playtest.games.vasco.plugin import PLUGIN

    return PLUGIN


def _replayed(record: Any) -> VascoPlay:
    return replayed_play(record, _plugin(), VascoPlay)


def _new_game(tester: services.Tester) -> VascoPlay:
    return new_play(tester, _plugin(), VascoPlay)


def _apply(tester: services.Tester, play: VascoPlay, action: int) -> bool:
    """Store action number ``len(play.actions)`` first, then apply it (logging the
    engine's events); False when another tab stored a different action there."""
    return apply_stored(tester, play, action, session_key=SESSION_KEY) is not None


def _outcome(state: VascoState) -> tuple[int | None, str]:
    outcome = state.outcome
    winner = outcome.winner if outcome is not None else None
    return winner, str(outcome.reason if outcome is not None else "over")


def _finish_if_over(tester: services.Tester, play: VascoPlay) -> None:
    finish_if_over(tester, play, _outcome)


def _computer_moves(tester: services.Tester, play: VascoPlay) -> None:
    while not play.state.is_terminal() and play.seats[play.state.current_player()] != "human":
        seat = play.state.current_player() + 1
        level = seat_level(play.seats[seat - 1])
        player = make_player(level, seed=computer_seed(play.seed, len(play.actions)),
                             game="vasco")
        choice = player.decide(play.state)
        as_json = play.game.action_to_json(choice.action)
        if not _apply(tester, play, choice.action):
            return
        _sink(tester, play.game_id).log("ai_move", {"seat": seat, "action": as_json,
                                                    "why": choice.reason})
    _finish_if_over(tester, play)


def _current(tester: services.Tester) -> VascoPlay | None:
    return current_play(tester, session_key=SESSION_KEY, game=_plugin().name,
                        replayed=_replayed, new_game=_new_game)


def _message(play: VascoPlay) -> str:
    """The sentence under the board: the catalog's words for the refusal (one message
    per engine reason, playtest/games/vasco/messages.yaml), said once, else nothing (the
    view says whose turn it is and why forced tiles appeared)."""
    if play.refusal is None:
        return ""
    return refusal_text(play.refusal.reason, cell=play.refused_cell or "",
                        tiles_left=play.state.tiles_remaining)


def _log_messages(tester: services.Tester, play: VascoPlay, events: Sequence[Event],
                  variants: Mapping[str, str]) -> None:
    """Log the board's messages of the last action (why its forced tiles appeared) once
    per action, as ``message`` events with the tester's wording; a message an experiment
    varies is then shown, so the tester's variant counts as exposed."""
    number = len(play.actions)
    if play.messages_logged == number:
        return  # a rerun draws the same board
    play.messages_logged = number
    shown = forced_messages(events, variants)
    if not shown:
        return
    sink = _sink(tester, play.game_id)
    for index, props in enumerate(shown):
        sink.log("message", {**props, "ms_visible": None},
                 client_event_id=f"{play.game_id}:message:{number}:{index}")
        experiment = tester.effective.varied.get(f"message:{props['key']}")
        if experiment:
            repo.log_exposure(runtime.database(), tester.code, experiment,
                              tester.effective.variants[experiment],
                              {"message": props["key"], "game_id": play.game_id})


@play_fragment
def play_page(tester: services.Tester, *, to_post_survey: Callable[[], None]) -> None:
    """Draw the play step: the board, then (after the study's games) the way on.

    It is a fragment (:mod:`playtest.games.play_fragment`): a click reruns it alone;
    the game's end, and a game that is not the one the page showed, rerun the app."""
    page_unless_shown(session_game(SESSION_KEY, tester.code))

    from playtest.games.vasco.board import ClickEvent, render_board
    from playtest.games.vasco.view import board_view

    play = _current(tester)
    note_shown(None if play is None else play.game_id)
    if play is not None:
        with one_input(tester, play, session_key=SESSION_KEY):
            _computer_moves(tester, play)

        def on_click(ev: ClickEvent) -> None:
            assert play is not None
            seat = play.state.current_player() + 1
            result = play.state.click(ev.target, play.selection)
            click = click_telemetry(seat, ev.target, ev.t_ms, ev.via, result)
            with one_input(tester, play, session_key=SESSION_KEY, click=click):
                _sink(tester, play.game_id).log("click", click)
                if result.action is not None and not _apply(tester, play, result.action):
                    return
                play.selection = tuple(result.selection)
                play.refusal = result.refusal
                play.refused_cell = result.fields.get("cell") if result.refusal else None
                _computer_moves(tester, play)
                _finish_if_over(tester, play)
            if play.state.is_terminal():
                whole_page()  # the end and the way on: drawn by a full run

        events = play.state.last_events
        variants = tester.effective.message_variants
        _log_messages(tester, play, events, variants)
        view = board_view(play.state, seats=play.view_seats, selection=play.selection,
                          events=events, message=_message(play), refused=play.refused_cell,
                          variants=variants)
        render_board(view, key=f"vasco-{play.game_id}", on_click=on_click)
        play.refusal, play.refused_cell = None, None  # a refusal is said once
        if not play.state.is_terminal():
            return
    way_on(tester, session_key=SESSION_KEY, key_prefix="vasco",
           to_post_survey=to_post_survey)
