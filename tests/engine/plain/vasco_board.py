"""(Test-only: the plain board functions the differential test compares with, main at
a3440bd.)

Vasco's placement rules on a sparse board (rules-other-games.md §2.4–2.7), as pure functions.

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
    need = constraints(board, cell)
    # for each empty neighbour: the colours already fixed on its other edges
    around: list[list[str] | None] = [None, None, None]
    for e, n in enumerate(neighbours(cell)):
        if n in board:
            continue
        cols = [k for k in constraints(board, n) if k is not None]
        around[e] = cols
    out = []
    for s in STATES:
        ok = True
        for e in range(3):
            k = need[e]
            if k is not None:
                if s[e] != k:
                    ok = False
                    break
                continue
            cols_e = around[e]
            if cols_e and (s[e] in cols_e or len(set(cols_e)) != len(cols_e)):
                ok = False
                break
        if ok:
            out.append(s)
    return tuple(out)


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
        key.append(tuple(cols))
    pattern = tuple(key)
    states = _PATTERN_STATES.get(pattern)
    if states is None:
        states = _PATTERN_STATES[pattern] = legal_states(board, cell)
    return states


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


def _cascade(
    new: dict[Cell, str],
    remaining: int,
    cell: Cell,
    need: list[str | None],
    blocked: Iterable[Cell],
    connected: bool,
    states_of: StatesOf,
) -> Move:
    """:func:`play` after the checks of the placed tile itself: ``new`` holds it (and is
    filled in place); the forced tiles, then the checks of the whole move."""
    # legal states of the frontier cells near the move; a tile changes the legal
    # states only of cells at most two edge-steps away, so only those are refreshed
    legal: dict[Cell, tuple[str, ...]] = {}

    def refresh(cells: Iterable[Cell]) -> None:
        for w in cells:
            if states_of is pattern_states:
                states = _frontier_states(new, w)  # the same, in one look at the cells
            else:
                states = states_of(new, w) if is_frontier(new, w) else None
            if states is None:
                legal.pop(w, None)
            else:
                legal[w] = states

    refresh(within_two(cell))
    refresh(blocked)
    autos: list[Auto] = []
    while True:
        forced = min((w for w, states in legal.items() if len(states) == 1), default=None)
        if forced is None:
            break
        fixed = sum(k is not None for k in constraints(new, forced))
        new[forced] = legal.pop(forced)[0]
        autos.append(Auto(forced, new[forced], fixed))
        if 1 + len(autos) > remaining:
            raise refuse(
                "not_enough_tiles",
                f"That move would force more tiles than the {remaining} left in the pool.",
            )
        refresh(within_two(forced))
    stuck = min((w for w, states in legal.items() if not states), default=None)
    if stuck is not None:
        raise refuse(
            "unplayable",
            f"After the forced tiles, no tile could ever fill {cell_name(stuck)}.",
        )
    if not (connected and any(k is not None for k in need)) and not (
        _joined(new, cell, autos) if connected and states_of is pattern_states
        else is_connected(new)
    ):
        raise refuse(
            "not_connected",
            f"{cell_name(cell)} touches the group only at a corner, and no forced tile "
            "joins it up.",
        )
    return Move(new, tuple(autos))


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
) -> Iterator[tuple[tuple[Cell, str], Move]]:
    """:func:`legal_moves` one at a time, candidate cells row-major, states in
    :data:`STATES` order (whether a side can move stops at the first)."""
    blocked = tuple(blocked)
    if remaining < 1:
        return
    for cell in candidate_cells(board):
        for state, move in iter_cell_moves(board, remaining, cell, blocked=blocked,
                                           connected=connected):
            yield (cell, state), move


def iter_cell_moves(
    board: Board,
    remaining: int,
    cell: Cell,
    *,
    blocked: Iterable[Cell] = (),
    connected: bool = True,
) -> Iterator[tuple[str, Move]]:
    """The legal moves on one candidate ``cell`` (a cell of :func:`candidate_cells`), in
    :data:`STATES` order: :func:`legal_moves` of that cell (whether a tile may go there
    at all stops at the first).

    >>> [state for state, _ in iter_cell_moves({(0, 0): "ox*"}, 53, (0, 1))]
    ['xo*', 'x*o']
    """
    if remaining < 1:
        return
    blocked = tuple(blocked)
    need = constraints(board, cell)
    # for each empty neighbour: the colours already fixed on its edges (the edge
    # towards ``cell`` is free): with the new tile's colour they must all differ
    around: list[list[str] | None] = [None, None, None]
    for e, n in enumerate(neighbours(cell)):
        if n not in board:
            around[e] = [k for k in constraints(board, n) if k is not None]
    for state in STATES:
        if any(k is not None and state[e] != k for e, k in enumerate(need)):
            continue  # mismatch
        if any(
            cols is not None and (state[e] in cols or len(set(cols)) != len(cols))
            for e, cols in enumerate(around)
        ):
            continue  # dead_cell
        new = dict(board)
        new[cell] = state
        try:
            move = _cascade(new, remaining, cell, need, blocked, connected, pattern_states)
        except IllegalActionError:
            continue
        yield state, move


def has_legal_move(
    board: Board,
    remaining: int,
    *,
    blocked: Iterable[Cell] = (),
    connected: bool = True,
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
    frontier = sorted({n for cell in board for n in neighbours(cell) if n not in board})
    for cell in frontier:
        need = constraints(board, cell)
        for state in pattern_states(board, cell):
            new = dict(board)
            new[cell] = state
            try:
                _cascade(new, remaining, cell, need, blocked, connected, pattern_states)
            except IllegalActionError:
                continue
            return True
    return next(iter_legal_moves(board, remaining, blocked=blocked, connected=connected),
                None) is not None


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
        ends = [e for e, k in enumerate(board[start]) if k in (colour, "*")]
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
    for _ in range(len(board)):  # a matched board always ends; the bound guards a bad one
        nxt = neighbours(cell)[edge]
        if nxt == start:
            return cells, True
        tile = board.get(nxt)
        if tile is None:
            return cells, False
        cells.append(nxt)
        entered = OPPOSITE[edge]
        edge = next(e for e, k in enumerate(tile) if e != entered and k in (colour, "*"))
        cell = nxt
    return cells, False


def _longest(runs: list[Path]) -> Path | None:
    # the longest run; ties go to the row-major first (the runs come in that order)
    best: Path | None = None
    for p in runs:
        if best is None or p.length > best.length:
            best = p
    return best


def judge(board: Board, remaining: int, can_move: Callable[[], bool]) -> Outcome | None:
    """The end conditions of §2.7, in their order, after a whole move.

    ``remaining`` is the pool after the move; ``can_move()`` says whether the side to
    move next has a legal move (asked only when nothing else ended the game).

    >>> judge({(0, 0): "ox*"}, 0, lambda: True)
    Outcome(winner=None, reason='pool_empty', highlight=((0, 0), (0, 0)), lengths=(1, 1))
    """
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
