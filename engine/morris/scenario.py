"""Bricks & Walls scenarios for ``python -m engine scenario`` (scenario-format.md,
rules-other-games.md section 4's shape with ``"game": "morris"``).

A scenario::

    {"game": "morris", "id": "M06", "description": "...",
     "rules": "standard",                                   # optional, a preset or object
     "initial": {"board": {"a7": "W"}, "reserve": {"W": 8, "B": 9},
                 "toMove": "B", "pendingRemoval": false},   # optional, all keys optional
     "actions": [{"type": "place", "player": "B", "to": "g7"},
                 {"type": "move", "player": "W", "from": "a7", "to": "a4"},
                 {"type": "remove", "player": "W", "at": "d6"}],
     "expected": {...}}                                     # read by tests, not by the engine

``player`` is optional; when given and not the player to move, the action is
refused. ``remove`` names its point with ``at`` (``point`` is accepted too).
``expectIllegal`` (on the scenario or on an action) is ignored.

The result holds ``board``, ``reserve``, ``toMove`` (null once there is a winner or a
draw), ``pendingRemoval``, ``winner`` and ``events`` (``place``, ``move``, ``wall`` one
per completed line, ``remove``, ``skip:W``/``skip:B``, ``win:W``/``win:B``, ``draw``,
``illegal`` for a refused action), plus ``id`` when the scenario has one and
``refused`` (``[{"action_index", "reason", "message"}]``) when an action was refused.

>>> r = run_scenario({"game": "morris",
...     "initial": {"board": {"a7": "W", "d7": "W", "b6": "B"}, "reserve": {"W": 7, "B": 8}},
...     "actions": [{"type": "place", "player": "W", "to": "g7"},
...                 {"type": "place", "player": "B", "to": "a1"}]})
>>> r["events"], r["pendingRemoval"], r["toMove"]
(['place', 'wall', 'illegal'], True, 'W')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import IllegalActionError, RulesError
from engine.morris.actions import Action, Move, Place, Remove
from engine.morris.board import is_point
from engine.morris.state import COLOUR_NAMES, COLOURS, MorrisGame, MorrisState

KNOWN_FIELDS = (
    "game",
    "id",
    "name",
    "description",
    "rules",
    "initial",
    "actions",
    "expected",
    "expectIllegal",
)
INITIAL_FIELDS = ("board", "reserve", "toMove", "pendingRemoval")
ACTION_FIELDS = {
    "place": ("to",),
    "move": ("from", "to"),
    "remove": ("at",),
}


class ScenarioError(RulesError):
    """A malformed scenario; the message names the scenario and the field."""


@dataclass(frozen=True)
class Step:
    """One scenario action: who claims to act (``None``: whoever is to move) and what."""

    player: str | None
    action: Action


@dataclass(frozen=True)
class Scenario:
    """A parsed, validated scenario."""

    id: str | None
    start: MorrisState
    steps: tuple[Step, ...]


def _parse_step(raw: Any, where: str) -> Step:
    if not isinstance(raw, Mapping):
        raise RulesError(
            f"field '{where}': must be an object such as {{'type': 'place', 'to': 'd7'}}"
        )
    kind = raw.get("type")
    if kind not in ACTION_FIELDS:
        raise RulesError(f"field '{where}.type': unknown type {kind!r} (place, move or remove)")
    raw = dict(raw)
    if kind == "remove" and "at" not in raw and "point" in raw:
        raw["at"] = raw.pop("point")
    allowed = {"type", "player", "expectIllegal", *ACTION_FIELDS[kind]}
    for key in raw:
        if key not in allowed:
            raise RulesError(f"field '{where}.{key}': unknown field for a {kind!r} action")
    for key in ACTION_FIELDS[kind]:
        if key not in raw:
            raise RulesError(f"field '{where}.{key}': missing")
        if not is_point(raw[key]):
            raise RulesError(f"field '{where}.{key}': {raw[key]!r} is not a point of the board")
    player = raw.get("player")
    if player is not None and player not in COLOURS:
        raise RulesError(f"field '{where}.player': must be 'W' or 'B', got {player!r}")
    action: Action
    if kind == "place":
        action = Place(raw["to"])
    elif kind == "move":
        action = Move(raw["from"], raw["to"])
    else:
        action = Remove(raw["at"])
    return Step(player, action)


def parse_scenario(obj: Any, label: str = "scenario") -> Scenario:
    """Validate one scenario object; raises :class:`ScenarioError` naming the field."""

    if isinstance(obj, Mapping) and isinstance(obj.get("id"), str) and "(" not in label:
        label += f" ({obj['id']!r})"  # section 4's scenarios are named by their id

    def fail(msg: str) -> ScenarioError:
        return ScenarioError(f"{label}: {msg}")

    if not isinstance(obj, Mapping):
        raise fail("must be a JSON object")
    for key in obj:
        if key not in KNOWN_FIELDS:
            raise fail(f"field {key!r}: unknown field (known: {', '.join(KNOWN_FIELDS)})")
    if obj.get("game") != "morris":
        raise fail(f"field 'game': not a Bricks & Walls scenario: {obj.get('game')!r}")
    ident = obj.get("id")
    if ident is not None and not isinstance(ident, str):
        raise fail(f"field 'id': must be a string, got {ident!r}")
    try:
        game = MorrisGame(obj.get("rules", "standard"))
    except RulesError as err:
        raise fail(f"field 'rules': {err}") from None
    initial = obj.get("initial", {})
    if not isinstance(initial, Mapping):
        raise fail("field 'initial': must be an object")
    for key in initial:
        if key not in INITIAL_FIELDS:
            raise fail(f"field 'initial.{key}': unknown field (known: {', '.join(INITIAL_FIELDS)})")
    try:
        start = game.state_from_position(
            initial.get("board"),
            initial.get("reserve"),
            initial.get("toMove", "W"),
            initial.get("pendingRemoval", False),
        )
    except RulesError as err:
        raise fail(f"field 'initial.{str(err).split(':')[0]}': {err}") from None
    if "actions" not in obj:
        raise fail("field 'actions': missing")
    raw_actions = obj["actions"]
    if not isinstance(raw_actions, list):
        raise fail("field 'actions': must be a list")
    steps = []
    for k, raw in enumerate(raw_actions):
        try:
            steps.append(_parse_step(raw, f"actions[{k}]"))
        except RulesError as err:
            raise fail(str(err)) from None
    return Scenario(ident, start, tuple(steps))


def run_parsed(scenario: Scenario) -> dict[str, Any]:
    """Play a parsed scenario; refused actions become ``illegal`` events and play goes on."""
    state = scenario.start.clone()
    events: list[str] = []
    refused: list[dict[str, Any]] = []
    for k, step in enumerate(scenario.steps):
        if step.player is not None and step.player != state.to_move:
            events.append("illegal")
            if state.to_move is None:
                reason, message = "game_over", "The game is over."
            else:
                who = COLOUR_NAMES[COLOURS.index(state.to_move)]
                reason, message = "not_your_turn", f"It is {who}'s turn."
            refused.append({"action_index": k, "reason": reason, "message": message})
            continue
        try:
            done = state.apply(step.action)
        except IllegalActionError as err:
            events.append("illegal")
            refused.append({"action_index": k, "reason": err.reason, "message": str(err)})
            continue
        for e in done:
            if e.kind in ("skip", "win") and e.seat is not None:
                events.append(f"{e.kind}:{COLOURS[e.seat - 1]}")
            else:
                events.append(e.kind)
    out: dict[str, Any] = {} if scenario.id is None else {"id": scenario.id}
    out.update(
        {
            "board": state.board,
            "reserve": state.reserve,
            "toMove": state.to_move,
            "pendingRemoval": state.pending_removal,
            "winner": state.winner,
            "events": events,
        }
    )
    if refused:
        out["refused"] = refused
    return out


def run_scenario(obj: Any) -> dict[str, Any]:
    """Parse and play one scenario object (raises :class:`ScenarioError` if malformed)."""
    return run_parsed(parse_scenario(obj))
