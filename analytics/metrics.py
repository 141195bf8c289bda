"""Experiment metrics as definitions: what each measures, in which unit, which way is good.

A :class:`Metric` is a small frozen object: a name for people, a unit, a direction, how
a tester's many observations become **one value per tester**, the experiment targets it
applies to, the one-line definition the pages and the plan show, and a default
``min_effect`` (the smallest difference worth acting on, in the metric's unit). Its
``values`` function turns a study into that one value per tester; nothing else in
``analytics`` computes experiment metrics.

>>> [m.key for m in metrics_for_target("message:extra_turn")][:3]
['response_time', 'rules_lookups_after', 'wrong_clicks_after']
>>> default_primary("message:extra_turn").key, default_primary("ui:highlight_options").key
('response_time', 'wrong_clicks_per_turn')
>>> metric_by_key("completion").format_effect(-0.125, (-0.3, 0.05))
'−12.5 pp [−30.0, +5.0]'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, cast

import numpy as np
import pandas as pd

from analytics import derive
from analytics.data import QUIZ_COLUMNS, SCORE_COLUMNS, StudyData, require_columns
from analytics.targets import ExperimentTarget, TargetError

Direction = Literal["higher", "lower", "neither"]
TargetKind = Literal["message", "rules", "ui"]
#: ``mean``: a number per tester, compared by means; ``rate``: 0 or 1 per tester.
ValueKind = Literal["mean", "rate"]

#: Workload questionnaires: a lower score is better.
LOWER_IS_BETTER_INSTRUMENTS = frozenset({"tlx", "rtlx", "raw_tlx", "nasa_tlx"})


class MetricError(ValueError):
    """A metric name that does not exist or does not fit an experiment's target."""


@dataclass(frozen=True)
class MetricInputs:
    """What metric functions read: the study, the message key of a ``message:`` target
    (else None), and the scores and quiz frames of ``analytics.data``."""

    data: StudyData
    message_key: str | None
    scores: pd.DataFrame
    quiz: pd.DataFrame


#: A metric's values: one float per tester, indexed by participant_id (testers without
#: any observation are left out, never filled with 0).
ValuesFunction = Callable[[MetricInputs], pd.Series]


@dataclass(frozen=True)
class Metric:
    """One experiment metric (see the module docstring)."""

    key: str
    name: str
    unit: str
    direction: Direction
    per_tester: str
    targets: frozenset[TargetKind]
    definition: str
    min_effect: float
    # not compared or shown: survey metrics get a fresh closure per call
    values: ValuesFunction = field(repr=False, compare=False)
    kind: ValueKind = "mean"
    guardrail: bool = False
    #: Values are multiplied by this for display (shares shown as percentage points).
    display_scale: float = 1.0
    display_unit: str = ""
    digits: int = 1

    @property
    def lower_is_better(self) -> bool:
        return self.direction == "lower"

    @property
    def shown_unit(self) -> str:
        return self.display_unit or self.unit

    def applies_to(self, target: str) -> bool:
        return target_kind(target) in self.targets

    def format_value(self, value: float | None) -> str:
        """A value rounded for people, with its unit: ``'2.4 s'``, ``'85.0%'``."""
        if value is None or not math.isfinite(value):
            return "–"
        # a share is shown in per cent; its differences in percentage points
        unit = "%" if self.shown_unit == "pp" else f" {self.shown_unit}"
        return f"{value * self.display_scale:.{self.digits}f}{unit}".replace("-", "−")

    def format_size(self, difference: float | None) -> str:
        """A size of difference (e.g. ``min_effect``): ``'10.0 pp'``, ``'1.0 s'``."""
        if difference is None or not math.isfinite(difference):
            return "–"
        return f"{difference * self.display_scale:.{self.digits}f} {self.shown_unit}"

    def format_effect(self, effect: float | None,
                      interval: tuple[float | None, float | None]) -> str:
        """An effect and its interval for people: ``'−1.2 s [−2.0, −0.4]'``."""
        if effect is None or not math.isfinite(effect):
            return "–"

        def signed(value: float | None) -> str:
            if value is None or not math.isfinite(value):
                return "–"
            text = f"{value * self.display_scale:+.{self.digits}f}"
            return text.replace("-", "−")

        low, high = interval
        if not all(v is not None and math.isfinite(v) for v in (low, high)):
            # one tester a side, or no spread in either: nothing says how far off it is
            return f"{signed(effect)} {self.shown_unit} (no interval: too few testers)"
        return f"{signed(effect)} {self.shown_unit} [{signed(low)}, {signed(high)}]"

    def describe(self) -> dict[str, object]:
        """The metric's definition as JSON (for the report and the pages)."""
        return {"metric": self.key, "name": self.name, "unit": self.unit,
                "direction": self.direction, "per_tester": self.per_tester,
                "definition": self.definition, "default_min_effect": self.min_effect,
                "guardrail": self.guardrail}


