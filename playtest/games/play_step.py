"""What every game's own play step shares (``playtest/games/<game>/play.py``): the sink
that logs and stores a game's records, starting a game and replaying a stored one, the
step that stores an action *before* applying it (and logs the engine's events), logging
a finished game once, finding the tester's game (this tab's, the stored unfinished one,
or a new one), and the way on once the study's games are played.

Each game keeps its own state object (a :class:`GamePlay`, or a subclass with the game's
own fields) in ``st.session_state[session_key]`` and says how its computer moves and who
won; nothing here names a game.

One input of the tester (a click and everything it causes: its action, the engine's
events, the computer's turn after it, the game's end), and one computer turn at the top
of a rerun, are stored in ONE transaction (:func:`one_input`, on
:meth:`playtest.services.DbGameSink.batch`): whole or not at all. When the commit is
refused, the game in memory goes back to where it was before the input; a refused claim
of the action indices means another tab played on, and the page reloads the record.
"""

from __future__ import annotations

import contextlib
import dataclasses
import secrets
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import streamlit as st

from engine.core import Event, Refusal
from playtest import runtime, services
from playtest.app_pages.common import tester_session
from playtest.storage import repository as repo
from playtest.storage.errors import ConflictError


class _Play(Protocol):
    participant_id: str


PlayT = TypeVar("PlayT", bound=_Play)


# The sink of the input being stored (:func:`one_input`) in this thread's context: every
# ``game_sink`` of that game inside the input is that sink, so its writes join the batch.
_INPUT_SINK: ContextVar[services.DbGameSink | None] = ContextVar("game_input_sink",
                                                                 default=None)


def game_sink(tester: services.Tester, game_id: str) -> services.DbGameSink:
    """Where the tester's game ``game_id`` logs its events and stores its actions (inside
    :func:`one_input`: the input's batch)."""
    active = _INPUT_SINK.get()
    if active is not None and active.game_id == game_id and \
            active.participant_id == tester.code:
        return active
    return services.DbGameSink(runtime.database(), runtime.event_logger(),
                               participant_id=tester.code, session_id=tester_session(tester),
                               game_id=game_id)


@dataclass
class GamePlay:
    """One tester's game in progress: its stored id, seats, seed, rules, the engine's game
    (action JSON forms) and state, the actions stored so far, the refusal to say once,
    and whether its end is logged. A game's play step subclasses it for fields of its own
    (all with defaults)."""

    game_id: str
    participant_id: str
    seats: list[str]
    seed: int
    rules: Any
    game: Any
    state: Any
    actions: list[list[Any]] = field(default_factory=list)
    refusal: Refusal | None = None
    finished_logged: bool = False


GamePlayT = TypeVar("GamePlayT", bound=GamePlay)


def _kept(play: GamePlay) -> dict[str, Any]:
    """The play's fields as they are now (lists copied: an input appends to them; the
    engine state is replaced, never changed in place, by :func:`apply_stored`)."""
    return {f.name: list(value) if isinstance(value := getattr(play, f.name), list)
            else value for f in dataclasses.fields(play)}


@contextlib.contextmanager
def one_input(tester: services.Tester, play: GamePlay, *, session_key: str,
              click: dict[str, Any] | None = None) -> Iterator[None]:
    """Everything ``play`` stores inside, in one transaction, committed at the end.

    If the input raises, or the commit is refused, nothing of it is stored and ``play``
    goes back to its fields before the input (state, actions, selection …), so it still
    matches the stored record. A refused claim (:class:`ConflictError`: another tab
    stored an action at this index first) is not raised: this tab's game is dropped
    (the page reloads the record) and the tester's ``click`` props, if given, are stored
    alone marked ``stale`` (never a right answer the record does not have). Any other
    error (:class:`~playtest.storage.errors.WriteFailed` …) is raised for the page's
    notice; the tester's retry is then stored once. Nested calls join the outer one.
    """
    if _INPUT_SINK.get() is not None:
        yield
        return
    sink = game_sink(tester, play.game_id)
    before = _kept(play)
    token = _INPUT_SINK.set(sink)
    refused = False
    try:
        with sink.batch():
            yield
    except BaseException as err:
        for name, value in before.items():
            setattr(play, name, value)
        if not isinstance(err, ConflictError):
            raise
        refused = True
    finally:
        _INPUT_SINK.reset(token)
    if refused:
        st.session_state.pop(session_key, None)
        if click is not None:
            sink.log("click", {**click, "ok": False, "stale": True})


