"""What a game plugs into the lab: one typed :class:`GamePlugin` value per game.

Every field is declared here and read as a field: the engine's game factory and computer
levels, the rules a study may choose, the surveys, the message catalog and the messages
its board shows, the board (view + renderer), the analytics object, the demo's simulated
testers (:class:`DemoBehaviour`), the display settings it offers
(:class:`~playtest.games.ui_settings.UiSetting`) and its replay. Nothing is found by a
module's name or by ``getattr``: what a game does not have is ``None``.

The registry (:mod:`playtest.games.registry`) lists the plug-ins; a game's folder
``playtest/games/<game>/plugin.py`` makes its ``PLUGIN``. Importing this module imports
no Streamlit, no pandas and no game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core import ClickResult, Event, Game, sample_chance
from engine.players import Player
from playtest.games.ui_settings import UiSetting

if TYPE_CHECKING:
    from playtest.session.play import Play, Step
    from playtest.session.view import Moment
    from playtest.session.words import Say

#: Makes the engine's game: ``engine(rules, players)`` (rules: a preset name or object).
GameFactory = Callable[[Any, int], Game]
#: Makes a seeded computer player of one level: ``factory(seed)``.
PlayerFactory = Callable[[int], Player]
#: The chance action due now: ``draw(state, seed, actions)`` with the game's seed and the
#: actions stored so far (their JSON forms); the engine keeps no random generator.
ChanceDraw = Callable[[Any, int, Sequence[Any]], int]


class PluginError(ValueError):
    """A plug-in that cannot work (a name that is not a folder name, no rules…)."""


def seeded_chance(prefix: str) -> ChanceDraw:
    """The default chance draw: the engine's outcome probabilities sampled with a
    generator seeded ``"<prefix>:<seed>:<action number>"``, so the same game seed and
    record give the same draws (a replay is the same game).

    >>> from engine.core import CHANCE
    >>> class Coin:
    ...     def chance_outcomes(self): return [(0, 0.5), (1, 0.5)]
    >>> draw = seeded_chance("toy")
    >>> draw(Coin(), 7, []) == draw(Coin(), 7, []) == sample_chance(Coin(), random.Random("toy:7:0"))
    True
    """

    def draw(state: Any, seed: int, actions: Sequence[Any]) -> int:
        return sample_chance(state, random.Random(f"{prefix}:{seed}:{len(actions)}"))

    return draw


def built_by(make: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A ``check_rules`` that builds the rules as the engine does (``make`` raises
    ``RulesError``/``TypeError`` saying why they cannot be played) and returns them.

    >>> built_by(int)("3")
    '3'
    """

    def check(rules: Any) -> Any:
        make(rules)
        return rules

    return check


def board_replay(engine: Any, game: Any) -> None:
    """The Replay page's step-through on the game's own board (any game with a view)."""
    from playtest.replay_board import board_replay_page

    board_replay_page(engine, game)


@dataclass(frozen=True)
class GameResult:
    """How a finished game ended: the winning 1-based seat (None: a draw, a solo loss),
    the reason (``game_end``'s and the games table's), its length in turns and, for a game
    with words of its own for its end ("Stage won!"), the end screen's title (None: the
    shell's, "You won!", "The computer won", ...)."""

    winner: int | None
    reason: str
    turns: int
    title: str | None = None


def generic_result(state: Any, actions: int) -> GameResult:
    """The winner by the engine's returns (the one seat with the best positive return)
    and the reason of the final ``win``/``draw``/``loss`` event (its ``reason``, else its
    kind); the length is the number of actions."""
    returns = list(state.returns())
    best = max(returns, default=0.0)
    winners = [s for s, r in enumerate(returns) if r > 0 and r == best]
    final = next((e for e in reversed(state.last_events) if e.kind in ("win", "draw", "loss")),
                 None)
    reason = "over" if final is None else str(final.data.get("reason", final.kind))
    return GameResult(winners[0] + 1 if len(winners) == 1 else None, reason, actions)


def click_props(seat: int, target: str, result: ClickResult, ms: int | None,
                via: str) -> dict[str, Any]:
    """The props of a ``click`` event (telemetry-format.md, ``click`` for other games): the
    seat, the target, the game's own fields, ``ok``, ``ms``, how, and the refusal.

    >>> from engine.core import Refusal
    >>> click_props(1, "d5", ClickResult(None, Refusal("walled", "…"), (), {"point": "d5"}),
    ...             812, "mouse")
    {'seat': 1, 'target': 'd5', 'point': 'd5', 'ok': False, 'ms': 812, 'via': 'mouse', 'reason': 'walled'}
    """
    props: dict[str, Any] = {"seat": seat, "target": target, **dict(result.fields)}
    props.update({"ok": result.ok, "ms": ms, "via": via})
    if result.refusal is not None:
        props["reason"] = result.refusal.reason
    return props


