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
from dataclasses import dataclass, field, fields
from types import TracebackType
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

__all__ = [
    "CHANCE",
    "TERMINAL",
    "EngineError",
    "IllegalActionError",
    "RulesError",
    "Event",
    "Game",
    "GameBase",
    "ActionCodec",
    "CellAction",
    "State",
    "Refusal",
    "ClickResult",
    "PlayableState",
    "GameRecord",
    "SnapshotReader",
    "StateLog",
    "WinnerOutcome",
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


@dataclass(frozen=True)
class CellAction:
    """An action on one cell of a board (a counter on a tile, a tile on a square): a
    frozen dataclass whose fields are the cell's two coordinates, in the order the game
    writes them, and whose class names its ``kind`` (``class Place(Square,
    kind="place")``); its JSON form is ``[kind, [first, second]]``.

    >>> @dataclass(frozen=True)
    ... class Square(CellAction):
    ...     r: int
    ...     c: int
    >>> class Place(Square, kind="place"):
    ...     pass
    >>> Place(2, 3).to_json(), Place(2, 3)
    (['place', [2, 3]], Place(r=2, c=3))
    """

    kind: ClassVar[str]

    def __init_subclass__(cls, kind: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if kind:
            cls.kind = kind

    def to_json(self) -> list[Any]:
        return [self.kind, [getattr(self, f.name) for f in fields(self)]]


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

    @classmethod
    def refused(cls, reason: str, message: str, fields: Mapping[str, Any]) -> ClickResult:
        """A click the rules refuse (:class:`Refusal` ``reason`` and ``message``), nothing
        held selected after it.

        >>> ClickResult.refused("taken", "That square is taken.", {"square": "a1"}).refusal
        Refusal(reason='taken', message='That square is taken.')
        """
        return cls(None, Refusal(reason, message), (), fields)


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
    """Build a registered game; on first use imports ``engine.<name>``, else the
    configured games' modules (:func:`engine.configured.import_configured`).

    Raises :class:`RulesError` for an unknown game name (or a configured module that
    cannot be imported, named).
    """
    if name not in _REGISTRY:
        with contextlib.suppress(ImportError):
            importlib.import_module(f"engine.{name}")
    if name not in _REGISTRY:
        from engine.configured import ConfiguredGameError, import_configured

        try:
            import_configured()
        except ConfiguredGameError as err:
            raise RulesError(f"game {name!r}: {err}") from None
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


S = TypeVar("S", bound="StateLog[Any]")
A = TypeVar("A")
R = TypeVar("R")
G = TypeVar("G")
T = TypeVar("T", bound="StateLog[Any]")


@dataclass(frozen=True)
class ActionCodec(Generic[A]):
    """How a game's actions are written, where it is the same for every game of its
    class: ``encode`` (the action's value object to its int), ``decode`` (the inverse)
    and ``parse`` (the action's JSON list form to its value object; :class:`RulesError`
    when malformed). A game's class names its codec (``codec = ActionCodec(...)``);
    :class:`GameBase` reads it.

    >>> codec = ActionCodec(int, str, lambda obj: str(obj[1]))
    >>> codec.encode("7"), codec.decode(7), codec.parse(["step", 7])
    (7, '7', '7')
    """

    encode: Callable[[A], int]
    decode: Callable[[int], A]
    parse: Callable[[Any], A]


class GameBase(Generic[S, A, R]):
    """What every game's :class:`Game` class does alike, so that each game writes only
    its own rules: ``rules`` is its ``_rules`` (of type ``R``; ``rules_obj()`` their
    record form, ``to_obj()``); a game is equal to another of its class with the same
    rules and seats (:meth:`_key`); ``players`` and ``num_players`` are its ``_players``
    (a class attribute where the seats are fixed); its ``repr`` is the call that makes
    it; the actions go through its ``codec`` (:class:`ActionCodec`: ``encode``,
    ``decode``, ``parse_action`` and the actions' JSON forms); its states are of its
    ``state_type`` (``new_initial_state()`` is ``state_type(game)``, ``state_from_json``
    its ``from_json``); :meth:`start_state` begins a record at a snapshot.

    A game sets ``name``, ``_rules``, ``_players``, ``codec`` and ``state_type``; a game
    whose actions' ints depend on the game itself (its board) writes ``encode``,
    ``decode`` and ``parse_action`` instead of a codec, and one whose states begin
    otherwise writes ``new_initial_state`` or ``state_from_json``.
    """

    __slots__ = ()
    name: str
    _rules: R
    _players: int
    #: how the game's actions are written (unless the game writes ``encode``, ``decode``
    #: and ``parse_action`` itself)
    codec: ActionCodec[A]
    #: the game's state class (``state_type(game)``: the initial state)
    state_type: type[S]
    #: the game's start-check noun: ``start: <what> differ from the record's``
    _start_differs = "rules"

    def parse_action(self, obj: Any) -> A:
        """The action's value object from its JSON list form."""
        return self.codec.parse(obj)

    def encode(self, action_obj: A, /) -> int:
        return self.codec.encode(action_obj)

    def decode(self, action: int, /) -> A:
        return self.codec.decode(action)

    def new_initial_state(self) -> S:
        return self.state_type(self)

    def state_from_json(self, obj: Mapping[str, Any]) -> S:
        return self.state_type.from_json(obj)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.rules_obj()!r}, players={self.players})"

    def _key(self) -> tuple[R, int]:
        """What makes two games of the class equal (and their hash): rules and seats."""
        return (self._rules, self._players)

    @property
    def rules(self) -> R:
        return self._rules

    def rules_obj(self) -> Any:
        """The rules as records store them."""
        return self._rules.to_obj()  # type: ignore[attr-defined]

    @property
    def players(self) -> int:
        """The seats a record stores (and, unless a game says otherwise, ``num_players``)."""
        return self._players

    num_players = players

    def __eq__(self, other: object) -> bool:
        return isinstance(other, type(self)) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def action_to_json(self, action: int) -> list[Any]:
        return self.decode(action).to_json()  # type: ignore[attr-defined]

    def action_from_json(self, obj: Any) -> int:
        return self.encode(self.parse_action(obj))

    def start_state(self, start: Mapping[str, Any] | None) -> S:
        """The initial state, or a state restored from ``start`` that begins its record
        there (:class:`RulesError` when ``start`` is of other rules or seats).

        A record that begins at ``start`` holds only what is played after it, so the
        state's ``history`` and ``last_events`` begin empty (the snapshot's own are the
        record it came from; replaying them again would play them twice), its ``start``
        is ``start`` and its game is this one. (An example: :class:`StateLog`.)
        """
        if start is None:
            return self.new_initial_state()
        state = self.state_from_json(start)
        if state.game != self:
            raise RulesError(f"start: {self._start_differs} differ from the record's")
        # the record begins here: the snapshot's own log is the record it came from
        state._game = self
        state._history, state._last_events, state._start = [], [], dict(start)
        return state


