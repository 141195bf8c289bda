"""One game of a playtest: the engine state, its seats, dice, and what gets logged.

The controller turns a tester's roll and clicks (and the computer players' turns) into
engine actions, appends each action to the stored game record *before* anything is shown,
logs the telemetry events of ``telemetry-format.md``, and says which message and sound
the screen should show next. It holds no Streamlit state: a page keeps one controller per
game and rebuilds it from the stored record after a reload or a server restart.

Dice come from :func:`dice_for` — a pure function of the game's seed and the roll number —
so a retried roll shows the same dice and a replay of the record is exact.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

from engine.core import Event
from engine.players import make_player
from engine.vapoosh.state import deal_preplaced
from playtest.games.vapoosh.cues import Cue, base_values, pick_cue, voice_for
from playtest.games.vapoosh.plugin import PLUGIN, dice_for
from playtest.games.vapoosh.view import glow_from_events
from playtest.storage.errors import ConflictError
from playtest.storage.game_counts import RESTARTED


class GameSink(Protocol):
    """Where a game's record and telemetry go (the database in the app)."""

    def append_action(self, index: int, action: list[Any]) -> bool:
        """Store action number ``index``; False if that index is already stored."""

    def log(self, type_: str, props: dict[str, Any], client_event_id: str | None = None) -> None:
        """Append one telemetry event for this game."""

    def finish(self, winner: int | None, reason: str, turns: int) -> None:
        """Mark the game over."""


class TurnError(Exception):
    """Input that does not fit the moment (not this tester's turn, roll first, game over).

    ``key`` is the message catalog key to show; nothing was stored.
    """

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


class StaleGameError(Exception):
    """The stored record moved on (another tab played): reload the game and try again."""


@dataclass
class Outcome:
    """The result of a tester's input, for the page to show."""

    accepted: bool
    cue: Cue
    wrong_kind: str | None = None


