"""Vasco scenarios for ``python -m engine scenario``: rules-other-games.md section 4.2
with ``"game": "vasco"`` (scenario-format.md, "The other games of the seeds").

A scenario::

    {"game": "vasco", "id": "V03", "description": "...",
     "initial": {"pool": 54, "tiles": [[[0, 0], "ox*"], [[0, 1], "xo*"]], "toMove": "O"},
     "actions": [{"player": "O", "cell": [1, 2], "tile": "ox*"},
                 {"player": "X", "cell": [9, 9], "tile": "ox*", "expectIllegal": true}],
     "expected": {...}}

- ``initial`` is optional, and so is each of its keys: ``pool`` (the tiles of the game,
  those on the board included; 54), ``tiles`` (``[[r, c], state]``, the state giving
  the colours of edges L R H; none), ``toMove`` (``"O"``, red, who moves first, or
  ``"X"``). The tiles must match on every shared edge and be one edge-connected group;
  any such position is taken, reachable in play or not.
- ``player`` is the colour that claims to move; a move by the colour not to move is
  refused (``not_your_turn``).
- ``id`` and ``description`` are free text; ``expected`` and ``expectIllegal`` are what
  the file claims, and the engine ignores them.

The result, observed after the last action, holds every key of section 4.2's
``expected``: ``tiles`` (the whole board, ``[[r, c], state]`` in row-major order;
compare as a set), ``toMove`` (``null`` once the game is over), ``winner`` (``"O"``,
``"X"``, ``"draw"`` or ``null`` while the game runs), ``tilesRemaining`` (the pool minus
the tiles on the board) and ``autoPlacements`` (one entry per action: ``null`` when
refused, else the tiles it forced, ``[[r, c], state]`` in the order they were placed;
compare as a set). Beside them: ``id`` when the scenario has one, ``refused`` (per
action: ``null`` or the code of the rule that refused it, :data:`engine.vasco.board.REASONS`)
and ``reason`` (how the game ended, or ``null``). A refused action leaves the state as it
was and the scenario goes on.

>>> r = run_scenario({"game": "vasco",
...                   "initial": {"tiles": [[[0, 0], "ox*"], [[0, 1], "xo*"]]},
...                   "actions": [{"player": "O", "cell": [1, 2], "tile": "ox*"}]})
>>> r["autoPlacements"], r["tilesRemaining"], r["toMove"]
([[[[0, 2], 'ox*'], [[1, 0], 'ox*'], [[1, 1], 'xo*']]], 48, 'X')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import IllegalActionError, RulesError
from engine.scenario import Parsed, PlayerStep, ScenarioError, Section4, is_int, is_pair
from engine.vasco.geometry import STATES, Cell
from engine.vasco.state import MARK, MAX_POOL, Place, VascoGame, VascoState

INITIAL_FIELDS = ("pool", "tiles", "toMove")
ACTION_FIELDS = ("player", "cell", "tile")
SEATS = {"O": 1, "X": 2}

__all__ = ["Scenario", "ScenarioError", "Step", "parse_scenario", "run_parsed", "tile_list"]


#: One scenario action: the seat that claims to move, and the placement.
Step = PlayerStep[int, Place]


class Scenario(Parsed[VascoState, Step]):
    """A parsed, validated Vasco scenario."""


def tile_list(tiles: Mapping[Cell, str]) -> list[list[Any]]:
    """Tiles in section 4.2's shape, ``[[r, c], state]``, in row-major order.

    >>> tile_list({(0, 1): "xo*", (0, 0): "ox*"})
    [[[0, 0], 'ox*'], [[0, 1], 'xo*']]
    """
    return [[[r, c], st] for (r, c), st in sorted(tiles.items())]


def _parse_tiles(opened: Section4, raw: Any) -> dict[Cell, str]:
    if not isinstance(raw, list):
        raise opened.fail("initial.tiles", "must be a list of [[r, c], state]")
    tiles: dict[Cell, str] = {}
    for i, t in enumerate(raw):
        if not isinstance(t, list) or len(t) != 2 or not is_pair(t[0]):
            raise opened.fail(f"initial.tiles[{i}]", f"must be [[r, c], state], got {t!r}")
        cell = (t[0][0], t[0][1])
        if cell in tiles:
            raise opened.fail(f"initial.tiles[{i}]", f"cell {list(cell)} is given twice")
        if t[1] not in STATES:
            raise opened.fail(
                f"initial.tiles[{i}]",
                f"{t[1]!r} is not a tile state (o, x and * once each, on edges L R H)",
            )
        tiles[cell] = t[1]
    return tiles


def _start(opened: Section4) -> VascoState:
    initial = opened.initial
    tiles = _parse_tiles(opened, initial.get("tiles", []))
    to_move = initial.get("toMove", "O")
    if not isinstance(to_move, str) or to_move not in SEATS:
        raise opened.fail("initial.toMove", f"must be 'O' or 'X', got {to_move!r}")
    pool = initial.get("pool", 54)
    if not is_int(pool) or not max(1, len(tiles)) <= pool <= MAX_POOL:
        raise opened.fail(
            "initial.pool",
            f"must be a whole number from {max(1, len(tiles))} (the tiles on the board, at "
            f"least 1) to {MAX_POOL}, got {pool!r}",
        )
    try:
        return VascoGame({"pool": pool}).state_from_position(tiles, SEATS[to_move])
    except RulesError as err:
        raise opened.fail("initial.tiles", str(err)) from None


def _parse_step(opened: Section4, k: int, raw: Any) -> Step:
    where = f"actions[{k}]"
    player = raw.get("player")
    if not isinstance(player, str) or player not in SEATS:
        raise opened.fail(f"{where}.player", f"must be 'O' or 'X', got {player!r}")
    cell = raw.get("cell")
    if not is_pair(cell):
        raise opened.fail(f"{where}.cell", f"must be [r, c] (whole numbers), got {cell!r}")
    tile = raw.get("tile")
    if not isinstance(tile, str):
        raise opened.fail(f"{where}.tile", f"must be a state such as 'ox*', got {tile!r}")
    try:
        place = Place(cell[0], cell[1], tile)
    except RulesError as err:
        field = f"{where}.tile" if "state" in str(err) else f"{where}.cell"
        raise opened.fail(field, str(err)) from None
    return Step(SEATS[player], place)


def parse_scenario(obj: Any, label: str = "scenario") -> Scenario:
    """Validate one scenario object; raises :class:`ScenarioError` naming the field.

    >>> parse_scenario({"game": "vasco", "actions": [{"player": "O", "cell": [0, 0]}]}, "scenario[0]")
    Traceback (most recent call last):
    ...
    engine.scenario.ScenarioError: scenario[0]: field 'actions[0].tile': must be a state such as 'ox*', got None
    """
    opened = Section4.open(obj, label, "vasco", INITIAL_FIELDS, ACTION_FIELDS)
    start = _start(opened)
    steps = tuple(_parse_step(opened, k, raw) for k, raw in enumerate(opened.actions))
    return Scenario(opened.id, start, steps)


def run_parsed(scenario: Scenario) -> dict[str, Any]:
    """Play a parsed scenario; refused actions give ``null`` and the scenario goes on."""
    state = scenario.start.clone()
    autos: list[list[list[Any]] | None] = []
    refused: list[str | None] = []
    for step in scenario.steps:
        try:
            if not state.is_terminal() and step.player != state.to_move:
                raise IllegalActionError(
                    "not_your_turn",
                    f"It is {MARK[state.to_move]}'s turn, not {MARK[step.player]}'s.",
                )
            events = state.apply(step.action)
        except IllegalActionError as err:
            autos.append(None)
            refused.append(err.reason)
            continue
        forced = [(e.tiles[0], e.data["tile"]) for e in events if e.kind == "auto"]
        autos.append([[[r, c], st] for (r, c), st in forced])
        refused.append(None)
    out = state.outcome
    if out is None:
        winner: str | None = None
    else:
        winner = "draw" if out.winner is None else MARK[out.winner]
    result: dict[str, Any] = {} if scenario.id is None else {"id": scenario.id}
    result.update(
        {
            "tiles": tile_list(state.tiles),
            "toMove": None if out is not None else MARK[state.to_move],
            "winner": winner,
            "tilesRemaining": state.tiles_remaining,
            "autoPlacements": autos,
            "refused": refused,
            "reason": None if out is None else out.reason,
        }
    )
    return result


def run_scenario(obj: Any) -> dict[str, Any]:
    """Parse and play one scenario object (raises :class:`ScenarioError` if malformed)."""
    return run_parsed(parse_scenario(obj))
