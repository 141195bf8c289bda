"""``python -m engine scenario FILE|-``: check rules scenarios (scenario-format.md).

A scenario names its game (``"game"``); one that names none is read as the format says
("absent means" the first game). Each game's reader is ``engine/<game>/scenario.py``;
the one that reads scenarios naming no game says so (``READS_UNNAMED = True``), and its
command line (``main``) runs a whole document, handing each scenario to its game's
reader. Nothing here names a game: the readers are found in the engine's game packages.

The games whose scenarios have the shape of rules-other-games.md section 4 share
:class:`Section4` (the fields every such scenario has, checked once) and
:class:`ScenarioError`.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Generic, TypeGuard, TypeVar

import engine
from engine.core import RulesError


@functools.cache
def readers() -> dict[str, ModuleType]:
    """Every game package's scenario reader, by game (``engine/<game>/scenario.py``).

    >>> all(module.__name__ == f"engine.{game}.scenario" for game, module in readers().items())
    True
    """
    found: dict[str, ModuleType] = {}
    for package in pkgutil.iter_modules(engine.__path__):
        if not package.ispkg:
            continue
        try:
            found[package.name] = importlib.import_module(f"engine.{package.name}.scenario")
        except ModuleNotFoundError as err:
            if err.name != f"engine.{package.name}.scenario":
                raise
    return found


def unnamed_reader() -> ModuleType:
    """The reader of scenarios that name no game (its ``READS_UNNAMED``).

    >>> hasattr(unnamed_reader(), "main")
    True
    """
    chosen = [m for m in readers().values() if getattr(m, "READS_UNNAMED", False)]
    if len(chosen) != 1:
        raise LookupError(
            f"exactly one scenario reader must read scenarios naming no game (found {len(chosen)})"
        )
    return chosen[0]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m engine scenario``; returns the exit status."""
    status = unnamed_reader().main(argv)
    return int(status or 0)


# ----- what the section-4 readers share (rules-other-games.md section 4) ----------------

#: The fields of every section-4 scenario (the games add their own extensions, if any).
SECTION4_FIELDS = ("game", "id", "description", "initial", "actions", "expected", "expectIllegal")


class ScenarioError(RulesError):
    """A malformed scenario: the message names the scenario and the field."""


StartT = TypeVar("StartT")
StepT = TypeVar("StepT")
PlayerT = TypeVar("PlayerT")
ActionT = TypeVar("ActionT")


@dataclass(frozen=True)
class PlayerStep(Generic[PlayerT, ActionT]):
    """One scenario action of a game whose steps are a seat's own actions: the
    ``player`` that claims to act (in the game's own words: ``"W"``, a seat number) and
    the ``action`` it makes (the game's value object). A game names its kind
    (``Step = PlayerStep[str, Action]``).

    >>> PlayerStep("W", "place d7").player
    'W'
    """

    player: PlayerT
    action: ActionT


@dataclass(frozen=True)
class Parsed(Generic[StartT, StepT]):
    """A parsed, validated section-4 scenario: its ``id``, the ``start`` state and the
    game's ``steps``. Each game's reader names its own (``class Scenario(Parsed[...])``).

    >>> Parsed("A1", "start", ("step",)).steps
    ('step',)
    """

    id: str | None
    start: StartT
    steps: tuple[StepT, ...]


def is_int(v: object) -> TypeGuard[int]:
    """A JSON whole number (``true`` is not one).

    >>> is_int(3), is_int(True), is_int(3.0)
    (True, False, False)
    """
    return isinstance(v, int) and not isinstance(v, bool)


def is_pair(v: object) -> TypeGuard[list[int]]:
    """``[a, b]`` of whole numbers, as section 4 writes cells and squares.

    >>> is_pair([0, -2]), is_pair([0]), is_pair((0, 1)), is_pair([0, True])
    (True, False, False, False)
    """
    return isinstance(v, list) and len(v) == 2 and all(is_int(x) for x in v)