class PlayController:
    """A live game: replayed from its record, advanced by testers and computer players."""

    def __init__(
        self,
        *,
        game_id: str,
        rules: str | dict[str, Any],
        seats: Sequence[str],
        seed: int,
        actions: Sequence[list[Any]],
        sink: GameSink,
        clock_ms: Callable[[], float],
        highlight: bool = False,
        participant_id: str | None = None,
        game: str = PLUGIN.name,
    ) -> None:
        #: The tester whose game this is: a page checks it before every input, so a
        #: browser session that changed tester (Back, then consent again) never plays on.
        self.participant_id = participant_id
        self.highlight = highlight
        self.game_id = game_id
        assert game == PLUGIN.name, "this controller plays Vapoosh!"
        self.plugin = PLUGIN
        self.seats = list(seats)
        self.seed = seed
        self.sink = sink
        self.clock_ms = clock_ms
        # The game's own engine objects (the play screen is this game's: its rules
        # object, its state's phase, dice and targets), built through the registry.
        self.game: Any = cast(Any, self.plugin.make_game(rules, len(self.seats)))
        self.rules: Any = self.game.rules
        self.state: Any = cast(Any, self.game.new_initial_state())
        self.actions: list[list[Any]] = []
        # The last roll made in this game and who made it: what the dice bar shows, so
        # the computer's dice are those of the move it is making (or has just made).
        self.last_roll: tuple[int, tuple[int, int, int, int]] | None = None
        for action in actions:
            parsed = self._action(action)
            if action[0] == "roll":
                self.last_roll = (int(self.state.to_move), tuple(parsed.dice))
            self.state.apply(parsed)
            self.actions.append(list(action))
        self.players = {
            seat: make_player(kind.split(":", 1)[1], seed=seed * 10 + seat, game="vapoosh")
            for seat, kind in enumerate(self.seats, start=1)
            if kind.startswith("ai:")
        }
        self.options_shown_ms: float | None = None
        self.glow: dict[tuple[int, int], str] = {}
        self.last_dice: dict[int, tuple[int, int, int, int]] = {}
        self.finished_logged = self.state.phase == "over"
        self._in_batch = False
        # board_rows() of the state it was computed for: every rerun draws the board, but
        # the position changes only when an action is applied (a new state object).
        self._rows_of: tuple[Any, int, list[str]] | None = None

    def board_rows(self) -> list[str]:
        """The engine's ``state.board_rows()``, computed once per position (a fresh list)."""
        cached = self._rows_of
        if cached is None or cached[0] is not self.state or cached[1] != len(self.actions):
            cached = (self.state, len(self.actions), self.state.board_rows())
            self._rows_of = cached
        return list(cached[2])

    # -- who acts ---------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        return int(self.state.to_move)

    @property
    def is_over(self) -> bool:
        return self.state.phase == "over"

    def seat_kind(self, seat: int) -> str:
        return self.seats[seat - 1]

    @property
    def human_to_act(self) -> bool:
        return not self.is_over and self.seat_kind(self.to_move) == "human"

    @property
    def computer_to_act(self) -> bool:
        return not self.is_over and self.seat_kind(self.to_move) != "human"

    @property
    def roll_count(self) -> int:
        return sum(1 for a in self.actions if a[0] == "roll")

    # -- applying actions -----------------------------------------------------------

    def _action(self, as_json: list[Any]) -> Any:
        """The engine's action object of an action's JSON form."""
        return self.game.decode(self.game.action_from_json(as_json))

    def _apply(self, action: Any) -> list[Event]:
        """Apply one action: store it first, then change the state."""
        trial = self.state.clone()
        events = trial.apply(action)  # raises IllegalActionError, state untouched
        as_json = action.to_json()
        try:
            stored = self.sink.append_action(len(self.actions), as_json)
        except ConflictError:
            stored = False  # another tab stored a different move at this index
        if not stored:
            raise StaleGameError("this game was played on in another tab")
        self.state = trial
        self.actions.append(as_json)
        return list(events)

    @contextlib.contextmanager
    def _one_transaction(self) -> Iterator[None]:
        """What one input stores (its actions, events and a finish), in one transaction.

        With a sink that has ``batch()`` (the database's): the writes are collected and
        committed when the input is done. If the commit fails, or the input raises,
        nothing of it is stored and this controller goes back to where it was before
        the input (state, actions, dice, glow), so it still matches the stored record; a
        commit refused because another tab stored an action first is a
        :class:`StaleGameError`. Nested calls join the outer one.
        """
        batch = getattr(self.sink, "batch", None)
        if batch is None or self._in_batch:
            yield
            return
        before = (self.state, len(self.actions), self.last_roll, dict(self.last_dice),
                  self.glow, self.options_shown_ms, self.finished_logged)
        self._in_batch = True
        try:
            with batch():
                yield
        except BaseException as err:
            (self.state, count, self.last_roll, self.last_dice, self.glow,
             self.options_shown_ms, self.finished_logged) = before
            del self.actions[count:]
            if isinstance(err, ConflictError):
                raise StaleGameError("this game was played on in another tab") from None
            raise
        finally:
            self._in_batch = False

    def one_transaction(self) -> contextlib.AbstractContextManager[None]:
        """Everything stored through this game inside (its inputs, the sink's ``log``) in
        one transaction, as one input's writes are (see ``_one_transaction``): the play
        screen stores the computers' instant turn and the message shown after it so."""
        return self._one_transaction()

    def _behind(self) -> bool:
        """True when the stored record has moved past this controller (another tab)."""
        stored = getattr(self.sink, "stored_actions", None)  # sinks without a store: never
        return callable(stored) and int(stored()) > len(self.actions)

    def start(self) -> None:
        """Deal preplaced counters if the rules ask for it (the game's first action)."""
        if self.state.phase == "setup":
            with self._one_transaction():
                self._apply(deal_preplaced(self.rules, len(self.seats), self.seed))

    def _log_engine_events(self, events: Sequence[Event]) -> None:
        for event in events:
            if event.kind == "roll":
                continue  # logged with its options by roll()
            props: dict[str, Any] = {"seat": event.seat, "tiles": [list(t) for t in event.tiles]}
            props.update(dict(event.data))
            self.sink.log(event.kind, props)

    def _cue_for(self, events: Sequence[Event], seat: int) -> Cue:
        outcome = self.state.outcome
        return pick_cue(
            events, mover=seat, players=len(self.seats), dice=self.state.dice or
            self.last_dice.get(seat), human=self.seat_kind(seat) == "human",
            win_reason=outcome.reason if outcome else None, turns=self.state.turns,
            vapooh_compulsory=self.rules.vapooh == "brown_and_miss_next",
            highlight=self.highlight, rerolls_allowed=self.rules.own_suicide_rerolls,
            seats=self.seats,
        )

    def _after(self, events: list[Event], seat: int) -> Cue:
        self._log_engine_events(events)
        self._track_glow(events, seat)
        if self.is_over and not self.finished_logged:
            outcome = self.state.outcome
            reason = outcome.reason if outcome is not None else "unknown"
            self.sink.log(
                "game_end",
                # The whole record rides along, so exported and imported games replay.
                {"game_id": self.game_id, "winner": self.state.winner, "reason": reason,
                 "turns": self.state.turns, "record": [list(a) for a in self.actions]},
            )
            self.sink.finish(self.state.winner, reason, self.state.turns)
            self.finished_logged = True
        return self._cue_for(events, seat)

    def _track_glow(self, events: Sequence[Event], seat: int) -> None:
        # The last placement's tiles glow (the same marks the replay shows).
        if any(e.kind in ("place", "brown") for e in events):
            self.glow = glow_from_events(events, computer=self.seat_kind(seat) != "human")

    def abandon(self, reason: str = RESTARTED) -> None:
        """End an unfinished game without a result (restart): logged and stored as such."""
        if self.is_over or self.finished_logged:
            return
        with self._one_transaction():
            self.sink.log("game_end", {"game_id": self.game_id, "winner": None,
                                       "reason": reason, "turns": self.state.turns,
                                       "record": [list(a) for a in self.actions]})
            self.sink.finish(None, reason, self.state.turns)
            self.finished_logged = True

    def _check_human_turn(self, phase: str) -> None:
        if self.is_over:
            raise TurnError("game_over", "the game is over")
        if not self.human_to_act:
            raise TurnError("not_your_turn", "it is not a tester's turn")
        if self.state.phase != phase:
            key = "roll_first" if phase == "place" else "not_your_turn"
            raise TurnError(key, f"expected phase {self.state.phase!r}, not {phase!r}")

    def roll(self, client_event_id: str | None = None) -> Cue:
        """The tester to move rolls (a chance action with this game's next dice)."""
        self._check_human_turn("roll")
        with self._one_transaction():
            return self._roll(client_event_id)

    def _roll(self, client_event_id: str | None = None) -> Cue:
        seat = self.to_move
        dice = dice_for(self.seed, self.roll_count)
        events = self._apply(self._action(["roll", list(dice)]))
        self.last_dice[seat] = dice
        self.last_roll = (seat, dice)
        self.sink.log(
            "roll",
            {"seat": seat, "dice": list(dice), "options": [list(o) for o in self.state.options]
             if self.state.options else [], "refused": self.refused_reasons()},
            client_event_id,
        )
        self.options_shown_ms = self.clock_ms() if self.state.phase == "place" else None
        return self._after(events, seat)

    def click(
        self, c: int, r: int, *, brown: bool = False, client_ms: float | None = None,
        client_event_id: str | None = None,
    ) -> Outcome:
        """A tester clicked tile (c, r): log it with its class, place if it is legal."""
        self._check_human_turn("place")
        seat = self.to_move
        result = self.state.click(f"{c},{r}", ("brown",) if brown else ())
        if client_ms is not None:
            ms = int(client_ms)
        elif self.options_shown_ms is not None:
            ms = int(self.clock_ms() - self.options_shown_ms)
        else:
            ms = None
        ok = result.ok
        fields = dict(result.fields)
        kind, rule_reason = fields.pop("wrong_kind", None), fields.pop("rule_reason", None)
        use_brown = bool(fields["brown"])
        props: dict[str, Any] = {
            "seat": seat, "c": c, "r": r, "ok": ok, "expected": fields["expected"],
            "clicked": fields["clicked"], "ms": ms, "brown": use_brown,
        }
        if not ok and self._behind():
            # Wrong on this tab's board, which is out of date: not the tester's mistake.
            props["stale"] = True
            self.sink.log("click", props, client_event_id)
            raise StaleGameError("this game was played on in another tab")
        if not ok:
            props["wrong_kind"] = kind
            if kind == "rule":
                props["rule_reason"] = rule_reason
            self.sink.log("click", props, client_event_id)
            key = f"wrong_{kind}"
            if kind == "rule":
                key = f"wrong_rule_{rule_reason}"
            values = base_values(seat, len(self.seats), self.state.dice, self.seats)
            legal = self.legal_tiles()
            other = legal[0] if legal else (0, 0)
            values.update(c=c, r=r, number=c * r, clicked=fields["clicked"],
                          expected=fields["expected"], other_c=other[0], other_r=other[1])
            message = result.refusal.message if result.refusal else ""
            cue = Cue(key, values, False, fallback_text=message,
                      voice=voice_for(seat, self.seats))
            return Outcome(False, cue, kind)
        assert result.action is not None
        try:
            with self._one_transaction():
                events = self._apply(self.game.decode(result.action))
                # Stored with the placement: an ``ok`` click is one the game record has.
                self.sink.log("click", props, client_event_id)
                self.options_shown_ms = None
                cue = self._after(events, seat)
        except StaleGameError:
            # This tab was behind: the engine accepted nothing, so the click is logged as
            # stale, never as a right (or wrong) answer of the tester's.
            props.update(ok=False, stale=True)
            self.sink.log("click", props, client_event_id)
            raise
        return Outcome(True, cue)

    def computer_turn(self) -> tuple[Cue, str]:
        """The computer player to move rolls and places; returns the cue and its reason."""
        if not self.computer_to_act:
            raise TurnError("not_your_turn", "it is not a computer player's turn")
        seat = self.to_move
        with self._one_transaction():
            cue, reason = self.computer_step()
            # A blocked roll passes the turn (or re-rolls for the same seat); only place
            # when the same computer player now has to place.
            if self.state.phase == "place" and self.to_move == seat and not self.is_over:
                cue, reason = self.computer_step()
        return cue, reason

    def computer_step(self) -> tuple[Cue, str]:
        """One step of the computer's turn that the tester sees: its roll, or (once the
        roll has been on screen) its placement. Returns the cue and the placement's
        reason ("" for a roll)."""
        if not self.computer_to_act:
            raise TurnError("not_your_turn", "it is not a computer player's turn")
        seat = self.to_move
        reason = ""
        with self._one_transaction():
            if self.state.phase == "roll":
                cue = self._roll()
            else:
                decision = self.players[seat].choose(self.state)
                reason = decision.reason
                events = self._apply(decision.action)
                self.sink.log("ai_move", {"seat": seat, "reason": reason,
                                          "action": decision.action.to_json()})
                cue = self._after(events, seat)
            self.options_shown_ms = None
        return cue, reason

    def play_computers(self, limit: int = 500) -> list[Cue]:
        """Let computer players move until a human must act or the game ends."""
        cues: list[Cue] = []
        with self._one_transaction():
            for _ in range(limit):
                if not self.computer_to_act:
                    break
                cues.append(self.computer_turn()[0])
        return cues

    def refused_reasons(self) -> list[str]:
        """Why the rules refuse some rolled option now (``rule_reason`` codes, sorted).

        Logged with each roll: a turn is an occasion for the wrong click
        ``rule:<reason>`` only when one of its options is refused for that reason (e.g.
        ``empty_priority``: one option empty, the other an opponent's).
        """
        if self.state.phase != "place":
            return []
        reasons = {self.state.rule_reason(c, r) for c, r in self.state.options}
        return sorted(reason for reason in reasons if reason)

    # -- what the board shows ----------------------------------------------------------

    def legal_tiles(self) -> list[tuple[int, int]]:
        if self.state.phase != "place":
            return []
        return sorted({(t.c, t.r) for t in self.state.targets()})

    def brown_choice(self) -> str:
        """'none', 'optional' or 'forced': how brown counters figure in this placement."""
        if self.state.phase != "place":
            return "none"
        targets = self.state.targets()
        browns = [t for t in targets if t.to_json()[0] == "brown"]
        if not browns:
            return "none"
        return "forced" if len(browns) == len(targets) else "optional"
