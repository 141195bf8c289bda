"""A second, literal and slow reading of Vasco's rules (rules-other-games.md §2.3–2.7).

Written apart from engine.vasco to check it: it shares no code with it, recomputes
everything over the whole board at every step (no watch lists, no caches), follows the
pseudo-code of §2.5 line by line and finds paths and loops as §2.6 defines them (a graph
whose nodes are cell edges, one arc per tile and colour; a component is a loop iff
every node has degree 2).
"""

from __future__ import annotations

from itertools import permutations

Cell = tuple[int, int]
STATES = ["".join(p) for p in permutations("ox*")]


def up(cell: Cell) -> bool:
    return (cell[0] + cell[1]) % 2 == 0


def nbrs(cell: Cell) -> list[Cell]:
    r, c = cell
    return [(r, c - 1), (r, c + 1), (r + 1, c) if up(cell) else (r - 1, c)]


def facing(e: int) -> int:
    return [1, 0, 2][e]


def corners(cell: Cell) -> set[tuple[int, int]]:
    r, c = cell
    if up(cell):
        return {(c + 1, r), (c, r + 1), (c + 2, r + 1)}
    return {(c, r), (c + 2, r), (c + 1, r + 1)}


def constrained(board: dict[Cell, str], cell: Cell) -> list[tuple[int, str]]:
    return [(e, board[n][facing(e)]) for e, n in enumerate(nbrs(cell)) if n in board]


def frontier(board: dict[Cell, str]) -> set[Cell]:
    return {n for t in board for n in nbrs(t) if n not in board}


def legal(board: dict[Cell, str], cell: Cell) -> list[str]:
    out = []
    for s in STATES:
        if any(s[e] != k for e, k in constrained(board, cell)):
            continue
        ok = True
        for e, n in enumerate(nbrs(cell)):
            if n in board:
                continue
            colours = [k for _, k in constrained(board, n)] + [s[e]]
            if len(set(colours)) != len(colours):
                ok = False
        if ok:
            out.append(s)
    return out


def connected(board: dict[Cell, str]) -> bool:
    if not board:
        return True
    start = min(board)
    seen = {start}
    todo = [start]
    while todo:
        t = todo.pop()
        for n in nbrs(t):
            if n in board and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == set(board)


def apply(
    board: dict[Cell, str], remaining: int, cell: Cell, s: str
) -> tuple[dict[Cell, str], list[tuple[Cell, str]]] | None:
    """§2.5 steps 1–6: the new board and the autos, or None when illegal."""
    if not board:
        if cell != (0, 0):
            return None
    elif cell in board or not any(corners(cell) & corners(t) for t in board):
        return None
    if any(s[e] != k for e, k in constrained(board, cell)):
        return None
    if remaining < 1:
        return None
    b = dict(board)
    b[cell] = s
    autos: list[tuple[Cell, str]] = []
    while True:
        forced = sorted(f for f in frontier(b) if len(legal(b, f)) == 1)
        if not forced:
            break
        f = forced[0]
        b[f] = legal(b, f)[0]
        autos.append((f, b[f]))
        if 1 + len(autos) > remaining:
            return None
    if any(not legal(b, f) for f in frontier(b)):
        return None
    if not connected(b):
        return None
    return b, autos


def components(board: dict[Cell, str], colour: str) -> list[tuple[int, bool]]:
    """(length in tiles, is a loop) of every component of ``colour``'s graph."""

    def node(cell: Cell, e: int) -> tuple[Cell, ...]:
        n = nbrs(cell)[e]
        return tuple(sorted([cell, n])) if n in board else (cell, (e, e))  # type: ignore[return-value]

    adj: dict[tuple[Cell, ...], list[tuple[tuple[Cell, ...], Cell]]] = {}
    for cell, s in board.items():
        a = node(cell, s.index(colour))
        b = node(cell, s.index("*"))
        adj.setdefault(a, []).append((b, cell))
        adj.setdefault(b, []).append((a, cell))
    seen: set[tuple[Cell, ...]] = set()
    out = []
    for start in adj:
        if start in seen:
            continue
        nodes = {start}
        tiles: set[Cell] = set()
        todo = [start]
        while todo:
            x = todo.pop()
            for y, t in adj[x]:
                tiles.add(t)
                if y not in nodes:
                    nodes.add(y)
                    todo.append(y)
        seen |= nodes
        out.append((len(tiles), all(len(adj[x]) == 2 for x in nodes)))
    return out


def has_move(board: dict[Cell, str], remaining: int) -> bool:
    cells = {
        (r, c) for (r0, c0) in board for r in range(r0 - 2, r0 + 3) for c in range(c0 - 3, c0 + 4)
    }
    if not board:
        cells = {(0, 0)}
    return any(apply(board, remaining, cell, s) is not None for cell in cells for s in STATES)


def judge(board: dict[Cell, str], remaining: int) -> tuple[str | None, str] | None:
    """§2.7 after a move (``remaining`` already reduced): (winner "O"/"X"/None, reason)."""
    comps = {k: components(board, k) for k in "ox"}
    loops = {k: [n for n, closed in comps[k] if closed] for k in "ox"}
    if loops["o"] and loops["x"]:
        lo, lx = max(loops["o"]), max(loops["x"])
        return (None if lo == lx else ("X" if lo > lx else "O"), "both_loops")
    if loops["o"]:
        return ("O", "loop")
    if loops["x"]:
        return ("X", "loop")
    for reason, over in (("pool_empty", remaining <= 0), ("no_move", None)):
        if over is None:
            over = not has_move(board, remaining)
        if over:
            lo = max(n for n, _ in comps["o"])
            lx = max(n for n, _ in comps["x"])
            return (None if lo == lx else ("X" if lo > lx else "O"), reason)
    return None
