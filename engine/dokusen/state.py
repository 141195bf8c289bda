"""Dokusen's game and state: rounds of placements, one growth step, meteors, the end.

Rules-other-games.md §3.3–3.5 and §3.8, as an OpenSpiel-shaped state
(:class:`engine.core.State`) with the app's face (:class:`engine.core.PlayableState`).

- Seats are the colours: player 0 is the user, 1–9 the computer colours of the stage
  (``num_players`` = 1 + the largest id). Inactive colours never act; active ones act in
  ascending id after the user (``current_player()`` is the colour to place).
- After the last placement of a round comes growth (one ``grow`` event listing the
  squares that flipped), then the stage's meteors: an explicit meteor strikes at once; a
  scheduled one makes the state a chance node whose outcomes are the owned squares
  (uniform), so the engine keeps no random generator. Then the end check: no black
  square left, or ``maxRounds`` reached, ends the stage; the user wins iff
  2 × their squares > the squares of the board.
- Actions: a placement on square ``i`` (row-major) is ``i``; a meteor striking square
  ``i`` is ``rows × cols + i``. JSON forms: ``["place", [r, c]]``, ``["meteor", [r, c]]``.
- :class:`engine.core.Event` seats are 1-based as everywhere on the platform: seat =
  player id + 1; ``data["player"]`` holds the Dokusen id.

>>> game = DokusenGame("S4")
>>> s = game.new_initial_state()
>>> s.phase, s.current_player(), s.round
('place', 0, 1)
>>> [e.kind for e in s.apply(Place(0, 2))]
['place', 'grow']
>>> for row in s.board_rows(): print(row)
.010.
.101.
11111
.111.
..1..
.....
.....
>>> s.click("0,1").refusal.reason, s.click("-1,0").refusal.reason
('own_square', 'off_board')
>>> s.click("0,0").action == game.encode(Place(0, 0))
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import compress
from typing import Any

from engine import core
from engine.core import CHANCE, TERMINAL, ClickResult, Event, IllegalActionError, RulesError
from engine.dokusen.board import BLACK, VOID, Grid, counts, strike
from engine.dokusen.course import Course, is_course
from engine.dokusen.stage import Stage

__all__ = [
    "COLOUR_NAMES",
    "DokusenGame",
    "DokusenState",
    "Outcome",
    "Place",
    "Strike",
    "action_from_json",
]

PLACE, METEOR, OVER = "place", "meteor", "over"

#: The colours' names for people (§3.3); further ids are "player k".
COLOUR_NAMES = {0: "blue", 1: "orange", 2: "green", 3: "purple"}


def colour_name(pid: int) -> str:
    """``"blue"`` for the user, ``"orange"`` for player 1, ...

    >>> colour_name(0), colour_name(3), colour_name(7)
    ('blue', 'purple', 'player 7')
    """
    return COLOUR_NAMES.get(pid, f"player {pid}")


@dataclass(frozen=True)
class Square(core.CellAction):
    """An action on square ``(r, c)``: :class:`Place` or :class:`Strike`."""

    r: int
    c: int


class Place(Square, kind="place"):
    """The player to move puts a tile on square ``(r, c)``."""


class Strike(Square, kind="meteor"):
    """A meteor (a chance outcome) hits square ``(r, c)``."""


Action = Place | Strike


def action_from_json(obj: Any) -> Action:
    """``["place", [r, c]]`` or ``["meteor", [r, c]]``; raises :class:`RulesError`.

    >>> action_from_json(["meteor", [1, 2]])
    Strike(r=1, c=2)
    """
    if (
        not isinstance(obj, list | tuple)
        or len(obj) != 2
        or obj[0] not in ("place", "meteor")
        or not isinstance(obj[1], list | tuple)
        or len(obj[1]) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in obj[1])
    ):
        raise RulesError(f"action: must be ['place', [r, c]] or ['meteor', [r, c]], got {obj!r}")
    r, c = obj[1]
    return Place(r, c) if obj[0] == "place" else Strike(r, c)


@dataclass(frozen=True)
class Outcome:
    """How a stage ended: ``result`` ``"win"``/``"loss"``, ``reason`` ``"full"`` (no
    black square left) or ``"max_rounds"``, after ``rounds`` rounds, with the user's
    squares out of ``total``."""

    result: str
    reason: str
    rounds: int
    user: int
    total: int

    @property
    def won(self) -> bool:
        return self.result == "win"

    def to_obj(self) -> dict[str, Any]:
        return {
            "result": self.result,
            "reason": self.reason,
            "rounds": self.rounds,
            "user": self.user,
            "total": self.total,
        }


class DokusenState(core.StateLog["DokusenGame"]):
    """A Dokusen position, the round, and whose placement (or which draw) is due."""

    __slots__ = ("_grid", "_cells", "_masks", "_round", "_to_move", "_outcome")

    def __init__(
        self, game: DokusenGame, cells: Sequence[int], masks: Sequence[int] | None = None
    ) -> None:
        """A state on ``cells`` (``masks``, when given, must be the grid's
        :meth:`~engine.dokusen.board.Grid.masks_of` them: the game's start passes its own)."""
        self._begin_log(game)
        self._grid = game.grid
        self._cells = list(cells)
        #: per colour, the byte mask of its squares (:meth:`Grid.masks_of`): the same
        #: position as ``_cells``, kept alongside it for growth, the legal squares and the end
        self._masks = game.grid.masks_of(cells, game.num_players) if masks is None else [*masks]
        self._round = 1
        self._to_move = 0
        self._outcome: Outcome | None = None

    # ----- OpenSpiel-style interface -------------------------------------------------

    def current_player(self) -> int:
        """The colour to place, :data:`CHANCE` (a meteor's impact) or :data:`TERMINAL`."""
        return self._to_move

    def is_chance_node(self) -> bool:
        return self._to_move == CHANCE

    def legal_actions(self) -> list[int]:
        """Sorted: the squares the mover does not own, or the meteor impacts at a chance node."""
        me = self._to_move
        if me < 0:
            return [a for a, _ in self.chance_outcomes()] if me == CHANCE else []
        open_ = self._grid.square_mask & ~self._masks[me]
        return list(compress(self._game._range, open_.to_bytes(len(self._cells), "little")))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """A due meteor strikes an owned square, each equally likely; else empty."""
        if self._to_move != CHANCE:
            return []
        owned = self._owned()
        if not owned:
            return []
        p = 1.0 / owned.bit_count()
        flags = owned.to_bytes(self._grid.size, "little")
        return [(a, p) for a in compress(self._game._meteor_range, flags)]

    def is_terminal(self) -> bool:
        return self._to_move == TERMINAL

    def returns(self) -> list[float]:
        """The user +1 on a win, -1 on a loss; the computer colours share the opposite."""
        n = self._game.num_players
        if self._outcome is None:
            return [0.0] * n
        mine = 1.0 if self._outcome.won else -1.0
        theirs = -mine / (n - 1) if n > 1 else 0.0
        return [mine] + [theirs] * (n - 1)

    def apply(self, action: Action) -> list[Event]:
        """Apply a :class:`Place` or :class:`Strike`; see :meth:`apply_action`."""
        try:
            code = self._game.encode(action)
        except RulesError:
            raise IllegalActionError(
                "off_board", f"{action!r} is not on this stage's board"
            ) from None
        return self.apply_action(code)

    def apply_action(self, action: int) -> list[Event]:
        """Apply an action id; returns its events. Raises :class:`IllegalActionError` and
        leaves the state untouched when the rules forbid it."""
        me = self._to_move
        cells = self._cells
        if me >= 0 and type(action) is int and 0 <= action < len(cells):
            before = cells[action]
            if before != me and before != VOID:  # a legal placement: _check's cases, at once
                return self._logged(action, self._place(action, before))
        self._check(action)
        size = self._grid.size
        if self._to_move == CHANCE:
            events = self._strike(action - size, self._game.stage.schedule_radius())
            self._finish_round(events)
        else:
            events = self._place(action, self._cells[action])
        return self._logged(action, events)

    def clone(self) -> DokusenState:
        other = self._clone_log()
        other._grid = self._grid
        other._cells = self._cells[:]
        other._masks = self._masks[:]
        other._round = self._round
        other._to_move = self._to_move
        other._outcome = self._outcome
        return other

    def _key(self) -> tuple[Any, ...]:
        return (tuple(self._cells), self._round, self._to_move, self._outcome)

    def __repr__(self) -> str:
        return f"<DokusenState round {self._round} {self.phase}: {'/'.join(self.board_rows())}>"

    # ----- what the app and the tests read ---------------------------------------------

    @property
    def stage(self) -> Stage:
        return self._game.stage

    @property
    def phase(self) -> str:
        """``"place"``, ``"meteor"`` (a chance draw is due) or ``"over"``."""
        if self._to_move == TERMINAL:
            return OVER
        return METEOR if self._to_move == CHANCE else PLACE

    @property
    def round(self) -> int:
        """The round being played (1 first); at the end, the last round played."""
        return self._round

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def cells(self) -> tuple[int, ...]:
        """Owners, row-major (:data:`VOID`, :data:`BLACK` or a player id)."""
        return tuple(self._cells)

    def owner(self, r: int, c: int) -> int:
        """``VOID`` (-2), ``BLACK`` (-1) or the owner's id."""
        return self._cells[self._grid.index(r, c)]

    def board_rows(self) -> list[str]:
        """The board in the stage's notation: ``#`` void, ``.`` black, digits owners."""
        return self._grid.rows_of(self._cells)

    def counts(self) -> dict[str, int]:
        """``{"0": user, "1": ..., "black": b, "total": t}``."""
        return counts(self._cells, self._game.num_players)

    def kind_of(self, pid: int) -> str:
        """``"user"``, ``"active"`` or ``"inactive"``."""
        return self._game.stage.kind(pid)

    # ----- PlayableState: the user's clicks ---------------------------------------------

    def legal_targets(self, selection: Sequence[str] = ()) -> list[str]:
        """The squares the user may click now, as ``"r,c"`` (none while others act)."""
        if self._to_move != 0:
            return []
        return [f"{r},{c}" for r, c in map(self._grid.coord, self.legal_actions())]

    def click(self, target: str, selection: Sequence[str] = ()) -> ClickResult:
        """What the user's click on square ``"r,c"`` means (the state is not changed).

        Refusal codes: ``not_your_turn``, ``game_over``, ``off_board``, ``void``,
        ``own_square``.
        """
        at = _parse_target(target)
        fields: dict[str, Any] = {"at": list(at) if at is not None else str(target)[:20]}

        def refuse(reason: str, message: str) -> ClickResult:
            return ClickResult.refused(reason, message, fields)

        if self._to_move == TERMINAL:
            return refuse("game_over", "The stage is over.")
        if self._to_move != 0:
            who = (
                "A meteor is falling"
                if self._to_move == CHANCE
                else (f"It is {colour_name(self._to_move)}'s turn to place")
            )
            return refuse("not_your_turn", f"Not your turn yet: {who}.")
        if at is None or not self._grid.on_board(*at):
            return refuse("off_board", "That is not a square of this board.")
        i = self._grid.index(*at)
        if self._cells[i] == VOID:
            return refuse("void", "That is not a square: nothing can be placed there.")
        if self._cells[i] == 0:
            return refuse(
                "own_square", "You already own that square: choose a black square or an enemy's."
            )
        return ClickResult(i, None, (), fields)

    def to_text(self) -> str:
        """A plain-text view: the round and who acts, the board, the counts.

        >>> print(DokusenGame("S1").new_initial_state().to_text())
        Dokusen S1 First Light · round 1 · blue (you) to place
        .....
        .....
        ..1..
        .....
        .....
        blue 0 · orange 1 · black 24 · 25 squares · win with 13
        """
        stage = self._game.stage
        if self._to_move == TERMINAL and self._outcome is not None:
            o = self._outcome
            doing = "stage won" if o.won else "stage lost"
            doing += " (board full)" if o.reason == "full" else " (round limit)"
        elif self._to_move == CHANCE:
            doing = "a meteor is falling"
        elif self._to_move == 0:
            doing = "blue (you) to place"
        else:
            doing = f"{colour_name(self._to_move)} to place"
        title = " ".join(x for x in ("Dokusen", stage.id, stage.name) if x)
        n = self.counts()
        parts = [f"{colour_name(p)} {n[str(p)]}" for p in range(self._game.num_players)]
        parts += [f"black {n['black']}", f"{n['total']} squares", f"win with {n['total'] // 2 + 1}"]
        return "\n".join(
            [f"{title} · round {self._round} · {doing}", *self.board_rows(), " · ".join(parts)]
        )

    # ----- JSON ---------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready snapshot; :meth:`from_json` restores an equal state."""
        return self._snapshot(
            {
                "board": self.board_rows(),
                "round": self._round,
                "phase": self.phase,
                "to_move": self._to_move if self._to_move >= 0 else None,
                "outcome": None if self._outcome is None else self._outcome.to_obj(),
            },
            rules_key="stage",
        )

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> DokusenState:
        """Rebuild a state from :meth:`to_json`; raises :class:`RulesError` naming a bad field."""
        with core.SnapshotReader() as at:
            at.field = "stage"
            game = DokusenGame(obj["stage"], int(obj.get("players", 1)))
            at.field = "board"
            state = game.state_from_position(obj["board"])
            at.field = "round"
            rnd = obj.get("round", 1)
            if isinstance(rnd, bool) or not isinstance(rnd, int) or rnd < 1:
                raise RulesError(f"round: must be a whole number ≥ 1, got {rnd!r}")
            state._round = rnd
            at.field = "phase"
            phase = obj.get("phase", PLACE)
            if phase == PLACE:
                at.field = "to_move"
                who = obj.get("to_move", 0)
                if who != 0 and who not in game.stage.active_ids:
                    raise RulesError(
                        f"to_move: {who!r} is neither the user (0) nor an active colour"
                    )
                state._to_move = who
            elif phase == METEOR:
                state._to_move = CHANCE
            elif phase == OVER:
                state._to_move = TERMINAL
                at.field = "outcome"
                out = obj["outcome"]
                state._outcome = Outcome(
                    str(out["result"]),
                    str(out["reason"]),
                    int(out["rounds"]),
                    int(out["user"]),
                    int(out["total"]),
                )
            else:
                raise RulesError(f"phase: unknown phase {phase!r}")
            state._history, state._last_events, state._start = state._read_log(obj, at)
        return state

    # ----- rules ----------------------------------------------------------------------

    def _check(self, action: int) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is legal now."""
        size = self._grid.size
        if self._to_move == TERMINAL:
            raise IllegalActionError("game_over", "The stage is over: no more moves.")
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < 2 * size:
            raise IllegalActionError("off_board", f"{action!r} is not a square of this board.")
        if self._to_move == CHANCE:
            if action < size:
                raise IllegalActionError(
                    "meteor_due", "A meteor is due: nobody places until it has struck."
                )
            i = action - size
            if self._cells[i] < 0:
                r, c = self._grid.coord(i)
                raise IllegalActionError(
                    "meteor_target", f"A meteor strikes an owned square; ({r},{c}) is not owned."
                )
            return
        if action >= size:
            raise IllegalActionError(
                "no_meteor", f"No meteor is due: {colour_name(self._to_move)} must place."
            )
        r, c = self._grid.coord(action)
        owner = self._cells[action]
        if owner == VOID:
            raise IllegalActionError("void", f"({r},{c}) is not a square: nothing goes there.")
        if owner == self._to_move:
            raise IllegalActionError(
                "own_square", f"{colour_name(owner).capitalize()} already owns ({r},{c})."
            )

    def _event(self, kind: str, pid: int | None, tiles: Sequence[int], **data: Any) -> Event:
        if pid is not None:
            data = {"player": pid, **data}
        coords = self._game._coords
        seat = None if pid is None else pid + 1
        return Event(kind, seat, tuple(map(coords.__getitem__, tiles)), data)

    def _place(self, i: int, before: int) -> list[Event]:
        """The colour to move takes square ``i`` (owned by ``before`` until now)."""
        me = self._to_move
        self._cells[i] = me
        bit = self._grid.cell_bits[i]
        masks = self._masks
        masks[me] |= bit
        if before >= 0:
            masks[before] ^= bit
        # a placement's event depends on (colour, square, owner before) only: made once per
        # game and handed out again (events are immutable values)
        made = self._game._place_events
        key = (me, i, before)
        event = made.get(key)
        if event is None:
            event = made[key] = self._event(
                "place", me, (i,), took=None if before == BLACK else before
            )
        events = [event]
        later = self._game._next_colour[me]
        if later is not None:
            self._to_move = later
        else:
            self._end_round(events)
        return events

    def _end_round(self, events: list[Event]) -> None:
        """Growth, then the meteors of this round, then (unless a draw is due) the end check.

        Growth on the masks (:meth:`~engine.dokusen.board.Grid.grow_masks`), then on the
        cells that changed."""
        cells = self._cells
        grid = self._grid
        masks, changed = grid.grow_masks(self._masks)
        self._masks = masks
        # the flipped squares, in board order, and their owners before and after
        size = len(cells)
        flipped = list(compress(self._game._range, changed.to_bytes(size, "little")))
        before = [cells[i] for i in flipped]
        codes = 0  # per cell, its owner + 1 (0: black or void)
        for colour, mask in enumerate(masks, 1):
            if mask:
                codes += colour * mask
        code = codes.to_bytes(size, "little")
        after = [code[i] - 1 for i in flipped]
        for i in flipped:
            cells[i] = code[i] - 1
        events.append(
            self._event("grow", None, flipped, round=self._round, before=before, after=after)
        )
        stage = self._game.stage
        for meteor in stage.meteors:
            if meteor.round == self._round:
                events.extend(self._strike(self._grid.index(*meteor.at), meteor.radius))
        if stage.schedule is not None and stage.schedule.due(self._round) and any(self._masks):
            self._to_move = CHANCE
            return
        self._finish_round(events)

    def _strike(self, at: int, radius: int) -> list[Event]:
        hit = self._grid.within(at, radius)
        lost = [self._cells[j] for j in hit]
        self._cells = list(strike(self._grid, self._cells, at, radius))
        keep = ~sum(self._grid.cell_bits[j] for j in hit)
        self._masks = [m & keep for m in self._masks]
        return [
            self._event(
                "meteor",
                None,
                hit,
                round=self._round,
                at=list(self._grid.coord(at)),
                radius=radius,
                before=lost,
            )
        ]

    def _owned(self) -> int:
        """The owned squares, as a byte mask."""
        owned = 0
        for m in self._masks:
            owned |= m
        return owned

    def _finish_round(self, events: list[Event]) -> None:
        full = self._owned() == self._grid.square_mask
        if full or self._round >= self._game._max_rounds:
            user, total = self._masks[0].bit_count(), self._game._squares
            result = "win" if 2 * user > total else "loss"
            self._outcome = Outcome(
                result, "full" if full else "max_rounds", self._round, user, total
            )
            self._to_move = TERMINAL
            events.append(
                self._event(
                    result,
                    None,
                    (),
                    reason=self._outcome.reason,
                    rounds=self._round,
                    user=user,
                    total=total,
                )
            )
            return
        self._round += 1
        self._to_move = 0


def _check_players(players: object, stage: Stage) -> int:
    if isinstance(players, bool) or not isinstance(players, int):
        raise RulesError(f"players: must be a whole number, got {players!r}")
    if players not in (1, stage.colours):
        raise RulesError(
            f"players: Dokusen has one user and the stage's computer colours: give 1 or "
            f"{stage.colours}, not {players}"
        )
    return players


class DokusenGame(core.GameBase[DokusenState, Action, Stage]):
    """A stage made playable: an immutable maker of :class:`DokusenState`.

    ``stage`` is a :class:`Stage`, a stage object or a built-in id (``"S1"``..``"S8"``);
    a course (``"all"`` or ``{"stages": [...]}``, :mod:`engine.dokusen.course`) plays
    its first stage (a study's play step picks the stage of each game itself);
    ``players`` is 1 (the user; the computer colours come from the stage) or the
    stage's colour count. The stage is the game's rules (``rules`` and ``stage``).
    """

    name = "dokusen"
    _start_differs = "stage or players"
    parse_action = staticmethod(action_from_json)
    state_type = DokusenState

    def __init__(self, stage: Stage | Mapping[str, Any] | str = "S1", players: int = 1) -> None:
        if is_course(stage):
            first = Course.from_rules(stage).refs[0]
            stage = first if isinstance(first, str) else dict(first)
        self._rules = stage if isinstance(stage, Stage) else Stage.from_obj(stage)
        self._players = _check_players(players, self._rules)
        self._grid = Grid.from_rows(self._rules.board)
        self._builtin_id = stage if isinstance(stage, str) else None
        # what the rules read on every action, computed once from the (immutable) stage
        st = self._rules
        self._colours = st.colours
        self._max_rounds = st.max_rounds
        self._squares = self._grid.total
        active = st.active_ids
        #: the colour that places after each one in a round (None: the round is over)
        self._next_colour = {
            pid: next((p for p in active if p > pid), None) for pid in range(self._colours)
        }
        self._coords = tuple(self._grid.coord(i) for i in range(self._grid.size))
        self._range = range(self._grid.size)
        self._meteor_range = range(self._grid.size, 2 * self._grid.size)
        self._place_events: dict[tuple[int, int, int], Event] = {}
        self._start_cells = self._grid.parse(self._rules.board)
        self._start_masks = tuple(self._grid.masks_of(self._start_cells, self._colours))

    @property
    def stage(self) -> Stage:
        return self._rules

    @property
    def grid(self) -> Grid:
        return self._grid

    @property
    def num_players(self) -> int:
        return self._colours

    @property
    def squares(self) -> int:
        """The number of squares of the board (its grid's ``total``, counted once)."""
        return self._squares

    def rules_obj(self) -> Any:
        """The stage as records store it: its id when built in, else the object."""
        return self._builtin_id if self._builtin_id is not None else self._rules.to_obj()

    def new_initial_state(self) -> DokusenState:
        """The stage's board, round 1, the user to place."""
        return DokusenState(self, self._start_cells, self._start_masks)

    def index(self, r: int, c: int) -> int:
        return self._grid.index(r, c)

    def state_from_position(self, board: Sequence[str]) -> DokusenState:
        """A state on ``board`` (the stage's mask, other owners), round 1, the user to
        place. Raises :class:`RulesError` naming the row.

        >>> DokusenGame("S1").state_from_position(["0....", ".....", "..1..", ".....", "...1."]).owner(4, 3)
        1
        """
        mask = self._rules.board
        if not isinstance(board, list | tuple) or len(board) != len(mask):
            raise RulesError(f"board: must be a list of {len(mask)} strings, like the stage's")
        for r, (row, want) in enumerate(zip(board, mask, strict=True)):
            if not isinstance(row, str) or len(row) != len(want):
                raise RulesError(f"board[{r}]: must be a string of {len(want)} characters")
            for c, (ch, m) in enumerate(zip(row, want, strict=True)):
                if (ch == "#") != (m == "#"):
                    raise RulesError(
                        f"board[{r}]: column {c} is {'void' if m == '#' else 'a square'} "
                        f"on this stage, got {ch!r}"
                    )
                if ch not in "#." and not (ch.isdigit() and int(ch) < self.num_players):
                    raise RulesError(
                        f"board[{r}]: column {c}: {ch!r} is not '.', '#' or a player "
                        f"0-{self.num_players - 1} of this stage"
                    )
        return DokusenState(self, self._grid.parse(board))

    def encode(self, action_obj: Action) -> int:
        """``Place(r, c)`` → its square's index; ``Strike(r, c)`` → rows × cols + index."""
        if not isinstance(action_obj, Place | Strike):
            raise RulesError(f"action: {action_obj!r} is not a Dokusen action")
        if not self._grid.on_board(action_obj.r, action_obj.c):
            raise RulesError(f"action: ({action_obj.r},{action_obj.c}) is off the board")
        i = self._grid.index(action_obj.r, action_obj.c)
        return i if isinstance(action_obj, Place) else self._grid.size + i

    def decode(self, action: int) -> Action:
        size = self._grid.size
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < 2 * size:
            raise RulesError(f"action: {action!r} is not an action of this board")
        if action < size:
            return Place(*self._grid.coord(action))
        return Strike(*self._grid.coord(action - size))


core.register_game("dokusen", DokusenGame)


def _parse_target(target: object) -> tuple[int, int] | None:
    if not isinstance(target, str) or len(target) > 20:
        return None
    parts = target.split(",")
    if len(parts) != 2:
        return None
    try:
        return (int(parts[0]), int(parts[1]))
    except ValueError:
        return None
