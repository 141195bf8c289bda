"""Vapoosh! game and state, exactly as vapoosh-rules.md.

A turn is two actions: a chance action (the roll) and, if some target is
legal, the mover's placement. Blocked rolls, re-rolls, missed turns, quads,
VAPOOSH! and draws are resolved inside the roll action; the events say what
happened, in the order of scenario-format.md.

>>> from engine.vapoosh.actions import Roll
>>> game = VapooshGame(Rules.preset("standard"), players=2)
>>> s = game.new_initial_state()
>>> s.phase, s.to_move, s.current_player()
('roll', 1, -1)
>>> [e.kind for e in s.apply(Roll((3, 4, 2, 5)))]
['roll']
>>> s.options, s.targets()
(((7, 7),), [Place(c=7, r=7)])
>>> [e.kind for e in s.apply(Place(7, 7))]
['place', 'extra_turn']
>>> s.to_move, s.phase, s.board_rows()[6]
(1, 'roll', '......1.....')
>>> s.apply(Place(1, 1))
Traceback (most recent call last):
...
engine.core.IllegalActionError: Seat 1 must roll the dice first
>>> s.record().replay() == s
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import core
from engine.core import CHANCE, TERMINAL, ClickResult, Event, IllegalActionError, RulesError
from engine.vapoosh.actions import (
    BROWN_BASE,
    BROWNS,
    DEAL_BASE,
    DICE,
    PLACE_BASE,
    PLACES,
    ROLL_COUNT,
    Action,
    Brown,
    Deal,
    Place,
    action_from_json,
    decode,
    encode,
)
from engine.vapoosh.board import (
    ROLLABLE,
    SIZE,
    bits,
    has_pattern,
    index,
    tile,
    win_reason,
)
from engine.vapoosh.primitives import (
    BROWN_ONLY,
    BROWN_OPTIONAL,
    NO_BROWN,
    ROLL_KIND,
    ROLL_OPTIONS,
    STATUS_NAMES,
    blocked_outcome,
    is_square,
    is_suicide,
    next_to_roll,
    option_status,
    place_counter,
    roll_kind,
    roll_targets,
)
from engine.vapoosh.rules import Rules

SETUP, ROLL, PLACE, OVER = "setup", "roll", "place", "over"
BROWN_OWNER = 5
#: How many seeded deals the setup chance node offers (each equally likely).
DEAL_OUTCOMES = 64

_ROLL_OUTCOMES: tuple[tuple[int, float], ...] = tuple(
    (a, 1.0 / ROLL_COUNT) for a in range(ROLL_COUNT)
)
_ROLL_IDS: tuple[int, ...] = tuple(range(ROLL_COUNT))


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` (1-based seat, ``None`` for a draw) and why.

    ``reason`` is ``"four_in_row"``, ``"square"``, ``"vapoosh"`` or ``"max_turns"``.
    """

    winner: int | None
    reason: str


def _tile_name(i: int) -> str:
    c, r = tile(i)
    return f"({c},{r})"


def deal_preplaced(rules: Rules, players: int, seed: int) -> Deal:
    """Deal ``rules.preplaced`` counters, a pure function of ``seed``.

    Distinct rollable tiles (columns and rows 2..12), the same number per
    player, and nobody starts on a winning pattern. Uses a local
    ``random.Random(seed)`` only.

    >>> d = deal_preplaced(Rules.preset("house"), 2, seed=7)
    >>> len(d.counters), sum(1 for s, _, _ in d.counters if s == 1)
    (12, 6)
    >>> d == deal_preplaced(Rules.preset("house"), 2, seed=7)
    True
    """
    _check_players(players)
    if rules.preplaced % players:
        raise RulesError(
            f"rules.preplaced: {rules.preplaced} counters cannot be dealt equally to {players} players"
        )
    per_seat = rules.preplaced // players
    order = list(ROLLABLE)
    random.Random(seed).shuffle(order)
    masks = [0] * players
    counters: list[tuple[int, int, int]] = []
    seat = 0
    for i in order:
        if len(counters) == rules.preplaced:
            break
        mine = masks[seat] | 1 << i
        if win_reason(mine, 1 << i) is not None:
            continue  # would start on a winning pattern: try the next tile
        masks[seat] = mine
        counters.append((seat + 1, *tile(i)))
        seat = (seat + 1) % players
    if len(counters) != rules.preplaced or any(
        sum(1 for s, _, _ in counters if s == k + 1) != per_seat for k in range(players)
    ):
        raise RulesError(f"rules.preplaced: cannot deal {rules.preplaced} counters")
    return Deal(tuple(counters))


