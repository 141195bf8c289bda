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

from engine.vapoosh import Rules, VapooshGame, action_from_json
from playtest.board.view import glow_from_events
from playtest.storage.models import events as _events
from playtest.storage.models import game_actions as _actions
from playtest.storage.repository import GameRecord
from playtest.storage.timeutil import iso_from_ms


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
    props = event["props"] or {}
    kind = event["type"]
    if kind == "click":
        if props.get("ok"):
            return f"clicked ({props.get('c')},{props.get('r')}) ✓ after {props.get('ms')} ms"
        reason = f" / {props['rule_reason']}" if props.get("rule_reason") else ""
        return (f"wrong click ({props.get('c')},{props.get('r')}) = {props.get('clicked')} "
                f"for {props.get('expected')}: {props.get('wrong_kind')}{reason}, "
                f"after {props.get('ms')} ms")
    if kind == "message":
        return f"message {props.get('key')} [{props.get('variant')}]: {props.get('text')}"
    if kind == "ai_move":
        return f"computer seat {props.get('seat')}: {props.get('reason')}"
    if kind == "roll":
        return f"seat {props.get('seat')} rolled {props.get('dice')}"
    return f"{kind} {props}"


def replay_steps(engine: Engine, game: GameRecord) -> list[ReplayStep]:
    """Every position of ``game``, first to last, with its timeline so far."""
    with engine.connect() as conn:
        action_times = [row.at_ms for row in conn.execute(
            select(_actions.c.at_ms).where(_actions.c.game_id == game.game_id)
            .order_by(_actions.c.idx))]
        events = [dict(row._mapping) for row in conn.execute(
            select(_events.c.at_ms, _events.c.type, _events.c.props, _events.c.seq)
            .where(_events.c.game_id == game.game_id).order_by(_events.c.at_ms, _events.c.seq))]
    seat_kinds = ["human" if s == "human" else "computer" for s in game.seats]
    state = VapooshGame(Rules.from_obj(game.rules), players=len(game.seats)).new_initial_state()
    steps: list[ReplayStep] = []
    shown = 0
    timeline: list[dict[str, Any]] = []
    for index, action in enumerate(game.actions):
        applied = state.apply(action_from_json(action))
        until = action_times[index] if index < len(action_times) else None
        while shown < len(events) and (until is None or events[shown]["at_ms"] <= until):
            event = events[shown]
            timeline.append({"at": iso_from_ms(event["at_ms"]), "event": event["type"],
                             "what": _describe(event)})
            shown += 1
        mover = applied[0].seat if applied and applied[0].seat else None
        computer = bool(mover and seat_kinds[mover - 1] == "computer")
        kinds = ", ".join(e.kind for e in applied)
        steps.append(ReplayStep(
            index=index, rows=state.board_rows(), dice=state.dice,
            options=state.options if state.phase == "place" else (),
            glow=glow_from_events([e.to_dict() for e in applied], computer=computer),
            seat_kinds=seat_kinds,
            to_move=None if state.phase == "over" else state.to_move,
            phase=state.phase if state.phase in ("roll", "place", "over") else "roll",
            turn=state.turns,
            caption=f"Step {index + 1}: {action[0]} {action[1] if len(action) > 1 else ''} → {kinds}",
            timeline=list(timeline[-30:]),
        ))
    return steps
