"""Bricks & Walls actions as value objects, ints and JSON lists.

Integer ids (OpenSpiel style, ``legal_actions()`` sorts them):

- ``0..23``: place a reserve brick on point ``i``;
- ``24 + 24*from + to``: move a brick (a step, or a flight with 3 bricks);
- ``600 + i``: remove the enemy brick on point ``i`` (after a wall).

>>> encode(Place("d7")), encode(Move("a7", "d7")), encode(Remove("c4"))
(1, 25, 623)
>>> decode(25)
Move(frm='a7', to='d7')
>>> action_from_json(["move", "a7", "a4"]).to_json()
['move', 'a7', 'a4']
>>> action_from_json(["remove", "d4"])
Traceback (most recent call last):
...
engine.core.RulesError: action: 'd4' is not a point of the board (a7, d7, g7, ... c4)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import RulesError
from engine.morris.board import SIZE, index, is_point, name

PLACE_BASE = 0
MOVE_BASE = SIZE
REMOVE_BASE = MOVE_BASE + SIZE * SIZE
NUM_ACTIONS = REMOVE_BASE + SIZE


def _check(point: object) -> None:
    if not is_point(point):
        raise RulesError(f"action: {point!r} is not a point of the board (a7, d7, g7, ... c4)")


@dataclass(frozen=True)
class Place:
    """Put a reserve brick on an empty point (placement phase)."""

    to: str

    def __post_init__(self) -> None:
        _check(self.to)

    def to_json(self) -> list[Any]:
        return ["place", self.to]


@dataclass(frozen=True)
class Move:
    """Move one's brick from ``frm`` to an empty point (a step, or a flight)."""

    frm: str
    to: str

    def __post_init__(self) -> None:
        _check(self.frm)
        _check(self.to)

    def to_json(self) -> list[Any]:
        return ["move", self.frm, self.to]


@dataclass(frozen=True)
class Remove:
    """Take the enemy brick on ``at`` off the board (after completing a wall)."""

    at: str

    def __post_init__(self) -> None:
        _check(self.at)

    def to_json(self) -> list[Any]:
        return ["remove", self.at]


Action = Place | Move | Remove


def encode(action: Action) -> int:
    """The int id of an action value object."""
    if isinstance(action, Place):
        return PLACE_BASE + index(action.to)
    if isinstance(action, Move):
        return MOVE_BASE + SIZE * index(action.frm) + index(action.to)
    if isinstance(action, Remove):
        return REMOVE_BASE + index(action.at)
    raise RulesError(f"action: not a Bricks & Walls action: {action!r}")


def decode(action: int) -> Action:
    """The value object of an int id; raises :class:`RulesError` when out of range."""
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise RulesError(f"action: no Bricks & Walls action has the id {action!r}")
    if action < MOVE_BASE:
        return Place(name(action))
    if action < REMOVE_BASE:
        frm, to = divmod(action - MOVE_BASE, SIZE)
        return Move(name(frm), name(to))
    return Remove(name(action - REMOVE_BASE))


def action_from_json(obj: Any) -> Action:
    """Parse ``["place", "d7"]``, ``["move", "a7", "d7"]`` or ``["remove", "b6"]``."""
    if not isinstance(obj, list | tuple) or not obj:
        raise RulesError(f"action: must be a list such as ['place', 'd7'], got {obj!r}")
    kind, args = obj[0], list(obj[1:])
    shapes = {"place": 1, "move": 2, "remove": 1}
    if kind not in shapes:
        raise RulesError(f"action: unknown kind {kind!r} (place, move or remove)")
    if len(args) != shapes[kind]:
        raise RulesError(f"action: {kind!r} takes {shapes[kind]} point(s), got {args!r}")
    for p in args:
        _check(p)
    if kind == "place":
        return Place(args[0])
    if kind == "move":
        return Move(args[0], args[1])
    return Remove(args[0])
