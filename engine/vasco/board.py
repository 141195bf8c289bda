"""Vasco's placement rules on a sparse board (rules-other-games.md §2.4–2.7), as pure functions.

A board is a mapping ``{(r, c): state}`` of placed tiles (states as in
:mod:`engine.vasco.geometry`). Nothing here keeps state: :func:`play` returns a
new board with the forced tiles, or raises :class:`~engine.core.IllegalActionError`
with a stable reason code and a sentence in the player's words.

The seed's Figure 3: ``c = (1,2) ox*`` forces ``(0,2)``, ``(1,0)`` and ``(1,1)``.

>>> board = {(0, 0): "ox*", (0, 1): "xo*"}
>>> move = play(board, 52, (1, 2), "ox*")
>>> [(a.cell, a.state) for a in move.autos]
[((0, 2), 'ox*'), ((1, 0), 'ox*'), ((1, 1), 'xo*')]
>>> len(move.board)
6

Figure 4 is refused: ``(0,2) xo*`` next to ``(0,0) ox*`` leaves ``(0,1)`` with two x ends.

>>> play({(0, 0): "ox*"}, 53, (0, 2), "xo*")
Traceback (most recent call last):
...
engine.core.IllegalActionError: That tile would leave a gap between two x (blue) path ends at 0,1: no tile could ever fill it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import IllegalActionError
from engine.vasco.geometry import (
    OPPOSITE,
    STATES,
    Cell,
    cell_name,
    neighbours,
    touching,
    within_two,
)

Board = Mapping[Cell, str]

_COLOUR_WORDS = {"o": "o (red)", "x": "x (blue)", "*": "* (purple)"}

#: The refusal codes :func:`play` (and the state) may give, in the order they are checked,
#: with what each means. Stable: logs and analytics count them.
REASONS: dict[str, str] = {
    "game_over": "the game is over",
    "not_your_turn": "it is the other player's turn",
    "bad_tile": "not one of the six tile states",
    "occupied": "the cell already holds a tile",
    "centre_first": "the first tile goes in the middle, on cell 0,0",
    "no_contact": "the cell touches no tile, not even at a corner",
    "mismatch": "the tile's path ends do not match a neighbour's",
    "dead_cell": "the tile leaves a gap between two path ends of the same colour",
    "not_enough_tiles": "the forced tiles would need more tiles than the pool holds",
    "unplayable": "the forced tiles leave a gap that no tile can fill",
    "not_connected": "the tile touches only at a corner and no forced tile joins it",
}


@dataclass(frozen=True)
class Auto:
    """A tile the rules placed by themselves, and why: ``constrained`` is how many
    of the cell's edges were already fixed (3: a hole, 2: a 60° gap, 1: a 120° gap
    or channel, where the neighbour's constraint rules out the other state)."""

    cell: Cell
    state: str
    constrained: int

    @property
    def why(self) -> str:
        """A sentence saying why the tile appeared, in the player's words."""
        where = cell_name(self.cell)
        if self.constrained >= 3:
            return f"Tile added at {where}: the hole there fits exactly one tile."
        if self.constrained == 2:
            return f"Tile added at {where}: the narrow gap there fits only one tile."
        return f"Tile added at {where}: only one tile there leaves its neighbour playable."


@dataclass(frozen=True)
class Move:
    """A legal move's result: the new board and the forced tiles in placing order."""

    board: dict[Cell, str]
    autos: tuple[Auto, ...]

    @property
    def tiles_used(self) -> int:
        return 1 + len(self.autos)


@dataclass(frozen=True)
class Path:
    """A connected run of one colour's arcs; ``closed`` for a loop. Length = tiles."""

    colour: str
    cells: tuple[Cell, ...]
    closed: bool

    @property
    def length(self) -> int:
        return len(self.cells)


@dataclass(frozen=True)
class Outcome:
    """How the game ended: ``winner`` seat (None: a draw), ``reason`` and the tiles to
    highlight (the decisive loops, or the longest paths), with the two colours'
    lengths ``(o, x)`` that decided.

    ``reason``: ``loop`` (one colour closed a loop: its owner wins), ``both_loops``
    (the longer loop loses), ``pool_empty`` or ``no_move`` (the longer path loses).
    """

    winner: int | None
    reason: str
    highlight: tuple[Cell, ...] = ()
    lengths: tuple[int, int] = (0, 0)