def replayed_play(record: repo.GameRecord, plugin: Any, cls: type[GamePlayT]) -> GamePlayT:
    """A stored game (``record``) rebuilt by replaying its actions: a reload or a server
    restart continues where the tester was."""
    game = plugin.make_game(record.rules, len(record.seats))
    state: Any = game.new_initial_state()
    for action in record.actions:
        state.apply_action(game.action_from_json(action))
    return cls(record.game_id, record.participant_id, list(record.seats),
               int(record.seed or 0), record.rules, game, state,
               [list(a) for a in record.actions], finished_logged=record.finished)


def new_play(tester: services.Tester, plugin: Any, cls: type[GamePlayT]) -> GamePlayT:
    """A new game of ``plugin``'s game with the tester's rules and seats: its ``games``
    row first, then ``game_start``."""
    seed = secrets.randbits(31)
    rules, seats = tester.effective.rules, list(tester.effective.seats)
    game_id = repo.create_game(runtime.database(), tester.code, tester_session(tester), rules,
                               seats, seed, game=plugin.name)
    game = plugin.make_game(rules, len(seats))
    state: Any = game.new_initial_state()
    game_sink(tester, game_id).log("game_start", {"game_id": game_id, "game": plugin.name,
                                                  "rules": rules, "seats": seats, "seed": seed})
    return cls(game_id, tester.code, seats, seed, rules, game, state)


def engine_event_props(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The engine's events of one action as telemetry: each with its ``kind``, ``seat``,
    ``tiles`` and the event's own data (telemetry-format.md, engine events).

    >>> engine_event_props([Event("place", 1, ((0, 4),), {"took": None})])
    [{'kind': 'place', 'seat': 1, 'tiles': [[0, 4]], 'took': None}]
    """
    return [{"kind": e.kind, "seat": e.seat, "tiles": [list(t) for t in e.tiles], **e.data}
            for e in events]


def apply_stored(tester: services.Tester, play: GamePlay, action: int, *,
                 session_key: str, log_events: bool = True) -> list[Event] | None:
    """Store action number ``len(play.actions)`` first, then apply it (and log the
    engine's events it caused, unless ``log_events`` is False); None when another tab
    stored a different action there (this tab's game is dropped: the page reloads the
    record). Inside :func:`one_input` the action is stored with the input's other writes
    at its end, and the index is claimed then (a refused claim undoes the whole input)."""
    as_json = play.game.action_to_json(action)
    trial = play.state.clone()
    events = trial.apply_action(action)
    sink = game_sink(tester, play.game_id)
    try:
        stored = sink.append_action(len(play.actions), as_json)
    except ConflictError:
        stored = False
    if not stored:
        st.session_state.pop(session_key, None)
        return None
    play.state = trial
    play.actions.append(list(as_json))
    if log_events:
        for props in engine_event_props(events):
            sink.log(props.pop("kind"), props)
    return list(events)


def finish_if_over(tester: services.Tester, play: GamePlay,
                   outcome: Callable[[Any], tuple[int | None, str]]) -> None:
    """Once the game is over, log ``game_end`` (winner, reason, the whole record) and
    mark the game finished, once; ``outcome(state)`` says who won (a 1-based seat or
    None) and why."""
    if not play.state.is_terminal() or play.finished_logged:
        return
    winner, reason = outcome(play.state)
    sink = game_sink(tester, play.game_id)
    sink.log("game_end", {"game_id": play.game_id, "winner": winner, "reason": reason,
                          "turns": len(play.actions), "record": play.actions})
    sink.finish(winner, reason, len(play.actions))
    play.finished_logged = True


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