def target_kind(target: str) -> TargetKind:
    """``message``, ``rules`` or ``ui`` from an experiment target
    (:class:`analytics.targets.ExperimentTarget`).

    >>> target_kind("ui:speed"), target_kind("rules")
    ('ui', 'rules')
    """
    try:
        kind = ExperimentTarget.parse(target).kind
    except TargetError:
        raise MetricError(f"unknown experiment target {target!r}: use message:<key>, "
                          "rules or ui:<setting>") from None
    return cast(TargetKind, kind.value)


# --- per-tester value functions -----------------------------------------------------


def _shown(inputs: MetricInputs) -> pd.DataFrame:
    table = derive.messages(inputs.data)
    return table[table["key"] == inputs.message_key]


def _response_time(inputs: MetricInputs) -> pd.Series:
    shown = _shown(inputs)
    seconds = shown["response_ms"].astype(float) / 1000.0
    return seconds[np.isfinite(seconds)].groupby(shown["participant_id"]).median()


def _lookups_after(inputs: MetricInputs) -> pd.Series:
    shown = _shown(inputs)
    return shown["lookups_after"].astype(float).groupby(shown["participant_id"]).mean()


def _after(inputs: MetricInputs, column: str) -> Any:
    """``column`` of :func:`analytics.derive.messages` per showing of the message that
    an input of the tester's followed (one value per showing, however many showings come
    before one turn), grouped by tester."""
    shown = _shown(inputs)
    shown = shown[shown["next_turn_id"] >= 0]
    return pd.to_numeric(shown[column], errors="coerce").groupby(shown["participant_id"])


def _wrong_after(inputs: MetricInputs) -> pd.Series:
    return _after(inputs, "wrong_after").mean().astype(float)


def _think_after(inputs: MetricInputs) -> pd.Series:
    seconds = _after(inputs, "think_ms").median() / 1000.0
    return seconds.dropna().astype(float)


def _wrong_per_turn(inputs: MetricInputs) -> pd.Series:
    turn_table = derive.turns(inputs.data)
    return turn_table["n_wrong"].astype(float).groupby(turn_table["participant_id"]).mean()


def _think_time(inputs: MetricInputs) -> pd.Series:
    turn_table = derive.turns(inputs.data)
    seconds = pd.to_numeric(turn_table["first_ms"], errors="coerce") / 1000.0
    return seconds.dropna().groupby(turn_table["participant_id"]).median()


def _game_length(inputs: MetricInputs) -> pd.Series:
    table = derive.games(inputs.data)
    turns = pd.to_numeric(table["turns"], errors="coerce")
    return turns.dropna().groupby(table["participant_id"]).mean()


def _wins(inputs: MetricInputs) -> pd.Series:
    table = derive.games(inputs.data)
    # The tester's own games: against the computer, or alone (a solo stage). With two
    # human seats a "human won" says nothing of one tester.
    table = table[table["one_human"].astype(bool)]
    won = pd.to_numeric(table["human_won"], errors="coerce")
    return won.dropna().groupby(table["participant_id"]).mean()


#: What "completed" means, on every page, in the plan and on the command line: the one
#: definition (:func:`completed_participants`; the Studies page counts it in SQL).
COMPLETED_DEFINITION = ("Testers who agreed at consent and reached the thank-you page (a "
                        "'done' page event), whatever else they did.")


