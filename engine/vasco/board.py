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

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.core import IllegalActionError
from engine.vasco.geometry import (
    COLOURS,
    OPPOSITE,
    STATES,
    Cell,
    cell_name,
    neighbours,
    touching,
    within_four,
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


# ----- cells as numbers, and the cell keys of a board kept as tiles come ---------------
#
# The cascade and the legal moves work on cell ids: ``(r + ID_OFF) * ID_WIDTH + c +
# ID_OFF``. The width is odd, so an id's parity is that of ``r + c``: even ids are up
# cells, whose H neighbour is one row down (``+ ID_WIDTH``); odd ids are down cells.
# Ids grow row-major, so the smallest id is the cell :func:`play` must fill first.

ID_OFF = 4096
ID_WIDTH = 2 * ID_OFF + 1
#: Per parity (0: up, 1: down), the id steps to the neighbours across L, R, H.
_STEPS = ((-1, 1, ID_WIDTH), (-1, 1, -ID_WIDTH))


def _face(edge: int) -> int:
    """The edge of the neighbour across ``edge`` that faces back (L and R swap)."""
    return 1 - edge if edge < 2 else 2


def cell_id(cell: Cell) -> int:
    """The id of ``cell`` (see above).

    >>> cell_id((0, 0)) % 2, cell_id((0, 1)) % 2, id_cell(cell_id((-3, 5)))
    (0, 1, (-3, 5))
    """
    return (cell[0] + ID_OFF) * ID_WIDTH + cell[1] + ID_OFF


def id_cell(i: int) -> Cell:
    """The cell of id ``i``."""
    r, c = divmod(i, ID_WIDTH)
    return (r - ID_OFF, c - ID_OFF)


def _touch_steps(up: bool) -> tuple[int, ...]:
    base = (0, 0) if up else (0, 1)
    return tuple(cell_id(t) - cell_id(base) for t in touching(base))


_TOUCH_STEPS = (_touch_steps(True), _touch_steps(False))


def _ball_steps(up: bool) -> tuple[int, ...]:
    base = (0, 0) if up else (0, 1)
    return tuple(cell_id(t) - cell_id(base) for t in within_four(base))


#: Per parity, the id steps to the cells at most four edge-steps away (the cell itself
#: included): a tile placed on one of them can change what a cascade from here reads.
_BALL4_STEPS = (_ball_steps(True), _ball_steps(False))


def near_cells(placed: Iterable[int]) -> set[int]:
    """The ids of the cells at most four edge-steps from a cell id of ``placed``: the
    cells whose cascade may read a cell key the tiles placed there changed (a tile
    changes the keys at most two steps away; a cascade reads the keys at most two
    steps from the tiles it places).

    >>> len(near_cells([cell_id((0, 0))])), len(near_cells([cell_id((0, 0)), cell_id((0, 1))]))
    (31, 38)
    """
    out: set[int] = set()
    for p in placed:
        out.update(map(p.__add__, _BALL4_STEPS[p & 1]))
    return out

# Cell keys are interned: each distinct key gets an int id, with its legal states (as
# strings and as indices into STATES), how many edges are fixed, its class for the
# cascade, and the ids it turns into when a neighbour's tile fixes an edge or a colour
# around an empty neighbour.
_KEY_IDS: dict[CellKey, int] = {}
_KEY_LIST: list[CellKey] = []
_ID_STATES: list[tuple[str, ...]] = []
_ID_SIDX: list[tuple[int, ...]] = []
_ID_FIXED: list[int] = []
#: 0: no tile across an edge (not a frontier cell); 1: a frontier cell no tile can fill
#: (unplayable); 2: one legal state (forced); 3: two or more.
_ID_CLASS: list[int] = []
#: ``_FIX[id][edge * 3 + colour]``: the id once a tile across the edge shows the colour there;
#: ``_ADD[id][edge * 3 + colour]``: once the colour is fixed around the empty neighbour there
#: (None until first needed).
_FIX: list[list[int | None]] = []
_ADD: list[list[int | None]] = []
_COLOUR_INDEX = {"o": 0, "x": 1, "*": 2}
#: ``_COLS[s][e]``: the colour index of state ``STATES[s]`` on edge ``e``.
_COLS = tuple(tuple(_COLOUR_INDEX[k] for k in st) for st in STATES)
_STATE_INDEX = {st: i for i, st in enumerate(STATES)}


def key_id(key: CellKey) -> int:
    """The interned id of ``key``."""
    found = _KEY_IDS.get(key)
    if found is None:
        found = _KEY_IDS[key] = len(_KEY_LIST)
        _KEY_LIST.append(key)
        states = states_of_key(key)
        _ID_STATES.append(states)
        _ID_SIDX.append(tuple(_STATE_INDEX[st] for st in states))
        fixed = sum(isinstance(k, str) for k in key)
        _ID_FIXED.append(fixed)
        _ID_CLASS.append(0 if not fixed else min(len(states), 2) + 1)
        _FIX.append([None] * 9)
        _ADD.append([None] * 9)
    return found


#: The key of a cell with nothing around it (every cell far from the tiles).
_EMPTY = key_id(((), (), ()))


def _fixed_id(kid: int, edge: int, ci: int) -> int:
    """The id of key ``kid`` once a tile across ``edge`` shows colour ``ci`` there."""
    found = _FIX[kid][edge * 3 + ci]
    if found is None:
        key = list(_KEY_LIST[kid])
        key[edge] = COLOURS[ci]
        found = _FIX[kid][edge * 3 + ci] = key_id((key[0], key[1], key[2]))
    return found


def _added_id(kid: int, edge: int, ci: int) -> int:
    """The id of key ``kid`` once colour ``ci`` is fixed around the empty neighbour
    across ``edge`` (a tile came next to that neighbour)."""
    found = _ADD[kid][edge * 3 + ci]
    if found is None:
        key = list(_KEY_LIST[kid])
        around = key[edge]
        assert isinstance(around, tuple)
        key[edge] = tuple(sorted((*around, COLOURS[ci])))
        found = _ADD[kid][edge * 3 + ci] = key_id((key[0], key[1], key[2]))
    return found


#: ``_PLAN[parity]``: what a tile on a cell of that parity writes, per edge ``e``: ``(e,
#: the id step to the neighbour n across it, 3 * n's edge facing back, and n's two other
#: edges as (id step, 3 * the edge facing n of the cell there))``. Every neighbour has
#: the other parity; my L is its R, my R its L, my H its H.
_PLAN = tuple(
    tuple(
        (e, steps[e], 3 * _face(e),
         tuple((_STEPS[1 - parity][g], 3 * _face(g)) for g in (0, 1, 2) if g != _face(e)))
        for e in (0, 1, 2)
    )
    for parity, steps in enumerate(_STEPS)
)


def _put(kids: dict[int, int], p: int, st: int, forced: set[int], zero: set[int]) -> None:
    """Place state index ``st`` on cell id ``p``: ``kids[p]`` becomes -1 (a tile), the
    key of each empty neighbour gets the tile's colour on the edge towards it, and the
    key of each empty cell next to such a neighbour gets that colour around it (only
    these cells' legal states can change). ``forced``/``zero`` collect the frontier
    cells now left with one / no legal state."""
    get = kids.get
    kids[p] = -1
    cols = _COLS[st]
    fix, add, cls_of = _FIX, _ADD, _ID_CLASS
    for e, step, f3, others in _PLAN[p & 1]:
        n = p + step
        kid = get(n, _EMPTY)
        if kid < 0:
            continue
        ci = cols[e]
        nid = fix[kid][f3 + ci]
        if nid is None:
            nid = _fixed_id(kid, f3 // 3, ci)
        kids[n] = nid
        cls = cls_of[nid]
        if cls == 2:
            forced.add(n)
        elif cls == 1:
            forced.discard(n)
            zero.add(n)
        for mstep, h3 in others:  # n's other two neighbours (p is a tile now)
            m = n + mstep
            mk = get(m, _EMPTY)
            if mk < 0:
                continue
            mid = add[mk][h3 + ci]
            if mid is None:
                mid = _added_id(mk, h3 // 3, ci)
            kids[m] = mid
            cls = cls_of[mid]
            if cls == 2:
                forced.add(m)
            elif cls == 1:
                forced.discard(m)
                zero.add(m)


#: A cascade's result: the refusal reason (None: legal), the unplayable cell's id (or
#: None), the forced tiles as ``(id, state index, edges fixed)`` in placing order, and the
#: cell keys with every tile written (the frontier's own are left as they were).
Cascade = tuple["str | None", "int | None", list[tuple[int, int, int]], dict[int, int]]


class Frontier:
    """A board's cells as the cascade reads them, kept up to date tile by tile: ``kids``
    maps a cell id to -1 (a tile) or to the interned key of an empty cell within two
    edge-steps of a tile (any other cell's key is the empty one), and ``cands`` holds
    the candidate cells (empty, sharing a corner with a tile; the centre on an empty
    board). A cascade writes into a copy of ``kids``, which :meth:`commit` keeps: a
    ``kids`` dict is never changed once built, so copies of the frontier share it.

    >>> f = Frontier({(0, 0): "ox*"})
    >>> [id_cell(i) for i in sorted(f.cands)][:3], _ID_STATES[f.kids[cell_id((0, 1))]]
    ([(-1, -1), (-1, 0), (-1, 1)], ('xo*', 'x*o'))
    """

    __slots__ = ("kids", "_cands", "_pending", "tiles")

    def __init__(self, board: Board | None = None) -> None:
        self.kids: dict[int, int] = {}
        self._cands: set[int] = {cell_id((0, 0))}
        self._pending: list[int] = []  # tiles placed whose candidates are not yet added
        self.tiles = 0
        if board:
            ignored: set[int] = set()
            for cell, st in board.items():
                _put(self.kids, cell_id(cell), _STATE_INDEX[st], ignored, ignored)
            self.commit([cell_id(c) for c in board], self.kids)

    def copy(self) -> Frontier:
        other = Frontier.__new__(Frontier)
        other.kids = self.kids  # never changed in place
        other._cands = self._cands  # copied before it is changed (:attr:`cands`)
        other._pending = self._pending
        other.tiles = self.tiles
        return other

    @property
    def cands(self) -> set[int]:
        """The candidate cells' ids (found when first asked after tiles were placed)."""
        if self._pending:
            placed, self._pending = self._pending, []
            self._cands = self._cands.copy()
            self._touch(placed)
        return self._cands

    def _touch(self, placed: Sequence[int]) -> None:
        kids, cands = self.kids, self._cands
        for p in placed:
            cands.discard(p)
            for step in _TOUCH_STEPS[p & 1]:
                t = p + step
                if kids.get(t, _EMPTY) >= 0:
                    cands.add(t)

    def commit(self, placed: Sequence[int], kids: dict[int, int]) -> None:
        """Keep what :meth:`cascade` wrote (its ``kids``) for the tiles on cell ids
        ``placed``: they are now the board's."""
        self.kids = kids
        if not self.tiles:
            self._cands = set()  # the first tiles: the centre was the one candidate
        self.tiles += len(placed)
        self._pending = [*self._pending, *placed]

    def cascade(
        self, i: int, st: int, remaining: int,
        blocked: Sequence[int] = (), connected: bool = True,
        board: Board | None = None,
    ) -> Cascade:
        """§2.5 steps 3–6 for state index ``st`` on candidate cell id ``i`` (one that fits
        and leaves no dead cell next to it), as a :data:`Cascade`; :attr:`kids` is left
        as it was. ``blocked`` are the ids of the position's forced or unplayable cells,
        ``connected`` whether its tiles are one group (``board``, the tiles, is read only
        when they are not)."""
        kids = self.kids.copy()
        kid0 = kids.get(i, _EMPTY)
        forced: set[int] = set()
        zero: set[int] = set()
        _put(kids, i, st, forced, zero)
        for w in blocked:
            kid = kids.get(w, _EMPTY)
            if kid >= 0:
                cls = _ID_CLASS[kid]
                if cls == 2:
                    forced.add(w)
                elif cls == 1:
                    zero.add(w)
        autos: list[tuple[int, int, int]] = []
        while forced:
            f = min(forced)
            forced.remove(f)
            kid = kids[f]
            s = _ID_SIDX[kid][0]
            autos.append((f, s, _ID_FIXED[kid]))
            if len(autos) >= remaining:
                return "not_enough_tiles", None, autos, kids
            _put(kids, f, s, forced, zero)
        if zero:
            return "unplayable", min(zero), autos, kids
        if connected and _ID_FIXED[kid0]:
            return None, None, autos, kids  # joined across an edge to a connected group
        if connected:
            joined = self._joined(i, autos)
        else:
            new = dict(board or {})
            new[id_cell(i)] = STATES[st]
            new.update((id_cell(a), STATES[s]) for a, s, _ in autos)
            joined = is_connected(new)
        return (None if joined else "not_connected"), None, autos, kids

    def _joined(self, i: int, autos: list[tuple[int, int, int]]) -> bool:
        """Whether the move's tiles (``i`` and the forced ones) join the board before (the
        first tiles: whether they are one group). A forced tile lies across an edge from
        a tile placed before it, so every forced tile hangs together with the board or
        with ``i``: they join iff the group of ``i`` among them meets a tile of the board."""
        placed = {i, *(a for a, _, _ in autos)}
        before = self.kids  # the board before the move: its tiles are -1
        first = not self.tiles
        seen = {i}
        todo = [i]
        while todo:
            here = todo.pop()
            for step in _STEPS[here & 1]:
                n = here + step
                if n in placed:
                    if n not in seen:
                        seen.add(n)
                        todo.append(n)
                elif not first and before.get(n, _EMPTY) < 0:
                    return True
        return first and len(seen) == len(placed)

    def judge(
        self, i: int, st: int, remaining: int, blocked: Sequence[int] = (),
        connected: bool = True, board: Board | None = None,
    ) -> bool:
        """Whether the cascade of ``st`` on ``i`` refuses nothing."""
        return self.cascade(i, st, remaining, blocked, connected, board)[0] is None

    def cell_states(self, i: int) -> tuple[int, ...]:
        """The state indices that fit cell id ``i`` and leave no dead cell next to it."""
        return _ID_SIDX[self.kids.get(i, _EMPTY)]

    def is_edge_cell(self, i: int) -> bool:
        """Whether a tile lies across an edge of empty cell id ``i``."""
        return _ID_FIXED[self.kids.get(i, _EMPTY)] > 0


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


def check_placement(board: Board, remaining: int, cell: Cell, state: str) -> None:
    """§2.5 steps 1–2 and the dead-cell check: raises :class:`IllegalActionError` for a
    tile that cannot go on ``cell`` before any cascade (reasons ``bad_tile`` …
    ``dead_cell`` of :data:`REASONS`, in their order)."""
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


def cascade_refusal(
    reason: str, stuck: int | None, cell: Cell, remaining: int
) -> IllegalActionError:
    """The refusal of a cascade's ``reason`` (:meth:`Frontier.cascade`), in words."""
    if reason == "not_enough_tiles":
        return refuse(
            "not_enough_tiles",
            f"That move would force more tiles than the {remaining} left in the pool.",
        )
    if reason == "unplayable":
        assert stuck is not None
        return refuse(
            "unplayable", f"After the forced tiles, no tile could ever fill {cell_name(id_cell(stuck))}."
        )
    return refuse(
        "not_connected",
        f"{cell_name(cell)} touches the group only at a corner, and no forced tile joins it up.",
    )


def autos_of(forced: Iterable[tuple[int, int, int]]) -> tuple[Auto, ...]:
    """:class:`Auto` tiles of a cascade's forced tiles."""
    return tuple(Auto(id_cell(i), STATES[s], fixed) for i, s, fixed in forced)


def play(
    board: Board,
    remaining: int,
    cell: Cell,
    state: str,
    *,
    blocked: Iterable[Cell] = (),
    connected: bool = True,
    frontier: Frontier | None = None,
) -> Move:
    """Place ``state`` on ``cell`` and run the forced cascade (§2.5 steps 1–6).

    ``remaining`` is the pool before the move; ``blocked`` the position's
    :func:`blocked_cells` and ``connected`` its :func:`is_connected` (both trivial
    after a legal move); ``frontier`` the board's :class:`Frontier` when kept (left as
    it was). Raises :class:`IllegalActionError` with one of :data:`REASONS`; the input
    board is never changed.
    """
    check_placement(board, remaining, cell, state)
    front = Frontier(board) if frontier is None else frontier
    reason, stuck, forced, _ = front.cascade(
        cell_id(cell), _STATE_INDEX[state], remaining,
        tuple(cell_id(c) for c in blocked), connected, board)
    if reason is not None:
        raise cascade_refusal(reason, stuck, cell, remaining)
    autos = autos_of(forced)
    new = dict(board)
    new[cell] = state
    new.update((a.cell, a.state) for a in autos)
    return Move(new, autos)


def legal_moves(
    board: Board,
    remaining: int,
    *,
    blocked: Iterable[Cell] = (),
    connected: bool = True,
) -> dict[tuple[Cell, str], Move]:
    """Every legal move ``(cell, state)`` with its result, candidate cells row-major,
    states in :data:`STATES` order: what :func:`play` gives for each candidate cell and
    state that it does not refuse (a state that does not match a neighbour or leaves a
    dead cell next to it is skipped before its cascade).

    >>> sorted(legal_moves({(0, 0): "ox*"}, 53))[:2]
    [((-1, -1), '*ox'), ((-1, -1), 'o*x')]
    """
    front = Frontier(board)
    ids = tuple(cell_id(c) for c in blocked)
    out: dict[tuple[Cell, str], Move] = {}
    if remaining < 1:
        return out
    for i in sorted(front.cands):
        cell = id_cell(i)
        for st in front.cell_states(i):
            reason, _, forced, _ = front.cascade(i, st, remaining, ids, connected, board)
            if reason is None:
                autos = autos_of(forced)
                new = dict(board)
                new[cell] = STATES[st]
                new.update((a.cell, a.state) for a in autos)
                out[(cell, STATES[st])] = Move(new, autos)
    return out


def has_legal_move(
    board: Board,
    remaining: int,
    *,
    blocked: Iterable[Cell] = (),
    connected: bool = True,
    frontier: Frontier | None = None,
) -> bool:
    """Whether :func:`legal_moves` is not empty, found sooner: the cells across an edge
    of the group (only the cascade can refuse their legal states) are tried first, and
    the search stops at the first legal move.

    >>> has_legal_move({(0, 0): "ox*"}, 53), has_legal_move({(0, 0): "ox*"}, 0)
    (True, False)
    """
    if remaining < 1:
        return False
    front = Frontier(board) if frontier is None else frontier
    ids = tuple(cell_id(c) for c in blocked)
    cands = sorted(front.cands)
    for edge in (True, False):
        for i in cands:
            if front.is_edge_cell(i) == edge:
                for st in front.cell_states(i):
                    if front.judge(i, st, remaining, ids, connected, board):
                        return True
    return False


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
    r, c = start
    leave = _LEAVE[colour]
    get = board.get
    for _ in range(len(board)):  # a matched board always ends; the bound guards a bad one
        if edge == 0:  # the neighbour across the edge (geometry.neighbour, inlined)
            c -= 1
        elif edge == 1:
            c += 1
        elif (r + c) % 2 == 0:
            r += 1
        else:
            r -= 1
        nxt = (r, c)
        if nxt == start:
            return cells, True
        tile = get(nxt)
        if tile is None:
            return cells, False
        cells.append(nxt)
        edge = leave[tile][edge]
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