@dataclass(frozen=True)
class Section4:
    """One section-4 scenario opened: its label for messages, the ``initial`` object and
    the ``actions`` (each checked to be an object). Build it with :meth:`open`.

    >>> s = Section4.open({"game": "g", "id": "A1", "actions": [{"to": "d7"}]}, "scenario[2]", "g")
    >>> s.label, s.id, dict(s.initial), s.actions[0]["to"]
    ("scenario[2] ('A1')", 'A1', {}, 'd7')
    >>> Section4.open({"game": "g", "actions": [], "stage": "S1"}, "scenario", "g")
    Traceback (most recent call last):
    ...
    engine.scenario.ScenarioError: scenario: field 'stage': unknown field (known: game, id, description, initial, actions, expected, expectIllegal)
    """

    label: str
    id: str | None
    initial: Mapping[str, Any]
    actions: tuple[Mapping[str, Any], ...]

    def fail(self, field: str, message: str) -> ScenarioError:
        """The error naming this scenario and ``field``."""
        return fail(self.label, field, message)

    def check_keys(self, obj: Mapping[str, Any], where: str, known: Sequence[str]) -> None:
        """Refuse a key of ``obj`` (found at ``where``) that is not in ``known``."""
        for key in obj:
            if key not in known:
                field = f"{where}.{str(key)[:40]}" if where else str(key)[:40]
                raise self.fail(field, f"unknown field (known: {', '.join(known)})")

    @classmethod
    def open(
        cls,
        obj: Any,
        label: str,
        game: str,
        initial_fields: Sequence[str] = (),
        action_fields: Sequence[str] | None = None,
        extensions: Sequence[str] = (),
    ) -> Section4:
        """Check the fields every section-4 scenario shares: an object with known keys
        only (``extensions`` are the game's own), ``game``, a text ``id`` and
        ``description``, an ``initial`` object with ``initial_fields`` only (optional),
        and ``actions``, a list of objects (with ``action_fields`` and ``expectIllegal``
        only, when given)."""
        if isinstance(obj, Mapping) and isinstance(obj.get("id"), str) and "(" not in label:
            label = f"{label} ({obj['id'][:40]!r})"  # section 4 names its scenarios by id
        if not isinstance(obj, Mapping):
            raise ScenarioError(f"{label}: must be a JSON object")
        opened = cls(label, None, {}, ())
        opened.check_keys(obj, "", (*SECTION4_FIELDS, *extensions))
        if obj.get("game") != game:
            raise opened.fail("game", f"must be {game!r}, got {obj.get('game')!r}")
        ident = obj.get("id")
        if ident is not None and not isinstance(ident, str):
            raise opened.fail("id", f"must be a string, got {ident!r}")
        if not isinstance(obj.get("description", ""), str):
            raise opened.fail("description", "must be a string")
        initial = obj.get("initial", {})
        if not isinstance(initial, Mapping):
            raise opened.fail("initial", "must be an object")
        opened.check_keys(initial, "initial", initial_fields)
        if "actions" not in obj:
            raise opened.fail("actions", "missing")
        raw = obj["actions"]
        if not isinstance(raw, list):
            raise opened.fail("actions", "must be a list")
        for k, action in enumerate(raw):
            if not isinstance(action, Mapping):
                raise opened.fail(f"actions[{k}]", "must be an object")
            if action_fields is not None:
                opened.check_keys(action, f"actions[{k}]", (*action_fields, "expectIllegal"))
        return cls(label, ident, initial, tuple(raw))


def fail(label: str, field: str, message: str) -> ScenarioError:
    """``<label>: field '<field>': <message>``, the one line of a malformed scenario.

    >>> str(fail("scenario[0]", "actions[1].to", "missing"))
    "scenario[0]: field 'actions[1].to': missing"
    """
    return ScenarioError(f"{label}: field {field!r}: {message}")
