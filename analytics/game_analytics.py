"""The analytics side of a game plug-in: what the report and the pages ask a game.

The core (:mod:`analytics.derive`, :mod:`analytics.confusion`, :mod:`analytics.metrics`,
:mod:`analytics.experiments`, :mod:`analytics.questionnaires`) knows no game: its turns
are decisions found by each game's :class:`analytics.turns.TurnRule`, its ``rule:<reason>``
points come from the refused clicks' reasons, in every game. A game adds, through one
:class:`GameAnalytics` object kept as ``ANALYTICS`` in ``analytics/games/<game>/``:

- ``turns``: what a decision is in its log (:class:`analytics.turns.TurnRule`: a turn
  marker event such as a roll, or its action events), which every per-turn number
  (wrong clicks and thinking time per turn, the turn after a message) and every
  confusion family counts by;
- ``click_keys`` and ``read_clicks``: the click props it logs beyond the contract's
  (``seat, ok, reason, ms``) and how it reads them (e.g. a refusal reason logged under a
  name of its own moved into ``reason``);
- ``reason_occasions``: per turn with a click, the refusal reasons that could bite on
  it (lists; NaN for a turn that did not log them: then every reason seen in the study,
  marked as estimated); None: every turn with a click is an occasion of every reason;
  ``reason_words``: a reason in the words of what the tester did, for the labels;
- ``families``: confusion-point families of its own (``fact:<a>x<b>`` …), each a
  :class:`Family` with its tallies (on the core's turns), definition, label and action;
- ``actions``: the fix to suggest per point id (``rule:<reason>``, ``wrong:<kind>``):
  one per refusal reason its engine gives;
- ``occasions``: the moments its points could happen, in the severity definition's
  words; ``definitions``: its own wording of a core family's definition (``rule``);
- ``sections``: report keys of its own (:class:`ReportSection`: ``hardest_facts`` …),
  each with the table the Markdown and HTML plan show;
- ``charts``: its figures (:class:`Chart`: heatmaps of its board …);
- ``fact_attempts``: the tester's tries at the game's facts in play (``participant_id,
  fact, correct, ms, at``), for the Learning page (:mod:`analytics.learning`); None for a
  game without facts;
- ``prepared``: the props tables it reads beyond the core's (``(event type, keys)`` as
  :func:`analytics.derive.props_of` takes them), so that a study's prepared tables
  (:func:`analytics.derive.prepared_tables`, kept in snapshots) hold everything its
  analyses read: they never read the raw events.

**Which plug-in.** The caller says: the app gives each study the plug-in its game's
registry entry names (:func:`use`); an analysis of a study nobody gave one to (a test, a
script) finds it by the study's game with :func:`load`: the analytics the registry
registered under that name (:func:`register_games`, configured games' too), else the
game's folder ``analytics/games/<game>/``; a game with neither gets :data:`GENERIC`: the
core alone. Records that name no game are
:data:`analytics.data.UNNAMED_GAME`'s, as the exchange format says.

>>> GENERIC.name, GENERIC.sections, GENERIC.has_section("hardest_facts")
('generic', (), False)
>>> load("no such game").name
'generic'
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from analytics.data import UNNAMED_GAME, StudyData
from analytics.derive import GIVEN_GAME
from analytics.remedies import Remedy
from analytics.severity import CORE_OCCASIONS, Tally
from analytics.turns import GENERIC_TURNS, TurnRule

__all__ = ["GENERIC", "Chart", "Column", "Family", "GameAnalytics", "ReportSection",
           "TurnRule", "default_game", "for_study", "game_of", "load", "register_games",
           "turn_definition", "use"]

_GAME_NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")


@dataclass(frozen=True)
class Column:
    """One column of a report section's table: header, the row's key, how to show it."""

    header: str
    key: str
    show: Callable[[Any], str] = str


@dataclass(frozen=True)
class ReportSection:
    """A report key that belongs to the game (e.g. ``hardest_facts``).

    ``rows(data, top, min_attempts)`` gives the JSON rows (JSON-safe dicts);
    ``columns`` the table the plan shows under ``title``; ``empty`` the line shown when
    there is no row (None: the table is shown with its header only). On the designer's
    pages the section shows under ``heading`` (its ``title`` unless it says otherwise) with
    ``caption``, its charts (:attr:`Chart.section`) and ``frame(data)``'s columns named by
    ``page_columns``.
    """

    key: str
    title: str
    rows: Callable[[StudyData, int, int], list[dict[str, Any]]]
    columns: tuple[Column, ...]
    empty: str | None = None
    heading: str = ""
    caption: str = ""
    frame: Callable[[StudyData], pd.DataFrame] | None = None
    page_columns: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # A table with two columns of one name cannot be drawn (pyarrow refuses it) and
        # cannot be read: say which section and name at import, not on the designer's page.
        for names in ([c.header for c in self.columns], list(self.page_columns.values())):
            twice = sorted({n for n in names if names.count(n) > 1})
            if twice:
                raise ValueError(f"report section {self.key!r}: column names used twice: "
                                 f"{', '.join(twice)}")


@dataclass(frozen=True)
class Chart:
    """A figure of the game's, by the name the report gives it; ``key`` names it on the
    pages, ``section`` is the key of the report section it belongs under ('' for none),
    ``group`` puts charts side by side on a page (``"wrong"``: the wrong-click charts at
    the top of the confusion page); ``in_report``: drawn in the plan too."""

    name: str
    build: Callable[[StudyData], go.Figure]
    key: str = ""
    section: str = ""
    group: str = ""
    in_report: bool = True


@dataclass(frozen=True)
class Family:
    """A game's own kind of confusion point (ids ``<name>:<candidate>``).

    ``tallies(data, attempted, later)`` gets the core's turns with a click
    (:func:`analytics.derive.turns` rows with ``n_clicks > 0``: the testers' decisions)
    and, per turn, whether it is in a later game than the tester's first; it gives the
    tallies and the study's mean trouble rate for the family (the prior's mean; None:
    pooled). ``label`` and ``action`` name a candidate for people (``extra`` is the
    point's extra evidence).
    """

    name: str
    definition: str
    impact: float
    tallies: Callable[[StudyData, pd.DataFrame, pd.Series],
                      tuple[list[Tally], float | None]]
    label: Callable[[str, dict[str, Any]], str]
    action: Callable[[str, dict[str, Any]], str]


@dataclass(frozen=True)
class GameAnalytics:
    """What the core asks a game (see the module docstring)."""

    name: str
    title: str
    turns: TurnRule = GENERIC_TURNS
    click_keys: tuple[str, ...] = ()
    read_clicks: Callable[[pd.DataFrame], pd.DataFrame] | None = None
    reason_occasions: Callable[[StudyData, pd.DataFrame], pd.Series] | None = None
    reason_words: Mapping[str, str] = field(default_factory=dict)
    families: tuple[Family, ...] = ()
    actions: Mapping[str, str] = field(default_factory=dict)
    occasions: str = CORE_OCCASIONS
    definitions: Mapping[str, str] = field(default_factory=dict)
    sections: tuple[ReportSection, ...] = ()
    charts: tuple[Chart, ...] = ()
    prepared: tuple[tuple[str, tuple[str, ...]], ...] = ()
    fact_attempts: Callable[[StudyData], pd.DataFrame] | None = None
    #: the follow-up experiments it offers per kind of confusion point (analytics.remedies)
    remedies: tuple[Remedy, ...] = ()

    def has_section(self, key: str) -> bool:
        """True when the game's report has the key ``key``."""
        return any(section.key == key for section in self.sections)

    def family(self, name: str) -> Family | None:
        """The game's family of that name, if any."""
        return next((f for f in self.families if f.name == name), None)


#: The core alone: a game without analytics of its own.
GENERIC = GameAnalytics(name="generic", title="Any game")



def default_game() -> str:
    """The game of a study, ``game_start`` or report that names none:
    :data:`analytics.data.UNNAMED_GAME` (telemetry-format.md: absent means it). Kept for
    the planted-study builders that still call it; new code names the constant.

    >>> default_game() == game_of(StudyData.empty("s"))
    True
    """
    return UNNAMED_GAME


def game_of(data: StudyData) -> str:
    """The game a study plays (its ``game``; :data:`analytics.data.UNNAMED_GAME` when
    it does not say).

    >>> game_of(StudyData.empty("s", "chess"))
    'chess'
    """
    name = data.study.get("game")
    return str(name) if isinstance(name, str) and name else UNNAMED_GAME


#: The analytics of the registered games by name (the app's registry gives them:
#: :func:`register_games`); a game not in it is looked for in ``analytics/games/``.
_REGISTERED: dict[str, GameAnalytics] = {}


def register_games(games: Mapping[str, GameAnalytics]) -> None:
    """Make :func:`load` find each game's analytics by its name, ``{game: analytics}``
    (the registry's plug-ins, a game configured from outside the packages among them),
    replacing those given before.

    >>> before = dict(_REGISTERED)
    >>> register_games({**before, "chess": GameAnalytics(name="chess", title="Chess")})
    >>> load("chess").title
    'Chess'
    >>> register_games(before)
    >>> load("chess") is GENERIC
    True
    """
    _REGISTERED.clear()
    _REGISTERED.update(games)


def load(name: str) -> GameAnalytics:
    """The analytics of game ``name`` for callers that were given none (see :func:`use`):
    the registered one (:func:`register_games`), else ``analytics.games.<name>.ANALYTICS``,
    else :data:`GENERIC`.
    """
    if name in _REGISTERED:
        return _REGISTERED[name]
    if not _GAME_NAME.match(name):
        return GENERIC
    try:
        module = importlib.import_module(f"analytics.games.{name}")
    except ModuleNotFoundError as error:
        if error.name is not None and error.name.startswith(f"analytics.games.{name}"):
            return GENERIC
        raise
    plugin = getattr(module, "ANALYTICS", None)
    return plugin if isinstance(plugin, GameAnalytics) else GENERIC


def use(data: StudyData, game: GameAnalytics | None) -> StudyData:
    """Give ``data`` the plug-in of its game (the caller's: the app's registry entry of
    the study's game; None: none given, :func:`load` finds it). Call it before the first
    analysis of ``data``: its derived tables are the game's. Returns ``data``.

    >>> data = use(StudyData.empty("s", "chess"), GENERIC)
    >>> for_study(data) is GENERIC
    True
    """
    if game is not None:
        data._derived[GIVEN_GAME] = game
    return data


def for_study(data: StudyData) -> GameAnalytics:
    """The plug-in of the game ``data`` plays: the one its caller gave (:func:`use`),
    else the one its game's folder holds."""
    given = data._derived.get(GIVEN_GAME)
    return given if isinstance(given, GameAnalytics) else load(game_of(data))


def turn_definition(game: GameAnalytics) -> str:
    """What a turn is in ``game``, for the pages and the plan (its ``turns`` rule).

    >>> turn_definition(GENERIC).startswith("Per turn (any game): A turn is one decision")
    True
    """
    title = "any game" if game is GENERIC else game.title
    return f"Per turn ({title}): {game.turns.definition}"
