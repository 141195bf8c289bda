"""The analytics side of a game plug-in: what the report and the pages ask a game.

The core (:mod:`analytics.funnel`, :mod:`analytics.confusion`, :mod:`analytics.experiments`,
:mod:`analytics.questionnaires`) knows no game. A game adds, through one
:class:`GameAnalytics` object kept as ``ANALYTICS`` in ``analytics/games/<game>/``:

- ``refusals``: the wrong clicks the rules refused, with their reason (``turn_id,
  participant_id, reason``), and ``reason_occasions``: per human turn, the refusal
  reasons that could bite on it (the **occasions** of the ``rule:<reason>`` confusion
  points; NaN for a turn that did not log them: then every reason seen in the study);
  without both, the game has no ``rule:`` points;
- ``families``: confusion-point families of its own (``fact:<a>x<b>`` …), each a
  :class:`Family` with its tallies, definition, label and action;
- ``actions``: the fix to suggest per point id (``rule:<reason>``, ``wrong:<kind>``);
- ``occasions``: the moments its points could happen, in the severity definition's
  words; ``definitions``: its own wording of a core family's definition (``rule``);
- ``sections``: report keys of its own (:class:`ReportSection`: ``hardest_facts`` …),
  each with the table the Markdown and HTML plan show;
- ``charts``: its figures (:class:`Chart`: heatmaps of its board …);
- ``turns``: what a turn is in its log (:class:`analytics.turns.TurnRule`: a turn marker
  event such as a roll, or the acting seat with the game's own action and turn-break
  events), which the per-turn numbers (wrong clicks and thinking time per turn, the turn
  after a message) count by;
- ``fact_attempts``: the tester's tries at the game's facts in play (``participant_id,
  fact, correct, ms, at``), for the Learning page (:mod:`analytics.learning`); None for a
  game without facts;
- ``prepared``: the props tables it reads beyond the core's (``(event type, keys)`` as
  :func:`analytics.derive.props_of` takes them), so that a study's prepared tables
  (:func:`analytics.derive.prepared_tables`, kept in snapshots) hold them.

A game without a plug-in folder gets :data:`GENERIC`: the core alone.

Records that name no game (a study, ``game_start`` or report from before the lab had
more than one game: telemetry-format.md, "absent means") are the game whose plug-in says
``plays_unnamed`` (:func:`default_game`): that fact is the game's history, so it lives in
its folder, and the core names no game.

>>> GENERIC.name, GENERIC.sections, GENERIC.has_section("hardest_facts")
('generic', (), False)
>>> load("no such game").name
'generic'
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
import plotly.graph_objects as go

import analytics.games
from analytics.data import StudyData
from analytics.severity import CORE_OCCASIONS, Tally
from analytics.turns import GENERIC_TURNS, TurnRule

__all__ = ["GENERIC", "AnalyticsPluginError", "Chart", "Column", "Family", "GameAnalytics",
           "ReportSection", "TurnRule", "default_game", "for_study", "game_of", "load",
           "turn_definition"]

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
    pages the section shows under ``heading`` with ``caption``, its charts
    (:attr:`Chart.section`) and ``frame(data)``'s columns named by ``page_columns``.
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
    (:func:`analytics.derive.turns` rows with ``n_clicks > 0``) and, per turn, whether it
    is in a later game than the tester's first; it gives the tallies and the study's
    mean trouble rate for the family (the prior's mean; None: pooled). ``label`` and
    ``action`` name a candidate for people (``extra`` is the point's extra evidence).
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
    refusals: Callable[[StudyData], pd.DataFrame] | None = None
    reason_occasions: Callable[[StudyData, pd.DataFrame], pd.Series] | None = None
    families: tuple[Family, ...] = ()
    actions: Mapping[str, str] = field(default_factory=dict)
    occasions: str = CORE_OCCASIONS
    definitions: Mapping[str, str] = field(default_factory=dict)
    sections: tuple[ReportSection, ...] = ()
    charts: tuple[Chart, ...] = ()
    prepared: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: True for the one game that records naming no game play (:func:`default_game`).
    plays_unnamed: bool = False
    turns: TurnRule = GENERIC_TURNS
    fact_attempts: Callable[[StudyData], pd.DataFrame] | None = None

    def has_section(self, key: str) -> bool:
        """True when the game's report has the key ``key``."""
        return any(section.key == key for section in self.sections)

    def family(self, name: str) -> Family | None:
        """The game's family of that name, if any."""
        return next((f for f in self.families if f.name == name), None)


#: The core alone: a game without analytics of its own.
GENERIC = GameAnalytics(name="generic", title="Any game")


class AnalyticsPluginError(RuntimeError):
    """The games' analytics plug-ins contradict each other (two claim unnamed records)."""


@functools.cache
def default_game() -> str:
    """The game that a study, ``game_start`` or report naming no game plays: the one
    plug-in in ``analytics/games/`` with ``plays_unnamed`` (``"generic"`` when none
    does: such records then get the core alone).

    Raises :class:`AnalyticsPluginError` when two plug-ins claim it.

    >>> default_game() == game_of(StudyData.empty("s")) != GENERIC.name
    True
    """
    claims = sorted(plugin.name for plugin in (
        load(found.name) for found in pkgutil.iter_modules(analytics.games.__path__)
        if found.ispkg) if plugin.plays_unnamed)
    if len(claims) > 1:
        raise AnalyticsPluginError(
            f"analytics plug-ins {', '.join(claims)} all claim the records that name no "
            "game (plays_unnamed): only one may")
    return claims[0] if claims else GENERIC.name


def game_of(data: StudyData) -> str:
    """The game a study plays (its ``game``; :func:`default_game` when it does not say).

    >>> game_of(StudyData.empty("s", "chess"))
    'chess'
    """
    name = data.study.get("game")
    return str(name) if isinstance(name, str) and name else default_game()


def load(name: str) -> GameAnalytics:
    """The plug-in ``analytics.games.<name>.ANALYTICS`` (:data:`GENERIC` if none).

    The folder is the registration: adding a game's analytics means adding its folder.
    """
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


def for_study(data: StudyData) -> GameAnalytics:
    """The plug-in of the game ``data`` plays."""
    return load(game_of(data))


def turn_definition(game: GameAnalytics) -> str:
    """What a turn is in ``game``, for the pages and the plan (its ``turns`` rule).

    >>> turn_definition(GENERIC).startswith("Per turn (any game): A turn is a run")
    True
    """
    title = "any game" if game is GENERIC else game.title
    return f"Per turn ({title}): {game.turns.definition}"