def event_props(event: Event) -> dict[str, Any]:
    """An engine event as telemetry props: ``seat``, ``tiles`` and the event's data."""
    return {"seat": event.seat, "tiles": [list(t) for t in event.tiles], **dict(event.data)}


def engine_events(state: Any, step: Step) -> list[tuple[str, dict[str, Any]]]:
    """The telemetry of one applied action: its engine events, each as ``(kind, props)``."""
    return [(e.kind, event_props(e)) for e in step.events]


@dataclass(frozen=True)
class Telemetry:
    """What a game logs beyond the session's own events (telemetry-format.md):

    - ``click(seat, target, result, ms, via)``: a click's props (:func:`click_props`);
    - ``events(state, step)``: the events of an applied action, ``(type, props)`` each
      (:func:`engine_events`); the first is the input's own when a tester made it;
    - ``start(game, rules)``: props of ``game_start`` beyond the session's.
    """

    click: Callable[[int, str, ClickResult, int | None, str], dict[str, Any]] = click_props
    events: Callable[[Any, Step], list[tuple[str, dict[str, Any]]]] = engine_events
    start: Callable[[Any, Any], dict[str, Any]] | None = None


@dataclass(frozen=True)
class BoardSpec:
    """Where a game's board front end lives: its asset folder (served to the browser) and
    the renderer script in it."""

    static_dir: Path
    script: str

    @property
    def script_path(self) -> Path:
        return self.static_dir / self.script


@dataclass(frozen=True)
class GameFiles:
    """A game's files in its folder ``playtest/games/<game>/``: its message catalog, its
    board's asset folder and renderer script, its rules overlay's content and, for a
    game from outside the lab's packages, the folder of its surveys (``<id>.yaml`` each;
    the lab's games keep theirs in ``surveys/games/<game>/``). Each name is relative to
    the folder; None: the game has none."""

    folder: Path
    catalog: str | None = "messages.yaml"
    # (the other files' names follow)
    static: str = "static"
    renderer: str = "render.js"
    rules: str | None = "rules.yaml"
    surveys: str | None = None

    def path(self, name: str | None) -> Path | None:
        return None if name is None else self.folder / name

    @classmethod
    def beside(cls, module_file: str, **names: Any) -> GameFiles:
        """The files in the folder of the module ``module_file`` (a plug-in's
        ``__file__``), with ``names`` where they differ from the usual ones."""
        return cls(Path(module_file).resolve().parent, **names)


@dataclass(frozen=True)
class Surveys:
    """A game's default surveys (``surveys/games/<game>/``): before and after play, and
    the children's forms of each (an adults' form is found by its name,
    ``<id>_adult``)."""

    pre: str | None = None
    post: str | None = None
    child_pre: str | None = None
    child_post: str | None = None

    @classmethod
    def usual(cls, game: str, *, post: str) -> Surveys:
        """A game's surveys named as usual: ``<game>_pre`` and ``post`` (its post-play
        survey's id), with the children's forms ``<game>_pre_child`` and
        ``<game>_post_child``.

        >>> Surveys.usual("chess", post="chess_post").child_post
        'chess_post_child'
        """
        return cls(f"{game}_pre", post, f"{game}_pre_child", f"{game}_post_child")


@dataclass(frozen=True)
class DemoBehaviour:
    """How ``playtest demo``'s simulated testers play a game (each part optional).

    - ``settings``: what the game's demo study sets beyond its defaults (a mapping of
      :class:`~playtest.study_config.StudyConfig` fields: more games, experiments);
    - ``slip_targets(state, selection)``: targets a person might click by mistake that the
      legal targets seen so far do not cover (empty cells, void squares…);
    - ``game_rules(rules, played)``: the rules of a tester's next game from the study's
      and the ``(rules, winner, reason)`` of the games played (a game of stages);
    - ``messages_shown(events, variants)`` and ``message_effect(key, variant)``: the
      messages a tester reads as their turn starts (props of ``message`` events) and
      the planted reaction to each (extra ms, chance of a rules lookup);
    - ``planted_clicks(state, selection, candidates, tester)``: the clicks a tester who
      misreads a rule makes before a move's next click (a planted truth; empty: none);
    - ``play_game(config, *, seed, game_id, tester, recorder, clock, truths)``: a game
      whose demo testers play on its own screen model instead of through the engine's
      clicks, planting its own truths (``truths``, names of them; absent: all of them).

    A calibration plants its truths in a copy of a game's behaviour
    (:func:`playtest.calibrate.behaviour`, :func:`dataclasses.replace`).
    """

    settings: Callable[[], Mapping[str, Any]] | None = None
    slip_targets: Callable[[Any, Sequence[str]], Sequence[str]] | None = None
    game_rules: Callable[[Any, Sequence[tuple[Any, int | None, str]]], Any] | None = None
    messages_shown: Callable[[Sequence[Any], Mapping[str, str]], list[dict[str, Any]]] | None = None
    message_effect: Callable[[str, str], tuple[float, float]] | None = None
    planted_clicks: Callable[[Any, Sequence[str], Sequence[str], Any], Sequence[str]] | None = None
    play_game: Callable[..., None] | None = None


