"""Game-agnostic engine core, shaped after OpenSpiel.

A *game* is an immutable value (rules + options + seat count) that makes
*states*. A state says who acts (a 0-based seat, :data:`CHANCE` for dice and
other random draws, or :data:`TERMINAL`), lists its legal actions as sorted
unique ints, applies one (returning the :class:`Event` objects it caused) and
can be cloned and serialised. The engine keeps no random generator: chance
outcomes are actions chosen by whoever drives the game (a server, a bot, a
test), so the list of actions is the whole game record (:class:`GameRecord`).

Nothing in this module knows about a particular game; games register a
factory with :func:`register_game` so that records can be replayed by name.

>>> CHANCE, TERMINAL
(-1, -4)
>>> Event("place", 1, ((7, 7),)).to_dict()
{'kind': 'place', 'seat': 1, 'tiles': [[7, 7]], 'data': {}}
>>> err = IllegalActionError("own_tile", "You already have a counter on (5,8)")
>>> err.reason, str(err)
('own_tile', 'You already have a counter on (5,8)')
"""

from __future__ import annotations

import contextlib
import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "CHANCE",
    "TERMINAL",
    "EngineError",
    "IllegalActionError",
    "RulesError",
    "Event",
    "Game",
    "State",
    "Refusal",
    "ClickResult",
    "PlayableState",
    "GameRecord",
    "register_game",
    "make_game",
    "sample_chance",
]

#: ``current_player()`` while a random draw (dice, a deal) is due.
CHANCE = -1
#: ``current_player()`` once the game is over.
TERMINAL = -4


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalActionError(EngineError):
    """An action the rules forbid in this state; the state is left untouched.

    ``reason`` is a short stable code (e.g. ``"empty_priority"``) for logs and
    analytics; ``str(err)`` is the explanation in a designer's words.
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class RulesError(EngineError, ValueError):
    """Malformed rules, options or positions; the message names the field."""


@dataclass(frozen=True)
class Event:
    """Something an action caused, for the UI to animate and the log to count.

    ``seat`` is 1-based (``None`` for events that belong to nobody, e.g. a
    draw); ``tiles`` are game coordinates; ``data`` holds JSON-ready extras.

    >>> e = Event("capture", 2, ((5, 8),), {"from_seat": 1})
    >>> Event.from_dict(e.to_dict()) == e
    True
    >>> len({e, Event.from_dict(e.to_dict())})
    1
    """

    kind: str
    seat: int | None
    tiles: tuple[tuple[int, int], ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)

    def __hash__(self) -> int:
        # ``data`` is a dict (unhashable); equal events still hash equal
        return hash((self.kind, self.seat, self.tiles))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``{"kind", "seat", "tiles": [[c, r], ...], "data"}``."""
        return {
            "kind": self.kind,
            "seat": self.seat,
            "tiles": [list(t) for t in self.tiles],
            "data": dict(self.data),
        }

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> Event:
        """Inverse of :meth:`to_dict`."""
        return cls(
            str(obj["kind"]),
            obj.get("seat"),
            tuple((int(t[0]), int(t[1])) for t in obj.get("tiles", ())),
            dict(obj.get("data", {})),
        )


@runtime_checkable
class State(Protocol):
    """What every game state offers (OpenSpiel's State, 0-based player ids)."""

    def current_player(self) -> int: ...

    def legal_actions(self) -> list[int]: ...

    def chance_outcomes(self) -> list[tuple[int, float]]: ...

    def apply_action(self, action: int) -> list[Event]: ...

    def clone(self) -> State: ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> list[float]: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Refusal:
    """Why the rules refuse a click: a stable ``reason`` code for logs and analytics
    (``"walled"``, ``"own_tile"``, ...) and a ``message`` in the player's words.

    >>> Refusal("walled", "That brick is in a wall.").reason
    'walled'
    """

    reason: str
    message: str