#: Seat (1-based) of each colour: O is red and moves first.
SEAT_OF = {"o": 1, "x": 2}


def refuse(reason: str, message: str) -> IllegalActionError:
    """The engine's typed refusal (``reason`` is one of :data:`REASONS`)."""
    assert reason in REASONS, reason
    return IllegalActionError(reason, message)


def constraints(board: Board, cell: Cell) -> list[str | None]:
    """The colour each edge of ``cell`` must carry (``None``: no tile across that edge)."""
    out: list[str | None] = [None, None, None]
    for e, n in enumerate(neighbours(cell)):
        tile = board.get(n)
        if tile is not None:
            out[e] = tile[OPPOSITE[e]]
    return out


def is_frontier(board: Board, cell: Cell) -> bool:
    """An empty cell with at least one tile across an edge."""
    return cell not in board and any(n in board for n in neighbours(cell))


def fits(board: Board, cell: Cell, state: str) -> bool:
    """``state`` agrees with every constrained edge of ``cell``."""
    return all(k is None or k == state[e] for e, k in enumerate(constraints(board, cell)))


def dead_colour(board: Board, cell: Cell) -> str | None:
    """The colour of two constrained edges of ``cell`` that are alike (a dead cell), else None."""
    seen: set[str] = set()
    for k in constraints(board, cell):
        if k is not None:
            if k in seen:
                return k
            seen.add(k)
    return None


def legal_states(board: Board, cell: Cell) -> tuple[str, ...]:
    """The states that fit ``cell`` and create no same-colour point next to it.

    For every empty neighbour N, the colours of N's constrained edges together with
    the state's colour on the shared edge must be pairwise distinct.

    >>> legal_states({(0, 0): "ox*"}, (0, 1))
    ('xo*', 'x*o')
    """
    return states_of_key(cell_key(board, cell))


#: What the legal states of an empty cell depend on, per edge: the colour a tile across it
#: imposes (a str), or the colours fixed around the empty neighbour there (a sorted tuple).
CellKey = tuple["str | tuple[str, ...]", "str | tuple[str, ...]", "str | tuple[str, ...]"]


def cell_key(board: Board, cell: Cell) -> CellKey:
    """The :data:`CellKey` of empty ``cell`` on ``board``.

    >>> cell_key({(0, 0): "ox*"}, (0, 1))
    ('x', (), ())
    """
    out: list[str | tuple[str, ...]] = []
    for e, n in enumerate(neighbours(cell)):
        tile = board.get(n)
        if tile is not None:
            out.append(tile[OPPOSITE[e]])
        else:
            out.append(tuple(sorted(k for k in constraints(board, n) if k is not None)))
    return (out[0], out[1], out[2])


def _states_for(key: CellKey) -> tuple[str, ...]:
    """The rule of :func:`legal_states`, on what it reads: a state must carry the colour
    of every tile across an edge, and its colour on an edge to an empty neighbour must
    differ from the colours fixed around that neighbour (which must differ already)."""
    out = []
    for s in STATES:
        ok = True
        for e in range(3):
            k = key[e]
            if isinstance(k, str):
                if s[e] != k:
                    ok = False
                    break
                continue
            if k and (s[e] in k or len(set(k)) != len(k)):
                ok = False
                break
        if ok:
            out.append(s)
    return tuple(out)


_KEY_STATES: dict[CellKey, tuple[str, ...]] = {}


def states_of_key(key: CellKey) -> tuple[str, ...]:
    """:func:`_states_for`, memoised (the keys are few: a few thousand at most)."""
    states = _KEY_STATES.get(key)
    if states is None:
        states = _KEY_STATES[key] = _states_for(key)
    return states


#: Computes a frontier cell's legal states (:func:`legal_states` or :func:`pattern_states`).
StatesOf = Callable[[Board, Cell], tuple[str, ...]]

# The cells legal_states reads, relative to the cell, by the cell's parity (up or not):
# per edge e, the neighbour across e and the three neighbours of that neighbour, each
# with the edge of its tile that faces it.
_Stencil = tuple[tuple[int, int, int, tuple[tuple[int, int, int], ...]], ...]