def completed_participants(data: StudyData) -> set[str]:
    """The study's completed testers (:data:`COMPLETED_DEFINITION`): consented
    participants with a ``page`` event whose ``page`` is ``done``.

    >>> completed_participants(StudyData.empty("s"))
    set()
    """
    pages = derive.props_of(data, "page", ["page"])
    done = set(pages.loc[pages["page"] == "done", "participant_id"].astype(str))
    people = data.participants
    consented = set(people.loc[people["consented_at"].notna(), "participant_id"].astype(str))
    return done & consented


def _completion(inputs: MetricInputs) -> pd.Series:
    data = inputs.data
    ids = pd.Index(data.assignments["participant_id"].astype(str).unique())
    done = completed_participants(data)
    return pd.Series(ids.isin(list(done)).astype(float), index=ids)


def _quiz_share(inputs: MetricInputs) -> pd.Series:
    quiz = inputs.quiz
    require_columns(quiz, QUIZ_COLUMNS, "quiz")
    if quiz.empty:
        return pd.Series(dtype=float)
    return quiz["correct"].astype(float).groupby(quiz["participant_id"]).mean()


def _score_of(instrument: str) -> ValuesFunction:
    def values(inputs: MetricInputs) -> pd.Series:
        scores = inputs.scores
        require_columns(scores, SCORE_COLUMNS, "scores")
        rows = scores[(scores["scale"] == "total") & (scores["phase"] == "post")
                      & (scores["instrument"] == instrument)]
        value = pd.to_numeric(rows["value"], errors="coerce")
        return value.dropna().groupby(rows["participant_id"]).mean()
    return values


_MESSAGE: frozenset[TargetKind] = frozenset({"message"})
_PLAY: frozenset[TargetKind] = frozenset({"rules", "ui"})
_ALL: frozenset[TargetKind] = frozenset({"message", "rules", "ui"})

#: Every fixed metric, in the order pages list them (survey scores are added per study).
METRICS: tuple[Metric, ...] = (
    Metric("response_time", "Response time after the message", "s", "lower",
           "median over the messages shown", _MESSAGE,
           "Seconds from the message appearing to the tester's next action (roll, click, "
           "rules or menu), as each tester's median.", 1.0, _response_time),
    Metric("rules_lookups_after", "Rules lookups after the message", "lookups per message",
           "lower", "mean over the messages shown", _MESSAGE,
           "Times the tester opened the rules between the message and the end of their "
           "next turn (or the next message), per message shown, averaged per tester.", 0.1, _lookups_after,
           digits=2),
    Metric("wrong_clicks_after", "Wrong clicks in the turn after", "per turn", "lower",
           "mean over the messages shown", _MESSAGE,
           "Wrong clicks from the message to the end of the turn of the tester's next "
           "input (their next click, or their next turn's start), averaged per tester.",
           0.2, _wrong_after, guardrail=True, digits=2),
    Metric("think_time_after", "Thinking time in the turn after", "s", "lower",
           "median over the messages shown", _MESSAGE,
           "Seconds the tester thought before their next input after the message, where "
           "it happens: the thinking time of the turn it starts (from the board being "
           "ready to its first click), or the time from the message to a click in the "
           "turn under way; as each tester's median.", 1.0, _think_after),
    Metric("wrong_clicks_per_turn", "Wrong clicks per turn", "per turn", "lower",
           "mean over the tester's turns", _PLAY,
           "Wrong clicks per turn over all of the tester's turns.", 0.1, _wrong_per_turn,
           guardrail=True, digits=2),
    Metric("think_time", "Thinking time per turn", "s", "lower",
           "median over the tester's turns", _PLAY,
           "Seconds from the options appearing to the first click of a turn, as each "
           "tester's median.", 0.5, _think_time),
    Metric("game_length", "Game length", "turns", "neither", "mean over finished games",
           _PLAY, "Turns in a finished game (all seats), averaged per tester.", 5.0,
           _game_length),
    Metric("wins_vs_computer", "Games won", "share", "higher",
           "share of the tester's own finished games", _PLAY,
           "Share of the tester's finished games with one human seat (against the computer, "
           "or alone, as a solo game's stage) that the tester won.",
           0.15, _wins, display_scale=100.0, display_unit="pp", digits=1),
    Metric("completion", "Completion", "share", "higher", "1 if done, else 0", _ALL,
           "Share of testers who reached the end of the study (the 'done' page).", 0.1,
           _completion, kind="rate", guardrail=True, display_scale=100.0,
           display_unit="pp"),
    Metric("quiz_correct", "Quiz answers correct", "share", "higher",
           "share of the tester's quiz items", _ALL,
           "Share of a tester's rules-quiz items answered correctly.", 0.15, _quiz_share,
           display_scale=100.0, display_unit="pp"),
)
_BY_KEY = {metric.key: metric for metric in METRICS}
#: The metrics counted per turn (what a turn is: the game's, analytics.turns).
PER_TURN_METRICS = frozenset({"rules_lookups_after", "wrong_clicks_after", "think_time_after",
                              "wrong_clicks_per_turn", "think_time"})