@dataclass(frozen=True)
class ClickResult:
    """What one click on a target means, decided by the rules alone (pure).

    - ``action``: the legal action the click completes (apply it), or ``None``;
    - ``refusal``: why the click is refused (``None`` when it is not);
    - ``selection``: the targets held selected after the click (a piece picked up
      before its move; ``()`` when nothing is held);
    - ``fields``: the game's own telemetry fields for the ``click`` event (the
      game's target, e.g. a ``point`` and the ``from`` point; telemetry-format.md
      lists each game's).

    A click that only selects has ``action is None and refusal is None``.

    >>> r = ClickResult(None, Refusal("empty", "Pick one of your bricks."), (), {"point": "d4"})
    >>> r.ok
    False
    >>> ClickResult(7, None, (), {"point": "a1"}).ok
    True
    """

    action: int | None
    refusal: Refusal | None
    selection: tuple[str, ...] = ()
    fields: Mapping[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True unless the rules refused the click."""
        return self.refusal is None


@runtime_checkable
class PlayableState(State, Protocol):
    """What the app needs from a state beyond OpenSpiel's, in game terms.

    - ``phase``: the game's own name of what is due now (``"roll"``, ``"place"``,
      ``"remove"``, ``"move"``, ``"over"``, ...);
    - ``legal_targets(selection)``: the targets a click may choose now, as the game's
      own strings (board points ``"a7"``, tiles ``"5,8"``), given what is
      already selected;
    - ``click(target, selection)``: what a click means (:class:`ClickResult`), without
      changing the state;
    - ``to_text()``: a plain-text view of the position, for logs, tests and screen
      readers.

    Whose turn it is stays ``current_player()``.
    """

    phase: str

    def legal_targets(self, selection: Sequence[str] = ()) -> list[str]: ...

    def click(self, target: str, selection: Sequence[str] = ()) -> ClickResult: ...

    def to_text(self) -> str: ...


@runtime_checkable
class Game(Protocol):
    """What every game offers: an immutable maker of states.

    ``encode``/``decode`` convert between the game's action value objects and
    ints; ``action_to_json``/``action_from_json`` between ints and the
    human-readable JSON list form used in records; ``state_from_json`` rebuilds
    a state written by ``State.to_json``; ``start_state(None)`` is the initial
    state and ``start_state(snapshot)`` a state that begins a record at a
    snapshot (so its own record carries that ``start``).
    """

    name: str

    @property
    def num_players(self) -> int: ...

    def new_initial_state(self) -> State: ...

    def encode(self, action_obj: Any) -> int: ...

    def decode(self, action: int) -> Any: ...

    def action_to_json(self, action: int) -> list[Any]: ...

    def action_from_json(self, obj: Any) -> int: ...

    def state_from_json(self, obj: Mapping[str, Any]) -> State: ...

    def start_state(self, start: Mapping[str, Any] | None) -> State: ...

    def rules_obj(self) -> Any: ...


GameFactory = Callable[[Any, int], Game]
_REGISTRY: dict[str, GameFactory] = {}


def register_game(name: str, factory: GameFactory) -> None:
    """Make ``make_game(name, rules, players)`` build games with ``factory``."""
    _REGISTRY[name] = factory


def make_game(name: str, rules: Any, players: int) -> Game:
    """Build a registered game; imports ``engine.<name>`` on first use.

    Raises :class:`RulesError` for an unknown game name.
    """
    if name not in _REGISTRY:
        with contextlib.suppress(ImportError):
            importlib.import_module(f"engine.{name}")
    if name not in _REGISTRY:
        raise RulesError(f"game: unknown game {name!r}")
    return _REGISTRY[name](rules, players)


def sample_chance(state: State, rng: random.Random) -> int:
    """Draw one chance outcome of ``state`` with the caller's generator.

    Uses a single ``rng.random()`` draw, so drivers stay reproducible.
    """
    outcomes = state.chance_outcomes()
    x = rng.random()
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if x < acc:
            return action
    return outcomes[-1][0]


@dataclass(frozen=True)
class GameRecord:
    """A whole game: which game, its rules, seat count and every action.

    ``actions`` are the human-readable JSON list forms (for a dice game
    ``["roll", [3, 4, 2, 5]]``, ``["place", [7, 7]]``, ...). ``start`` is
    ``None`` for games that begin at the game's initial state, otherwise the
    ``to_json()`` of the starting state (e.g. a designer's scenario position).
    :meth:`replay` re-applies the actions and returns a state equal to the
    original.
    """

    game: str
    rules: Any
    players: int
    actions: tuple[Any, ...]
    start: Mapping[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict; ``start`` only when present."""
        out: dict[str, Any] = {
            "game": self.game,
            "rules": self.rules,
            "players": self.players,
            "actions": [list(a) for a in self.actions],
        }
        if self.start is not None:
            out["start"] = dict(self.start)
        return out

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> GameRecord:
        """Inverse of :meth:`to_json`; raises :class:`RulesError` naming a missing field."""
        for key in ("game", "rules", "players", "actions"):
            if key not in obj:
                raise RulesError(f"record: missing field {key!r}")
        actions = obj["actions"]
        if not isinstance(actions, Sequence) or isinstance(actions, str):
            raise RulesError("record: field 'actions' must be a list")
        players = obj["players"]
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError(f"record: field 'players' must be a whole number, got {players!r}")
        start = obj.get("start")
        if start is not None and not isinstance(start, Mapping):
            raise RulesError("record: field 'start' must be an object or null")
        return cls(str(obj["game"]), obj["rules"], players, tuple(actions), start)

    def replay(self) -> State:
        """Rebuild the final state by applying every action again."""
        game = make_game(self.game, self.rules, self.players)
        state = game.start_state(self.start)
        for obj in self.actions:
            state.apply_action(game.action_from_json(obj))
        return state