def _stencil(up: bool) -> _Stencil:
    base: Cell = (0, 0) if up else (0, 1)
    out = []
    for e, n in enumerate(neighbours(base)):
        around = tuple(
            (m[0] - base[0], m[1] - base[1], OPPOSITE[f]) for f, m in enumerate(neighbours(n))
        )
        out.append((n[0] - base[0], n[1] - base[1], OPPOSITE[e], around))
    return tuple(out)


_STENCILS = {True: _stencil(True), False: _stencil(False)}
_PATTERN_STATES: dict[tuple[Any, ...], tuple[str, ...]] = {}


def pattern_states(board: Board, cell: Cell) -> tuple[str, ...]:
    """:func:`legal_states`, memoised on what it reads: per edge, the colour a tile across
    it imposes, or the colours fixed around the empty neighbour there. The same answer
    for every board (the patterns are few: a few thousand at most).

    >>> pattern_states({(0, 0): "ox*"}, (0, 1)) == legal_states({(0, 0): "ox*"}, (0, 1))
    True
    """
    states = _frontier_states(board, cell)
    return legal_states(board, cell) if states is None else states


def _frontier_states(board: Board, cell: Cell) -> tuple[str, ...] | None:
    """:func:`pattern_states` of an empty cell with a tile across an edge, else None."""
    if cell in board:
        return None
    r, c = cell
    stencil = _STENCILS[(r + c) % 2 == 0]
    tiles = [board.get((r + dr, c + dc)) for dr, dc, _, _ in stencil]
    if tiles[0] is None and tiles[1] is None and tiles[2] is None:
        return None  # not a frontier cell
    key: list[Any] = []
    for tile, (_, _, facing, around) in zip(tiles, stencil, strict=True):
        if tile is not None:
            key.append(tile[facing])
            continue
        cols = []
        for mr, mc, f in around:
            other = board.get((r + mr, c + mc))
            if other is not None:
                cols.append(other[f])
        cols.sort()
        key.append(tuple(cols))
    return states_of_key((key[0], key[1], key[2]))


# Cell keys are interned: each distinct key gets an int id, with its legal states, whether
# it is a frontier cell's (a tile across an edge), how many edges are fixed, and the ids it
# turns into when a neighbour's tile fixes an edge or a colour around an empty neighbour.
_KEY_IDS: dict[CellKey, int] = {}
_KEY_LIST: list[CellKey] = []
_ID_STATES: list[tuple[str, ...]] = []
_ID_FRONTIER: list[bool] = []
_ID_FIXED: list[int] = []
_FIX: dict[int, int] = {}  # (id * 3 + edge) * 3 + colour -> id: a tile now across the edge
_ADD: dict[int, int] = {}  # (id * 3 + edge) * 3 + colour -> id: the colour fixed around it
_COLOUR_INDEX = {"o": 0, "x": 1, "*": 2}


def key_id(key: CellKey) -> int:
    """The interned id of ``key``."""
    found = _KEY_IDS.get(key)
    if found is None:
        found = _KEY_IDS[key] = len(_KEY_LIST)
        _KEY_LIST.append(key)
        _ID_STATES.append(states_of_key(key))
        fixed = sum(isinstance(k, str) for k in key)
        _ID_FRONTIER.append(fixed > 0)
        _ID_FIXED.append(fixed)
    return found


def _fixed_id(kid: int, edge: int, colour: str) -> int:
    """The id of key ``kid`` once a tile across ``edge`` shows ``colour`` there."""
    slot = (kid * 3 + edge) * 3 + _COLOUR_INDEX[colour]
    found = _FIX.get(slot)
    if found is None:
        key = list(_KEY_LIST[kid])
        key[edge] = colour
        found = _FIX[slot] = key_id((key[0], key[1], key[2]))
    return found


def _added_id(kid: int, edge: int, colour: str) -> int:
    """The id of key ``kid`` once ``colour`` is fixed around the empty neighbour across
    ``edge`` (a tile came next to that neighbour)."""
    slot = (kid * 3 + edge) * 3 + _COLOUR_INDEX[colour]
    found = _ADD.get(slot)
    if found is None:
        key = list(_KEY_LIST[kid])
        around = key[edge]
        assert isinstance(around, tuple)
        key[edge] = tuple(sorted((*around, colour)))
        found = _ADD[slot] = key_id((key[0], key[1], key[2]))
    return found