class SnapshotReader:
    """Reads a state's JSON snapshot (``from_json``) field by field: an error while a
    field is read becomes one :class:`RulesError` naming the field.

    An :class:`EngineError` keeps its message (``state.<field>: <message>``); an error of
    the ``malformed`` kinds (a missing key, a wrong type or value) says the field is
    ``malformed``; any other error passes through unchanged.

    >>> with SnapshotReader() as at:
    ...     at.field = "round"
    ...     _ = int("two")
    Traceback (most recent call last):
    ...
    engine.core.RulesError: state.round: malformed (invalid literal for int() with base 10: 'two')
    >>> with SnapshotReader() as at:
    ...     at.field = "phase"
    ...     raise RulesError("phase: unknown phase 'nap'")
    Traceback (most recent call last):
    ...
    engine.core.RulesError: state.phase: phase: unknown phase 'nap'
    """

    def __init__(
        self, malformed: tuple[type[Exception], ...] = (KeyError, TypeError, ValueError)
    ) -> None:
        self.field = "state"
        self._malformed = malformed

    def __enter__(self) -> SnapshotReader:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        err: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if isinstance(err, EngineError):
            raise RulesError(f"state.{self.field}: {err}") from None
        if isinstance(err, self._malformed):
            raise RulesError(f"state.{self.field}: malformed ({err})") from None


class _NamesWinner(Protocol):
    @property
    def winner(self) -> int | None: ...


OutcomeT = TypeVar("OutcomeT", bound=_NamesWinner)


class WinnerOutcome(Generic[OutcomeT]):
    """What a state whose end is its game's outcome value offers alike: ``outcome`` (the
    state's ``_outcome``, ``None`` while the game runs) and the ``winner`` it names (a
    1-based seat; ``None`` while the game runs or after a draw). A game's state class
    derives from it beside :class:`StateLog` (``WinnerOutcome[Outcome]``).

    >>> @dataclass(frozen=True)
    ... class Result:
    ...     winner: int | None
    >>> class Ended(WinnerOutcome[Result]):
    ...     def __init__(self, outcome: Result | None) -> None:
    ...         self._outcome = outcome
    >>> Ended(Result(2)).winner, Ended(Result(None)).winner, Ended(None).outcome
    (2, None, None)
    """

    __slots__ = ()
    _outcome: OutcomeT | None

    @property
    def outcome(self) -> OutcomeT | None:
        """How the game ended (``None`` while it runs)."""
        return self._outcome

    @property
    def winner(self) -> int | None:
        """The winning seat, 1-based (``None`` while the game runs or after a draw)."""
        return None if self._outcome is None else self._outcome.winner


