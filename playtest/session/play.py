"""One tester's game in progress, as the game session keeps it between inputs (no
Streamlit): :class:`Play`, and :class:`Step`, an action applied to it.

A play is rebuilt from its stored record at any time (:meth:`Play.replayed`): the engine
state is the record's actions applied in order, so a reload, a server restart or another
app process continues exactly where the tester was.

>>> from playtest.games.registry import games
>>> plugin = next(p for p in games() if p.seats == (2, 2))
>>> play = Play.new(plugin, game_id="g1", participant_id="p1",
...                 seats=("human", "ai:easy"), seed=7, rules=plugin.default_rules)
>>> play.mover(), play.seats[1].is_computer, play.actions
(0, True, [])
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.core import Event, Refusal
from engine.seats import Seat, parse_seats
from playtest.session.words import Say, Shown

if TYPE_CHECKING:
    from playtest.games.plugin import GamePlugin


@dataclass(frozen=True)
class Step:
    """One action applied: who made it (a 0-based seat, or :data:`~engine.core.CHANCE`
    for a draw nobody makes), whether a computer chose it (a computer's seat, or a
    draw it triggered), its JSON form, the engine's events, the player's reason and what
    the board says about it (the game's ``on_step``)."""

    mover: int
    by_computer: bool
    action: list[Any]
    events: tuple[Event, ...]
    reason: str = ""
    say: Say | None = None

    @property
    def seat(self) -> int | None:
        """The 1-based seat that made it (None: a draw of nobody's)."""
        return None if self.mover < 0 else self.mover + 1


@dataclass
class Play:
    """A game in progress: its stored id, tester, seats, seed, rules, the engine's game
    and state, the actions stored (JSON forms) and what the board holds between inputs:
    the selection, the last refusal (said once), the steps since the tester last saw the
    board, what it says now (:attr:`shown`), when the computer's next step is due and
    the game's own memory (``memo``: a game's view keeps there what it draws from the
    steps, such as the last dice)."""

    game_id: str
    participant_id: str
    game_name: str
    seats: tuple[Seat, ...]
    seed: int
    rules: Any
    game: Any
    state: Any
    actions: list[list[Any]] = field(default_factory=list)
    finished: bool = False
    selection: tuple[str, ...] = ()
    refusal: Refusal | None = None
    refused_fields: dict[str, Any] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    #: The steps the last input (or computer step) applied: what the board shows as new.
    fresh: tuple[Step, ...] = ()
    says: tuple[Say, ...] = ()
    shown: tuple[Shown, ...] = ()
    shown_count: int = 0
    due_ms: float | None = None
    memo: dict[str, Any] = field(default_factory=dict)
    #: Tells this copy of the game apart from another (a tab, a reload) in the ids of the
    #: events it logs, so a retried input is stored once and a new one always.
    instance: str = field(default_factory=lambda: secrets.token_hex(4))

    @classmethod
    def new(cls, plugin: GamePlugin, *, game_id: str, participant_id: str,
            seats: Sequence[str], seed: int, rules: Any) -> Play:
        """A game at its initial state (nothing stored by this)."""
        game = plugin.make_game(rules, len(seats))
        return cls(game_id, participant_id, plugin.name, parse_seats(seats), seed, rules,
                   game, game.new_initial_state())

    @classmethod
    def replayed(cls, plugin: GamePlugin, *, game_id: str, participant_id: str,
                 seats: Sequence[str], seed: int, rules: Any, actions: Sequence[Any],
                 finished: bool) -> Play:
        """A stored game rebuilt by applying its recorded actions in order."""
        play = cls.new(plugin, game_id=game_id, participant_id=participant_id, seats=seats,
                       seed=seed, rules=rules)
        for action in actions:
            mover = play.mover()
            if mover < 0 and plugin.chance_by is not None:
                owner = plugin.chance_by(play.state)
                mover = mover if owner is None else owner
            events = play.state.apply_action(play.game.action_from_json(action))
            play.actions.append(list(action))
            seat = play.seat_of(mover)
            step = Step(mover, seat is None or seat.is_computer, list(action), tuple(events))
            if plugin.on_step is not None:
                plugin.on_step(play, step, {})  # what the board keeps of it (play.memo)
            play.steps = [*play.steps, step][-64:]
        play.finished = finished
        return play

    def mover(self) -> int:
        """Who acts now: a 0-based seat, CHANCE, or TERMINAL (engine.core)."""
        return int(self.state.current_player())

    def seat_of(self, mover: int) -> Seat | None:
        """The study's seat of ``mover`` (None: chance, or a seat the study does not list,
        such as a solo game's computer colours)."""
        return self.seats[mover] if 0 <= mover < len(self.seats) else None

    @property
    def over(self) -> bool:
        return bool(self.state.is_terminal())

    @property
    def seat_words(self) -> tuple[str, ...]:
        """``"human"`` or ``"computer"`` per seat (what a board names each side)."""
        return tuple("human" if s.is_human else "computer" for s in self.seats)

    def kept(self) -> dict[str, Any]:
        """Everything an input may change, as it is now (lists and dicts copied), for
        :meth:`restore` when the input is not stored."""
        return {name: (list(value) if isinstance(value, list) else
                       dict(value) if isinstance(value, dict) else value)
                for name, value in vars(self).items()}

    def restore(self, kept: dict[str, Any]) -> None:
        for name, value in kept.items():
            setattr(self, name, value)