class Keys:
    """The interned :data:`CellKey` ids of empty cells of one board, found once and kept
    (a position's legal moves read the same cells' keys again and again)."""

    __slots__ = ("board", "_keys")

    def __init__(self, board: Board) -> None:
        self.board = board
        self._keys: dict[Cell, int] = {}

    def __call__(self, cell: Cell) -> int:
        kid = self._keys.get(cell)
        if kid is None:
            kid = self._keys[cell] = key_id(cell_key(self.board, cell))
        return kid


def candidate_cells(board: Board) -> list[Cell]:
    """Empty cells sharing a corner with a tile (``[(0, 0)]`` on an empty board), row-major."""
    if not board:
        return [(0, 0)]
    cells = {t for cell in board for t in touching(cell)}
    return sorted(c for c in cells if c not in board)


def blocked_cells(board: Board) -> tuple[Cell, ...]:
    """Frontier cells with at most one legal state: forced or unplayable.

    After every legal move there are none; a hand-made position may have some, and
    the next move's cascade must then see them too.
    """
    frontier = {n for cell in board for n in neighbours(cell) if n not in board}
    return tuple(sorted(c for c in frontier if len(legal_states(board, c)) <= 1))


def is_connected(board: Board) -> bool:
    """All tiles form one edge-connected group (an empty board is connected)."""
    if not board:
        return True
    start = next(iter(board))
    seen = {start}
    todo = [start]
    while todo:
        cell = todo.pop()
        for n in neighbours(cell):
            if n in board and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(board)


def _joined(new: Board, cell: Cell, autos: Iterable[Auto]) -> bool:
    """:func:`is_connected` of ``new``, a connected board with the move's tiles (``cell``
    and the ``autos``) added: whether every group of the move's tiles has a tile of the
    board before across an edge (looks at the move's tiles only)."""
    placed = {cell, *(a.cell for a in autos)}
    if len(placed) == len(new):  # the first move: no board before it
        return is_connected(new)
    seen: set[Cell] = set()
    for start in placed:
        if start in seen:
            continue
        seen.add(start)
        todo = [start]
        joined = False
        while todo:
            here = todo.pop()
            for n in neighbours(here):
                if n in placed:
                    if n not in seen:
                        seen.add(n)
                        todo.append(n)
                elif n in new:
                    joined = True
        if not joined:
            return False
    return True


def play(
    board: Board,
    remaining: int,
    cell: Cell,
    state: str,
    *,
    blocked: Iterable[Cell] = (),
    connected: bool = True,
    states_of: StatesOf | None = None,
) -> Move:
    """Place ``state`` on ``cell`` and run the forced cascade (§2.5 steps 1–6).

    ``remaining`` is the pool before the move; ``blocked`` the position's
    :func:`blocked_cells` and ``connected`` its :func:`is_connected` (both trivial
    after a legal move). Raises :class:`IllegalActionError` with one of
    :data:`REASONS`; the input board is never changed. ``states_of`` computes a
    frontier cell's legal states (default: :func:`pattern_states`, the memoised
    :func:`legal_states`; the reference path passes :func:`legal_states` itself).
    """
    if state not in STATES:
        raise refuse("bad_tile", f"{state!r} is not a tile: use o, x and * once each.")
    where = cell_name(cell)
    if cell in board:
        raise refuse("occupied", f"There is already a tile on {where}.")
    if not board:
        if cell != (0, 0):
            raise refuse("centre_first", "The first tile goes in the middle, on cell 0,0.")
    elif not any(t in board for t in touching(cell)):
        raise refuse("no_contact", f"{where} does not touch any tile: a tile must touch the group.")
    need = constraints(board, cell)
    for e, k in enumerate(need):
        if k is not None and state[e] != k:
            across = cell_name(neighbours(cell)[e])
            raise refuse(
                "mismatch",
                f"That tile does not match {across}: the path end there is "
                f"{_COLOUR_WORDS[k]}, the tile has {_COLOUR_WORDS[state[e]]}.",
            )
    if remaining < 1:
        raise refuse("not_enough_tiles", "The pool is empty: there is no tile left to place.")
    new = dict(board)
    new[cell] = state
    for n in neighbours(cell):
        if n not in new:
            k = dead_colour(new, n)
            if k is not None:
                raise refuse(
                    "dead_cell",
                    f"That tile would leave a gap between two {_COLOUR_WORDS[k]} path ends "
                    f"at {cell_name(n)}: no tile could ever fill it.",
                )
    return _cascade(new, remaining, cell, need, blocked, connected, states_of or pattern_states)