class StateLog(Generic[G]):
    """What every game's state keeps alike: the actions applied since its record began
    (``history``), the events of the last one (``last_events``) and the snapshot the
    record began at (``start``, ``None`` at the game's initial state).

    A game's state class derives from it: the four slots ``_game`` (its game, of type
    ``G``), ``_history``, ``_last_events`` and ``_start`` are the base's (a slotted
    state lists only its own position's slots; tests/engine/test_state_log.py checks
    every game). Its :class:`Game` offers ``name``, ``rules_obj()``, ``players`` (the
    seats a record stores) and the actions' JSON forms. The base gives:

    - :meth:`_begin_log` (for ``__init__``), :meth:`_logged` (the end of
      ``apply_action``) and :meth:`_clone_log` (for ``clone``): a state's game and an
      empty log, an action and its events logged, and a new state with a copy of the log;
    - the ``game``, ``rules`` and ``players`` (the game's), ``history`` and ``last_events``
      properties (the lists are copies);
    - equality of two states of one class with the same game and ``_key()`` (the
      game's position; with equal logs too where the class says ``equal_logs=True``,
      which makes its states unhashable), and their hash;
    - :meth:`record`, the :class:`GameRecord` that replays the state;
    - :meth:`_snapshot`, the envelope of every ``to_json``: ``game``, the rules (under
      ``rules_key``), ``players``, then the game's own position fields, then
      ``history``, ``last_events`` and ``start``;
    - :meth:`_read_log`, the inverse of that tail for ``from_json``:
      ``state._history, state._last_events, state._start = state._read_log(obj, at)``.

    The smallest game on the base: one walker, each action a number of steps forward.

    >>> class Path(GameBase["Walk", int, int]):
    ...     name = "path"
    ...     def __init__(self, rules: int = 5, players: int = 1) -> None:
    ...         self._rules, self._players = rules, players
    ...     def rules_obj(self) -> int:
    ...         return self._rules
    ...     def action_to_json(self, action: int) -> list[Any]:
    ...         return ["step", action]
    ...     def action_from_json(self, obj: Any) -> int:
    ...         return int(obj[1])
    ...     def new_initial_state(self) -> Walk:
    ...         return Walk(self)
    ...     def state_from_json(self, obj: Mapping[str, Any]) -> Walk:
    ...         state = Walk(Path(obj["rules"]))
    ...         with SnapshotReader() as at:
    ...             at.field = "at"
    ...             state._at = int(obj["at"])
    ...             state._history, state._last_events, state._start = state._read_log(obj, at)
    ...         return state
    >>> class Walk(StateLog[Path]):
    ...     def __init__(self, game: Path) -> None:
    ...         self._begin_log(game)
    ...         self._at = 0
    ...     def _key(self) -> tuple[Any, ...]:
    ...         return (self._at,)
    ...     def apply_action(self, action: int) -> list[Event]:
    ...         self._at += action
    ...         return self._logged(action, [Event("step", 1, (), {"at": self._at})])
    ...     def clone(self) -> Walk:
    ...         other = self._clone_log()
    ...         other._at = self._at
    ...         return other
    ...     def to_json(self) -> dict[str, Any]:
    ...         return self._snapshot({"at": self._at})
    >>> walk = Path().new_initial_state()
    >>> _ = walk.apply_action(2)
    >>> copy = walk.clone()
    >>> _ = copy.apply_action(1)
    >>> walk.history, copy.history, copy == walk, copy.record().actions
    ([2], [2, 1], False, (['step', 2], ['step', 1]))
    >>> walk.to_json()
    {'game': 'path', 'rules': 5, 'players': 1, 'at': 2, 'history': [['step', 2]], 'last_events': [{'kind': 'step', 'seat': 1, 'tiles': [], 'data': {'at': 2}}], 'start': None}

    A record may begin at a snapshot (:meth:`GameBase.start_state`): its log begins
    empty there, and its record begins there.

    >>> later = Path().start_state(walk.to_json())
    >>> later.history, later.last_events, later == walk
    ([], [], True)
    >>> _ = later.apply_action(2)
    >>> later.record().actions, later.record().start == walk.to_json()
    ((['step', 2],), True)
    """

    __slots__ = ("_game", "_history", "_last_events", "_start")
    _history: list[int]
    _last_events: list[Event]
    _start: dict[str, Any] | None
    _game: G
    #: whether two states are equal only when their logs are equal too (history, last
    #: events and start), not their positions alone: a class says so with
    #: ``equal_logs=True`` (``class XState(StateLog[XGame], equal_logs=True)``), which
    #: also makes its states unhashable (a mutable log is part of what they are)
    _equal_logs: bool = False

    def __init_subclass__(cls, equal_logs: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if equal_logs:
            cls._equal_logs = True
            cls.__hash__ = None  # type: ignore[assignment]

    def __init__(self, game: G) -> None:
        """A state at its game's start, before the game's own position is set (a state
        class that takes more than its game calls :meth:`_begin_log` itself)."""
        self._begin_log(game)

    @classmethod
    def from_json(cls: type[T], obj: Mapping[str, Any]) -> T:
        """The state a snapshot (``to_json``) describes; each game's state class writes it."""
        raise NotImplementedError

    def _begin_log(self, game: G) -> None:
        """Set the state's game and an empty log (a new record at the game's start);
        for the state's ``__init__`` (see the example above)."""
        self._game = game
        self._history = []
        self._last_events = []
        self._start = None

    def _logged(self, action: int, events: list[Event]) -> list[Event]:
        """Log ``action`` and the ``events`` it caused, and return the events: the end of
        the state's ``apply_action`` (see the example above)."""
        self._history.append(action)
        self._last_events = events
        return events

    def _clone_log(self: T) -> T:
        """A new state of this class with this one's game and a copy of its log, for the
        state's ``clone`` to fill in its position (see the example above).

        The history is copied; the last events and the start are shared, as a state
        replaces them and never changes them in place.
        """
        cls = type(self)
        other = cls.__new__(cls)
        other._game = self._game
        other._history = self._history[:]
        other._last_events = self._last_events
        other._start = self._start
        return other

    @property
    def game(self) -> G:
        """The state's game."""
        return self._game

    @property
    def rules(self) -> Any:
        """The rules the state is played under: its game's (:class:`GameBase`'s ``_rules``,
        read directly: players read it on every position they weigh)."""
        game: Any = self._game
        return game._rules

    @property
    def players(self) -> int:
        """The seats its game's records store (its :class:`GameBase`'s ``_players``)."""
        game: Any = self._game
        return game._players

    def _key(self) -> tuple[Any, ...]:
        """What makes two states of the class and of one game equal: the position."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, type(self))
            and self._game == other._game
            and self._key() == other._key()
            and (not self._equal_logs or self._log() == other._log())
        )

    def __hash__(self) -> int:
        return hash((self._game, self._key()))

    def _log(self) -> tuple[list[int], list[Event], dict[str, Any] | None]:
        """The log: history, last events and start."""
        return self._history, self._last_events, self._start

    @property
    def last_events(self) -> list[Event]:
        return list(self._last_events)

    @property
    def history(self) -> list[int]:
        return list(self._history)

    def record(self) -> GameRecord:
        """Everything needed to replay this game: game, rules, seats and actions."""
        game: Any = self.game
        return GameRecord(
            game.name,
            game.rules_obj(),
            game.players,
            tuple(game.action_to_json(a) for a in self._history),
            self._start,
        )

    def _snapshot(self, position: Mapping[str, Any], rules_key: str = "rules") -> dict[str, Any]:
        """The JSON-ready snapshot: the envelope around the game's ``position`` fields."""
        game: Any = self.game
        return {
            "game": game.name,
            rules_key: game.rules_obj(),
            "players": game.players,
            **position,
            "history": [game.action_to_json(a) for a in self._history],
            "last_events": [e.to_dict() for e in self._last_events],
            "start": self._start,
        }

    def _read_log(
        self, obj: Mapping[str, Any], at: SnapshotReader
    ) -> tuple[list[int], list[Event], dict[str, Any] | None]:
        """The inverse of the snapshot's tail: ``history``, ``last_events`` and ``start``
        (each optional), naming the field being read in ``at``."""
        at.field = "history"
        game: Any = self.game
        history = [game.action_from_json(a) for a in obj.get("history", [])]
        at.field = "last_events"
        last_events = [Event.from_dict(e) for e in obj.get("last_events", [])]
        at.field = "start"
        start = obj.get("start")
        return history, last_events, None if start is None else dict(start)
