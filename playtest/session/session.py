"""The one game session of every game (no Streamlit): a tester's input stored and applied
in one transaction, the computer's seats played at the study's levels, chance drawn from
the game's seed, the end logged, and every message the board shows logged as it is shown.

A :class:`GameSession` wraps one :class:`~playtest.session.play.Play` and the sink its
game writes to (the database's :class:`~playtest.services.DbGameSink`, or the demo's
recorder). Each of its operations is **one input**: :meth:`~GameSession.click` (a tap on
the board), :meth:`~GameSession.draw` (a button that makes a draw, such as rolling the
dice), :meth:`~GameSession.step` (the computer's next move, when it is paced),
:meth:`~GameSession.start` and :meth:`~GameSession.abandon`. Everything an input causes
— its click, every action stored *before* it is applied, the engine's events, the
computers' moves after it, the draws nobody makes, the game's end, the messages shown —
is written in one transaction (:meth:`DbGameSink.batch
<playtest.services.DbGameSink.batch>`): whole or not at all. When the commit is refused
the play goes back to where it was; when another tab stored an action at the same index
first (the claim of the action index is refused), the input is dropped, a click is
logged alone marked ``stale`` and :attr:`GameSession.stale` tells the page to reload the
game from its record.

Seeds: a chance action is the plug-in's draw from the game's seed and the record so far
(:meth:`GamePlugin.draw_chance <playtest.games.plugin.GamePlugin.draw_chance>`); a
computer's decision is made by a player of its seat's level seeded from the game's seed
and the action's number (:class:`SeededPlayers`), so a game resumed from its record goes
on exactly as it would have.

Event order (telemetry-format.md): an input's own event first (``click``; a draw's first
event, e.g. ``roll``), then the engine's events of its action; a computer's ``ai_move``
before its action's events; ``game_end`` after the last action; the ``message`` events
of what the board shows after all of them.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final, Protocol

from engine.core import CHANCE, ClickResult
from engine.players import Decision, make_player
from playtest.games.plugin import GamePlugin
from playtest.messages.catalog import MessageCatalog, load_catalog
from playtest.messages.speeds import speed
from playtest.session.play import Play, Step
from playtest.session.view import Moment
from playtest.session.words import Say, Shown, render
from playtest.storage.errors import ConflictError

#: Most actions one input may cause (a runaway loop of draws or computer moves stops).
MAX_STEPS = 5000


class Next(enum.Enum):
    """What the game waits for."""

    TESTER = "tester"  # a tester's seat is to act on the board
    TESTER_DRAW = "draw"  # a draw a tester's button makes (rolling the dice)
    COMPUTER = "computer"  # a computer's seat acts, or a draw it makes
    NATURE = "nature"  # a draw nobody makes (a meteor, the deal): made at once
    OVER = "over"


@dataclass(frozen=True)
class Pace:
    """How the computer's moves are spread out: ``think_ms`` before each of its steps
    (0: all at once), ``first_ms`` before its first one after the tester's input (half a
    think time by default, so the tester's own message is read first).

    >>> Pace(3000).wait(after_tester=True), Pace(3000).wait(after_tester=False)
    (1500, 3000)
    """

    think_ms: int = 0
    first_ms: int | None = None

    def wait(self, *, after_tester: bool) -> int:
        if after_tester:
            return self.think_ms // 2 if self.first_ms is None else self.first_ms
        return self.think_ms


#: The computer's moves all at once (no think time).
AT_ONCE: Final = Pace()


@dataclass(frozen=True)
class Wording:
    """The tester's wording of each message a study's experiments vary (key → catalog
    variant or a study's own text), which experiment varies each target, and the
    tester's variant of each experiment (to log an exposure when a varied message is
    shown)."""

    messages: Mapping[str, str] = field(default_factory=dict)
    varied: Mapping[str, str] = field(default_factory=dict)
    variants: Mapping[str, str] = field(default_factory=dict)
    #: The study's language (playtest.i18n): the catalog's texts are read in it.
    language: str = "en"

    @classmethod
    def of(cls, effective: Any) -> Wording:
        """A tester's wording from their effective study settings."""
        return cls(dict(effective.message_variants), dict(effective.varied),
                   dict(effective.variants), getattr(effective, "language", "en"))


class ComputerPlayers(Protocol):
    """Who decides a computer seat's move."""

    def decide(self, play: Play, mover: int, level: str) -> Decision: ...


class SeededPlayers:
    """A fresh player of the seat's level for every decision, seeded from the game's seed
    and the number of the action it decides (:func:`decision_seed`): a game resumed
    from its record is decided exactly as it would have been."""

    def decide(self, play: Play, mover: int, level: str) -> Decision:
        player = make_player(level, seed=decision_seed(play.seed, len(play.actions)),
                             game=play.game_name)
        return player.decide(play.state)