class _KeyTracker:
    """The cascade's legal states from cell keys: a placed tile changes the key of each
    empty neighbour (the edge towards it now carries the tile's colour) and of each cell
    next to such a neighbour (that colour is now fixed around it); only those cells'
    legal states can change, and they are looked up, not read off the board again."""

    __slots__ = ("keys", "new", "legal", "changed")

    def __init__(self, keys: Keys, new: dict[Cell, str], legal: dict[Cell, tuple[str, ...]]):
        self.keys = keys  # the board before the move
        self.new = new  # the board being filled
        self.legal = legal
        self.changed: dict[Cell, int] = {}

    def put(self, cell: Cell) -> None:
        new, legal, changed, keys = self.new, self.legal, self.changed, self.keys
        known = keys._keys
        states, frontier, fix, add, index = _ID_STATES, _ID_FRONTIER, _FIX, _ADD, _COLOUR_INDEX
        tile = new[cell]
        e = -1
        for n in neighbours(cell):
            e += 1
            if n in new:
                continue
            colour = tile[e]
            ci = index[colour]
            kid = changed.get(n)
            if kid is None:
                kid = known.get(n)
                if kid is None:
                    kid = keys(n)
            f = OPPOSITE[e]
            nid = fix.get((kid * 3 + f) * 3 + ci)
            if nid is None:
                nid = _fixed_id(kid, f, colour)
            changed[n] = nid
            legal[n] = states[nid]
            g = -1
            for m in neighbours(n):
                g += 1
                if m in new:
                    continue
                kid = changed.get(m)
                if kid is None:
                    kid = known.get(m)
                    if kid is None:
                        kid = keys(m)
                h = OPPOSITE[g]
                mid = add.get((kid * 3 + h) * 3 + ci)
                if mid is None:
                    mid = _added_id(kid, h, colour)
                changed[m] = mid
                if frontier[mid]:
                    legal[m] = states[mid]

    def check(self, cell: Cell) -> None:
        if cell not in self.new:
            kid = self.changed.get(cell)
            if kid is None:
                kid = self.changed[cell] = self.keys(cell)
            self.legal[cell] = _ID_STATES[kid]


def _cascade(
    new: dict[Cell, str],
    remaining: int,
    cell: Cell,
    need: list[str | None],
    blocked: Iterable[Cell],
    connected: bool,
    states_of: StatesOf,
    keys: Keys | None = None,
) -> Move:
    """:func:`play` after the checks of the placed tile itself: ``new`` holds it (and is
    filled in place); the forced tiles, then the checks of the whole move
    (:func:`_cascade_outcome`, its refusal worded here)."""
    reason, stuck, autos = _cascade_outcome(
        new, remaining, cell, need, blocked, connected, states_of, keys
    )
    if reason == "not_enough_tiles":
        raise refuse(
            "not_enough_tiles",
            f"That move would force more tiles than the {remaining} left in the pool.",
        )
    if reason == "unplayable":
        assert stuck is not None
        raise refuse(
            "unplayable",
            f"After the forced tiles, no tile could ever fill {cell_name(stuck)}.",
        )
    if reason == "not_connected":
        raise refuse(
            "not_connected",
            f"{cell_name(cell)} touches the group only at a corner, and no forced tile "
            "joins it up.",
        )
    return Move(new, tuple(autos))