_DEFAULT_PRIMARY: dict[TargetKind, str] = {"message": "response_time",
                                           "rules": "wrong_clicks_per_turn",
                                           "ui": "wrong_clicks_per_turn"}


def survey_metric(instrument: str) -> Metric:
    """The metric of a questionnaire's post-play total score (``score:<instrument>``).

    >>> survey_metric("tlx").direction, survey_metric("sus").guardrail
    ('lower', True)
    """
    lower = instrument.lower() in LOWER_IS_BETTER_INSTRUMENTS
    shown = instrument.upper().replace("_", " ")
    return Metric(f"score:{instrument}", f"{shown} score", "points",
                  "lower" if lower else "higher", "the tester's post-play total", _ALL,
                  f"The tester's post-play total score on the {shown} "
                  "questionnaire.", 5.0, _score_of(instrument), guardrail=True)


def _quiz_item_of(item: str) -> ValuesFunction:
    def values(inputs: MetricInputs) -> pd.Series:
        quiz = inputs.quiz
        require_columns(quiz, QUIZ_COLUMNS, "quiz")
        rows = quiz[quiz["item"].astype(str) == item]
        return rows["correct"].astype(float).groupby(rows["participant_id"]).mean()
    return values


def quiz_item_metric(item: str) -> Metric:
    """The metric of one rules-quiz item tied to an experiment (``quiz:<item>``): 1 when
    the tester answered it correctly, else 0.

    >>> quiz_item_metric("capture").kind, quiz_item_metric("capture").direction
    ('rate', 'higher')
    """
    return Metric(f"quiz:{item}", f"Quiz item {item} correct", "share", "higher",
                  "1 if answered correctly, else 0", _ALL,
                  f"Share of testers who answered the rules-quiz item {item} correctly.",
                  0.15, _quiz_item_of(item), kind="rate", display_scale=100.0,
                  display_unit="pp")


TROUBLE_PREFIX = "trouble:"

#: The confusion-point families whose points have occasions per tester (a trouble
#: metric can be made; :func:`analytics.confusion.point_occasions`).
PER_TESTER_FAMILIES = ("rule", "message", "survey")


def _trouble_of(point: str) -> ValuesFunction:
    def values(inputs: MetricInputs) -> pd.Series:
        # imported here: the confusion analysis brings scipy and statsmodels, which a
        # study's settings check (check_primary, in every CLI call) never needs
        from analytics.confusion import point_occasions

        rows = point_occasions(inputs.data, point)
        if rows.empty:
            return pd.Series(dtype=float)
        return rows["trouble"].astype(float).groupby(rows["participant_id"]).max()
    return values


def trouble_metric(point: str) -> Metric:
    """The metric of one confusion point (``trouble:<point>``, e.g.
    ``trouble:rule:walled``): 1 when the tester had trouble on at least one of the
    point's occasions, else 0; testers without an occasion are left out. A follow-up
    experiment's primary metric (:mod:`analytics.remedies`): the share of testers who
    hit the point, lower is better.

    >>> m = trouble_metric("rule:walled")
    >>> m.key, m.kind, m.direction
    ('trouble:rule:walled', 'rate', 'lower')
    >>> trouble_metric("fact:7x8")
    Traceback (most recent call last):
    ...
    analytics.metrics.MetricError: unknown metric 'trouble:fact:7x8': a trouble rate per tester is known for points rule:<reason>, message:<key> and survey:<item>
    """
    family, _, name = point.partition(":")
    if family not in PER_TESTER_FAMILIES or not name:
        raise MetricError(f"unknown metric {TROUBLE_PREFIX + point!r}: a trouble rate per "
                          "tester is known for points rule:<reason>, message:<key> and "
                          "survey:<item>")
    return Metric(f"{TROUBLE_PREFIX}{point}", f"Testers troubled by {point}", "share",
                  "lower", "1 if troubled on any of its occasions, else 0", _ALL,
                  f"Share of testers, among those who met the confusion point {point} at "
                  "least once, who had trouble on at least one of its occasions (the "
                  "Confusion page's occasions and troubles).", 0.1, _trouble_of(point),
                  kind="rate", display_scale=100.0, display_unit="pp")


