"""Vapoosh! actions as value objects, ints and JSON lists.

Integer ids (OpenSpiel style, ``legal_actions()`` sorts them):

- ``0..1295``: a roll, ``((p1-1)*6 + p2-1)*36 + (g1-1)*6 + g2-1`` (ordered dice);
- ``1296 + i``: a normal counter on tile bit ``i`` (``i = (r-1)*12 + c-1``);
- ``1440 + i``: a brown counter on tile bit ``i``;
- ``1584 + packed``: a deal of preplaced counters, ``packed`` holding the seat
  (3 bits) of every tile (a large int; decode with :func:`decode`).

>>> encode(Roll((3, 4, 2, 5)))
550
>>> decode(550)
Roll(dice=(3, 4, 2, 5))
>>> encode(Place(7, 7)), decode(1440)
(1374, Brown(c=1, r=1))
>>> action_from_json(["place", [5, 8]]).to_json()
['place', [5, 8]]
>>> d = Deal(((2, 4, 4), (1, 3, 3)))
>>> d.counters  # normalised: sorted by seat, column, row
((1, 3, 3), (2, 4, 4))
>>> decode(encode(d)) == d
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import CellAction, RulesError
from engine.vapoosh.board import SIZE, TILES, index, tile

ROLL_COUNT = 1296
PLACE_BASE = 1296
BROWN_BASE = PLACE_BASE + TILES
DEAL_BASE = BROWN_BASE + TILES

#: ``DICE[roll_id]`` -> ``(p1, p2, g1, g2)``.
DICE: tuple[tuple[int, int, int, int], ...] = tuple(
    (a, b, c, d) for a in range(1, 7) for b in range(1, 7) for c in range(1, 7) for d in range(1, 7)
)


@dataclass(frozen=True)
class Roll:
    """Four dice: pink, pink, green, green (each 1..6)."""

    dice: tuple[int, int, int, int]

    def __post_init__(self) -> None:
        d = tuple(self.dice)
        if len(d) != 4 or any(
            isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= 6 for x in d
        ):
            raise RulesError(f"roll: needs four dice from 1 to 6, got {list(self.dice)!r}")
        object.__setattr__(self, "dice", d)

    def to_json(self) -> list[Any]:
        return ["roll", list(self.dice)]


@dataclass(frozen=True)
class Tile(CellAction):
    """A counter on tile ``(c, r)``: :class:`Place` or :class:`Brown`."""

    c: int
    r: int

    def __post_init__(self) -> None:
        _check_tile(self.kind, self.c, self.r)


class Place(Tile, kind="place"):
    """A normal counter on tile ``(c, r)``."""


class Brown(Tile, kind="brown"):
    """A brown counter (after a Vapooh roll) on tile ``(c, r)``."""


@dataclass(frozen=True)
class Deal:
    """Preplaced counters ``((seat, c, r), ...)``, seats 1-based; kept sorted."""

    counters: tuple[tuple[int, int, int], ...]

    def __post_init__(self) -> None:
        out = []
        for item in self.counters:
            if len(item) != 3:
                raise RulesError(f"deal: each counter is [seat, c, r], got {list(item)!r}")
            seat, c, r = item
            if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= 4:
                raise RulesError(f"deal: seat must be 1..4, got {seat!r}")
            _check_tile("deal", c, r)
            out.append((seat, c, r))
        if len({(c, r) for _, c, r in out}) != len(out):
            raise RulesError("deal: two counters on the same tile")
        object.__setattr__(self, "counters", tuple(sorted(out)))

    def to_json(self) -> list[Any]:
        return ["deal", [list(x) for x in self.counters]]


Action = Roll | Place | Brown | Deal


def _check_tile(kind: str, c: object, r: object) -> None:
    for v in (c, r):
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= SIZE:
            raise RulesError(
                f"{kind}: tile must be [c, r] with c and r from 1 to 12, got {[c, r]!r}"
            )


#: Shared immutable value objects, by tile bit (saves allocations in hot paths).
PLACES: tuple[Place, ...] = tuple(Place(*tile(i)) for i in range(TILES))
BROWNS: tuple[Brown, ...] = tuple(Brown(*tile(i)) for i in range(TILES))
ROLLS: tuple[Roll, ...] = tuple(Roll(d) for d in DICE)


def encode(action: Action) -> int:
    """The int id of an action value object."""
    if isinstance(action, Roll):
        p1, p2, g1, g2 = action.dice
        return ((p1 - 1) * 6 + p2 - 1) * 36 + (g1 - 1) * 6 + g2 - 1
    if isinstance(action, Place):
        return PLACE_BASE + index(action.c, action.r)
    if isinstance(action, Brown):
        return BROWN_BASE + index(action.c, action.r)
    if isinstance(action, Deal):
        packed = 0
        for seat, c, r in action.counters:
            packed |= seat << (3 * index(c, r))
        return DEAL_BASE + packed
    raise RulesError(f"action: not a Vapoosh! action: {action!r}")


def decode(action: int) -> Action:
    """The value object of an int id (raises :class:`RulesError` if none)."""
    if isinstance(action, bool) or not isinstance(action, int) or action < 0:
        raise RulesError(f"action: not a Vapoosh! action id: {action!r}")
    if action < ROLL_COUNT:
        return ROLLS[action]
    if action < BROWN_BASE:
        return PLACES[action - PLACE_BASE]
    if action < DEAL_BASE:
        return BROWNS[action - BROWN_BASE]
    packed = action - DEAL_BASE
    counters = []
    i = 0
    while packed:
        seat = packed & 7
        if seat:
            if seat > 4 or i >= TILES:
                raise RulesError(f"action: not a Vapoosh! action id: {action!r}")
            counters.append((seat, *tile(i)))
        packed >>= 3
        i += 1
    return Deal(tuple(counters))


def action_from_json(obj: Any) -> Action:
    """Parse ``["roll", [p1,p2,g1,g2]]``, ``["place", [c,r]]``, ``["brown", [c,r]]``
    or ``["deal", [[seat,c,r], ...]]``; raises :class:`RulesError` if malformed.
    """
    if not isinstance(obj, list | tuple) or len(obj) != 2 or not isinstance(obj[0], str):
        raise RulesError(f"action: must be [kind, values], got {obj!r}")
    kind, arg = obj
    if not isinstance(arg, list | tuple):
        raise RulesError(f"{kind}: values must be a list, got {arg!r}")
    if kind == "roll":
        return Roll(tuple(arg))
    if kind in ("place", "brown"):
        if len(arg) != 2:
            raise RulesError(f"{kind}: tile must be [c, r], got {arg!r}")
        return (Place if kind == "place" else Brown)(arg[0], arg[1])
    if kind == "deal":
        if not all(isinstance(x, list | tuple) for x in arg):
            raise RulesError(f"deal: each counter is [seat, c, r], got {arg!r}")
        return Deal(tuple(tuple(x) for x in arg))
    raise RulesError(f"action: unknown kind {kind!r} (roll, place, brown, deal)")
