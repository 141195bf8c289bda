"""A deliberately plain reference model of vapoosh-rules.md (dict board, coordinates).

No bitboards, no shared tables: written straight from the rules page so that the
engine's bit tricks are checked against an independent reading.
"""

from __future__ import annotations

from typing import Any

BROWN = 5
ORTHO = ((0, -1), (-1, 0), (1, 0), (0, 1))


def on_board(c: int, r: int) -> bool:
    return 1 <= c <= 12 and 1 <= r <= 12


def neighbours(c: int, r: int) -> list[tuple[int, int]]:
    return [(c + dc, r + dr) for dc, dr in ORTHO if on_board(c + dc, r + dr)]


class Oracle:
    def __init__(self, rules: Any, players: int, board: dict[tuple[int, int], int]) -> None:
        self.rules = rules
        self.n = players
        self.board = dict(board)
        self.to_move = 1
        self.skips = dict.fromkeys(range(1, players + 1), 0)
        self.turns = 0
        self.rerolls = 0
        self.phase = "roll"
        self.winner: int | None = None
        self.opts: list[tuple[int, int]] = []
        self.dice: tuple[int, ...] = ()
        self.moves: list[tuple[str, int, int]] = []

    # --- classification -------------------------------------------------------
    def at(self, t: tuple[int, int]) -> int:
        return self.board.get(t, 0)

    def status(self, t: tuple[int, int]) -> str:
        me, v = self.to_move, self.at(t)
        if v == BROWN:
            return "brown"
        if v == me:
            return "own"
        if v:
            return "opponent"
        if self.rules.suicide:
            owners = {self.at(x) for x in neighbours(*t)}
            if len(owners) == 1:
                (o,) = owners
                if o not in (0, BROWN, me):
                    return "suicide"
        return "empty"

    def normal(self) -> list[tuple[int, int]]:
        empty = [t for t in self.opts if self.status(t) == "empty"]
        opp = [t for t in self.opts if self.status(t) == "opponent"]
        if self.rules.capture == "any":
            return empty + opp
        return empty or opp

    # --- turn flow ------------------------------------------------------------
    def next_seat(self, s: int) -> int:
        return s % self.n + 1

    def start_turn(self, seat: int, kinds: list[str], keep: bool = False) -> None:
        self.to_move = seat
        if not keep:
            self.rerolls = 0
        if self.turns >= self.rules.max_turns:
            self.phase = "over"
            kinds.append("draw")
        else:
            self.phase = "roll"

    def pass_turn(self, kinds: list[str]) -> None:
        s = self.next_seat(self.to_move)
        while self.skips[s] > 0:
            self.skips[s] -= 1
            kinds.append("skip")
            s = self.next_seat(s)
        self.start_turn(s, kinds)

    def roll(self, dice: tuple[int, int, int, int]) -> list[str]:
        p1, p2, g1, g2 = dice
        big_p, big_g = p1 + p2, g1 + g2
        self.turns += 1
        kinds = ["roll"]
        self.opts = [(big_p, big_g)] if big_p == big_g else [(big_p, big_g), (big_g, big_p)]
        self.dice = dice
        sixes = list(dice).count(6)
        if sixes == 4:
            kinds += ["vapoosh", "win"]
            self.phase, self.winner = "over", self.to_move
            return kinds
        if p1 == p2 == g1 == g2 and self.rules.quad_skips_next:
            self.skips[self.next_seat(self.to_move)] += 1
            kinds.append("quad")
        moves = [("place", c, r) for c, r in self.normal()]
        if sixes == 3 and self.rules.vapooh != "off":
            browns = [("brown", c, r) for c, r in self.opts if self.at((c, r)) != BROWN]
            moves = browns if self.rules.vapooh == "brown_and_miss_next" else moves + browns
        if moves:
            self.phase, self.moves = "place", moves
            return kinds
        st = sorted(self.status(t) for t in self.opts)
        if all(x == "own" for x in st):
            kinds.append("blocked_own")
            self.skips[self.next_seat(self.to_move)] += 1
            self.pass_turn(kinds)
        elif st == ["own", "suicide"] and self.rerolls < self.rules.own_suicide_rerolls:
            self.rerolls += 1
            kinds.append("reroll")
            self.start_turn(self.to_move, kinds, keep=True)
        else:
            kinds.append("miss_turn")
            self.pass_turn(kinds)
        return kinds

    def wins(self, me: int) -> bool:
        mine = {t for t, v in self.board.items() if v == me}
        for c, r in mine:
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if all((c + k * dc, r + k * dr) in mine for k in range(4)):
                    return True
            if {(c + 1, r), (c, r + 1), (c + 1, r + 1)} <= mine:
                return True
        return False

    def group(self, t: tuple[int, int]) -> set[tuple[int, int]]:
        colour, seen, todo = self.at(t), {t}, [t]
        while todo:
            for x in neighbours(*todo.pop()):
                if x not in seen and self.at(x) == colour:
                    seen.add(x)
                    todo.append(x)
        return seen

    def place(self, kind: str, c: int, r: int) -> list[str]:
        me, t, kinds = self.to_move, (c, r), []
        if kind == "brown":
            self.board[t] = BROWN
            kinds.append("brown")
            if self.rules.vapooh == "brown_and_miss_next":
                self.skips[me] += 1
            self.pass_turn(kinds)
            return kinds
        if self.at(t) not in (0, me):
            kinds.append("capture")
        self.board[t] = me
        kinds.append("place")
        if self.rules.surround != "off":
            taken: list[set[tuple[int, int]]] = []
            for x in neighbours(*t):
                v = self.at(x)
                if v in (0, me, BROWN) or any(x in g for g in taken):
                    continue
                g = {x} if self.rules.surround == "tile" else self.group(x)
                border = {y for z in g for y in neighbours(*z)} - g
                if all(self.at(y) == me for y in border):
                    taken.append(g)
            for g in taken:
                for z in g:
                    self.board[z] = me
                kinds.append("surround_capture")
        square = self.dice[0] + self.dice[1] == self.dice[2] + self.dice[3]
        if self.wins(me):
            kinds.append("win")
            self.phase, self.winner = "over", me
        elif square and self.rules.square_extra_turn:
            kinds.append("extra_turn")
            self.start_turn(me, kinds)
        else:
            self.pass_turn(kinds)
        return kinds

    def board_rows(self) -> list[str]:
        chars = ".1234B"
        return ["".join(chars[self.at((c, r))] for c in range(1, 13)) for r in range(1, 13)]