def _cascade_outcome(
    new: dict[Cell, str],
    remaining: int,
    cell: Cell,
    need: list[str | None],
    blocked: Iterable[Cell],
    connected: bool,
    states_of: StatesOf,
    keys: Keys | None = None,
) -> tuple[str | None, Cell | None, list[Auto]]:
    """The forced cascade of the tile on ``cell`` (``new`` holds it and is filled in
    place): ``(refusal reason or None, the unplayable cell or None, the forced tiles so
    far)``.

    The legal states of the frontier cells a tile changes come from ``keys`` (the
    :class:`Keys` of the board before the move, updated tile by tile) unless
    ``states_of`` is the plain :func:`legal_states` (the reference path), which reads
    the board again around every tile."""
    # legal states of the frontier cells near the move; a tile changes the legal
    # states only of cells at most two edge-steps away, so only those are refreshed
    legal: dict[Cell, tuple[str, ...]] = {}
    tracker: _KeyTracker | None = None
    if states_of is legal_states:

        def put(cell: Cell) -> None:
            for w in within_two(cell):
                states = legal_states(new, w) if is_frontier(new, w) else None
                if states is None:
                    legal.pop(w, None)
                else:
                    legal[w] = states

        def check(cell: Cell) -> None:
            if is_frontier(new, cell):
                legal[cell] = legal_states(new, cell)

    else:
        before = dict(new)
        del before[cell]
        tracker = _KeyTracker(Keys(before) if keys is None else keys, new, legal)
        put, check = tracker.put, tracker.check
    put(cell)
    for w in blocked:
        check(w)
    autos: list[Auto] = []
    while True:
        forced = min((w for w, states in legal.items() if len(states) == 1), default=None)
        if forced is None:
            break
        if tracker is None:
            fixed = sum(k is not None for k in constraints(new, forced))
        else:
            fixed = _ID_FIXED[tracker.changed[forced]]
        new[forced] = legal.pop(forced)[0]
        autos.append(Auto(forced, new[forced], fixed))
        if 1 + len(autos) > remaining:
            return "not_enough_tiles", None, autos
        put(forced)
    stuck = min((w for w, states in legal.items() if not states), default=None)
    if stuck is not None:
        return "unplayable", stuck, autos
    if not (connected and any(k is not None for k in need)) and not (
        _joined(new, cell, autos) if connected and states_of is not legal_states
        else is_connected(new)
    ):
        return "not_connected", None, autos
    return None, None, autos


def legal_moves(
    board: Board,
    remaining: int,
    *,
    blocked: Iterable[Cell] = (),
    connected: bool = True,
) -> dict[tuple[Cell, str], Move]:
    """Every legal move ``(cell, state)`` with its result: what :func:`play` gives for
    each candidate cell and state that it does not refuse (:func:`legal_moves_exhaustive`
    is that loop), but quicker: a state that does not match a neighbour, or leaves a dead
    cell next to it, is skipped before the board is copied or a refusal is worded, and
    the cascade reads memoised legal states (:func:`pattern_states`).

    >>> sorted(legal_moves({(0, 0): "ox*"}, 53))[:2]
    [((-1, -1), '*ox'), ((-1, -1), 'o*x')]
    >>> legal_moves({(0, 0): "ox*"}, 53) == legal_moves_exhaustive({(0, 0): "ox*"}, 53)
    True
    """
    return dict(iter_legal_moves(board, remaining, blocked=blocked, connected=connected))


def iter_legal_moves(
    board: Board,
    remaining: int,
    *,
    blocked: Iterable[Cell] = (),
    connected: bool = True,
    keys: Keys | None = None,
) -> Iterator[tuple[tuple[Cell, str], Move]]:
    """:func:`legal_moves` one at a time, candidate cells row-major, states in
    :data:`STATES` order (whether a side can move stops at the first)."""
    blocked = tuple(blocked)
    if remaining < 1:
        return
    keys = Keys(board) if keys is None else keys
    for cell in candidate_cells(board):
        for state, move in iter_cell_moves(board, remaining, cell, blocked=blocked,
                                           connected=connected, keys=keys):
            yield (cell, state), move


def iter_cell_moves(
    board: Board,
    remaining: int,
    cell: Cell,
    *,
    blocked: Iterable[Cell] = (),
    connected: bool = True,
    keys: Keys | None = None,
) -> Iterator[tuple[str, Move]]:
    """The legal moves on one candidate ``cell`` (a cell of :func:`candidate_cells`), in
    :data:`STATES` order: :func:`legal_moves` of that cell (whether a tile may go there
    at all stops at the first). ``keys`` (the board's :class:`Keys`) may be shared by
    the calls on one position.

    >>> [state for state, _ in iter_cell_moves({(0, 0): "ox*"}, 53, (0, 1))]
    ['xo*', 'x*o']
    """
    for state, move, _ in judge_cell(board, remaining, cell, blocked=blocked,
                                     connected=connected, keys=keys):
        if move is not None:
            yield state, move