def _check_players(players: object) -> None:
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 4:
        raise RulesError(f"players: must be 1 to 4, got {players!r}")


class VapooshState(
    core.StateLog["VapooshGame"], core.WinnerOutcome[Outcome], equal_logs=True
):
    """A Vapoosh! position plus whose turn it is and what was rolled.

    OpenSpiel-style methods use 0-based player ids; the UI-facing properties
    (``to_move``, ``winner``, ``skips``, events) use 1-based seats.
    """

    __slots__ = (
        "_rules",
        "_n",
        "_masks",
        "_brown",
        "_phase",
        "_to_move",
        "_dice",
        "_options",
        "_targets",
        "_rerolls",
        "_skips",
        "_turns",
        "_outcome",
    )

    def __init__(self, game: VapooshGame) -> None:
        self._begin_log(game)
        self._rules = game.rules
        self._n = game.num_players
        self._masks = [0] * self._n
        self._brown = 0
        self._phase = SETUP if self._rules.preplaced > 0 else ROLL
        self._to_move = 0
        self._dice: tuple[int, int, int, int] | None = None
        self._options: tuple[int, ...] = ()
        self._targets: tuple[int, ...] = ()
        self._rerolls = 0
        self._skips = [0] * self._n
        self._turns = 0
        self._outcome: Outcome | None = None

    # ----- OpenSpiel-style interface -------------------------------------------------

    def current_player(self) -> int:
        """0-based seat to place, :data:`CHANCE` (roll or deal) or :data:`TERMINAL`."""
        if self._phase == PLACE:
            return self._to_move
        if self._phase == OVER:
            return TERMINAL
        return CHANCE

    def is_chance_node(self) -> bool:
        return self._phase in (ROLL, SETUP)

    def legal_actions(self) -> list[int]:
        """Sorted unique action ids (all 1296 rolls at a roll, the deals at setup)."""
        if self._phase == PLACE:
            return list(self._targets)
        if self._phase == ROLL:
            return list(_ROLL_IDS)
        if self._phase == SETUP:
            return [a for a, _ in self._game.deal_outcomes()]
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(action, probability)`` pairs summing to 1; empty unless at a chance node.

        At setup any valid deal may be applied; the listed outcomes are the
        seeded deals a driver samples from.
        """
        if self._phase == ROLL:
            return list(_ROLL_OUTCOMES)
        if self._phase == SETUP:
            return list(self._game.deal_outcomes())
        return []

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def returns(self) -> list[float]:
        """+1 for the winner, -1/(n-1) for each other seat; all 0 for a draw or unfinished game."""
        n = self._n
        if self._outcome is None or self._outcome.winner is None:
            return [0.0] * n
        w = self._outcome.winner - 1
        loss = -1.0 / (n - 1) if n > 1 else 0.0
        return [1.0 if s == w else loss for s in range(n)]

    def apply(self, action: Action) -> list[Event]:
        """Apply an action value object; see :meth:`apply_action`."""
        if not isinstance(action, Action):
            raise IllegalActionError("unknown_action", f"{action!r} is not a Vapoosh! action")
        return self.apply_action(encode(action))

    def apply_action(self, action: int) -> list[Event]:
        """Apply an action id and return the events it caused, in order.

        Raises :class:`IllegalActionError` (with a designer-words message) and
        leaves the state untouched when the rules forbid the action.
        """
        phase = self._phase
        if phase == PLACE:
            if action not in self._targets:
                self._refuse_place(action)
            events = self._do_place(action)
        elif phase == ROLL:
            if (
                isinstance(action, bool)
                or not isinstance(action, int)
                or not 0 <= action < ROLL_COUNT
            ):
                raise self._refusal_for_phase(action)
            events = self._do_roll(action)
        elif phase == SETUP:
            if isinstance(action, bool) or not isinstance(action, int) or action < DEAL_BASE:
                raise self._refusal_for_phase(action)
            counters = self._check_deal(action)
            events = self._do_deal(counters)
        else:
            raise IllegalActionError("game_over", "The game is over: no more moves")
        return self._logged(action, events)

    def clone(self) -> VapooshState:
        """A copy sharing nothing mutable (list copies; ints and tuples are shared)."""
        other = self._clone_log()
        other._rules = self._rules
        other._n = self._n
        other._masks = self._masks[:]
        other._brown = self._brown
        other._phase = self._phase
        other._to_move = self._to_move
        other._dice = self._dice
        other._options = self._options
        other._targets = self._targets
        other._rerolls = self._rerolls
        other._skips = self._skips[:]
        other._turns = self._turns
        other._outcome = self._outcome
        return other

    def _key(self) -> tuple[Any, ...]:
        return (
            self._masks,
            self._brown,
            self._phase,
            self._to_move,
            self._dice,
            self._options,
            self._targets,
            self._rerolls,
            self._skips,
            self._turns,
            self._outcome,
        )

    def __repr__(self) -> str:
        return f"<VapooshState {self._phase} to_move={self.to_move} turns={self._turns}>"

    def __str__(self) -> str:
        return "\n".join(self.board_rows())

    # ----- UI-facing view ------------------------------------------------------------

    @property
    def phase(self) -> str:
        """``"setup"``, ``"roll"``, ``"place"`` or ``"over"``."""
        return self._phase

    @property
    def to_move(self) -> int:
        """1-based seat that rolls or places next.

        At ``over``: the winner, or for a draw the seat that would have rolled next.
        """
        return self._to_move + 1

    @property
    def dice(self) -> tuple[int, int, int, int] | None:
        """The dice waiting for a placement (``None`` outside phase ``place``)."""
        return self._dice

    @property
    def options(self) -> tuple[tuple[int, int], ...]:
        """The rolled tiles ``(P, G)`` and ``(G, P)`` (one when ``P == G``), in phase ``place``."""
        return tuple(tile(i) for i in self._options)

    @property
    def turns(self) -> int:
        """Rolls made so far (re-rolls included); ``max_turns`` counts these."""
        return self._turns

    @property
    def skips(self) -> dict[int, int]:
        """Missed turns owed, by 1-based seat (only seats that owe some)."""
        return {s + 1: k for s, k in enumerate(self._skips) if k}

    def targets(self) -> list[Place | Brown]:
        """Legal moves in phase ``place`` (normal counters first, then brown)."""
        return [
            PLACES[a - PLACE_BASE] if a < BROWN_BASE else BROWNS[a - BROWN_BASE]
            for a in self._targets
        ]

    def owner(self, c: int, r: int) -> int:
        """0 empty, 1..4 a seat's counter, 5 brown."""
        return self._owner_at(index(c, r))

    def _owner_at(self, i: int) -> int:
        bit = 1 << i
        if self._brown & bit:
            return BROWN_OWNER
        for s, m in enumerate(self._masks):
            if m & bit:
                return s + 1
        return 0

    def board_rows(self) -> list[str]:
        """12 strings, row 1 first: ``.`` empty, ``1``..``4`` seats, ``B`` brown.

        The play screen draws it on every click: the set bits of each mask are visited
        (a few dozen), not the 144 tiles, with :meth:`_owner_at`'s precedence (brown over
        a seat, a lower seat over a higher one).
        """
        cells = ["."] * (SIZE * SIZE)
        for s in range(len(self._masks) - 1, -1, -1):
            _mark(cells, self._masks[s], "1234"[s])
        _mark(cells, self._brown, "B")
        joined = "".join(cells)
        return [joined[i:i + SIZE] for i in range(0, SIZE * SIZE, SIZE)]

    # ----- the app's face (engine.core.PlayableState), in engine/vapoosh/clicks.py ---

    def legal_targets(self, selection: Sequence[str] = ()) -> list[str]:
        """Tiles ``"c,r"`` a click may choose now (see :func:`engine.vapoosh.clicks.legal_targets`)."""
        from engine.vapoosh.clicks import legal_targets

        return legal_targets(self, selection)

    def click(self, target: str, selection: Sequence[str] = ()) -> ClickResult:
        """What a click on tile ``"c,r"`` means (see :func:`engine.vapoosh.clicks.click`)."""
        from engine.vapoosh.clicks import click

        return click(self, target, selection)

    def to_text(self) -> str:
        """Who is to do what, then the board rows (see :func:`engine.vapoosh.clicks.to_text`)."""
        from engine.vapoosh.clicks import to_text

        return to_text(self)

    # ----- JSON ---------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready snapshot; :meth:`from_json` restores an equal state."""
        return self._snapshot({
            "board": self.board_rows(),
            "phase": self._phase,
            "to_move": self._to_move + 1,
            "dice": None if self._dice is None else list(self._dice),
            "options": [list(tile(i)) for i in self._options],
            "rerolls": self._rerolls,
            "skips": {str(s): k for s, k in self.skips.items()},
            "turns": self._turns,
            "outcome": None
            if self._outcome is None
            else {"winner": self._outcome.winner, "reason": self._outcome.reason},
        })

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> VapooshState:
        """Rebuild a state from :meth:`to_json`; raises :class:`RulesError` naming a bad field."""
        with core.SnapshotReader() as at:
            at.field = "rules"
            game = VapooshGame(Rules.from_obj(obj["rules"]), int(obj["players"]))
            at.field = "board"
            state = game.state_from_position(
                list(obj["board"]), int(obj["to_move"]), dict(obj.get("skips") or {})
            )
            at.field = "phase"
            phase = obj["phase"]
            if phase not in (SETUP, ROLL, PLACE, OVER):
                raise RulesError(f"phase: unknown phase {phase!r}")
            state._phase = phase
            at.field = "dice"
            dice = obj.get("dice")
            state._dice = None if dice is None else tuple(int(x) for x in dice)  # type: ignore[assignment]
            at.field = "options"
            state._options = tuple(index(int(c), int(r)) for c, r in obj.get("options", []))
            at.field = "rerolls"
            state._rerolls = int(obj.get("rerolls", 0))
            at.field = "turns"
            state._turns = int(obj.get("turns", 0))
            at.field = "outcome"
            out = obj.get("outcome")
            state._outcome = None if out is None else Outcome(out["winner"], str(out["reason"]))
            state._history, state._last_events, state._start = state._read_log(obj, at)
            if phase == PLACE:
                at.field = "dice"
                if state._dice is None:
                    raise RulesError("dice: phase 'place' needs the dice")
                state._targets = state._compute_targets(state._to_move, state._options, state._dice)
        return state

    # ----- rules ----------------------------------------------------------------------

    def _occupied(self) -> int:
        occ = self._brown
        for m in self._masks:
            occ |= m
        return occ

    def _is_suicide(self, seat: int, i: int) -> bool:
        """Empty ``i`` whose every on-board neighbour is one and the same opponent's."""
        return self._rules.suicide and is_suicide(self._masks, seat, i)

    def _status(self, seat: int, i: int) -> str:
        """``empty``, ``suicide``, ``own``, ``opponent`` or ``brown`` for the mover."""
        return STATUS_NAMES[option_status(self._masks, self._brown, seat, i, self._rules.suicide)]

    def _is_vapooh(self, dice: tuple[int, int, int, int]) -> bool:
        return self._rules.vapooh != "off" and roll_kind(dice) == "vapooh"

    def _compute_targets(
        self, seat: int, opts: tuple[int, ...], dice: tuple[int, int, int, int], roll: int = -1
    ) -> tuple[int, ...]:
        """The legal action ids after ``dice`` (roll id ``roll``, when known) offered ``opts``
        to ``seat``."""
        rules = self._rules
        if not self._is_vapooh(dice):
            browns = NO_BROWN
        elif rules.vapooh == "brown_and_miss_next":
            browns = BROWN_ONLY
        else:
            browns = BROWN_OPTIONAL
        return tuple(
            roll_targets(
                self._masks, self._brown, seat, opts, browns, rules.capture == "any", rules.suicide,
                roll,
            )
        )

    def _do_roll(self, action: int) -> list[Event]:
        seat = self._to_move
        dice = DICE[action]
        p1, p2, g1, g2 = dice
        pink, green = p1 + p2, g1 + g2
        opts = ROLL_OPTIONS[action]
        kind = ROLL_KIND[action]
        self._turns += 1
        events = [
            Event(
                "roll",
                seat + 1,
                tuple(tile(i) for i in opts),
                {"dice": list(dice), "product": pink * green},
            )
        ]
        if kind == "vapoosh":
            events.append(Event("vapoosh", seat + 1, tuple(tile(i) for i in opts)))
            self._finish(seat, "vapoosh", events)
            return events
        if kind == "quad" and self._rules.quad_skips_next:
            nxt = (seat + 1) % self._n
            self._skips[nxt] += 1
            events.append(Event("quad", seat + 1, (), {"next_seat": nxt + 1}))
        targets = self._compute_targets(seat, opts, dice, action)
        if targets:
            self._phase = PLACE
            self._dice = dice
            self._options = opts
            self._targets = targets
            return events
        self._blocked(seat, opts, events)
        return events

    def _blocked(self, seat: int, opts: tuple[int, ...], events: list[Event]) -> None:
        codes = [option_status(self._masks, self._brown, seat, i, self._rules.suicide) for i in opts]
        status = sorted(STATUS_NAMES[c] for c in codes)
        outcome = blocked_outcome(codes, self._rerolls, self._rules.own_suicide_rerolls)
        if outcome == "blocked_own":
            nxt = (seat + 1) % self._n
            self._skips[nxt] += 1
            events.append(
                Event("blocked_own", seat + 1, tuple(tile(i) for i in opts), {"next_seat": nxt + 1})
            )
            self._pass_turn(seat, events)
        elif outcome == "reroll":
            self._rerolls += 1
            events.append(
                Event("reroll", seat + 1, tuple(tile(i) for i in opts), {"reroll": self._rerolls})
            )
            self._start_turn(seat, events, keep_rerolls=True)
        else:
            events.append(
                Event(
                    "miss_turn", seat + 1, tuple(tile(i) for i in opts), {"why": "/".join(status)}
                )
            )
            self._pass_turn(seat, events)

    def _do_place(self, action: int) -> list[Event]:
        seat = self._to_move
        events: list[Event] = []
        if action >= BROWN_BASE:
            i = action - BROWN_BASE
            bit = 1 << i
            replaced = self._owner_at(i)
            if replaced:
                self._masks[replaced - 1] &= ~bit
            self._brown |= bit
            events.append(Event("brown", seat + 1, (tile(i),), {"replaced": replaced}))
            if self._rules.vapooh == "brown_and_miss_next":
                self._skips[seat] += 1
            self._pass_turn(seat, events)
            return events
        i = action - PLACE_BASE
        square = self._dice is not None and is_square(self._dice)
        victim, found, reason = place_counter(self._masks, seat, i, self._rules.surround)
        if victim >= 0:
            events.append(Event("capture", seat + 1, (tile(i),), {"from_seat": victim + 1}))
        events.append(Event("place", seat + 1, (tile(i),)))
        for group, loser in found:
            events.append(
                Event(
                    "surround_capture",
                    seat + 1,
                    tuple(tile(k) for k in bits(group)),
                    {"from_seat": loser + 1},
                )
            )
        if reason is not None:
            self._finish(seat, reason, events)
        elif square and self._rules.square_extra_turn:
            events.append(Event("extra_turn", seat + 1))
            self._start_turn(seat, events)
        else:
            self._pass_turn(seat, events)
        return events

    def _finish(self, seat: int, reason: str, events: list[Event]) -> None:
        self._phase = OVER
        self._to_move = seat
        self._dice = None
        self._options = ()
        self._targets = ()
        self._outcome = Outcome(seat + 1, reason)
        events.append(Event("win", seat + 1, (), {"reason": reason}))

    def _start_turn(self, seat: int, events: list[Event], keep_rerolls: bool = False) -> None:
        """``seat`` rolls next (or the game is drawn when ``max_turns`` rolls are made)."""
        self._to_move = seat
        self._dice = None
        self._options = ()
        self._targets = ()
        if not keep_rerolls:
            self._rerolls = 0
        if self._turns >= self._rules.max_turns:
            self._phase = OVER
            self._outcome = Outcome(None, "max_turns")
            events.append(Event("draw", None, (), {"reason": "max_turns"}))
        else:
            self._phase = ROLL

    def _pass_turn(self, seat: int, events: list[Event]) -> None:
        """Next player in order, passing over (and paying) owed missed turns."""
        nxt, missed = next_to_roll(seat, self._skips, self._n)
        events.extend(Event("skip", (seat + 1 + k) % self._n + 1) for k in range(missed))
        self._start_turn(nxt, events)

    def _check_deal(self, action: int) -> tuple[tuple[int, int, int], ...]:
        try:
            deal = decode(action)
        except RulesError as err:
            raise IllegalActionError("invalid_deal", f"Not a valid deal: {err}") from None
        assert isinstance(deal, Deal)
        counters = deal.counters
        rules, n = self._rules, self._n
        if len(counters) != rules.preplaced:
            raise IllegalActionError(
                "invalid_deal",
                f"The deal must place {rules.preplaced} counters, not {len(counters)}",
            )
        masks = [0] * n
        for seat, c, r in counters:
            if seat > n:
                raise IllegalActionError(
                    "invalid_deal", f"Seat {seat} is not playing ({n} players)"
                )
            if not (2 <= c <= SIZE and 2 <= r <= SIZE):
                raise IllegalActionError(
                    "invalid_deal", f"({c},{r}) cannot be rolled: deals use columns and rows 2..12"
                )
            masks[seat - 1] |= 1 << index(c, r)
        per = rules.preplaced // n
        for s, m in enumerate(masks):
            if m.bit_count() != per:
                raise IllegalActionError(
                    "invalid_deal", f"Seat {s + 1} must get {per} counters, not {m.bit_count()}"
                )
            if has_pattern(m):
                raise IllegalActionError(
                    "invalid_deal", f"Seat {s + 1} would start on a winning pattern"
                )
        return counters

    def _do_deal(self, counters: tuple[tuple[int, int, int], ...]) -> list[Event]:
        for seat, c, r in counters:
            self._masks[seat - 1] |= 1 << index(c, r)
        self._phase = ROLL
        self._to_move = 0
        return [
            Event(
                "deal",
                None,
                tuple((c, r) for _, c, r in counters),
                {"seats": [s for s, _, _ in counters]},
            )
        ]

    # ----- explanations of refused actions ---------------------------------------------

    def _refusal_for_phase(self, action: object) -> IllegalActionError:
        seat = self._to_move + 1
        if isinstance(action, bool) or not isinstance(action, int) or action < 0:
            return IllegalActionError("unknown_action", f"{action!r} is not a Vapoosh! action")
        if self._phase == SETUP:
            return IllegalActionError("must_deal", "The preplaced counters must be dealt first")
        if action >= DEAL_BASE:
            return IllegalActionError("already_dealt", "The counters are already dealt")
        return IllegalActionError("must_roll", f"Seat {seat} must roll the dice first")

    def rule_reason(self, c: int, r: int) -> str | None:
        """Why the mover cannot use the rolled option ``(c, r)``, as a code.

        ``None`` when some move (normal or brown) is legal there or ``(c, r)``
        is not a rolled option. Codes: ``own_tile``, ``brown``, ``suicide``,
        ``empty_priority``, ``brown_compulsory`` (house Vapooh roll).
        """
        i = index(c, r)
        if self._phase != PLACE or i not in self._options:
            return None
        if PLACE_BASE + i in self._targets or BROWN_BASE + i in self._targets:
            return None
        return self._place_refusal(i)

    def _place_refusal(self, i: int) -> str:
        """Why a normal counter may not go on rolled option ``i`` (assumed refused)."""
        status = self._status(self._to_move, i)
        if status == "own":
            return "own_tile"
        if status == "brown":
            return "brown"
        if (
            self._dice is not None
            and self._is_vapooh(self._dice)
            and self._rules.vapooh == "brown_and_miss_next"
        ):
            return "brown_compulsory"
        if status == "suicide":
            return "suicide"
        return "empty_priority"

    def _refuse_place(self, action: int) -> None:
        seat = self._to_move + 1
        if isinstance(action, bool) or not isinstance(action, int) or action < 0:
            raise IllegalActionError("unknown_action", f"{action!r} is not a Vapoosh! action")
        if action < PLACE_BASE or action >= DEAL_BASE:
            raise IllegalActionError(
                "must_place", f"Seat {seat} must place a counter: the dice are already rolled"
            )
        brown = action >= BROWN_BASE
        i = action - (BROWN_BASE if brown else PLACE_BASE)
        name = _tile_name(i)
        opts = " and ".join(_tile_name(k) for k in self._options)
        if i not in self._options:
            raise IllegalActionError(
                "not_an_option",
                f"{name} is not a rolled tile: the dice give {opts}",
            )
        assert self._dice is not None
        if brown:
            if not self._is_vapooh(self._dice):
                raise IllegalActionError(
                    "brown_not_allowed", "A brown counter needs a Vapooh roll (exactly three 6s)"
                )
            raise IllegalActionError("brown", f"{name} already holds a brown counter")
        reason = self._place_refusal(i)
        if reason == "own_tile":
            raise IllegalActionError("own_tile", f"Seat {seat} already has a counter on {name}")
        if reason == "brown":
            raise IllegalActionError(
                "brown", f"{name} holds a brown counter: nobody can play there"
            )
        if reason == "suicide":
            raise IllegalActionError(
                "suicide",
                f"{name} is surrounded by one opponent's counters: a counter there would be "
                "trapped (suicide tile)",
            )
        if reason == "brown_compulsory":
            raise IllegalActionError(
                "brown_compulsory",
                "After a Vapooh roll (three 6s) the counter must be brown under these rules",
            )
        empty = [k for k in self._options if PLACE_BASE + k in self._targets]
        other = _tile_name(empty[0]) if empty else "the other tile"
        raise IllegalActionError(
            "empty_priority",
            f"{name} is taken and {other} is empty: the counter must go on the empty tile",
        )


