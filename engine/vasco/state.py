"""Vasco's game and state (OpenSpiel shape, engine.core.State and PlayableState).

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
>>> s.record().replay() == s
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import core
from engine.core import TERMINAL, ClickResult, Event, IllegalActionError, Refusal, RulesError
from engine.vasco.board import (
    ID_OFF,
    ID_WIDTH,
    REASONS,
    Auto,
    Frontier,
    Move,
    Outcome,
    Path,
    autos_of,
    blocked_cells,
    cascade_refusal,
    cell_id,
    check_placement,
    has_legal_move,
    id_cell,
    is_connected,
    judge,
    legal_states,
    near_cells,
    paths,
    refuse,
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

PLACE, OVER = "place", "over"
MARK = {1: "O", 2: "X"}
#: Coordinates are kept within +-SPAN/2 (far beyond any pool of MAX_POOL tiles).
MAX_POOL = 600
_SPAN = 4096
_OFF = _SPAN // 2
#: A candidate's cascade: its forced tiles' count (-1: refused) and the cell ids of the
#: tiles it placed (the candidate first). The refusal stands for any smaller pool; the
#: move is legal while the pool holds more tiles than it forces.
Entry = tuple[int, tuple[int, ...]]
#: Tiles placed since the position whose entries are kept, at most (then found afresh).
_PRIOR_TILES = 24


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


class VascoState(core.StateLog["VascoGame"], core.WinnerOutcome[Outcome], equal_logs=True):
    """A Vasco position, whose turn it is and how many tiles are left.

    OpenSpiel-style methods use 0-based players; ``to_move``, ``winner`` and events use
    seats (1 = O, 2 = X). Moves are cached: a state is changed only by ``apply``.
    """

    def __init__(self, game: VascoGame, tiles: dict[Cell, str], to_move: int, left: int) -> None:
        self._begin_log(game)
        self._tiles = tiles
        self._to_move = to_move
        self._left = left
        self._outcome: Outcome | None = None
        # the position's forced or unplayable cells (ids) and whether its tiles are one
        # group: found once for a hand-made position, trivial after a legal move
        self._blocked: tuple[int, ...] | None = None
        self._connected = True
        self._front: Frontier | None = None  # the board's cell keys, kept move by move
        self._legal: list[int] | None = None  # every legal action, once asked
        self._legal_set: frozenset[int] = frozenset()
        self._by_cell: dict[Cell, list[str]] | None = None  # the legal actions by cell
        # what each candidate's cascade gave, once the legal actions were found (never
        # changed in place: clones share it), and an earlier position's with the cell ids
        # of the tiles placed since (the cascades that read nothing near them still hold)
        self._entries: dict[int, Entry] | None = None
        self._prior: tuple[dict[int, Entry], tuple[int, ...]] | None = None
        self._runs: dict[str, list[Path]] | None = None  # each colour's paths, once found

    # ----- OpenSpiel-style interface ---------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self._outcome is not None else self._to_move

    def legal_actions(self) -> list[int]:
        """Sorted action ids of every legal placement (empty once the game is over)."""
        if self._outcome is not None:
            return []
        return list(self._legal_list())

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
        autos = self._attempt(place, action, keep=True)
        seat = self._to_move + 1
        events = [Event("place", seat, (place.cell,), {"tile": place.state})]
        tiles = self._tiles
        tiles[place.cell] = place.state
        for auto in autos:
            tiles[auto.cell] = auto.state
            events.append(
                Event(
                    "auto",
                    seat,
                    (auto.cell,),
                    {"tile": auto.state, "constrained": auto.constrained, "why": auto.why},
                )
            )
        self._runs = None
        self._left -= 1 + len(autos)
        self._to_move = 1 - self._to_move
        placed = (cell_id(place.cell), *(cell_id(a.cell) for a in autos))
        if self._entries is not None and not self._blocked and self._connected:
            self._prior = (self._entries, placed)
        elif self._prior is not None and len(self._prior[1]) < _PRIOR_TILES:
            self._prior = (self._prior[0], self._prior[1] + placed)
        else:
            self._prior = None
        self._entries = None
        self._blocked = ()
        self._connected = True
        self._legal, self._legal_set, self._by_cell = None, frozenset(), None
        self._outcome = self._judge()
        if self._outcome is not None:
            out = self._outcome
            data = {"reason": out.reason, "lengths": list(out.lengths)}
            if out.winner is None:
                events.append(Event("draw", None, out.highlight, data))
            else:
                events.append(Event("win", out.winner, out.highlight, data))
        return self._logged(action, events)

    def clone(self) -> VascoState:
        other = self._clone_log()
        other.__dict__.update(self.__dict__)
        other._tiles = dict(self._tiles)
        if self._front is not None:
            other._front = self._front.copy()
        return other  # the legal actions are never changed in place: shared

    # ----- rules -----------------------------------------------------------------------

    def try_move(self, place: Place) -> Move:
        """The move's result without applying it; raises :class:`IllegalActionError`."""
        autos = self._attempt(place, encode(place), keep=False)
        board = dict(self._tiles)
        board[place.cell] = place.state
        board.update((a.cell, a.state) for a in autos)
        return Move(board, autos)

    def _attempt(self, place: Place, action: int, keep: bool) -> tuple[Auto, ...]:
        """The forced tiles of ``place`` (§2.5), kept in the board's frontier when
        ``keep``; raises :class:`IllegalActionError` (nothing changed) when illegal."""
        if self._outcome is not None:
            raise refuse("game_over", "The game is over: no more tiles can be placed.")
        if action not in self._legal_set:  # a listed legal action passed these checks
            check_placement(self._tiles, self._left, place.cell, place.state)
        front = self._frontier()
        blocked, connected = self._position()
        i = cell_id(place.cell)
        reason, stuck, forced, kids = front.cascade(
            i, STATE_INDEX[place.state], self._left, blocked, connected, self._tiles)
        if reason is not None:
            raise cascade_refusal(reason, stuck, place.cell, self._left)
        if keep:
            front.commit([i, *(a for a, _, _ in forced)], kids)
        return autos_of(forced)

    def _position(self) -> tuple[tuple[int, ...], bool]:
        """The position's :func:`blocked_cells` (as ids) and :func:`is_connected`
        (computed once: trivial after a legal move, needed for a hand-made one)."""
        if self._blocked is None:
            self._blocked = tuple(cell_id(c) for c in blocked_cells(self._tiles))
            self._connected = is_connected(self._tiles)
        return self._blocked, self._connected

    def _frontier(self) -> Frontier:
        if self._front is None:
            self._front = Frontier(self._tiles)
        return self._front

    def _legal_list(self) -> list[int]:
        """Every legal action, sorted: each candidate cell (row-major) with each state
        that fits and leaves no dead cell next to it (in :data:`STATES` order), kept when
        its forced cascade refuses nothing.

        Each candidate's cascade is remembered (:data:`Entry`); the next position reruns
        only those that read a cell near the tiles placed since (:meth:`_reusable`)."""
        if self._legal is None:
            out: list[int] = []
            left = self._left
            entries: dict[int, Entry] = {}
            if left >= 1:
                front = self._frontier()
                blocked, connected = self._position()
                tiles, cascade = self._tiles, front.cascade
                old, near = self._reusable()
                for i in sorted(front.cands):
                    states = front.cell_states(i)
                    if not states:
                        continue
                    r, c = divmod(i, ID_WIDTH)
                    base = ((r - ID_OFF + _OFF) * _SPAN + c - ID_OFF + _OFF) * 6
                    for s in states:
                        key = i * 6 + s
                        entry = old.get(key)
                        if entry is None or not near.isdisjoint(entry[1]):
                            reason, _, forced, _ = cascade(i, s, left, blocked, connected, tiles)
                            entry = (len(forced) if reason is None else -1,
                                     (i, *[f for f, _, _ in forced]))
                        entries[key] = entry
                        if 0 <= entry[0] < left:
                            out.append(base + s)
                if not blocked and connected:
                    self._entries = entries
            self._legal, self._legal_set = out, frozenset(out)
        return self._legal

    def _reusable(self) -> tuple[dict[int, Entry], set[int]]:
        """An earlier position's :data:`Entry` by candidate, and the cells near the tiles
        placed since (whose entries must be found again); nothing for a hand-made
        position with forced or unplayable cells."""
        if self._prior is None or self._position() != ((), True):
            return {}, set()
        return self._prior[0], near_cells(self._prior[1])

    def _moves_by_cell(self) -> dict[Cell, list[str]]:
        """The legal actions as ``{cell: [states]}``, cells row-major."""
        if self._by_cell is None:
            by_cell: dict[Cell, list[str]] = {}
            if self._outcome is None:
                for a in self._legal_list():
                    place = decode(a)
                    by_cell.setdefault(place.cell, []).append(place.state)
            self._by_cell = by_cell
        return self._by_cell

    def has_legal_move(self) -> bool:
        """Whether the side to move can place anywhere (stops at the first legal move)."""
        if self._legal is not None:
            return bool(self._legal)
        blocked, connected = self._position()
        return has_legal_move(self._tiles, self._left, blocked=map(id_cell, blocked),
                              connected=connected, frontier=self._frontier())

    def _judge(self) -> Outcome | None:
        return judge(self._tiles, self._left, self.has_legal_move, self._paths())

    def _paths(self) -> dict[str, list[Path]]:
        if self._runs is None:
            self._runs = {k: paths(self._tiles, k) for k in ("o", "x")}
        return self._runs

    # ----- what the app shows ----------------------------------------------------------

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

    def paths(self, colour: str) -> list[Path]:
        """Every run of ``colour`` (``"o"`` or ``"x"``) on the board, loops ``closed``."""
        runs = self._paths()
        return list(runs[colour]) if colour in runs else paths(self._tiles, colour)

    def legal_states_at(self, cell: Cell) -> list[str]:
        """The tile states a move may put on ``cell`` now (in :data:`STATES` order)."""
        return list(self._moves_by_cell().get(cell, ()))

    def legal_cells(self) -> list[Cell]:
        """Cells where some tile may go now, row-major."""
        return list(self._moves_by_cell())

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
            return [cell_name(cell) for cell, states in self._moves_by_cell().items()
                    if held in states]
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
            sorted(self._tiles.items()),
            self._to_move,
            self._left,
            self._outcome,
        )

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
        with core.SnapshotReader() as at:
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


def _check_players(players: object) -> None:
    if players != 2 or isinstance(players, bool):
        raise RulesError(f"players: Vasco is for exactly 2 players, got {players!r}")


class VascoGame(core.GameBase[VascoState, Place, Rules]):
    """Immutable Vasco game: rules (the pool) for two seats; makes states.

    >>> VascoGame({"pool": 12}).new_initial_state().tiles_remaining
    12
    """

    name = "vasco"
    _players = 2  # the seats a record stores (always 2)
    codec = core.ActionCodec(encode, decode, action_from_json)
    state_type = VascoState

    def __init__(self, rules: Any = "standard", players: int = 2) -> None:
        _check_players(players)
        self._rules = Rules.from_obj(rules)

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


core.register_game("vasco", VascoGame)


def _seat_words(seat: int) -> str:
    return "O (red)" if seat == 1 else "X (blue)"
