"""Step through a stored game: the engine replays its record, the events give the timeline.

Each step is the position after one action, with the telemetry that happened up to
that action (clicks with their class and hesitation, messages, rules look-ups, the
computer players' one-line reasons).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from analytics.data import UNNAMED_GAME
from playtest.games.registry import game_plugin
from playtest.storage.game_counts import LEFT, RESTARTED
from playtest.storage.models import events as _events
from playtest.storage.models import game_actions as _actions
from playtest.storage.repository import GameRecord, list_games
from playtest.storage.timeutil import datetime_from_ms, iso_from_ms


@dataclass(frozen=True)
class ReplayStep:
    index: int
    rows: list[str]
    dice: tuple[int, int, int, int] | None
    options: tuple[tuple[int, int], ...]
    glow: dict[tuple[int, int], str]
    seat_kinds: list[str]
    to_move: int | None
    phase: str
    turn: int
    caption: str
    timeline: list[dict[str, Any]] = field(default_factory=list)


def _describe(event: dict[str, Any]) -> str:
    """The event as a line of the replay's log, in words (never a raw dict)."""
    from playtest.display_words import event_in_words

    return event_in_words(event["type"], event["props"])


def game_outcome(game: GameRecord) -> str:
    """How a game ended, in words: played out (and who won), restarted, left, or going.

    A restarted game (Restart / New game) and one left from the menu (Stop playing)
    have an end but no result; the games table marks them finished all the same.

    >>> from datetime import datetime
    >>> def game(**end): return GameRecord("g", "p", None, "standard", ["human", "ai:easy"],
    ...                                    1, (), datetime(2026, 1, 1), **end)
    >>> [game_outcome(game(finished=f, winner=w, reason=r)) for f, w, r in [
    ...     (True, 2, "four_in_row"), (True, None, "draw"), (True, None, "restarted"),
    ...     (True, None, "left"), (False, None, None)]]
    ['played out: seat 2 (computer) won', 'played out: a draw', 'restarted (abandoned, does not count)', 'left unfinished (abandoned from the menu)', 'not ended (in progress or the page was closed)']
    """
    if not game.finished:
        return "not ended (in progress or the page was closed)"
    if game.reason == RESTARTED:
        return "restarted (abandoned, does not count)"
    if game.reason == LEFT:
        return "left unfinished (abandoned from the menu)"
    if isinstance(game.winner, int) and 1 <= game.winner <= len(game.seats):
        return f"played out: seat {game.winner} ({_seat_kind(game.seats, game.winner)}) won"
    return "played out: a draw"


def game_label(game: GameRecord) -> str:
    """The game picker's line: when, how it ended, moves, and the start of its id."""
    moves = len(game.actions)
    return (f"{game.created_at:%Y-%m-%d %H:%M} · {game_outcome(game)} · "
            f"{moves} step{'' if moves == 1 else 's'} · {game.game_id[:8]}")


def _seat_kind(seats: list[str], seat: int) -> str:
    """``tester`` or ``computer``; a seat beyond the record's seats is the game's own
    computer colour (a game whose opponents are not study seats)."""
    return "tester" if 1 <= seat <= len(seats) and seats[seat - 1] == "human" else "computer"


def _step_caption(index: int, total: int, action: Any, mover: int | None,
                  seats: list[str], kinds: str) -> str:
    """``Step k of n: who did what → engine events`` (k as on the page's slider)."""
    who = f"seat {mover} ({_seat_kind(seats, mover)})" if mover else "the game"
    kind, values = action[0], action[1] if len(action) > 1 else None
    if kind == "roll" and isinstance(values, list) and len(values) == 4:
        what = f"rolled {values[0]}+{values[1]} and {values[2]}+{values[3]}"
    elif kind in ("place", "brown") and isinstance(values, list) and len(values) == 2:
        counter = "a brown counter" if kind == "brown" else "a counter"
        what = f"put {counter} on column {values[0]}, row {values[1]}"
    else:
        what = f"{kind} {values if values is not None else ''}".strip()
    return f"Step {index + 1} of {total}: {who} {what} → {kinds}"


def games_of(engine: Engine, participant_id: str) -> list[GameRecord]:
    """The tester's games: those the app stored, and those known only from their events.

    Games that came in through ``playtest import`` (the demo's too) have no rows in the
    games table; their ``game_start`` event holds the rules and seats and their
    ``game_end`` event the whole action record (telemetry-format.md), which is all a
    replay needs. A game that never ended has no record and is left out.
    """
    stored = list_games(engine, participant_id)
    known = {game.game_id for game in stored}
    with engine.connect() as conn:
        rows = conn.execute(
            select(_events.c.type, _events.c.props, _events.c.at_ms, _events.c.session_id,
                   _events.c.game_id)
            .where(_events.c.participant_id == participant_id)
            .where(_events.c.type.in_(("game_start", "game_end")))
            .order_by(_events.c.at_ms, _events.c.seq)
        ).all()
    starts: dict[str, Any] = {}
    from_events: list[GameRecord] = []
    for row in rows:
        props = row.props if isinstance(row.props, dict) else {}
        game_id = str(props.get("game_id") or row.game_id or "")
        if not game_id or game_id in known:
            continue
        if row.type == "game_start":
            starts[game_id] = (row, props)
            continue
        start = starts.get(game_id)
        record = props.get("record")
        if start is None or not isinstance(record, list):
            continue
        begun, opening = start
        seats = opening.get("seats")
        if not isinstance(seats, list) or not seats:
            continue
        from_events.append(GameRecord(
            game_id=game_id, participant_id=participant_id, session_id=begun.session_id,
            rules=opening.get("rules", "standard"), seats=[str(s) for s in seats],
            game=str(opening.get("game") or UNNAMED_GAME),
            seed=opening.get("seed"), actions=tuple(record),
            created_at=datetime_from_ms(begun.at_ms),  # type: ignore[arg-type]
            finished=True, winner=props.get("winner"), reason=props.get("reason"),
            turns=props.get("turns")))
        known.add(game_id)
    return sorted(stored + from_events, key=lambda game: game.created_at)