class VapooshGame(core.GameBase[VapooshState, Action, Rules]):
    """Immutable Vapoosh! game: rules and seat count; makes states (the initial one: an
    empty board, seat 1 to roll, or phase ``setup`` when counters are preplaced).

    >>> g = VapooshGame("house", players=3)
    >>> g.rules.name, g.num_players, g.new_initial_state().phase
    ('house', 3, 'setup')
    >>> VapooshGame("standard", players=5)
    Traceback (most recent call last):
    ...
    engine.core.RulesError: players: must be 1 to 4, got 5
    """

    name = "vapoosh"
    __slots__ = ("_rules", "_players", "_deal_outcomes")
    _start_differs = "rules or players"
    codec = core.ActionCodec(encode, decode, action_from_json)
    state_type = VapooshState

    def __init__(
        self, rules: Rules | str | Mapping[str, Any] = "standard", players: int = 2
    ) -> None:
        _check_players(players)
        rules = Rules.from_obj(rules)
        if rules.preplaced % players:
            raise RulesError(
                f"rules.preplaced: {rules.preplaced} counters cannot be dealt equally "
                f"to {players} players"
            )
        self._rules = rules
        self._players = players
        self._deal_outcomes: tuple[tuple[int, float], ...] | None = None

    def state_from_position(
        self,
        board: list[str] | tuple[str, ...] | None = None,
        to_move: int = 1,
        skips: Mapping[int | str, int] | None = None,
    ) -> VapooshState:
        """A state in phase ``roll`` on a given board (rows as in ``board_rows()``).

        Used by scenarios and tests; no counters are dealt. Raises
        :class:`RulesError` naming the field (``board``, ``to_move``, ``skips``).

        >>> g = VapooshGame("standard", 2)
        >>> s = g.state_from_position(["." * 12] * 4 + ["......2....."] + ["." * 12] * 7)
        >>> s.owner(7, 5)
        2
        """
        state = VapooshState(self)
        state._phase = ROLL
        masks = [0] * self._players
        brown = 0
        if board is not None:
            if not isinstance(board, list | tuple) or len(board) != SIZE:
                raise RulesError("board: must be a list of 12 strings, row 1 first")
            for r, row in enumerate(board, start=1):
                if not isinstance(row, str) or len(row) != SIZE:
                    raise RulesError(f"board: row {r} must be a string of 12 characters")
                for c, ch in enumerate(row, start=1):
                    bit = 1 << index(c, r)
                    if ch == ".":
                        continue
                    if ch == "B":
                        brown |= bit
                    elif ch in "1234" and int(ch) <= self._players:
                        masks[int(ch) - 1] |= bit
                    else:
                        raise RulesError(
                            f"board: row {r}, column {c}: {ch!r} is not '.', 'B' "
                            f"or a seat 1..{self._players}"
                        )
        state._masks = masks
        state._brown = brown
        if (
            isinstance(to_move, bool)
            or not isinstance(to_move, int)
            or not 1 <= to_move <= self._players
        ):
            raise RulesError(f"to_move: must be a seat from 1 to {self._players}, got {to_move!r}")
        state._to_move = to_move - 1
        owed = [0] * self._players
        for key, value in (skips or {}).items():
            try:
                seat = int(key)
            except (TypeError, ValueError):
                raise RulesError(f"skips: seat {key!r} is not a number") from None
            if not 1 <= seat <= self._players:
                raise RulesError(f"skips: seat {seat} is not a seat from 1 to {self._players}")
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise RulesError(f"skips: seat {seat} owes {value!r}; must be a whole number >= 0")
            owed[seat - 1] = value
        state._skips = owed
        state._start = state.to_json()
        return state

    def deal_outcomes(self) -> tuple[tuple[int, float], ...]:
        """The setup chance node: deals of seeds ``0..DEAL_OUTCOMES-1``, equally likely."""
        if self._deal_outcomes is None:
            probs: dict[int, float] = {}
            for seed in range(DEAL_OUTCOMES):
                a = encode(deal_preplaced(self._rules, self._players, seed))
                probs[a] = probs.get(a, 0.0) + 1.0 / DEAL_OUTCOMES
            self._deal_outcomes = tuple(sorted(probs.items()))
        return self._deal_outcomes


core.register_game("vapoosh", VapooshGame)


def _mark(cells: list[str], mask: int, char: str) -> None:
    """Write ``char`` into ``cells`` at every set bit of ``mask``."""
    while mask:
        low = mask & -mask
        cells[low.bit_length() - 1] = char
        mask ^= low
