"""Bricks & Walls states: the rules of rules-other-games.md section 1.

A turn is one action (``Place`` while bricks are in reserve, else ``Move``) and,
when that action completed a wall, one ``Remove`` by the same player. Seat 0 is
White (moves first), seat 1 Black.

Readings fixed here where section 1 leaves room (each has a test):

- Immediate win (1.5-4): after the placement phase, a wall against an opponent with
  3 bricks *or fewer* wins at once with no removal (with fewer the opponent has lost
  by 1.5-5a anyway, so a removal would change nothing but the events).
- 1.5-5a, when both players end the placement phase with fewer than 3 bricks, the one
  who did not just act loses (the mover's action is what ended the phase).
- A position whose player to move must place but has an empty reserve while the
  other player still has bricks to place cannot arise (placement strictly alternates)
  and is refused as a start position.

>>> game = MorrisGame()
>>> s = game.new_initial_state()
>>> s.phase, s.current_player(), len(s.legal_actions())
('place', 0, 24)
>>> for p in ("a7", "b6", "d7", "d6"):
...     _ = s.apply(Place(p))
>>> [e.kind for e in s.apply(Place("g7"))]
['place', 'wall']
>>> s.phase, s.legal_targets()
('remove', ['b6', 'd6'])
>>> s.click("a7").refusal.reason
'remove_own'
>>> walled = MorrisGame().state_from_position(
...     {"a7": "W", "d7": "W", "g7": "W", "b6": "B", "d6": "B", "f6": "B", "b4": "B"},
...     to_move="W", pending_removal=True)
>>> walled.legal_targets(), walled.click("d6").refusal.message
(['b4'], 'That brick is in a wall: take another one.')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import core
from engine.core import TERMINAL, ClickResult, Event, IllegalActionError, Refusal, RulesError
from engine.morris.actions import (
    MOVE_BASE,
    REMOVE_BASE,
    Action,
    Move,
    Place,
    Remove,
    action_from_json,
    decode,
    encode,
)
from engine.morris.board import ADJACENT, LINES, LINES_THROUGH, POINTS, SIZE, index, is_point, name
from engine.morris.rules import Rules

#: Colour letters by seat, and their names in messages.
COLOURS = ("W", "B")
COLOUR_NAMES = ("White", "Black")

PLACE, MOVE, FLY, REMOVE, OVER = "place", "move", "fly", "remove", "over"


# ----- tables: the board as two 24-bit masks (bit i = point i), computed once ----------

_FULL = (1 << SIZE) - 1
#: ``_ADJ[i]``: the mask of the points joined to point ``i``.
_ADJ: tuple[int, ...] = tuple(sum(1 << j for j in ADJACENT[i]) for i in range(SIZE))
#: The 16 lines as masks, and ``_THROUGH[i]``: (line, mask) of the lines through point ``i``.
_LINE_MASKS: tuple[int, ...] = tuple(sum(1 << j for j in line) for line in LINES)
_THROUGH: tuple[tuple[tuple[tuple[int, int, int], int], ...], ...] = tuple(
    tuple((line, sum(1 << j for j in line)) for line in LINES_THROUGH[i]) for i in range(SIZE)
)


def _byte_table(shift: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(shift + k for k in range(8) if b >> k & 1) for b in range(256))


#: The set bits of one byte of a mask, as point indexes (bytes 0, 1, 2).
_BITS0, _BITS1, _BITS2 = _byte_table(0), _byte_table(8), _byte_table(16)


def _points(mask: int) -> tuple[int, ...]:
    """The point indexes of ``mask``, ascending."""
    return _BITS0[mask & 255] + _BITS1[mask >> 8 & 255] + _BITS2[mask >> 16]


#: ``_STEPS[i][d]``: the move ids from ``i`` to the points of ``d`` (a subset of ``_ADJ[i]``),
#: ascending.
def _subsets(mask: int) -> list[int]:
    out = [0]
    for j in _points(mask):
        out += [s | 1 << j for s in out]
    return out


_STEPS: tuple[dict[int, tuple[int, ...]], ...] = tuple(
    {d: tuple(MOVE_BASE + SIZE * i + j for j in _points(d)) for d in _subsets(_ADJ[i])}
    for i in range(SIZE)
)


def _dilate_table(shift: int) -> tuple[int, ...]:
    out = []
    for b in range(256):
        m = 0
        for k in range(8):
            if b >> k & 1 and shift + k < SIZE:
                m |= _ADJ[shift + k]
        out.append(m)
    return tuple(out)


#: The points next to any point of one byte of a mask (bytes 0, 1, 2).
_DIL0, _DIL1, _DIL2 = _dilate_table(0), _dilate_table(8), _dilate_table(16)


def _tile(i: int) -> tuple[int, int]:
    """Event coordinates of point ``i``: (column 1..7, row 1..7)."""
    p = POINTS[i]
    return ord(p[0]) - ord("a") + 1, int(p[1])


# The events of placing, moving and removing, made once: an Event is an immutable value,
# so every state that emits the same event may hand out the same object.
_PLACE_EVENTS = tuple(
    tuple(Event("place", v, (_tile(i),), {"point": POINTS[i]}) for i in range(SIZE))
    for v in (1, 2)
)
_MOVE_EVENTS = tuple(
    tuple(
        tuple(
            Event("move", v, (_tile(i), _tile(j)),
                  {"from": POINTS[i], "point": POINTS[j], "fly": j not in ADJACENT[i]})
            for j in range(SIZE)
        )
        for i in range(SIZE)
    )
    for v in (1, 2)
)
_REMOVE_EVENTS = tuple(
    tuple(Event("remove", v, (_tile(i),), {"point": POINTS[i]}) for i in range(SIZE))
    for v in (1, 2)
)
_WALL_EVENTS = {
    (v, line): Event("wall", v, tuple(_tile(j) for j in line), {"points": [name(j) for j in line]})
    for v in (1, 2)
    for line in LINES
}


def _seat_of(colour: object, field: str) -> int:
    if colour not in COLOURS:
        raise RulesError(f"{field}: must be 'W' or 'B', got {colour!r}")
    return COLOURS.index(colour)


class MorrisState(core.StateLog["MorrisGame"]):
    """A Bricks & Walls position and whose turn it is (OpenSpiel shape, plus clicks).

    The board is two 24-bit masks, one per seat (bit ``i``: a brick on point ``i``);
    the tables above turn them into legal action ids, walls and events without a loop
    over the 24 points.
    """

    __slots__ = (
        "_flying",
        "_masks",
        "_reserve",
        "_to_move",
        "_pending",
        "_winner",
        "_over",
        "_quiet",
    )

    def __init__(self, game: MorrisGame) -> None:
        n = game.rules.bricks
        self._begin_log(game)
        self._flying = game.rules.flying
        self._masks: list[int] = [0, 0]  # White's bricks, Black's bricks
        self._reserve: list[int] = [n, n]
        self._to_move = 0
        self._pending = False
        self._winner: int | None = None
        self._over = False
        self._quiet = 0  # movement turns in a row without a removal (move_cap)

    # ----- OpenSpiel face --------------------------------------------------------------

    def current_player(self) -> int:
        """0 White, 1 Black, or :data:`engine.core.TERMINAL`."""
        return TERMINAL if self._over else self._to_move

    def is_chance_node(self) -> bool:
        return False

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids (empty once the game is over)."""
        if self._over:
            return []
        seat = self._to_move
        own = self._masks[seat]
        if self._pending:
            return [REMOVE_BASE + i for i in _points(self._removable_mask(seat))]
        empty = _FULL & ~(own | self._masks[1 - seat])
        if self._reserve[0] or self._reserve[1]:
            return list(_points(empty))  # Place ids are the point indexes
        if self._flying and own.bit_count() == 3:
            tos = _points(empty)
            return [MOVE_BASE + SIZE * i + j for i in _points(own) for j in tos]
        out: list[int] = []
        for i in _points(own):
            d = _ADJ[i] & empty
            if d:
                out += _STEPS[i][d]
        return out

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []  # no chance in this game

    def is_terminal(self) -> bool:
        return self._over

    def returns(self) -> list[float]:
        """+1 to the winner and -1 to the loser; zeros while playing or after a draw."""
        if self._winner is None:
            return [0.0, 0.0]
        return [1.0 if s == self._winner else -1.0 for s in (0, 1)]

    def apply(self, action: Action) -> list[Event]:
        """Apply an action value object (see :meth:`apply_action`)."""
        return self.apply_action(encode(action))

    def apply_action(self, action: int) -> list[Event]:
        """Apply a legal action; an illegal one raises :class:`IllegalActionError`
        (with the refusal's reason code) and leaves the state unchanged."""
        seat = self._to_move
        masks = self._masks
        own = masks[seat]
        occupied = own | masks[1 - seat]
        legal = False
        if self._over or isinstance(action, bool) or not isinstance(action, int):
            pass
        elif self._pending:
            if REMOVE_BASE <= action < REMOVE_BASE + SIZE:
                legal = self._removable_mask(seat) >> (action - REMOVE_BASE) & 1 == 1
        elif self._reserve[0] or self._reserve[1]:
            legal = 0 <= action < SIZE and not occupied >> action & 1
        elif MOVE_BASE <= action < REMOVE_BASE:
            i, j = divmod(action - MOVE_BASE, SIZE)
            legal = (
                own >> i & 1 == 1
                and not occupied >> j & 1
                and (_ADJ[i] >> j & 1 == 1 or (self._flying and own.bit_count() == 3))
            )
        if not legal:  # the refusal says why (decode raises RulesError for a bad id)
            refusal = self.refusal(decode(action))
            assert refusal is not None, action
            raise IllegalActionError(refusal.reason, refusal.message)
        if action >= REMOVE_BASE:
            i = action - REMOVE_BASE
            masks[1 - seat] ^= 1 << i
            self._pending = False
            events = [_REMOVE_EVENTS[seat][i]]
            self._end_turn(seat, removed=True, events=events)
        elif action < SIZE:
            masks[seat] = own | 1 << action
            self._reserve[seat] -= 1
            events = [_PLACE_EVENTS[seat][action]]
            self._after_action(seat, action, events, moved=False)
        else:
            i, j = divmod(action - MOVE_BASE, SIZE)
            masks[seat] = own ^ (1 << i | 1 << j)
            events = [_MOVE_EVENTS[seat][i][j]]
            self._after_action(seat, j, events, moved=True)
        return self._logged(action, events)

    def clone(self) -> MorrisState:
        other = self._clone_log()
        other._flying = self._flying
        other._masks = self._masks[:]
        other._reserve = self._reserve[:]
        other._to_move = self._to_move
        other._pending = self._pending
        other._winner = self._winner
        other._over = self._over
        other._quiet = self._quiet
        return other

    def _key(self) -> tuple[Any, ...]:
        return (
            tuple(self._masks),
            tuple(self._reserve),
            self._to_move,
            self._pending,
            self._winner,
            self._over,
            self._quiet,
            tuple(self._history),
        )

    def __repr__(self) -> str:
        return f"MorrisState({self.to_json()['board']!r}, phase={self.phase!r})"

    def __str__(self) -> str:
        return self.to_text()

    # ----- what the app reads ------------------------------------------------------------

    @property
    def placement_over(self) -> bool:
        """True once both reserves are empty (the movement phase)."""
        return self._reserve[0] == 0 and self._reserve[1] == 0

    @property
    def phase(self) -> str:
        """``place``, ``move``, ``fly`` (the player to move has 3 bricks), ``remove`` or ``over``."""
        if self._over:
            return OVER
        if self._pending:
            return REMOVE
        if not self.placement_over:
            return PLACE
        return FLY if self.can_fly(self._to_move) else MOVE

    @property
    def to_move(self) -> str | None:
        """``"W"`` or ``"B"``; ``None`` once the game is over."""
        return None if self._over else COLOURS[self._to_move]

    @property
    def winner(self) -> str | None:
        """``"W"``, ``"B"``, or ``None`` (playing, or a draw)."""
        return None if self._winner is None else COLOURS[self._winner]

    @property
    def pending_removal(self) -> bool:
        return self._pending

    def _cell(self, i: int) -> int:
        """0 empty, 1 White, 2 Black."""
        if self._masks[0] >> i & 1:
            return 1
        return 2 if self._masks[1] >> i & 1 else 0

    @property
    def board(self) -> dict[str, str]:
        """Occupied points and their colour, in point order."""
        white, black = self._masks
        return {
            POINTS[i]: "W" if white >> i & 1 else "B"
            for i in _points(white | black)
        }

    def cells(self) -> tuple[int, ...]:
        """The board by point index: 0 empty, 1 White, 2 Black (for fast evaluation)."""
        white, black = self._masks
        return tuple((white >> i & 1) + 2 * (black >> i & 1) for i in range(SIZE))

    def masks(self) -> tuple[int, int]:
        """The board as two masks, White's and Black's bricks (bit ``i``: point ``i``)."""
        return self._masks[0], self._masks[1]

    @property
    def reserve(self) -> dict[str, int]:
        """Bricks left to place, by colour (the "placements left")."""
        return {"W": self._reserve[0], "B": self._reserve[1]}

    def on_board(self, colour: str) -> int:
        """Bricks of ``colour`` on the board (the "bricks left" after placement)."""
        return self._masks[_seat_of(colour, "colour")].bit_count()

    def owner(self, point: str) -> str | None:
        """``"W"``, ``"B"`` or ``None`` for an empty point."""
        v = self._cell(index(point))
        return COLOURS[v - 1] if v else None

    def walled(self, point: str) -> bool:
        """True when the brick on ``point`` lies on a complete line of its colour."""
        i = index(point)
        return self._cell(i) != 0 and self._is_walled(i)

    def can_fly(self, seat: int) -> bool:
        """A seat with exactly 3 bricks after placement moves anywhere (if flying is on)."""
        return self._flying and self.placement_over and self._masks[seat].bit_count() == 3

    def destinations(self, point: str) -> list[str]:
        """Where the brick on ``point`` may go now (none outside the movement phase)."""
        i = index(point)
        v = self._cell(i)
        if self._over or self._pending or not self.placement_over or v != self._to_move + 1:
            return []
        return [name(j) for j in self._destinations(v - 1, i)]

    # ----- clicks (PlayableState) ------------------------------------------------------

    def _selected(self, selection: Sequence[str]) -> int | None:
        """The selected brick's index, if the selection is a brick that may move now."""
        if len(selection) != 1 or not is_point(selection[0]):
            return None
        i = index(selection[0])
        if self.phase not in (MOVE, FLY) or self._cell(i) != self._to_move + 1:
            return None
        return i

    def legal_targets(self, selection: Sequence[str] = ()) -> list[str]:
        """Points a click may choose now, in point order.

        Placing: the empty points. Removing: the enemy bricks that may be taken.
        Moving with nothing selected: own bricks that can move; with a brick
        selected: its destinations.

        >>> s = MorrisGame().state_from_position({"a7": "W", "d7": "B"}, {"W": 0, "B": 0})
        >>> s.legal_targets(), s.legal_targets(["a7"])
        (['a7'], ['a4'])
        """
        phase = self.phase
        seat = self._to_move
        if phase == OVER:
            return []
        if phase == REMOVE:
            return [name(i) for i in self._removable(seat)]
        if phase == PLACE:
            return [name(i) for i in range(SIZE) if self._cell(i) == 0]
        sel = self._selected(selection)
        if sel is not None:
            return [name(j) for j in self._destinations(seat, sel)]
        return [
            name(i)
            for i in range(SIZE)
            if self._cell(i) == seat + 1 and self._destinations(seat, i)
        ]

    def click(self, target: str, selection: Sequence[str] = ()) -> ClickResult:
        """What a click on ``target`` means, with ``selection`` held (pure).

        Moving is click-to-select then click-to-move: clicking the selected brick
        again drops it, clicking another own brick switches to it.

        >>> s = MorrisGame().state_from_position({"a7": "W", "d7": "B"}, {"W": 0, "B": 0})
        >>> s.click("a7")
        ClickResult(action=None, refusal=None, selection=('a7',), fields={'point': 'a7'})
        >>> s.click("a4", ("a7",)).action == encode(Move("a7", "a4"))
        True
        >>> s.click("g7", ("a7",)).refusal.reason
        'not_adjacent'
        """
        seat = self._to_move
        enemy = COLOUR_NAMES[1 - seat]
        fields: dict[str, Any] = {"point": target}
        phase = self.phase
        if not is_point(target):
            return ClickResult(
                None, Refusal("not_a_point", "Click one of the points of the board."), (), fields
            )
        i = index(target)
        if phase == OVER:
            return ClickResult(None, Refusal("game_over", "The game is over."), (), fields)
        if phase == REMOVE:
            r = self.refusal(Remove(target))
            return ClickResult(None if r else encode(Remove(target)), r, (), fields)
        if phase == PLACE:
            r = self.refusal(Place(target))
            return ClickResult(None if r else encode(Place(target)), r, (), fields)
        sel = self._selected(selection)
        if sel is not None:
            fields["from"] = name(sel)
        if self._cell(i) == seat + 1:  # an own brick: select, switch or drop
            if sel == i:
                return ClickResult(None, None, (), fields)
            if not self._destinations(seat, i):
                return ClickResult(
                    None,
                    Refusal("no_moves", "That brick has nowhere to go: pick another one."),
                    (),
                    fields,
                )
            return ClickResult(None, None, (target,), fields)
        if sel is None:
            if self._cell(i) == 0:
                return ClickResult(
                    None,
                    Refusal("select_first", "First pick one of your bricks, then where it goes."),
                    (),
                    fields,
                )
            return ClickResult(
                None,
                Refusal("not_yours", f"That is {enemy}'s brick: pick one of yours."),
                (),
                fields,
            )
        move = Move(name(sel), target)
        r = self.refusal(move)
        held = (name(sel),)
        return ClickResult(None if r else encode(move), r, () if r is None else held, fields)

    def refusal(self, action: Action) -> Refusal | None:
        """Why the rules refuse ``action`` now (a stable reason code and a sentence in the
        player's words), or ``None`` when it is legal. The one place legality is decided
        for single actions; :meth:`legal_actions` lists exactly the actions it accepts."""
        seat = self._to_move
        enemy = COLOUR_NAMES[1 - seat]
        if self._over:
            return Refusal("game_over", "The game is over.")
        if self._pending:
            if not isinstance(action, Remove):
                return Refusal("removal_pending", f"Wall! First take one of {enemy}'s bricks.")
            i = index(action.at)
            v = self._cell(i)
            if v == 0:
                return Refusal(
                    "remove_empty", f"There is no brick there: take one of {enemy}'s bricks."
                )
            if v == seat + 1:
                return Refusal(
                    "remove_own", f"That is your own brick: take one of {enemy}'s bricks."
                )
            if i not in self._removable(seat):
                return Refusal("walled", "That brick is in a wall: take another one.")
            return None
        if isinstance(action, Remove):
            return Refusal("no_removal", "There is nothing to take: you have not made a wall.")
        if isinstance(action, Place):
            if self.placement_over:
                return Refusal(
                    "placement_over", "All bricks are placed: move one of yours instead."
                )
            if self._cell(index(action.to)) != 0:
                return Refusal("occupied", "That point is taken: choose an empty one.")
            return None
        if not self.placement_over:
            return Refusal(
                "still_placing",
                f"Place a brick first: you have {self._reserve[seat]} left to place.",
            )
        i, j = index(action.frm), index(action.to)
        if self._cell(i) != seat + 1:
            return Refusal("not_yours", "Move one of your own bricks.")
        if self._cell(j) != 0:
            return Refusal("occupied", "That point is taken: choose an empty one.")
        if j not in self._destinations(seat, i):
            return Refusal(
                "not_adjacent",
                "A brick moves one step along a line, to a neighbouring empty point.",
            )
        return None

    def to_text(self) -> str:
        """A plain-text picture of the board and what is due.

        >>> print(MorrisGame().state_from_position({"a7": "W", "d5": "B"}).to_text())
        7 W-----.-----.
        6 | .---.---. |
        5 | | .-B-. | |
        4 .-.-.   .-.-.
        3 | | .-.-. | |
        2 | .---.---. |
        1 .-----.-----.
          a b c d e f g
        White to place. Placements left: White 8, Black 8.
        """
        rows = [
            "X-----X-----X",
            "| X---X---X |",
            "| | X-X-X | |",
            "X-X-X   X-X-X",
            "| | X-X-X | |",
            "| X---X---X |",
            "X-----X-----X",
        ]
        grid = [list(r) for r in rows]
        for i, p in enumerate(POINTS):
            col, row = ord(p[0]) - ord("a"), int(p[1])
            v = self._cell(i)
            grid[7 - row][2 * col] = "." if v == 0 else COLOURS[v - 1]
        lines = [f"{7 - k} {''.join(r)}" for k, r in enumerate(grid)]
        lines.append("  a b c d e f g")
        lines.append(self._status_text())
        return "\n".join(lines)

    def _status_text(self) -> str:
        if self._over:
            if self._winner is None:
                return "The game is over: a draw."
            return f"The game is over: {COLOUR_NAMES[self._winner]} wins."
        who = COLOUR_NAMES[self._to_move]
        doing = {
            PLACE: "to place",
            MOVE: "to move",
            FLY: "to move (flying: any empty point)",
            REMOVE: f"to take one of {COLOUR_NAMES[1 - self._to_move]}'s bricks",
        }[self.phase]
        if not self.placement_over:
            counts = f"Placements left: White {self._reserve[0]}, Black {self._reserve[1]}."
        else:
            counts = f"Bricks left: White {self._masks[0].bit_count()}, Black {self._masks[1].bit_count()}."
        return f"{who} {doing}. {counts}"

    # ----- JSON ------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready snapshot; its position keys are a scenario's ``initial``.

        >>> s = MorrisGame().new_initial_state()
        >>> _ = s.apply(Place("d7"))
        >>> MorrisState.from_json(s.to_json()) == s
        True
        """
        return self._snapshot({
            "board": self.board,
            "reserve": self.reserve,
            "toMove": COLOURS[self._to_move],
            "pendingRemoval": self._pending,
            "over": self._over,
            "winner": self.winner,
            "quiet": self._quiet,
        })

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> MorrisState:
        """Rebuild a state from :meth:`to_json`; raises :class:`RulesError` naming a bad field."""
        with core.SnapshotReader(malformed=(KeyError, TypeError, ValueError, AttributeError)) as at:
            if obj.get("game", "morris") != "morris":
                raise RulesError(f"game: not a Bricks & Walls state: {obj.get('game')!r}")
            at.field = "rules"
            game = MorrisGame(obj.get("rules", "standard"), int(obj.get("players", 2)))
            at.field = "position"
            over = bool(obj.get("over", False))
            state = game.state_from_position(
                obj.get("board"),
                obj.get("reserve"),
                obj.get("toMove", "W"),
                bool(obj.get("pendingRemoval", False)) and not over,
            )
            at.field = "winner"
            winner = obj.get("winner")
            state._winner = None if winner is None else _seat_of(winner, "winner")
            state._over = over
            at.field = "quiet"
            state._quiet = int(obj.get("quiet", 0))
            state._history, state._last_events, state._start = state._read_log(obj, at)
        return state

    # ----- rules -----------------------------------------------------------------------

    def _is_walled(self, i: int) -> bool:
        m = self._masks[0] if self._masks[0] >> i & 1 else self._masks[1]
        return any(m & line == line for _, line in _THROUGH[i])

    def _removable_mask(self, seat: int) -> int:
        """Enemy bricks that may be taken: the unwalled ones, or any if all are walled (rule 5)."""
        enemy = self._masks[1 - seat]
        walled = 0
        for line in _LINE_MASKS:
            if enemy & line == line:
                walled |= line
        return enemy & ~walled or enemy

    def _removable(self, seat: int) -> list[int]:
        return list(_points(self._removable_mask(seat)))

    def _destinations(self, seat: int, i: int) -> list[int]:
        empty = _FULL & ~(self._masks[0] | self._masks[1])
        if self.can_fly(seat):
            return list(_points(empty))
        return list(_points(_ADJ[i] & empty))

    def _blocked(self, seat: int) -> bool:
        """No brick of ``seat`` can move (never true for a flying seat)."""
        own = self._masks[seat]
        if self.can_fly(seat) and own:
            return not _FULL & ~(own | self._masks[1 - seat])
        near = _DIL0[own & 255] | _DIL1[own >> 8 & 255] | _DIL2[own >> 16]
        return not near & _FULL & ~(own | self._masks[1 - seat])

    def _after_action(self, seat: int, dest: int, events: list[Event], moved: bool) -> None:
        """Wall check after a place or move: request the removal, win, or end the turn."""
        mine = self._masks[seat]
        walls = [line for line, mask in _THROUGH[dest] if mine & mask == mask]
        if not walls:
            self._end_turn(seat, removed=False, events=events, moved=moved)
            return
        v = seat + 1
        for line in walls:
            events.append(_WALL_EVENTS[v, line])
        enemy_count = self._masks[1 - seat].bit_count()
        if self.placement_over and enemy_count <= 3:
            self._finish(seat, "wall", events)  # immediate win, no removal (1.5-4)
        elif enemy_count == 0:
            self._end_turn(seat, removed=False, events=events, moved=moved)  # nothing to take
        else:
            self._pending = True

    def _end_turn(self, seat: int, removed: bool, events: list[Event], moved: bool = False) -> None:
        opp = 1 - seat
        if self._reserve[0] or self._reserve[1]:
            self._to_move = opp
            return
        for loser in (opp, seat):  # 1.5-5a: fewer than 3 bricks after placement loses
            if self._masks[loser].bit_count() < 3:
                self._finish(1 - loser, "bricks", events)
                return
        if removed:
            self._quiet = 0
        elif moved:
            self._quiet += 1
        cap = self._game.rules.move_cap
        if cap and self._quiet >= cap:
            self._over = True
            self._winner = None
            events.append(Event("draw", None, (), {"reason": "move_cap"}))
            return
        if self._blocked(opp):
            if self._game.rules.blocked == "lose":
                self._finish(seat, "blocked", events)
                return
            events.append(Event("skip", opp + 1, (), {}))  # rule 6: the same player moves again
            self._to_move = seat
            return
        self._to_move = opp

    def _finish(self, winner: int, reason: str, events: list[Event]) -> None:
        self._over = True
        self._winner = winner
        self._pending = False
        events.append(Event("win", winner + 1, (), {"reason": reason}))


class MorrisGame(core.GameBase[MorrisState, Action, Rules]):
    """Immutable Bricks & Walls game (two seats); makes states (the initial one: an empty
    board, both reserves full, White to place).

    >>> MorrisGame("classic").rules.blocked
    'lose'
    >>> MorrisGame(players=3)
    Traceback (most recent call last):
    ...
    engine.core.RulesError: players: Bricks & Walls is for 2 players, got 3
    """

    name = "morris"
    __slots__ = ("_rules",)
    _players = 2  # the seats a record stores (always 2)
    codec = core.ActionCodec(encode, decode, action_from_json)
    state_type = MorrisState

    def __init__(
        self, rules: Rules | str | Mapping[str, Any] = "standard", players: int = 2
    ) -> None:
        if players != 2 or isinstance(players, bool):
            raise RulesError(f"players: Bricks & Walls is for 2 players, got {players!r}")
        self._rules = Rules.from_obj(rules)

    def state_from_position(
        self,
        board: Mapping[str, str] | None = None,
        reserve: Mapping[str, int] | None = None,
        to_move: str = "W",
        pending_removal: bool = False,
    ) -> MorrisState:
        """A state from a position in the scenario's terms.

        Raises :class:`RulesError` naming the field (``board``, ``reserve``,
        ``toMove``, ``pendingRemoval``).

        >>> s = MorrisGame().state_from_position({"a7": "W", "d7": "W"}, {"W": 7, "B": 9})
        >>> s.phase, s.reserve
        ('place', {'W': 7, 'B': 9})
        """
        state = MorrisState(self)
        n = self._rules.bricks
        cells = [0] * SIZE
        if board is not None:
            if not isinstance(board, Mapping):
                raise RulesError('board: must be an object {"a7": "W", ...}')
            for point, colour in board.items():
                if not is_point(point):
                    raise RulesError(f"board: {point!r} is not a point of the board")
                cells[index(point)] = _seat_of(colour, f"board.{point}") + 1
        res = [max(0, n - cells.count(1)), max(0, n - cells.count(2))]  # default: the rest
        if reserve is not None:
            if not isinstance(reserve, Mapping):
                raise RulesError('reserve: must be an object {"W": 9, "B": 9}')
            for key in reserve:
                _seat_of(key, "reserve")
            for seat, colour in enumerate(COLOURS):
                v = reserve.get(colour, res[seat])
                if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= n:
                    raise RulesError(f"reserve.{colour}: must be a whole number 0..{n}, got {v!r}")
                res[seat] = v
        for seat, colour in enumerate(COLOURS):
            if cells.count(seat + 1) + res[seat] > n:
                raise RulesError(
                    f"board: {colour} has more than {n} bricks on the board and in reserve"
                )
        seat = _seat_of(to_move, "toMove")
        if not isinstance(pending_removal, bool):
            raise RulesError(f"pendingRemoval: must be true or false, got {pending_removal!r}")
        if res[seat] == 0 and res[1 - seat] > 0 and not pending_removal:
            # (a wall made with one's last brick: the removal comes first)
            raise RulesError(
                f"reserve.{COLOURS[seat]}: {COLOURS[seat]} is to place but has no brick left"
            )
        if pending_removal and cells.count(2 - seat) == 0:
            raise RulesError("pendingRemoval: the opponent has no brick on the board to take")
        state._masks = [
            sum(1 << i for i, v in enumerate(cells) if v == 1),
            sum(1 << i for i, v in enumerate(cells) if v == 2),
        ]
        state._reserve = res
        state._to_move = seat
        state._pending = pending_removal
        return state


core.register_game("morris", MorrisGame)


def new_state(rules: Rules | str | Mapping[str, Any] = "standard") -> MorrisState:
    """Shorthand for ``MorrisGame(rules).new_initial_state()``."""
    return MorrisGame(rules).new_initial_state()


__all__ = [
    "COLOURS",
    "COLOUR_NAMES",
    "FLY",
    "LINES",
    "MOVE",
    "MorrisGame",
    "MorrisState",
    "OVER",
    "PLACE",
    "REMOVE",
    "new_state",
]