def _action_times_from_events(actions: tuple[Any, ...],
                              events: list[dict[str, Any]]) -> list[int | None]:
    """When each action happened, read from the events when the games table has no
    times (an imported game): the n-th roll action is the n-th ``roll`` event, the n-th
    placing action the n-th ``place``/``brown`` event."""
    rolls = iter([e["at_ms"] for e in events if e["type"] == "roll"])
    places = iter([e["at_ms"] for e in events if e["type"] in ("place", "brown")])
    return [next(rolls if action[0] == "roll" else places, None) for action in actions]


def replay_steps(engine: Engine, game: GameRecord) -> list[ReplayStep]:
    """Every position of ``game``, first to last, with its timeline so far: the
    positions of :func:`replay_positions` as a board drawn from rows, dice and
    options reads them."""
    seat_kinds = ["human" if s == "human" else "computer" for s in game.seats]
    plugin = game_plugin(game.game)
    steps: list[ReplayStep] = []
    for position in replay_positions(engine, game):
        state, applied = position.state, position.events
        mover = applied[0].seat if applied and applied[0].seat else None
        computer = bool(mover and seat_kinds[mover - 1] == "computer")
        steps.append(ReplayStep(
            index=position.index, rows=state.board_rows(), dice=state.dice,
            options=state.options if state.phase == "place" else (),
            glow=(plugin.replay_glow([e.to_dict() for e in applied], computer)
                  if plugin.replay_glow is not None else {}),
            seat_kinds=seat_kinds,
            to_move=None if state.phase == "over" else state.to_move,
            phase=state.phase if state.phase in ("roll", "place", "over") else "roll",
            turn=state.turns,
            caption=position.caption,
            timeline=position.timeline,
        ))
    return steps


def text_steps(game: GameRecord) -> list[str]:
    """Every position of ``game`` after each action, as the engine's text view
    (``PlayableState.to_text``): the replay of a game without a board of its own here.

    >>> from datetime import UTC, datetime
    >>> record = GameRecord("g", "p", None, "standard", ["human", "human"], 1,
    ...     (["roll", [3, 4, 2, 5]], ["place", [7, 7]]), datetime.now(UTC), False)
    >>> [step.splitlines()[0] for step in text_steps(record)][:1]
    ['seat 1 to place: dice 3 4 2 5 (7 × 7 = 49), tiles 7,7']
    """
    engine_game = game_plugin(game.game).make_game(game.rules, len(game.seats))
    state: Any = engine_game.new_initial_state()
    steps = []
    for action in game.actions:
        state.apply_action(engine_game.action_from_json(action))
        steps.append(str(state.to_text()))
    return steps



@dataclass(frozen=True)
class ReplayPosition:
    """One step of a stored game for a board drawn by its game's folder: the engine's
    state after the action (a clone, the replay's own), the action's engine events, the
    step's caption and the telemetry up to it (as :class:`ReplayStep`)."""

    index: int
    state: Any
    events: tuple[Any, ...]
    caption: str
    timeline: list[dict[str, Any]] = field(default_factory=list)


def replay_positions(engine: Engine, game: GameRecord) -> list[ReplayPosition]:
    """Every position of ``game`` (any registered game), first to last, with its
    timeline so far: what a game's own read-only board draws on the Replay page."""
    with engine.connect() as conn:
        action_times: list[int | None] = [row.at_ms for row in conn.execute(
            select(_actions.c.at_ms).where(_actions.c.game_id == game.game_id)
            .order_by(_actions.c.idx))]
        events = [dict(row._mapping) for row in conn.execute(
            select(_events.c.at_ms, _events.c.type, _events.c.props, _events.c.seq)
            .where(_events.c.game_id == game.game_id).order_by(_events.c.at_ms, _events.c.seq))]
    if not action_times and game.actions:
        action_times = _action_times_from_events(game.actions, events)
    rules = game_plugin(game.game).make_game(game.rules, len(game.seats))
    state: Any = rules.new_initial_state()
    positions: list[ReplayPosition] = []
    shown = 0
    timeline: list[dict[str, Any]] = []
    for index, action in enumerate(game.actions):
        applied = state.apply_action(rules.action_from_json(action))
        until = action_times[index] if index < len(action_times) else None
        while shown < len(events) and (until is None or events[shown]["at_ms"] <= until):
            event = events[shown]
            timeline.append({"at": iso_from_ms(event["at_ms"]), "event": event["type"],
                             "what": _describe(event)})
            shown += 1
        mover = applied[0].seat if applied and applied[0].seat else None
        kinds = ", ".join(e.kind for e in applied)
        positions.append(ReplayPosition(
            index=index, state=state.clone(), events=tuple(applied),
            caption=_step_caption(index, len(game.actions), action, mover, game.seats, kinds),
            timeline=list(timeline[-30:])))
    return positions