@functools.cache
def _translated(catalog: MessageCatalog, game: str, language: str) -> MessageCatalog:
    from playtest.i18n.words import study_words

    words = study_words(language, game)
    return catalog.translated(words.pgettext, words.gettext)


def translated_catalog(catalog: MessageCatalog, game: str, language: str) -> MessageCatalog:
    """``catalog`` (``game``'s) in ``language`` (as it is in English); cached."""
    return catalog if language == "en" else _translated(catalog, game, language)


def decision_seed(game_seed: int, action_number: int) -> int:
    """The seed of the computer's decision of action ``action_number`` of a game.

    >>> decision_seed(7, 3) == decision_seed(7, 3) != decision_seed(7, 4)
    True
    """
    return game_seed * 100_003 + action_number


class GameSink(Protocol):
    """Where a game's record and telemetry go (the database in the app, the demo's
    recorder in ``playtest demo``)."""

    def append_action(self, index: int, action: list[Any]) -> bool: ...

    def log(self, type_: str, props: dict[str, Any], client_event_id: str | None = None) -> None: ...

    def finish(self, winner: int | None, reason: str, turns: int) -> None: ...

    def batch(self) -> contextlib.AbstractContextManager[None]: ...

    def expose(self, experiment: str, variant: str, context: dict[str, Any]) -> None: ...

    def stored_actions(self) -> int: ...


def monotonic_ms() -> float:
    return time.monotonic() * 1000.0