def judge_cell(
    board: Board,
    remaining: int,
    cell: Cell,
    *,
    blocked: Iterable[Cell] = (),
    connected: bool = True,
    keys: Keys | None = None,
) -> Iterator[tuple[str, Move | None, tuple[Cell, ...]]]:
    """Every state on candidate ``cell`` that fits and leaves no dead cell next to it, in
    :data:`STATES` order: its :class:`Move` (None when the cascade refuses it) and the
    cells the cascade placed (the cell, then the forced ones): what the judgement read
    of the board lies within four edge-steps of those (or of the cell, for the states
    left out)."""
    if remaining < 1:
        return
    blocked = tuple(blocked)
    keys = Keys(board) if keys is None else keys
    key = _KEY_LIST[keys(cell)]
    need = [k if isinstance(k, str) else None for k in key]
    # the states that match every tile across an edge and leave no dead cell next to the
    # cell (its legal states: the key says both); only the cascade may refuse them
    for state in _ID_STATES[keys(cell)]:
        new = dict(board)
        new[cell] = state
        reason, _, autos = _cascade_outcome(
            new, remaining, cell, need, blocked, connected, pattern_states, keys
        )
        placed = (cell, *(a.cell for a in autos))
        yield state, (None if reason is not None else Move(new, tuple(autos))), placed


def has_legal_move(
    board: Board,
    remaining: int,
    *,
    blocked: Iterable[Cell] = (),
    connected: bool = True,
    keys: Keys | None = None,
) -> bool:
    """Whether :func:`legal_moves` is not empty, found sooner: the states of the cells
    across an edge of the group (whose legal states fit and leave no dead cell, so only
    the cascade can refuse them) are tried first, then every candidate.

    >>> has_legal_move({(0, 0): "ox*"}, 53), has_legal_move({(0, 0): "ox*"}, 0)
    (True, False)
    """
    blocked = tuple(blocked)
    if remaining < 1:
        return False
    keys = Keys(board) if keys is None else keys
    frontier = sorted({n for cell in board for n in neighbours(cell) if n not in board})
    for cell in frontier:
        need = constraints(board, cell)
        for state in _ID_STATES[keys(cell)]:
            new = dict(board)
            new[cell] = state
            try:
                _cascade(new, remaining, cell, need, blocked, connected, pattern_states, keys)
            except IllegalActionError:
                continue
            return True
    return next(iter_legal_moves(board, remaining, blocked=blocked, connected=connected,
                                 keys=keys), None) is not None


def legal_moves_exhaustive(
    board: Board,
    remaining: int,
    *,
    blocked: Iterable[Cell] = (),
    connected: bool = True,
) -> dict[tuple[Cell, str], Move]:
    """The reference for :func:`legal_moves`: :func:`play` with the plain
    :func:`legal_states` on every candidate cell and state, the refused ones left out
    (how legal moves were found before; slower, kept for the tests and the benchmark)."""
    blocked = tuple(blocked)
    out: dict[tuple[Cell, str], Move] = {}
    for cell in candidate_cells(board):
        for state in STATES:
            try:
                out[(cell, state)] = play(
                    board, remaining, cell, state, blocked=blocked, connected=connected,
                    states_of=legal_states,
                )
            except IllegalActionError:
                continue
    return out


