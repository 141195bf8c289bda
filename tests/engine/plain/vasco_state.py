"""Vasco's state as it was before the keyed cascade (main at a3440bd), on the board
functions of then (tests/engine/plain/vasco_board.py), kept only as the plain path the
differential test (tests/engine/test_fast_paths.py) plays every seeded random game
through beside the engine's: not registered, not product code.

Seat 1 is O (red) and moves first; seat 2 is X (blue). There is no chance: every
action is a placement ``Place(r, c, state)``; forced tiles follow by themselves.

>>> game = VascoGame()
>>> s = game.new_initial_state()
>>> s.phase, s.current_player(), s.tiles_remaining, len(s.legal_actions())
('place', 0, 54, 6)
>>> [e.kind for e in s.apply(Place(0, 0, "ox*"))]
['place']
>>> [e.kind for e in s.apply(Place(0, 1, "xo*"))], s.to_move
(['place'], 1)
>>> [(e.kind, e.tiles) for e in s.apply(Place(1, 2, "ox*"))]
[('place', ((1, 2),)), ('auto', ((0, 2),)), ('auto', ((1, 0),)), ('auto', ((1, 1),))]
>>> s.tiles_remaining, s.to_move
(48, 2)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import (
    TERMINAL,
    ClickResult,
    Event,
    IllegalActionError,
    Refusal,
    RulesError,
    SnapshotReader,
    StateLog,
)
from engine.vasco.geometry import (
    OPPOSITE,
    STATE_INDEX,
    STATES,
    Cell,
    cell_name,
    is_up,
    neighbours,
    parse_cell,
)
from tests.engine.plain.vasco_board import (
    REASONS,
    Move,
    Outcome,
    Path,
    blocked_cells,
    candidate_cells,
    has_legal_move,
    is_connected,
    iter_cell_moves,
    iter_legal_moves,
    judge,
    legal_states,
    paths,
    play,
    refuse,
)

PLACE, OVER = "place", "over"
MARK = {1: "O", 2: "X"}
#: Coordinates are kept within +-SPAN/2 (far beyond any pool of MAX_POOL tiles).
MAX_POOL = 600
_SPAN = 4096
_OFF = _SPAN // 2


@dataclass(frozen=True)
class Rules:
    """Vasco's one option: the pool size (pbmserv's ``-size``; default 54).

    >>> Rules.from_obj("standard"), Rules.from_obj({"base": "standard", "pool": 24}).pool
    (Rules(pool=54), 24)
    >>> Rules.from_obj({"pool": 0})
    Traceback (most recent call last):
    ...
    engine.core.RulesError: rules.pool: must be a whole number from 1 to 600, got 0
    """

    pool: int = 54

    @classmethod
    def from_obj(cls, obj: Any) -> Rules:
        if isinstance(obj, Rules):
            return obj
        if obj is None or obj == "standard":
            return cls()
        if isinstance(obj, str):
            raise RulesError(f"rules: unknown preset {obj!r} (only 'standard')")
        if not isinstance(obj, Mapping):
            raise RulesError(f"rules: must be 'standard' or an object, got {obj!r}")
        for key in obj:
            if key not in ("base", "pool"):
                raise RulesError(f"rules.{key}: unknown option (options: pool)")
        if obj.get("base", "standard") != "standard":
            raise RulesError(f"rules.base: unknown preset {obj.get('base')!r} (only 'standard')")
        pool = obj.get("pool", 54)
        if isinstance(pool, bool) or not isinstance(pool, int) or not 1 <= pool <= MAX_POOL:
            raise RulesError(
                f"rules.pool: must be a whole number from 1 to {MAX_POOL}, got {pool!r}"
            )
        return cls(pool)

    def to_obj(self) -> str | dict[str, Any]:
        return "standard" if self == Rules() else {"base": "standard", "pool": self.pool}


@dataclass(frozen=True)
class Place:
    """Put a tile in ``state`` (edges L, R, H) on cell ``(r, c)``.

    >>> Place(1, 2, "ox*").to_json()
    ['place', [1, 2], 'ox*']
    >>> decode(encode(Place(-3, 5, "*xo")))
    Place(r=-3, c=5, state='*xo')
    """

    r: int
    c: int
    state: str

    def __post_init__(self) -> None:
        for name in ("r", "c"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or not -_OFF <= v < _OFF:
                raise RulesError(f"place.{name}: must be a whole number within ±{_OFF}, got {v!r}")
        if self.state not in STATE_INDEX:
            raise RulesError(
                f"place.state: {self.state!r} is not a tile state (o, x and * once each, "
                "on edges L R H)"
            )

    @property
    def cell(self) -> Cell:
        return (self.r, self.c)

    def to_json(self) -> list[Any]:
        return ["place", [self.r, self.c], self.state]


def encode(action: Place) -> int:
    return ((action.r + _OFF) * _SPAN + (action.c + _OFF)) * 6 + STATE_INDEX[action.state]


def decode(action: int) -> Place:
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < _SPAN**2 * 6:
        raise IllegalActionError("unknown_action", f"{action!r} is not a Vasco action")
    rc, s = divmod(action, 6)
    r, c = divmod(rc, _SPAN)
    return Place(r - _OFF, c - _OFF, STATES[s])


def action_from_json(obj: Any) -> Place:
    """``["place", [r, c], "ox*"]`` → :class:`Place`; :class:`RulesError` when malformed."""
    if (
        not isinstance(obj, Sequence)
        or isinstance(obj, str)
        or len(obj) != 3
        or obj[0] != "place"
        or not isinstance(obj[1], Sequence)
        or len(obj[1]) != 2
    ):
        raise RulesError(f"action: must be ['place', [r, c], 'ox*'], got {obj!r}")
    return Place(obj[1][0], obj[1][1], obj[2])


def _check_players(players: object) -> None:
    if players != 2 or isinstance(players, bool):
        raise RulesError(f"players: Vasco is for exactly 2 players, got {players!r}")


class VascoGame:
    """Immutable Vasco game: rules (the pool) for two seats; makes states.

    >>> VascoGame({"pool": 12}).new_initial_state().tiles_remaining
    12
    """

    name = "vasco"

    def __init__(self, rules: Any = "standard", players: int = 2) -> None:
        _check_players(players)
        self._rules = Rules.from_obj(rules)

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def num_players(self) -> int:
        return 2

    @property
    def players(self) -> int:
        """The seats a record stores (always 2)."""
        return 2

    def __eq__(self, other: object) -> bool:
        return isinstance(other, VascoGame) and self._rules == other._rules

    def __hash__(self) -> int:
        return hash(self._rules)

    def __repr__(self) -> str:
        return f"VascoGame(pool={self._rules.pool})"

    def rules_obj(self) -> Any:
        return self._rules.to_obj()

    def new_initial_state(self) -> VascoState:
        return VascoState(self, {}, 0, self._rules.pool)

    def state_from_position(
        self,
        tiles: Mapping[Cell, str] | None = None,
        to_move: int = 1,
        tiles_remaining: int | None = None,
    ) -> VascoState:
        """A state from a position; :class:`RulesError` names the bad field.

        Every tile must be a state, every shared edge must match and the tiles must be
        edge-connected. ``tiles_remaining`` defaults to the pool minus the tiles.
        """
        tiles = dict(tiles or {})
        for cell, st in tiles.items():
            if st not in STATE_INDEX:
                raise RulesError(f"tiles: {cell_name(cell)} holds {st!r}, not a tile state")
            for e, n in enumerate(neighbours(cell)):
                other = tiles.get(n)
                if other is not None and other[OPPOSITE[e]] != st[e]:
                    raise RulesError(
                        f"tiles: {cell_name(cell)} and {cell_name(n)} do not match on their "
                        "shared edge"
                    )
        if not is_connected(tiles):
            raise RulesError("tiles: the tiles are not one edge-connected group")
        if isinstance(to_move, bool) or to_move not in (1, 2):
            raise RulesError(f"to_move: must be 1 (O) or 2 (X), got {to_move!r}")
        left = self._rules.pool - len(tiles) if tiles_remaining is None else tiles_remaining
        if isinstance(left, bool) or not isinstance(left, int) or left < 0:
            raise RulesError(f"tiles_remaining: must be a whole number >= 0, got {left!r}")
        state = VascoState(self, tiles, to_move - 1, left)
        state._start = state.to_json()
        return state

    def start_state(self, start: Mapping[str, Any] | None) -> VascoState:
        if start is None:
            return self.new_initial_state()
        state = VascoState.from_json(start)
        if state.game != self:
            raise RulesError("start: rules differ from the record's")
        state._start = dict(start)
        return state

    def encode(self, action_obj: Place) -> int:
        return encode(action_obj)

    def decode(self, action: int) -> Place:
        return decode(action)

    def action_to_json(self, action: int) -> list[Any]:
        return decode(action).to_json()

    def action_from_json(self, obj: Any) -> int:
        return encode(action_from_json(obj))

    def state_from_json(self, obj: Mapping[str, Any]) -> VascoState:
        return VascoState.from_json(obj)




class VascoState(StateLog):
    """A Vasco position, whose turn it is and how many tiles are left.

    OpenSpiel-style methods use 0-based players; ``to_move``, ``winner`` and events use
    seats (1 = O, 2 = X). Moves are cached: a state is changed only by ``apply``.
    """

    def __init__(self, game: VascoGame, tiles: dict[Cell, str], to_move: int, left: int) -> None:
        self._game = game
        self._tiles = tiles
        self._to_move = to_move
        self._left = left
        self._outcome: Outcome | None = None
        self._history: list[int] = []
        self._last_events: list[Event] = []
        self._start: dict[str, Any] | None = None
        self._blocked: tuple[Cell, ...] | None = None
        self._connected = True
        self._moves: dict[int, Move] | None = None
        # found lazily, per cell, for the clicks: the candidate cells, each one's legal
        # moves (all of its states), and whether a tile may go there (the first found)
        self._cands: list[Cell] | None = None
        self._cell_moves: dict[Cell, dict[str, Move]] = {}
        self._open: dict[Cell, bool] = {}

    # ----- OpenSpiel-style interface ---------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self._outcome is not None else self._to_move

    def legal_actions(self) -> list[int]:
        """Sorted action ids of every legal placement (empty once the game is over)."""
        if self._outcome is not None:
            return []
        return sorted(self._legal_moves())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []  # Vasco has no chance

    def is_chance_node(self) -> bool:
        return False

    def is_terminal(self) -> bool:
        return self._outcome is not None

    def returns(self) -> list[float]:
        if self._outcome is None or self._outcome.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self._outcome.winner == 1 else [-1.0, 1.0]

    def apply(self, action: Place) -> list[Event]:
        """Apply a :class:`Place`; see :meth:`apply_action`."""
        if not isinstance(action, Place):
            raise IllegalActionError("unknown_action", f"{action!r} is not a Vasco action")
        return self.apply_action(encode(action))

    def apply_action(self, action: int) -> list[Event]:
        """Place a tile, fill the forced cells, then judge the end (§2.5, §2.7).

        Raises :class:`IllegalActionError` (reason in :data:`engine.vasco.board.REASONS`)
        and leaves the state untouched when the rules forbid the move.
        """
        place = decode(action)
        move = self.try_move(place)
        seat = self._to_move + 1
        events = [Event("place", seat, (place.cell,), {"tile": place.state})]
        for auto in move.autos:
            events.append(
                Event(
                    "auto",
                    seat,
                    (auto.cell,),
                    {"tile": auto.state, "constrained": auto.constrained, "why": auto.why},
                )
            )
        self._tiles = move.board
        self._left -= move.tiles_used
        self._to_move = 1 - self._to_move
        self._blocked = ()
        self._connected = True
        self._moves = None
        self._cands, self._cell_moves, self._open = None, {}, {}
        self._history.append(action)
        self._outcome = self._judge()
        if self._outcome is not None:
            out = self._outcome
            data = {"reason": out.reason, "lengths": list(out.lengths)}
            if out.winner is None:
                events.append(Event("draw", None, out.highlight, data))
            else:
                events.append(Event("win", out.winner, out.highlight, data))
        self._last_events = events
        return events

    def clone(self) -> VascoState:
        other = self._clone_log()  # the game and the log (slots of engine.core's StateLog)
        other.__dict__.update(self.__dict__)
        other._tiles = dict(self._tiles)
        other._moves = None if self._moves is None else dict(self._moves)
        other._cell_moves = dict(self._cell_moves)
        other._open = dict(self._open)
        return other

    # ----- rules -----------------------------------------------------------------------

    def try_move(self, place: Place) -> Move:
        """The move's result without applying it; raises :class:`IllegalActionError`."""
        if self._outcome is not None:
            raise refuse("game_over", "The game is over: no more tiles can be placed.")
        if self._moves is not None:
            move = self._moves.get(encode(place))
            if move is not None:
                return move
        elif place.cell in self._cell_moves:
            move = self._cell_moves[place.cell].get(place.state)
            if move is not None:
                return move
        blocked, connected = self._position()
        return play(
            self._tiles, self._left, place.cell, place.state, blocked=blocked, connected=connected
        )

    def _position(self) -> tuple[tuple[Cell, ...], bool]:
        """The position's :func:`blocked_cells` and :func:`is_connected` (computed once:
        trivial after a legal move, needed for a hand-made one)."""
        if self._blocked is None:
            self._blocked = blocked_cells(self._tiles)
            self._connected = is_connected(self._tiles)
        return self._blocked, self._connected

    def _candidates(self) -> Iterator[tuple[int, Move]]:
        blocked, connected = self._position()
        for (cell, st), move in iter_legal_moves(
            self._tiles, self._left, blocked=blocked, connected=connected
        ):
            yield encode(Place(cell[0], cell[1], st)), move

    def _legal_moves(self) -> dict[int, Move]:
        if self._moves is None:
            if self._cell_moves:  # some cells are known already: the others' moves
                self._moves = {
                    encode(Place(cell[0], cell[1], st)): move
                    for cell in self._candidate_cells()
                    for st, move in self._moves_at(cell).items()
                }
            else:
                self._moves = dict(self._candidates())
        return self._moves

    def _candidate_cells(self) -> list[Cell]:
        if self._cands is None:
            self._cands = candidate_cells(self._tiles)
        return self._cands

    def _moves_at(self, cell: Cell) -> dict[str, Move]:
        """The legal moves on ``cell`` by state (none off the candidate cells)."""
        if self._moves is not None:
            return {
                st: move
                for st in STATES
                if (move := self._moves.get(encode(Place(cell[0], cell[1], st)))) is not None
            }
        moves = self._cell_moves.get(cell)
        if moves is None:
            moves = {}
            if cell in self._candidate_cells() and self._left >= 1:
                blocked, connected = self._position()
                moves = dict(iter_cell_moves(
                    self._tiles, self._left, cell, blocked=blocked, connected=connected))
            self._cell_moves[cell] = moves
        return moves

    def _cell_open(self, cell: Cell) -> bool:
        """Whether some tile may go on candidate ``cell`` (stops at the first state)."""
        if self._moves is not None or cell in self._cell_moves:
            return bool(self._moves_at(cell))
        known = self._open.get(cell)
        if known is None:
            blocked, connected = self._position()
            known = self._open[cell] = next(iter_cell_moves(
                self._tiles, self._left, cell, blocked=blocked, connected=connected),
                None) is not None
        return known

    def has_legal_move(self) -> bool:
        """Whether the side to move can place anywhere (stops at the first legal move)."""
        if self._moves is not None:
            return bool(self._moves)
        blocked, connected = self._position()
        return has_legal_move(self._tiles, self._left, blocked=blocked, connected=connected)

    def _judge(self) -> Outcome | None:
        return judge(self._tiles, self._left, self.has_legal_move)

    # ----- what the app shows ----------------------------------------------------------

    @property
    def game(self) -> VascoGame:
        return self._game

    @property
    def rules(self) -> Rules:
        return self._game.rules

    @property
    def phase(self) -> str:
        """``"place"`` while the game runs, ``"over"`` after."""
        return OVER if self._outcome is not None else PLACE

    @property
    def to_move(self) -> int:
        """Seat to place next (1 = O, 2 = X); after the end, the seat that would have."""
        return self._to_move + 1

    @property
    def tiles(self) -> dict[Cell, str]:
        return dict(self._tiles)

    @property
    def tiles_remaining(self) -> int:
        return self._left

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def winner(self) -> int | None:
        return None if self._outcome is None else self._outcome.winner

    def paths(self, colour: str) -> list[Path]:
        """Every run of ``colour`` (``"o"`` or ``"x"``) on the board, loops ``closed``."""
        return paths(self._tiles, colour)

    def legal_states_at(self, cell: Cell) -> list[str]:
        """The tile states a move may put on ``cell`` now (in :data:`STATES` order)."""
        if self._outcome is not None:
            return []
        return list(self._moves_at(cell))

    def legal_cells(self) -> list[Cell]:
        """Cells where some tile may go now, row-major (each cell's states are looked at
        only until one is legal: a click needs no more)."""
        if self._outcome is not None:
            return []
        if self._moves is not None:
            return sorted({decode(a).cell for a in self._moves})
        return [cell for cell in self._candidate_cells() if self._cell_open(cell)]

    def open_states(self, cell: Cell) -> tuple[str, ...]:
        """The states that fit ``cell`` and leave no same-colour gap (before any cascade)."""
        return legal_states(self._tiles, cell)

    def legal_targets(self, selection: Sequence[str] = ()) -> list[str]:
        """Click targets: with nothing selected, the cells ``"r,c"`` where a tile may go;
        with a cell selected, its legal tile states; with a tile state selected, the
        cells where that state may go."""
        if self._outcome is not None:
            return []
        if not selection:
            return [cell_name(c) for c in self.legal_cells()]
        held = selection[-1]
        if held in STATE_INDEX:
            return [
                cell_name(decode(a).cell)
                for a in sorted(self._legal_moves())
                if decode(a).state == held
            ]
        try:
            cell = parse_cell(held)
        except ValueError:
            return []
        return self.legal_states_at(cell)

    def click(self, target: str, selection: Sequence[str] = ()) -> ClickResult:
        """What a click means, without changing the state.

        Cells are ``"r,c"``, tile states ``"ox*"`` (edges L R H). A cell then a state (or a
        state then a cell) completes a move; a lone cell or state is held selected.

        >>> s = VascoGame().new_initial_state()
        >>> s.click("0,0")
        ClickResult(action=None, refusal=None, selection=('0,0',), fields={'cell': '0,0'})
        >>> s.click("ox*", ("0,0",)).ok, s.click("1,1").refusal.reason
        (True, 'centre_first')
        """
        if self._outcome is not None:
            return ClickResult(None, Refusal("game_over", "The game is over."), (), {})
        held = selection[-1] if selection else None
        if target in STATE_INDEX:
            if held is None or held in STATE_INDEX:
                return ClickResult(None, None, (target,), {"tile": target})
            return self._click_move(held, target)
        try:
            cell = parse_cell(target)
        except ValueError:
            return ClickResult(
                None,
                Refusal("bad_target", "Click a cell of the board or one of the tiles."),
                tuple(selection),
                {},
            )
        name = cell_name(cell)
        if held is not None and held in STATE_INDEX:
            return self._click_move(name, held)
        if self.legal_states_at(cell):
            return ClickResult(None, None, (name,), {"cell": name})
        refusal = self._cell_refusal(cell)
        return ClickResult(None, refusal, (), {"cell": name})

    def _click_move(self, cell_text: str, state: str) -> ClickResult:
        try:
            cell = parse_cell(cell_text)
        except ValueError:
            return ClickResult(
                None, Refusal("bad_target", "Click a cell of the board first."), (), {"tile": state}
            )
        name = cell_name(cell)
        fields = {"cell": name, "tile": state}
        place = Place(cell[0], cell[1], state)
        try:
            self.try_move(place)
        except IllegalActionError as err:
            return ClickResult(None, Refusal(err.reason, str(err)), (name,), fields)
        return ClickResult(encode(place), None, (), fields)

    def _cell_refusal(self, cell: Cell) -> Refusal:
        """Why no tile can go on ``cell``: the reason of the state that got furthest."""
        order = list(REASONS)
        best: IllegalActionError | None = None
        for st in STATES:
            try:
                self.try_move(Place(cell[0], cell[1], st))
            except IllegalActionError as err:
                if best is None or order.index(err.reason) > order.index(best.reason):
                    best = err
        assert best is not None
        if best.reason in ("mismatch", "dead_cell"):
            return Refusal(best.reason, f"No tile can go on {cell_name(cell)}: {best}")
        return Refusal(best.reason, str(best))

    def to_text(self) -> str:
        """A plain-text view: whose turn, the pool, then each row's tiles.

        >>> s = VascoGame().new_initial_state()
        >>> _ = s.apply(Place(0, 0, "ox*"))
        >>> print(s.to_text())
        Vasco: X (blue) to move, 53 tiles left.
        row 0: 0,0 up ox*
        """
        if self._outcome is None:
            head = f"Vasco: {_seat_words(self.to_move)} to move, {self._left} tiles left."
        elif self._outcome.winner is None:
            head = f"Vasco: a draw ({self._outcome.reason}), {self._left} tiles left."
        else:
            head = (
                f"Vasco: {_seat_words(self._outcome.winner)} wins ({self._outcome.reason}), "
                f"{self._left} tiles left."
            )
        lines = [head]
        for r in sorted({r for r, _ in self._tiles}):
            row = sorted(c for rr, c in self._tiles if rr == r)
            cells = "; ".join(
                f"{r},{c} {'up' if is_up((r, c)) else 'down'} {self._tiles[(r, c)]}" for c in row
            )
            lines.append(f"row {r}: {cells}")
        return "\n".join(lines)

    # ----- JSON ------------------------------------------------------------------------

    def _key(self) -> tuple[Any, ...]:
        return (
            self._game,
            sorted(self._tiles.items()),
            self._to_move,
            self._left,
            self._outcome,
            self._history,
            self._last_events,
            self._start,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, VascoState) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"<VascoState {self.phase} to_move={self.to_move} tiles={len(self._tiles)}>"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready snapshot; :meth:`from_json` restores an equal state."""
        out = self._outcome
        return self._snapshot({
            "tiles": [[r, c, st] for (r, c), st in sorted(self._tiles.items())],
            "to_move": self._to_move + 1,
            "tiles_remaining": self._left,
            "outcome": None
            if out is None
            else {
                "winner": out.winner,
                "reason": out.reason,
                "highlight": [list(c) for c in out.highlight],
                "lengths": list(out.lengths),
            },
        })

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> VascoState:
        """Rebuild a state from :meth:`to_json`; raises :class:`RulesError` naming a bad field."""
        with SnapshotReader() as at:
            at.field = "rules"
            game = VascoGame(obj["rules"], obj.get("players", 2))
            at.field = "tiles"
            tiles: dict[Cell, str] = {}
            for r, c, st in obj["tiles"]:
                if isinstance(r, bool) or isinstance(c, bool):
                    raise RulesError("tiles: a cell is r, c numbers")
                tiles[(int(r), int(c))] = str(st)
            state = game.state_from_position(tiles, obj["to_move"], obj["tiles_remaining"])
            at.field = "outcome"
            o = obj.get("outcome")
            if o is not None:
                state._outcome = Outcome(
                    o["winner"],
                    str(o["reason"]),
                    tuple((int(a), int(b)) for a, b in o.get("highlight", [])),
                    tuple(int(v) for v in o.get("lengths", (0, 0))),  # type: ignore[arg-type]
                )
            state._history, state._last_events, state._start = state._read_log(obj, at)
        return state


def _seat_words(seat: int) -> str:
    return "O (red)" if seat == 1 else "X (blue)"
