"""Vasco scenarios for ``python -m engine scenario`` (scenario-format.md, ``"game": "vasco"``).

A scenario::

    {"game": "vasco", "id": "V03", "description": "...", "rules": {"pool": 54},
     "initial": {"tiles": [[0, 0, "ox*"], [0, 1, "xo*"]], "toMove": "O", "tilesRemaining": 52},
     "actions": [{"type": "place", "player": "O", "cell": [1, 2], "tile": "ox*"}],
     "expected": {...}, "expectIllegal": [false]}

- ``initial`` is optional (an empty board, O to move, the whole pool); its ``tiles``
  are ``[r, c, state]`` triples or an object ``{"r,c": state}``; ``toMove`` is ``"O"``
  (red, moves first) or ``"X"``; ``tilesRemaining`` defaults to the pool minus the tiles.
- ``rules`` is optional: ``"standard"`` or ``{"pool": n}``.
- ``expected`` and ``expectIllegal`` are what the file claims; the engine ignores them.

The result, observed after the last action: ``tiles`` (``[r, c, state]``, row-major),
``toMove`` (``null`` once the game is over), ``winner`` (``"O"``, ``"X"``, ``"draw"``,
or ``null`` while the game runs), ``tilesRemaining``, ``autoPlacements`` (one entry per
action: ``null`` when refused, else the forced tiles in placing order — compare them
as a set) and, beyond section 4, ``refused`` (per action: the refusal code or ``null``)
and ``reason`` (how the game ended, or ``null``). A refused action leaves the state as
it was and the scenario goes on; it is not a failure of the command (exit status 0).

>>> r = run_scenario({"game": "vasco", "initial": {"tiles": [[0, 0, "ox*"], [0, 1, "xo*"]]},
...                   "actions": [{"type": "place", "player": "O", "cell": [1, 2], "tile": "ox*"}]})
>>> r["autoPlacements"], r["tilesRemaining"], r["toMove"]
([[[0, 2, 'ox*'], [1, 0, 'ox*'], [1, 1, 'xo*']]], 48, 'X')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import IllegalActionError, RulesError
from engine.vasco.geometry import Cell, parse_cell
from engine.vasco.state import MARK, Place, VascoGame, VascoState

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
_INITIAL_FIELDS = ("tiles", "toMove", "tilesRemaining")
_ACTION_FIELDS = ("type", "player", "cell", "tile")
_SEATS = {"O": 1, "X": 2}


class ScenarioError(RulesError):
    """A malformed Vasco scenario; the message names the scenario and the field."""


@dataclass(frozen=True)
class Step:
    """One scenario action: who claims to move, and the placement."""

    player: int
    place: Place


@dataclass(frozen=True)
class Scenario:
    """A parsed, validated Vasco scenario."""

    start: VascoState
    steps: tuple[Step, ...]


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def parse_scenario(obj: Any, label: str = "scenario") -> Scenario:
    """Validate one scenario object; raises :class:`ScenarioError` naming the field.

    >>> parse_scenario({"game": "vasco", "actions": [{"type": "move"}]}, "scenario[0]")
    Traceback (most recent call last):
    ...
    engine.vasco.scenario.ScenarioError: scenario[0]: field 'actions[0].type': must be 'place', got 'move'
    """
    if isinstance(obj, Mapping) and isinstance(obj.get("id"), str) and "(" not in label:
        label = f"{label} ({obj['id']!r})"

    def fail(field: str, msg: str) -> ScenarioError:
        return ScenarioError(f"{label}: field {field!r}: {msg}")

    if not isinstance(obj, Mapping):
        raise ScenarioError(f"{label}: must be a JSON object")
    for key in obj:
        if key not in KNOWN_FIELDS:
            raise fail(key, f"unknown field (known: {', '.join(KNOWN_FIELDS)})")
    if obj.get("game") != "vasco":
        raise fail("game", f"must be 'vasco', got {obj.get('game')!r}")
    try:
        game = VascoGame(obj.get("rules", "standard"), 2)
    except RulesError as err:
        raise fail("rules", str(err)) from None
    initial = obj.get("initial", {})
    if not isinstance(initial, Mapping):
        raise fail("initial", "must be an object")
    for key in initial:
        if key not in _INITIAL_FIELDS:
            raise fail(f"initial.{key}", f"unknown field (known: {', '.join(_INITIAL_FIELDS)})")
    tiles = _parse_tiles(initial.get("tiles", []), fail)
    to_move = initial.get("toMove", "O")
    if to_move not in _SEATS:
        raise fail("initial.toMove", f"must be 'O' or 'X', got {to_move!r}")
    left = initial.get("tilesRemaining")
    if left is not None and (not _is_int(left) or left < 0):
        raise fail("initial.tilesRemaining", f"must be a whole number >= 0, got {left!r}")
    try:
        start = game.state_from_position(tiles, _SEATS[to_move], left)
    except RulesError as err:
        raise fail("initial.tiles", str(err)) from None
    raw_actions = obj.get("actions")
    if not isinstance(raw_actions, list):
        raise fail("actions", "missing, or not a list")
    steps = []
    for k, raw in enumerate(raw_actions):
        where = f"actions[{k}]"
        if not isinstance(raw, Mapping):
            raise fail(where, "must be an object {type, player, cell, tile}")
        for key in raw:
            if key not in _ACTION_FIELDS:
                raise fail(f"{where}.{key}", f"unknown field (known: {', '.join(_ACTION_FIELDS)})")
        if raw.get("type") != "place":
            raise fail(f"{where}.type", f"must be 'place', got {raw.get('type')!r}")
        player = raw.get("player")
        if player not in _SEATS:
            raise fail(f"{where}.player", f"must be 'O' or 'X', got {player!r}")
        cell = raw.get("cell")
        if not isinstance(cell, list) or len(cell) != 2 or not all(_is_int(v) for v in cell):
            raise fail(f"{where}.cell", f"must be [r, c] (whole numbers), got {cell!r}")
        try:
            place = Place(cell[0], cell[1], raw.get("tile"))  # type: ignore[arg-type]
        except RulesError as err:
            raise fail(
                f"{where}.tile" if "state" in str(err) else f"{where}.cell", str(err)
            ) from None
        steps.append(Step(_SEATS[player], place))
    return Scenario(start, tuple(steps))


def _parse_tiles(raw: Any, fail: Any) -> dict[Cell, str]:
    tiles: dict[Cell, str] = {}
    if isinstance(raw, Mapping):
        items = []
        for key, st in raw.items():
            try:
                items.append((parse_cell(key), st))
            except ValueError:
                raise fail("initial.tiles", f"key {key!r} is not a cell 'r,c'") from None
    elif isinstance(raw, list):
        items = []
        for i, t in enumerate(raw):
            if not isinstance(t, list) or len(t) != 3 or not _is_int(t[0]) or not _is_int(t[1]):
                raise fail(f"initial.tiles[{i}]", f"must be [r, c, state], got {t!r}")
            items.append(((t[0], t[1]), t[2]))
    else:
        raise fail("initial.tiles", "must be a list of [r, c, state] or an object {'r,c': state}")
    for cell, st in items:
        if cell in tiles:
            raise fail("initial.tiles", f"cell {cell[0]},{cell[1]} is given twice")
        if not isinstance(st, str):
            raise fail("initial.tiles", f"cell {cell[0]},{cell[1]}: {st!r} is not a tile state")
        tiles[cell] = st
    return tiles


def run_parsed(scenario: Scenario) -> dict[str, Any]:
    """Play a parsed scenario; refused actions give ``null`` and the scenario goes on."""
    state = scenario.start.clone()
    autos: list[list[list[Any]] | None] = []
    refused: list[str | None] = []
    for step in scenario.steps:
        try:
            if state.is_terminal():
                state.try_move(step.place)  # raises game_over
            if step.player != state.to_move:
                raise IllegalActionError(
                    "not_your_turn",
                    f"It is {MARK[state.to_move]}'s turn, not {MARK[step.player]}'s.",
                )
            events = state.apply(step.place)
        except IllegalActionError as err:
            autos.append(None)
            refused.append(err.reason)
            continue
        autos.append([[*e.tiles[0], e.data["tile"]] for e in events if e.kind == "auto"])
        refused.append(None)
    out = state.outcome
    if out is None:
        winner: str | None = None
    else:
        winner = "draw" if out.winner is None else MARK[out.winner]
    return {
        "tiles": [[r, c, st] for (r, c), st in sorted(state.tiles.items())],
        "toMove": None if out is not None else MARK[state.to_move],
        "winner": winner,
        "tilesRemaining": state.tiles_remaining,
        "autoPlacements": autos,
        "refused": refused,
        "reason": None if out is None else out.reason,
    }


def run_scenario(obj: Any) -> dict[str, Any]:
    """Parse and play one scenario object (raises :class:`ScenarioError` if malformed)."""
    return run_parsed(parse_scenario(obj))