def paths(board: Board, colour: str) -> list[Path]:
    """Every connected run of ``colour``'s arcs (o or x), loops marked ``closed``.

    Each tile's arc joins its ``colour`` edge to its ``*`` edge; a run follows
    arcs across shared edges. Cells are listed in walking order, starting from the
    run's row-major smallest tile for loops.

    >>> ring = {(0, 0): "o*x", (0, 1): "*xo", (0, -1): "xo*",
    ...         (-1, 0): "o*x", (-1, 1): "*xo", (-1, -1): "xo*"}
    >>> [(p.length, p.closed) for p in paths(ring, "o")]
    [(6, True)]
    """
    seen: set[Cell] = set()
    out: list[Path] = []
    for start in sorted(board):
        if start in seen:
            continue
        ends = _ENDS[board[start], colour]
        forward, closed = _walk(board, start, ends[0], colour)
        if closed:
            cells = [start, *forward]
        else:
            backward, _ = _walk(board, start, ends[1], colour)
            cells = [*reversed(backward), start, *forward]
        seen.update(cells)
        out.append(Path(colour, tuple(cells), closed))
    return out


def _walk(board: Board, start: Cell, edge: int, colour: str) -> tuple[list[Cell], bool]:
    """Follow ``colour`` from ``start`` out through ``edge``: the tiles met, and
    whether the walk came back to ``start`` (a loop)."""
    cells: list[Cell] = []
    cell = start
    leave = _LEAVE[colour]
    for _ in range(len(board)):  # a matched board always ends; the bound guards a bad one
        nxt = neighbours(cell)[edge]
        if nxt == start:
            return cells, True
        tile = board.get(nxt)
        if tile is None:
            return cells, False
        cells.append(nxt)
        edge = leave[tile][edge]
        cell = nxt
    return cells, False


#: The edges of a tile state that carry a colour's arc (its colour edge and its * edge).
_ENDS: dict[tuple[str, str], tuple[int, int]] = {
    (st, k): tuple(e for e, c in enumerate(st) if c in (k, "*"))  # type: ignore[misc]
    for st in STATES
    for k in ("o", "x")
}
#: ``_LEAVE[colour][tile][edge]``: entering ``tile`` across the neighbour's ``edge`` (so
#: through the tile's opposite edge), the edge the colour's arc leaves by.
_LEAVE: dict[str, dict[str, tuple[int, int, int]]] = {
    k: {
        st: tuple(  # type: ignore[misc]
            next(e for e, c in enumerate(st) if e != OPPOSITE[edge] and c in (k, "*"))
            for edge in range(3)
        )
        for st in STATES
    }
    for k in ("o", "x")
}


def _longest(runs: list[Path]) -> Path | None:
    # the longest run; ties go to the row-major first (the runs come in that order)
    best: Path | None = None
    for p in runs:
        if best is None or p.length > best.length:
            best = p
    return best


def judge(
    board: Board,
    remaining: int,
    can_move: Callable[[], bool],
    runs: Mapping[str, list[Path]] | None = None,
) -> Outcome | None:
    """The end conditions of §2.7, in their order, after a whole move.

    ``remaining`` is the pool after the move; ``can_move()`` says whether the side to
    move next has a legal move (asked only when nothing else ended the game); ``runs``
    are :func:`paths` of both colours, when known already.

    >>> judge({(0, 0): "ox*"}, 0, lambda: True)
    Outcome(winner=None, reason='pool_empty', highlight=((0, 0), (0, 0)), lengths=(1, 1))
    """
    if runs is None:
        runs = {k: paths(board, k) for k in ("o", "x")}
    loops = {k: _longest([p for p in runs[k] if p.closed]) for k in ("o", "x")}
    lo, lx = loops["o"], loops["x"]
    if lo is not None and lx is not None:
        lengths = (lo.length, lx.length)
        cells = lo.cells + lx.cells
        if lo.length == lx.length:
            return Outcome(None, "both_loops", cells, lengths)
        return Outcome(2 if lo.length > lx.length else 1, "both_loops", cells, lengths)
    for k, loop in loops.items():
        if loop is not None:
            lengths = (loop.length, 0) if k == "o" else (0, loop.length)
            return Outcome(SEAT_OF[k], "loop", loop.cells, lengths)
    if remaining <= 0:
        reason = "pool_empty"
    elif not can_move():
        reason = "no_move"
    else:
        return None
    po, px = _longest(runs["o"]), _longest(runs["x"])
    assert po is not None and px is not None  # the board holds at least one tile
    lengths = (po.length, px.length)
    cells = po.cells + px.cells
    if po.length == px.length:
        return Outcome(None, reason, cells, lengths)
    return Outcome(2 if po.length > px.length else 1, reason, cells, lengths)
