"""Bricks & Walls scenarios for ``python -m engine scenario``: rules-other-games.md
section 4.1 with ``"game": "morris"`` (scenario-format.md, "The other games of the seeds").

A scenario::

    {"game": "morris", "id": "M06", "description": "...",
     "initial": {"board": {"a7": "W", "d7": "W"}, "reserve": {"W": 7, "B": 9},
                 "toMove": "W", "pendingRemoval": false},
     "actions": [{"type": "place", "player": "W", "to": "g7"},
                 {"type": "move", "player": "W", "from": "a7", "to": "a4"},
                 {"type": "remove", "player": "W", "at": "d6", "expectIllegal": true}],
     "expected": {...}}

- ``initial`` may be any position, reachable in play or not (section 4.1: some are
  synthetic); every key is optional: an empty board, the bricks not on the board in
  reserve, ``"W"`` to move, no removal pending.
- ``player`` is the colour that claims to act; an action by the colour not to move is
  refused (``not_your_turn``, or ``game_over``).
- ``id`` and ``description`` are free text; ``expected`` and ``expectIllegal`` are what
  the file claims, and the engine ignores them.
- Beyond section 4: ``"rules"``, a preset (``"standard"``, the default, or
  ``"classic"``) or ``{"base": ..., option: value}`` (:mod:`engine.morris.rules`). A
  variant's draw (its ``move_cap``) shows as ``winner`` and ``toMove`` both ``null``.

The result, observed after the last action, holds every key section 4.1's ``expected``
has: ``board``, ``reserve``, ``toMove`` (``null`` once the game is over: section 4.1
leaves it out of ``expected`` then, scenario-format.md says null), ``pendingRemoval``,
``winner`` (``"W"``, ``"B"`` or ``null``) and ``events``, in order and nothing else:
``"wall"`` once per line completed, ``"remove:<pt>"``, ``"skip:<W|B>"``, ``"win:<W|B>"``
and ``"illegal"`` once per refused action. Beside them: ``id`` when the scenario has one,
and ``refused``, one entry per action: ``null``, or the code of the rule that refused it
(``not_your_turn``, ``removal_pending``, ``walled``, ...). A refused action leaves the
state as it was and the scenario goes on.

>>> r = run_scenario({"game": "morris",
...     "initial": {"board": {"a7": "W", "d7": "W", "b6": "B"}, "reserve": {"W": 7, "B": 8}},
...     "actions": [{"type": "place", "player": "W", "to": "g7"},
...                 {"type": "place", "player": "B", "to": "a1"},
...                 {"type": "remove", "player": "W", "at": "b6"}]})
>>> r["events"], r["refused"], r["toMove"]
(['wall', 'illegal', 'remove:b6'], [None, 'not_your_turn', None], 'B')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Event, IllegalActionError, RulesError
from engine.morris.actions import Action, Move, Place, Remove
from engine.morris.board import is_point
from engine.morris.state import COLOUR_NAMES, COLOURS, MorrisGame, MorrisState
from engine.scenario import Parsed, PlayerStep, ScenarioError, Section4

INITIAL_FIELDS = ("board", "reserve", "toMove", "pendingRemoval")
#: Each action type's point fields (section 4.1).
ACTION_FIELDS = {"place": ("to",), "move": ("from", "to"), "remove": ("at",)}
#: The scenario fields beyond section 4.
EXTENSIONS = ("rules",)

__all__ = ["Scenario", "ScenarioError", "Step", "contract_events", "parse_scenario", "run_parsed"]


#: One scenario action: the colour that claims to act, and what it does.
Step = PlayerStep[str, Action]


class Scenario(Parsed[MorrisState, Step]):
    """A parsed, validated scenario."""


def _parse_step(opened: Section4, k: int, raw: Mapping[str, Any]) -> Step:
    where = f"actions[{k}]"
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        raise opened.fail(f"{where}.type", f"unknown type {kind!r} (place, move or remove)")
    opened.check_keys(raw, where, ("type", "player", *ACTION_FIELDS[kind], "expectIllegal"))
    player = raw.get("player")
    if player not in COLOURS:
        raise opened.fail(f"{where}.player", f"must be 'W' or 'B', got {player!r}")
    for key in ACTION_FIELDS[kind]:
        if key not in raw:
            raise opened.fail(f"{where}.{key}", "missing")
        if not is_point(raw[key]):
            raise opened.fail(f"{where}.{key}", f"{raw[key]!r} is not a point of the board")
    action: Action
    if kind == "place":
        action = Place(raw["to"])
    elif kind == "move":
        action = Move(raw["from"], raw["to"])
    else:
        action = Remove(raw["at"])
    return Step(player, action)


def parse_scenario(obj: Any, label: str = "scenario") -> Scenario:
    """Validate one scenario object; raises :class:`ScenarioError` naming the field.

    >>> parse_scenario({"game": "morris", "actions": [{"type": "jump"}]}, "scenario[1]")
    Traceback (most recent call last):
    ...
    engine.scenario.ScenarioError: scenario[1]: field 'actions[0].type': unknown type 'jump' (place, move or remove)
    """
    opened = Section4.open(obj, label, "morris", INITIAL_FIELDS, extensions=EXTENSIONS)
    try:
        game = MorrisGame(obj.get("rules", "standard"))
    except RulesError as err:
        raise opened.fail("rules", str(err)) from None
    initial = opened.initial
    try:
        start = game.state_from_position(
            initial.get("board"),
            initial.get("reserve"),
            initial.get("toMove", "W"),
            initial.get("pendingRemoval", False),
        )
    except RulesError as err:
        raise opened.fail(f"initial.{str(err).split(':')[0]}", str(err)) from None
    steps = tuple(_parse_step(opened, k, raw) for k, raw in enumerate(opened.actions))
    return Scenario(opened.id, start, steps)


def contract_events(done: list[Event]) -> list[str]:
    """Section 4.1's names for an action's events: ``wall``, ``remove:<pt>``,
    ``skip:<W|B>``, ``win:<W|B>``; the others (``place``, ``move``, ``draw``) have none.

    >>> s = MorrisGame().state_from_position({"a7": "W", "d7": "W", "b6": "B"}, {"W": 7, "B": 8})
    >>> contract_events(s.apply(Place("g7")) + s.apply(Remove("b6")))
    ['wall', 'remove:b6']
    """
    out = []
    for e in done:
        if e.kind == "wall":
            out.append("wall")
        elif e.kind == "remove":
            out.append(f"remove:{e.data['point']}")
        elif e.kind in ("skip", "win") and e.seat is not None:
            out.append(f"{e.kind}:{COLOURS[e.seat - 1]}")
    return out


def _check_turn(state: MorrisState, player: str) -> None:
    if state.to_move is None:
        raise IllegalActionError("game_over", "The game is over.")
    if player != state.to_move:
        who = COLOUR_NAMES[COLOURS.index(state.to_move)]
        raise IllegalActionError("not_your_turn", f"It is {who}'s turn.")


def run_parsed(scenario: Scenario) -> dict[str, Any]:
    """Play a parsed scenario; refused actions become ``illegal`` events and play goes on."""
    state = scenario.start.clone()
    events: list[str] = []
    refused: list[str | None] = []
    for step in scenario.steps:
        try:
            _check_turn(state, step.player)
            done = state.apply(step.action)
        except IllegalActionError as err:
            events.append("illegal")
            refused.append(err.reason)
            continue
        events.extend(contract_events(done))
        refused.append(None)
    out: dict[str, Any] = {} if scenario.id is None else {"id": scenario.id}
    out.update(
        {
            "board": state.board,
            "reserve": state.reserve,
            "toMove": state.to_move,
            "pendingRemoval": state.pending_removal,
            "winner": state.winner,
            "events": events,
            "refused": refused,
        }
    )
    return out


def run_scenario(obj: Any) -> dict[str, Any]:
    """Parse and play one scenario object (raises :class:`ScenarioError` if malformed)."""
    return run_parsed(parse_scenario(obj))
