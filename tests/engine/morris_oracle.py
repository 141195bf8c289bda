"""A second, deliberately naive transcription of rules-other-games.md section 1 (1.2, 1.5),
used only to cross-check the engine's legal moves (perft). It shares no code with
``engine.morris``: the adjacency and the 16 lines are parsed from the spec's own text.

A position is ``(board: dict point -> 'W'/'B', reserve: dict, to_move, pending, over)``;
moves are tuples ``("place", p)``, ``("move", a, b)``, ``("remove", p)``.
"""

from __future__ import annotations

from typing import Any

ADJACENCY_TEXT = """
a7: d7 a4        d7: a7 g7 d6     g7: d7 g4        g4: g7 g1 f4
g1: g4 d1        d1: g1 a1 d2     a1: d1 a4        a4: a1 a7 b4
b6: d6 b4        d6: b6 f6 d7 d5  f6: d6 f4        f4: f6 f2 g4 e4
f2: f4 d2        d2: f2 b2 d1 d3  b2: d2 b4        b4: b2 b6 a4 c4
c5: d5 c4        d5: c5 e5 d6     e5: d5 e4        e4: e5 e3 f4
e3: e4 d3        d3: e3 c3 d2     c3: d3 c4        c4: c3 c5 b4
"""
LINES_TEXT = """
a7-d7-g7  b6-d6-f6  c5-d5-e5  a4-b4-c4  e4-f4-g4  c3-d3-e3  b2-d2-f2  a1-d1-g1
a7-a4-a1  b6-b4-b2  c5-c4-c3  d7-d6-d5  d3-d2-d1  e5-e4-e3  f6-f4-f2  g7-g4-g1
"""


def _adjacency() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    tokens = ADJACENCY_TEXT.split()
    key = ""
    for t in tokens:
        if t.endswith(":"):
            key = t[:-1]
            out[key] = []
        else:
            out[key].append(t)
    return out


ADJ = _adjacency()
LINES = [tuple(x.split("-")) for x in LINES_TEXT.split()]
POINTS = sorted(ADJ)


class Pos:
    def __init__(
        self, board: dict[str, str], reserve: dict[str, int], to_move: str, pending: bool = False
    ) -> None:
        self.board = dict(board)
        self.reserve = dict(reserve)
        self.to_move = to_move
        self.pending = pending
        self.over = False

    def copy(self) -> Pos:
        p = Pos(self.board, self.reserve, self.to_move, self.pending)
        p.over = self.over
        return p


def other(c: str) -> str:
    return "B" if c == "W" else "W"


def count(pos: Pos, c: str) -> int:
    return sum(1 for v in pos.board.values() if v == c)


def placing(pos: Pos) -> bool:
    return pos.reserve["W"] > 0 or pos.reserve["B"] > 0


def walled(pos: Pos, p: str) -> bool:
    c = pos.board[p]
    return any(p in ln and all(pos.board.get(q) == c for q in ln) for ln in LINES)


def flies(pos: Pos, c: str) -> bool:
    return not placing(pos) and count(pos, c) == 3


def steps(pos: Pos, c: str) -> list[tuple[str, str]]:
    empty = [q for q in POINTS if q not in pos.board]
    out = []
    for p in POINTS:
        if pos.board.get(p) != c:
            continue
        for q in empty if flies(pos, c) else ADJ[p]:
            if q not in pos.board:
                out.append((p, q))
    return out


def moves(pos: Pos) -> list[tuple[Any, ...]]:
    if pos.over:
        return []
    c = pos.to_move
    if pos.pending:
        enemy = [p for p in POINTS if pos.board.get(p) == other(c)]
        free = [p for p in enemy if not walled(pos, p)]
        return [("remove", p) for p in (free or enemy)]
    if placing(pos):
        return [("place", p) for p in POINTS if p not in pos.board]
    return [("move", a, b) for a, b in steps(pos, c)]


def play(pos: Pos, m: tuple[Any, ...]) -> Pos:
    pos = pos.copy()
    c = pos.to_move
    if m[0] == "remove":
        del pos.board[m[1]]
        pos.pending = False
        return end_turn(pos)
    if m[0] == "place":
        pos.board[m[1]] = c
        pos.reserve[c] -= 1
        dest = m[1]
    else:
        del pos.board[m[1]]
        pos.board[m[2]] = c
        dest = m[2]
    made = [ln for ln in LINES if dest in ln and all(pos.board.get(q) == c for q in ln)]
    if made:
        if not placing(pos) and count(pos, other(c)) <= 3:
            pos.over = True
            return pos
        if count(pos, other(c)) > 0:
            pos.pending = True
            return pos
    return end_turn(pos)


def end_turn(pos: Pos) -> Pos:
    c = pos.to_move
    o = other(c)
    if not placing(pos):
        if count(pos, o) < 3 or count(pos, c) < 3:
            pos.over = True
            return pos
        if count(pos, o) > 3 and not steps(pos, o):
            return pos  # rule 6: o is skipped, c moves again
    pos.to_move = o
    return pos


def perft(pos: Pos, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(play(pos, m), depth - 1) for m in moves(pos))