def _learning_gain(inputs: MetricInputs) -> pd.Series:
    from analytics.learning import learning_gain_values  # it reads no metric

    return learning_gain_values(inputs.data)


#: The fluency probe's gain (analytics.learning): a primary metric on request, never a
#: secondary one (a study without the probe has no value of it).
LEARNING_GAIN = Metric(
    "learning_gain", "Learning gain", "facts/min", "higher", "after − before play", _ALL,
    "Correct times-table facts per minute on the fluency probe after play minus before "
    "play (parallel forms), per tester.", 2.0, _learning_gain)


def metric_by_key(key: str) -> Metric:
    """The metric named ``key`` (``score:<instrument>`` for survey scores).

    >>> metric_by_key("nope")
    Traceback (most recent call last):
    ...
    analytics.metrics.MetricError: unknown metric 'nope'
    """
    if key.startswith("score:") and len(key) > len("score:"):
        return survey_metric(key.split(":", 1)[1])
    if key.startswith("quiz:") and len(key) > len("quiz:"):
        return quiz_item_metric(key.split(":", 1)[1])
    if key.startswith(TROUBLE_PREFIX):
        return trouble_metric(key[len(TROUBLE_PREFIX):])
    if key == LEARNING_GAIN.key:
        return LEARNING_GAIN
    if key not in _BY_KEY:
        raise MetricError(f"unknown metric {key!r}")
    return _BY_KEY[key]


def metrics_for_target(target: str, instruments: Iterable[str] = (),
                       quiz_items: Iterable[str] = ()) -> list[Metric]:
    """The metrics an experiment with this target is measured on, primary default first
    among its own kind, then the quiz items the designer tied to the experiment
    (``quiz_items``), then survey scores of the given ``instruments``."""
    kind = target_kind(target)
    fixed = [metric for metric in METRICS if kind in metric.targets]
    return (fixed + [quiz_item_metric(item) for item in dict.fromkeys(quiz_items)]
            + [survey_metric(name) for name in sorted(set(instruments))])


def default_primary(target: str) -> Metric:
    """The metric a verdict comes from when the designer chose none."""
    return _BY_KEY[_DEFAULT_PRIMARY[target_kind(target)]]


def primary_choices(target: str) -> list[str]:
    """Metric keys a designer may choose as primary for ``target`` (those with a
    direction; survey scores as ``score:<instrument>`` are also accepted).

    >>> primary_choices("rules")[:2]
    ['wrong_clicks_per_turn', 'think_time']
    """
    return [m.key for m in metrics_for_target(target) if m.direction != "neither"] + [
        LEARNING_GAIN.key]


def check_primary(target: str, key: str | None) -> Metric:
    """The primary metric of an experiment, or :class:`MetricError` saying why not.

    >>> check_primary("rules", "response_time")
    Traceback (most recent call last):
    ...
    analytics.metrics.MetricError: primary metric 'response_time' does not fit target 'rules': choose one of wrong_clicks_per_turn, think_time, wins_vs_computer, completion, quiz_correct, learning_gain, score:<questionnaire>, quiz:<item>, trouble:<point>
    """
    if key is None:
        return default_primary(target)
    choices = primary_choices(target)
    try:
        metric = metric_by_key(key)
    except MetricError:
        metric = None
    if metric is None or not metric.applies_to(target) or metric.direction == "neither":
        raise MetricError(f"primary metric {key!r} does not fit target {target!r}: choose "
                          f"one of {', '.join(choices)}, score:<questionnaire>, "
                          "quiz:<item>, trouble:<point>")
    return metric