class GameSession:
    """One play of one game, its sink and the tester's wording and settings."""

    def __init__(self, plugin: GamePlugin, play: Play, sink: GameSink, *,
                 wording: Wording | None = None, settings: Mapping[str, Any] | None = None,
                 computers: ComputerPlayers | None = None,
                 clock: Callable[[], float] = monotonic_ms, log_messages: bool = True) -> None:
        if plugin.name != play.game_name:
            raise ValueError(f"a {play.game_name} play cannot run as {plugin.name}")
        self.plugin = plugin
        self.play = play
        self.sink = sink
        self.wording = wording or Wording()
        self.settings: Mapping[str, Any] = dict(settings or {})
        self.computers = computers or SeededPlayers()
        self.clock = clock
        #: Whether the messages shown are logged (the demo logs what its testers read).
        self.log_messages = log_messages
        #: True once another tab was found to have played on: reload the game.
        self.stale = False
        self._depth = 0
        self._exposed: list[tuple[str, str, dict[str, Any]]] = []

    # -- what the game waits for ---------------------------------------------------------

    def next(self) -> Next:
        """Who acts now (see :class:`Next`)."""
        play = self.play
        if play.over:
            return Next.OVER
        mover = play.mover()
        if mover == CHANCE:
            owner = self.plugin.chance_by(play.state) if self.plugin.chance_by else None
            if owner is None:
                return Next.NATURE
            seat = play.seat_of(owner)
            return Next.TESTER_DRAW if seat is not None and seat.is_human else Next.COMPUTER
        seat = play.seat_of(mover)
        return Next.TESTER if seat is not None and seat.is_human else Next.COMPUTER

    @property
    def fresh(self) -> tuple[Step, ...]:
        """The steps the last operation applied, in order."""
        return self.play.fresh

    @property
    def tester_to_act(self) -> bool:
        return self.next() in (Next.TESTER, Next.TESTER_DRAW)

    @property
    def computer_due(self) -> bool:
        """A computer's paced step is waiting for its time (:attr:`Play.due_ms`)."""
        return self.play.due_ms is not None and self.next() is Next.COMPUTER

    # -- inputs --------------------------------------------------------------------------

    def start(self, *, pace: Pace = AT_ONCE) -> None:
        """A new game's ``game_start`` and the draws it begins with (a deal), stored
        together; a computer that moves first moves (or is scheduled)."""
        play = self.play
        props: dict[str, Any] = {"game_id": play.game_id, "game": play.game_name,
                                 "rules": play.game.rules_obj()}
        extra = self.plugin.telemetry.start
        if extra is not None:
            props.update(extra(play.game, play.rules))
        props.update({"seats": [str(s) for s in play.seats], "seed": play.seed})
        with self._input():
            self.sink.log("game_start", props)
            self._advance(pace, after_tester=False)
            self._say(changed=True)

    def resume(self, *, pace: Pace = AT_ONCE) -> None:
        """A game rebuilt from its record: a computer whose move was due moves (or is
        scheduled), and what the board says is worked out again (not logged: it was
        logged when it was first shown)."""
        if self.next() in (Next.COMPUTER, Next.NATURE) and not self.computer_due:
            with self._input():
                self._advance(pace, after_tester=False)
                self._say(changed=bool(self.play.fresh))
        else:
            self._say(changed=False)

    def click(self, target: str, *, ms: float | None = None, via: str = "mouse",
              nonce: str | None = None, selection: tuple[str, ...] | None = None,
              pace: Pace = AT_ONCE) -> ClickResult | None:
        """The tester clicked ``target`` (with ``selection`` held instead of the play's
        own, e.g. a special counter chosen beside the tile): the click is judged by the
        rules, logged and, when it completes an action, applied; then the computers
        move. None when it is not a tester's turn (nothing stored)."""
        play = self.play
        if self.next() is not Next.TESTER:
            return None
        mover = play.mover()
        held = play.selection if selection is None else selection
        result: ClickResult = play.state.click(target, held)
        props = self.plugin.telemetry.click(mover + 1, target, result,
                                            None if ms is None else int(ms), via)
        if not result.ok and self._behind():
            # Wrong on this tab's board, which is out of date: not the tester's mistake
            # (logged without the refusal's reasons, never counted as a wrong answer).
            unjudged = replace(result, refusal=None)
            props = self.plugin.telemetry.click(mover + 1, target, unjudged,
                                                None if ms is None else int(ms), via)
            self.sink.log("click", {**props, "ok": False, "stale": True}, nonce)
            self.stale = True
            return result
        with self._input(click=props, nonce=nonce):
            self.sink.log("click", props, nonce)
            if result.action is not None:
                self._apply(result.action, mover, by_computer=False)
            play.selection = tuple(result.selection)
            play.refusal = result.refusal
            play.refused_fields = dict(result.fields) if result.refusal is not None else {}
            self._advance(pace, after_tester=True)
            self._say(changed=True)
        return result

    def draw(self, *, nonce: str | None = None, pace: Pace = AT_ONCE) -> bool:
        """The tester's button made the draw due now (rolled the dice): drawn from the
        game's seed, stored, applied and logged; then the computers move. False when no
        draw of the tester's is due (nothing stored) or another tab played on."""
        if self.next() is not Next.TESTER_DRAW:
            return False
        play = self.play
        with self._input():
            owner = self.plugin.chance_by(play.state) if self.plugin.chance_by else None
            action = self.plugin.draw_chance(play.state, play.seed, play.actions)
            self._apply(action, CHANCE if owner is None else owner, by_computer=False,
                        nonce=nonce)
            play.selection, play.refusal, play.refused_fields = (), None, {}
            self._advance(pace, after_tester=True)
            self._say(changed=True)
        return not self.stale

    def step(self, *, pace: Pace = AT_ONCE) -> bool:
        """The computer's next step (its time has come): one move or one draw it makes,
        then what follows until the next paced step or the tester's turn."""
        if self.next() is not Next.COMPUTER:
            self.play.due_ms = None
            return False
        with self._input():
            self._computer_step()
            self._advance(pace, after_tester=False)
            self._say(changed=True)
        return not self.stale

    def abandon(self, reason: str) -> None:
        """End an unfinished game without a result (restarted, left): logged and stored."""
        play = self.play
        if play.finished:
            return
        with self._input():
            self.sink.log("game_end", {"game_id": play.game_id, "winner": None,
                                       "reason": reason, "turns": len(play.actions),
                                       "record": [list(a) for a in play.actions]})
            self.sink.finish(None, reason, len(play.actions))
            play.finished = True
            play.due_ms = None

    def redraw(self) -> None:
        """Work out what the board says now without logging it (a setting changed)."""
        self._say(changed=False)

    # -- the transaction of one input ----------------------------------------------------

    @contextlib.contextmanager
    def _input(self, click: dict[str, Any] | None = None,
               nonce: str | None = None) -> Iterator[None]:
        """Everything written inside, in one transaction; on any failure the play goes
        back to where it was. A refused claim of the action indices (another tab stored
        an action first) is not raised: :attr:`stale` is set and ``click``, if given, is
        logged alone marked stale. Nested calls join the outer one."""
        if self._depth:
            yield
            return
        kept = self.play.kept()
        self.play.fresh, self._exposed = (), []
        self._depth = 1
        refused = False
        try:
            with self.sink.batch():
                yield
        except ConflictError:
            self.play.restore(kept)
            refused = True
        except BaseException:
            self.play.restore(kept)
            raise
        finally:
            self._depth = 0
        if refused:
            self.stale = True
            if click is not None:
                self.sink.log("click", {**click, "ok": False, "stale": True}, nonce)
            return
        for experiment, variant, context in self._exposed:
            self.sink.expose(experiment, variant, context)

    def _behind(self) -> bool:
        """The stored record has moved past this play (another tab played on)."""
        stored = self.sink.stored_actions()
        return stored > len(self.play.actions)

    # -- applying actions ----------------------------------------------------------------

    def _apply(self, action: int, mover: int, *, by_computer: bool, reason: str = "",
               decided: bool = False, nonce: str | None = None) -> Step:
        """Store action number ``len(play.actions)`` first, then apply it and log it."""
        play = self.play
        trial = play.state.clone()
        events = trial.apply_action(action)  # IllegalActionError: nothing changed
        as_json = list(play.game.action_to_json(action))
        try:
            stored = self.sink.append_action(len(play.actions), as_json)
        except ConflictError:
            stored = False
        if not stored:
            raise ConflictError("another tab stored an action of this game first")
        play.state = trial
        play.actions.append(as_json)
        step = Step(mover, by_computer, as_json, tuple(events), reason)
        if decided:
            self.sink.log("ai_move", {"seat": mover + 1, "reason": reason, "action": as_json})
        for number, (kind, props) in enumerate(self.plugin.telemetry.events(trial, step)):
            self.sink.log(kind, props, nonce if number == 0 else None)
        if self.plugin.on_step is not None:
            step = replace(step, say=self.plugin.on_step(play, step, self.settings))
        play.steps = [*play.steps, step][-64:]
        play.fresh = (*play.fresh, step)
        return step

    def _computer_step(self) -> None:
        play = self.play
        mover = play.mover()
        if mover == CHANCE:
            owner = self.plugin.chance_by(play.state) if self.plugin.chance_by else None
            action = self.plugin.draw_chance(play.state, play.seed, play.actions)
            self._apply(action, CHANCE if owner is None else owner,
                        by_computer=owner is not None)
            return
        decision = self.computers.decide(play, mover, self._level(mover))
        self._apply(int(decision.action), mover, by_computer=True, reason=decision.reason,
                    decided=True)

    def _level(self, mover: int) -> str:
        seat = self.play.seat_of(mover)
        if seat is not None and seat.level is not None:
            return seat.level
        if self.plugin.computer_level is not None:
            return self.plugin.computer_level(self.play.state, mover)
        return self.plugin.ai_levels()[0]

    def _advance(self, pace: Pace, *, after_tester: bool) -> None:
        """Draws nobody makes at once; the computers' moves at once or, paced, the next
        one scheduled; the game's end logged."""
        play = self.play
        play.due_ms = None
        for _ in range(MAX_STEPS):
            now = self.next()
            if now is Next.NATURE:
                self._computer_step()
                continue
            if now is Next.COMPUTER:
                if pace.think_ms > 0:
                    play.due_ms = self.clock() + pace.wait(after_tester=after_tester)
                    break
                self._computer_step()
                continue
            break
        self._finish_if_over()

    def _finish_if_over(self) -> None:
        play = self.play
        if not play.over or play.finished:
            return
        result = self.plugin.result(play.state, len(play.actions))
        self.sink.log("game_end", {"game_id": play.game_id, "winner": result.winner,
                                   "reason": result.reason, "turns": result.turns,
                                   "record": [list(a) for a in play.actions]})
        self.sink.finish(result.winner, result.reason, result.turns)
        play.finished = True

    # -- what the board says -------------------------------------------------------------

    def catalog(self) -> MessageCatalog | None:
        """The game's catalog in the study's language (its game's translations)."""
        path = self.plugin.catalog_path
        if path is None:
            return None
        return translated_catalog(load_catalog(path), self.plugin.name, self.wording.language)

    def moment(self, **extra: Any) -> Moment:
        """The play as its words and view see it now (``extra``: see :class:`Moment`)."""
        return Moment(self.play, self.play.fresh, self.settings, self.play.shown,
                      wording=self.wording.messages, language=self.wording.language, **extra)

    def _say(self, *, changed: bool) -> None:
        """Work out what the board says now (:attr:`Play.shown`); when an input changed
        it, log each showing as a ``message`` event (and the exposure of a message an
        experiment varies)."""
        play = self.play
        words = self.plugin.words
        says: tuple[Say, ...] = words(self.moment()) if words is not None else ()
        catalog = self.catalog()
        shown: tuple[Shown, ...] = () if catalog is None else tuple(
            render(catalog, say, self.wording.messages) for say in says if say.key)
        play.says, play.shown = says, shown
        if not changed or not self.log_messages:
            return
        for message in shown:
            play.shown_count += 1
            self.sink.log("message", message.props(self._visible_ms(message)),
                          f"{play.game_id}:{play.instance}:message:{play.shown_count}")
            experiment = self.wording.varied.get(f"message:{message.key}")
            if experiment:
                self._exposed.append((experiment, self.wording.variants.get(experiment, ""),
                                      {"message": message.key, "game_id": play.game_id}))

    def _visible_ms(self, message: Shown) -> int | None:
        """How long a message stays on the board: the speed's time for a passing one,
        None for one that stays (a prompt, the result)."""
        if not message.transient:
            return None
        return speed(int(self.settings.get("speed", 2))).message_ms
