"""What games' analytics plug-ins (:class:`analytics.game_analytics.GameAnalytics`) build
their reports from alike, written once: the cells of a report table (a share, a
95 % interval) and the chart of refused clicks by the engine's reason.

A game's plug-in object itself (:func:`game_analytics`): named by its folder, its remedies
read from its ``remedies.yaml``, its ``rule:<reason>`` points defined and their occasions
said alike. Also the words every game's definitions end alike: a board game's turns, whose thinking
time starts when the board is ready (:func:`board_turns`), and the occasions of its
points, after which come the core's message and question points (:func:`game_occasions`).

And the interval of a share in a game's tables, NaN without data (:func:`wilson`).

A game's ``analytics/games/<game>/__init__.py`` keeps only its own data (its turns, its
sections' rows and columns, its captions and fixes) and takes these for the rest.

>>> percent(0.256), interval((0.12, 0.4)), interval((None, 0.4))
('26%', '12%–40%', '–')
>>> refused_by_reason_chart("reasons").name, refused_by_reason_chart("reasons").group
('Refused clicks by reason', 'wrong')
"""

from __future__ import annotations

import math
from typing import Any

import plotly.graph_objects as go

from analytics import confusion
from analytics import figures as core_figures
from analytics.data import StudyData
from analytics.game_analytics import Chart, GameAnalytics
from analytics.remedies import read_remedies
from analytics.severity import MESSAGE_OCCASIONS
from analytics.stats import wilson_interval
from analytics.turns import TurnRule

__all__ = ["REFUSED_BY_REASON", "THINKING_FROM_BOARD", "board_turns", "game_analytics", "interval",
           "game_occasions", "percent", "refused_by_reason", "refused_by_reason_chart",
           "wilson"]

#: The title of the chart of refused clicks by reason.
REFUSED_BY_REASON = "Refused clicks by reason"
#: Where a board game's thinking time starts, in its turns' definition.
THINKING_FROM_BOARD = "Thinking time: from the board being ready to the turn's first click."


def game_analytics(package: str, title: str, *, rule_definition: str, occasions: str,
                   **parts: Any) -> GameAnalytics:
    """The analytics plug-in of the game whose package is ``package``
    (``analytics.games.<game>``, a module's ``__name__``): named ``<game>``, titled
    ``title``, with the remedies of the package's ``remedies.yaml``
    (:func:`analytics.remedies.read_remedies`), ``rule_definition`` as the definition of
    its ``rule:<reason>`` points, its own ``occasions`` before the core's
    (:func:`game_occasions`), and the game's other ``parts`` (the fields of
    :class:`analytics.game_analytics.GameAnalytics`).

    >>> made = game_analytics("analytics.games", "Games", rule_definition="d",
    ...                       occasions="a tile placed")
    >>> made.name, made.definitions, made.occasions, made.remedies
    ('games', {'rule': 'd'}, 'a tile placed, a showing of the message, an answer to the question', ())
    """
    return GameAnalytics(name=package.rpartition(".")[2], title=title,
                         remedies=read_remedies(package),
                         definitions={"rule": rule_definition},
                         occasions=game_occasions(occasions), **parts)


def board_turns(acts: tuple[str, ...], definition: str,
                breaks: tuple[str, ...] = ()) -> TurnRule:
    """The turns of a game whose decisions are its ``acts`` (after ``breaks`` a new turn
    starts even by the same seat), defined by ``definition`` and timed from the board
    being ready (:data:`THINKING_FROM_BOARD`).

    >>> rule = board_turns(("place",), "A turn is the tester's clicks for one tile.")
    >>> rule.acts, rule.definition
    (('place',), "A turn is the tester's clicks for one tile. Thinking time: from the board being ready to the turn's first click.")
    """
    return TurnRule(acts=acts, breaks=breaks, definition=f"{definition} {THINKING_FROM_BOARD}")


def game_occasions(own: str) -> str:
    """The moments a game's points could happen, in the severity definition's words: the
    game's own (``own``: its rules' refusals, its families), then the core's message and
    question points (:data:`analytics.severity.MESSAGE_OCCASIONS`).

    >>> game_occasions("a tile the tester placed")
    'a tile the tester placed, a showing of the message, an answer to the question'
    """
    return f"{own}, {MESSAGE_OCCASIONS}"


def wilson(successes: int, n: int) -> tuple[float, float]:
    """95 % Wilson interval of a share in a game's table
    (:func:`analytics.stats.wilson_interval`), NaNs without data (the table shows none).

    >>> [round(x, 3) for x in wilson(8, 10)], wilson(0, 0)
    ([0.49, 0.943], (nan, nan))
    """
    if n <= 0:
        return (math.nan, math.nan)
    return wilson_interval(successes, n)


def percent(value: Any) -> str:
    """A share as a report table shows it, a whole percentage; ``–`` when there is none.

    >>> percent(0.5), percent(None)
    ('50%', '–')
    """
    return "–" if value is None else f"{value:.0%}"


def interval(value: Any, spec: str = ".0%", between: str = "–") -> str:
    """A ``(low, high)`` interval as a report table shows it, both ends in the format
    ``spec`` (shares by default) with ``between`` between them; ``–`` when either end is
    missing.

    >>> interval((0.05, 0.25)), interval((1200.0, 3400.5), ",.0f"), interval((0.1, None))
    ('5%–25%', '1,200–3,400', '–')
    >>> interval((0.05, 0.25), between=" to ")
    '5% to 25%'
    """
    low, high = value
    if low is None or high is None:
        return "–"
    return f"{low:{spec}}{between}{high:{spec}}"


def refused_by_reason(data: StudyData) -> go.Figure:
    """The testers' clicks the rules refused, by the engine's reason (bars).

    >>> refused_by_reason(StudyData.empty("s")).layout.title.text
    'Refused clicks by reason'
    """
    figure = core_figures.wrong_class_figure(confusion.wrong_clicks_by_reason(data),
                                             column="reason")
    figure.update_layout(title=REFUSED_BY_REASON)
    return figure


def refused_by_reason_chart(key: str) -> Chart:
    """The chart of :func:`refused_by_reason` among the wrong-click charts at the top of
    the confusion page, named ``key`` on the pages."""
    return Chart(REFUSED_BY_REASON, refused_by_reason, key, group="wrong")