@dataclass(frozen=True)
class GamePlugin:
    """What the app asks a game (one frozen value per game, ``PLUGIN`` in its folder).

    - ``name``: the game's folder name in every layer, its engine name and the prefix of
      its chance seeds; ``title``: its name for people; ``about``: what it is in a few
      words, after its title in the tester's consent text;
    - ``engine``: the engine's game factory; ``levels``: its computer levels, easiest
      first (``{level: factory(seed)}``; empty: no computer seats);
    - ``presets``, ``default_rules``: the named rule sets a study may choose;
      ``rule_options``: each option's choices (the Studies page's help);
      ``check_rules(rules)``: raises ``ValueError``/``RulesError`` saying why a preset or
      rules object cannot be played (None: the engine's game is built with them, see
      :meth:`checked_rules`);
    - ``seats``: the fewest and most seats; ``default_seats``: a new study's seats;
    - ``surveys``: the default surveys (:class:`Surveys`; read as ``pre_survey``,
      ``post_survey`` and ``child_surveys``, the children's form per phase), bundled
      in ``surveys/games/<game>/`` or in the game's own folder (``survey_folder``);
    - ``files``: its files (:class:`GameFiles`): the message catalog (``catalog_path``),
      which also says which messages its board shows (:attr:`shown_messages`), the
      board's front end (``board``, a :class:`BoardSpec`) and the rules overlay's
      content (``rules_path``);
    - ``ui_settings``: the display settings its board offers (a study may set and
      vary only these);
    - ``chance``: how the chance actions it needs are drawn (:func:`seeded_chance` by
      default: dice, deals and meteors are actions like any other); ``chance_by(state)``:
      the 0-based seat whose button makes the draw due now (a roll of the dice), None for
      a draw nobody makes (applied at once);
    - ``computer_level(state, mover)``: the level of a seat the study does not list (a
      solo game's computer colours);
    - ``result(state, actions)``: how a finished game ended (:func:`generic_result`);
      ``next_rules(rules, played)``: the rules of a tester's next game from the study's
      and the ``(rules, reason)`` of their finished game records of it (a game of
      stages plays the first stage not won); None: the study's rules;
    - ``telemetry``: what it logs of clicks and actions (:class:`Telemetry`);
    - ``on_step(play, step, settings)``: what the board notes of an action just applied
      (it may keep a value in ``play.memo``, replacing it, never changing it in place)
      and what it says about it; ``words(moment)``: every
      message the board shows now; ``view(moment)``: the data its renderer draws;
    - ``seat_name(seat)``: a seat's name for people in pass-and-play (its colour);
    - ``next_choices(play, study_rules)``: the ways to the next game after ``play``
      (label, rules; rules None: the session's choice), e.g. the next stage or the same
      one again; None: one "Next game"; ``paced``: whether the computer's moves wait for
      the tester's speed one by one (False: its board animates a whole round itself);
    - ``analytics``: its analytics object (``analytics/games/<name>/``), None without one;
    - ``demo``: its simulated testers (:class:`DemoBehaviour`);
    - ``play``: draws the tester's play step (``play(tester, to_post_survey=...)``);
    - ``replay``: draws a stored game on the designer's Replay page
      (``replay(engine, game)``; None: the engine's text view); ``replay_glow(events,
      computer)``: the board marks of the tiles one replayed action touched;
    - ``refusal_words(reason)``: an engine refusal reason in the catalog's words, for the
      designer's tables (None: not one of its reasons).
    """

    name: str
    title: str
    engine: GameFactory
    presets: tuple[str, ...]
    default_rules: str = "standard"
    check_rules: Callable[[Any], Any] | None = None
    levels: Mapping[str, PlayerFactory] = field(default_factory=dict)
    rule_options: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    seats: tuple[int, int] = (1, 4)
    default_seats: tuple[str, ...] = ("human", "ai:easy")
    surveys: Surveys = field(default_factory=Surveys)
    files: GameFiles | None = None
    ui_settings: tuple[UiSetting, ...] = ()
    chance: ChanceDraw | None = None
    chance_by: Callable[[Any], int | None] | None = None
    computer_level: Callable[[Any, int], str] | None = None
    result: Callable[[Any, int], GameResult] = generic_result
    next_rules: Callable[[Any, Sequence[tuple[Any, str | None]]], Any] | None = None
    telemetry: Telemetry = field(default_factory=Telemetry)
    on_step: Callable[[Play, Step, Mapping[str, Any]], Say | None] | None = None
    words: Callable[[Moment], tuple[Say, ...]] | None = None
    view: Callable[[Moment], dict[str, Any]] | None = None
    seat_name: Callable[[int], str] = lambda seat: f"Player {seat}"  # noqa: E731
    next_choices: Callable[[Play, Any], Sequence[tuple[str, Any]]] | None = None
    paced: bool = True
    about: str = ""
    analytics: Any = None
    demo: DemoBehaviour = field(default_factory=DemoBehaviour)
    play: Callable[..., None] | None = None
    replay: Callable[[Any, Any], None] | None = board_replay
    replay_glow: Callable[[list[dict[str, Any]], bool], dict[tuple[int, int], str]] | None = None
    refusal_words: Callable[[str], str | None] | None = None

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or not self.name.islower():
            raise PluginError(f"game name {self.name!r}: a lower-case folder name")
        if self.default_rules not in self.presets and self.presets:
            raise PluginError(f"{self.name}: default_rules {self.default_rules!r} is not a preset")
        names = [s.name for s in self.ui_settings]
        if len(names) != len(set(names)):
            raise PluginError(f"{self.name}: a display setting is offered twice: {names}")

    @property
    def pre_survey(self) -> str | None:
        return self.surveys.pre

    @property
    def post_survey(self) -> str | None:
        return self.surveys.post

    @property
    def child_surveys(self) -> dict[str, str]:
        """The children's form per phase (``"pre"``, ``"post"``)."""
        forms = {"pre": self.surveys.child_pre, "post": self.surveys.child_post}
        return {phase: form for phase, form in forms.items() if form}

    @property
    def catalog_path(self) -> Path | None:
        return None if self.files is None else self.files.path(self.files.catalog)

    @property
    def rules_path(self) -> Path | None:
        """The rules overlay's content (YAML: the goal and main rules, each with a picture
        of the game's own board, :mod:`playtest.board.rules_overlay`)."""
        return None if self.files is None else self.files.path(self.files.rules)

    @property
    def survey_folder(self) -> Path | None:
        """The folder of its own surveys (:attr:`GameFiles.surveys`), which the registry
        bundles beside the lab's (:func:`surveys.loader.use_game_folders`)."""
        return None if self.files is None else self.files.path(self.files.surveys)

    @property
    def board(self) -> BoardSpec | None:
        if self.files is None:
            return None
        return BoardSpec(self.files.folder / self.files.static, self.files.renderer)

    @property
    def seed_prefix(self) -> str:
        """What a game's chance seeds start with (``"<name>:<seed>:<draw>"``)."""
        return self.name

    def checked_rules(self, rules: Any) -> Any:
        """``rules`` when they can be played (the plug-in's check, else the engine's game
        built with them and the fewest seats), else the engine's error."""
        if self.check_rules is not None:
            return self.check_rules(rules)
        self.engine(rules, self.seats[0])
        return rules

    def make_game(self, rules: Any, players: int) -> Game:
        """The engine's game for these rules (a preset name or a rules object) and seats."""
        return self.engine(rules, players)

    def ai_levels(self) -> tuple[str, ...]:
        """The computer levels a seat ``"ai:<level>"`` may name, easiest first.

        >>> from playtest.games.registry import game_plugin
        >>> from analytics.data import UNNAMED_GAME
        >>> game_plugin(UNNAMED_GAME).ai_levels()[0]
        'easy'
        """
        return tuple(self.levels)

    def draw_chance(self, state: Any, seed: int, actions: Sequence[Any]) -> int:
        """The chance action due in ``state`` (see :attr:`chance`)."""
        draw = self.chance or seeded_chance(self.seed_prefix)
        return draw(state, seed, actions)

    def ui_setting(self, name: str) -> UiSetting | None:
        """The display setting ``name`` if the game offers it."""
        return next((s for s in self.ui_settings if s.name == name), None)

    @property
    def ignored_ui(self) -> tuple[str, ...]:
        """The known display settings its board does not offer (transitional: the Studies
        page reads :attr:`ui_settings` instead)."""
        from playtest.games.registry import known_ui_settings

        offered = {s.name for s in self.ui_settings}
        return tuple(s.name for s in known_ui_settings() if s.name not in offered)

    @property
    def shown_messages(self) -> frozenset[str]:
        """The catalog keys its board shows to a tester (an experiment may vary only
        these: a message the board never shows would never be seen)."""
        if self.catalog_path is None:
            return frozenset()
        from playtest.messages.catalog import load_catalog

        return load_catalog(self.catalog_path).shown
