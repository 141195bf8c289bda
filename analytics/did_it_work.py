"""Did the fix work? A study family's confusion points followed across its versions
(issue 26, item 3): pure functions, data in, numbers and a figure out.

A study family is a study's versions in order (1, 2, 3…); a follow-up version carries an
experiment whose ``targets`` names the confusion point it was made to fix. For each point
followed, every version is one **group** of testers; a version running an experiment
that targets the point counts each of its arms apart (:func:`groups_of`, the assignment
of :func:`analytics.experiments.participant_variants`; testers it assigned no arm are
left out there).

- **Trouble rate** of a group: the share of its testers who met the point who had trouble
  on at least one of its occasions, the primary metric of a follow-up experiment
  (:func:`analytics.metrics.trouble_metric`), with its 95 % Wilson interval
  (:func:`analytics.stats.wilson_interval`).
- **Change** from the *before* (the first version; when the first version itself runs the
  experiment, its first arm, today's game) to each later group: after − before, with the
  always-valid 95 % interval the Experiments page decides by
  (:func:`analytics.stats.sequential_test`, for rates), so the designer may look as often
  as they like while testers come in. Each change is its own comparison at 5 %.
- **Verdict** (:class:`Verdict`, each with its definition in :data:`DEFINITIONS`): fixed,
  better, no change, worse, too few testers yet (:func:`decide_change`).

Inputs and results are small frozen values (:class:`GroupRate`, :class:`Change`,
:class:`PointReport`), one function per step, as GrowthBook's gbstats does; a rate is
carried as counts (testers who met the point, of them troubled), which is all a share's
test reads.

>>> before = GroupRate(Group(1), met=40, troubled=20)
>>> after = GroupRate(Group(2, "remedy"), met=40, troubled=6)
>>> change = compare(before, after)
>>> change.verdict, change.verdict.value
(<Verdict.BETTER: 'better'>, 'better')
>>> round(change.effect, 2), [round(x, 2) for x in change.interval]
(-0.35, [-0.65, -0.05])
>>> after.label, [round(x, 3) for x in after.interval]
('v2 · remedy', [0.071, 0.291])
>>> settings_changes({"speed": 2, "experiments": []},
...                  {"speed": 3, "experiments": [{"key": "fix_walled", "variants":
...                   ["today", "remedy"], "target": "ui:highlight_options"}]})
['Experiment fix_walled added (ui:highlight_options: today, remedy).', 'Speed: 2 → 3.']
"""

from __future__ import annotations

import enum
import functools
import html
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from analytics.data import StudyData, empty_quiz, empty_scores
from analytics.experiments import participant_variants
from analytics.metrics import MetricInputs, trouble_metric
from analytics.remedies import RemedyError, always_valid_arm_size
from analytics.stats import ALPHA, SequentialComparison, sequential_test, wilson_interval

__all__ = ["DEFINITIONS", "FIXED_BELOW", "Change", "DidItWorkError", "Group",
           "GroupRate", "PointReport", "Verdict", "compare", "decide_change",
           "did_it_work", "enough_testers", "follow_point", "groups_of", "settings_changes",
           "targeting_experiment",
           "trajectory_figure", "trouble_values"]

#: "Fixed": the after-rate's 95 % Wilson interval reaches no higher than this share.
FIXED_BELOW = 0.05


class DidItWorkError(ValueError):
    """A family that cannot be compared (one line saying why)."""


class Verdict(enum.Enum):
    """What a later version (or arm) did to a point's trouble rate; ``value``: the
    words a page shows, :attr:`definition`: the one-line definition beside them."""

    FIXED = "fixed"
    BETTER = "better"
    NO_CHANGE = "no change"
    WORSE = "worse"
    TOO_FEW = "too few testers yet"

    @property
    def definition(self) -> str:
        """The verdict's definition (:data:`DEFINITIONS`).

        >>> Verdict.WORSE.definition.startswith("Worse:")
        True
        """
        return DEFINITIONS[self.value]


#: One line per verdict and per number shown (the family's dashboard and the plan).
DEFINITIONS = {
    "fixed": "Fixed: the change's always-valid 95 % interval lies wholly below 0 (fewer "
             "testers troubled than before) and the 95 % Wilson interval of the rate "
             f"after reaches no higher than {FIXED_BELOW:.0%} (at most about one tester "
             "in twenty still troubled).",
    "better": "Better: the always-valid 95 % interval of the change (after − before) lies "
              "wholly below 0: fewer testers troubled than before, however often you "
              "looked.",
    "no change": "No change: the always-valid 95 % interval of the change contains 0 "
                 "although both sides have at least the testers needed (see 'enough'): "
                 "a fall to half of the rate before would most likely have shown.",
    "worse": "Worse: the always-valid 95 % interval of the change lies wholly above 0: "
             "more testers troubled than before.",
    "too few testers yet": "Too few testers yet: the interval of the change contains 0 "
                           "and a side has fewer testers who met the point than needed "
                           "(see 'enough'), or fewer than two (no interval yet).",
    "rate": "Trouble rate: the share of the testers who met the point (at least one of "
            "its occasions) who had trouble on at least one of its occasions, with its "
            "95 % Wilson interval.",
    "change": "Change: the rate after minus the rate before (the first version; when it "
              "ran the experiment, its first arm), in percentage points, with an "
              "always-valid 95 % interval (a confidence sequence, as on the Experiments "
              "page): it stays valid however often you look while testers come in.",
    "enough": "Testers needed: testers who met the point on each side for an 80 % chance "
              "that the always-valid interval finds a fall to half of the rate before "
              "(the testers per arm the follow-up was sized for). None when the rate "
              "before is 0: there is nothing to halve, and 'no change' is not said.",
}


@dataclass(frozen=True)
class Group:
    """Testers of one version, or of one arm of it (``arm``: the variant's name).

    >>> Group(2).label, Group(2, "remedy").label
    ('v2', 'v2 · remedy')
    """

    version: int
    arm: str | None = None

    @property
    def label(self) -> str:
        return f"v{self.version}" + ("" if self.arm is None else f" · {self.arm}")


@dataclass(frozen=True)
class GroupRate:
    """A group's testers who met the point (``met``) and of them how many had trouble
    on it (``troubled``).

    >>> GroupRate(Group(1), 0, 0).rate
    nan
    """

    group: Group
    met: int
    troubled: int

    def __post_init__(self) -> None:
        if not 0 <= self.troubled <= self.met:
            raise DidItWorkError(f"{self.group.label}: {self.troubled} troubled of "
                                 f"{self.met} testers who met the point")

    @property
    def label(self) -> str:
        return self.group.label

    @property
    def rate(self) -> float:
        """The trouble rate (NaN when nobody met the point)."""
        return self.troubled / self.met if self.met else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """Its 95 % Wilson interval ((0, 1) when nobody met the point)."""
        return wilson_interval(self.troubled, self.met)

    def values(self) -> np.ndarray:
        """One value per tester who met the point: 1 troubled, 0 not."""
        return np.repeat([1.0, 0.0], [self.troubled, self.met - self.troubled])

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {"group": self.label, "version": self.group.version, "arm": self.group.arm,
                "met": self.met, "troubled": self.troubled, "rate": _num(self.rate),
                "interval": [low, high]}


@dataclass(frozen=True)
class Change:
    """From ``before`` to ``after``: the always-valid comparison (after − before), the
    testers each side needs (``enough``, :func:`enough_testers`) and the verdict."""

    before: GroupRate
    after: GroupRate
    comparison: SequentialComparison
    enough: int | None
    verdict: Verdict

    @property
    def effect(self) -> float:
        return self.comparison.effect

    @property
    def interval(self) -> tuple[float, float]:
        """The always-valid 95 % interval, within ±1 (no difference of shares lies
        beyond; the verdict reads it unclipped, which clipping cannot move)."""
        low, high = self.comparison.ci95
        return _clip(low), _clip(high)

    def said(self) -> str:
        """The change in one sentence (no final stop), for a page or the plan.

        >>> compare(GroupRate(Group(1), 40, 20), GroupRate(Group(2), 40, 6)).said()
        'v2: 15 % troubled (95 % Wilson 7 % to 29 %, 40 testers) against 50 % in v1: −35 points (always-valid 95 % interval −65 to −5): better'
        """
        low, high = self.after.interval
        if self.after.met == 0:
            rate = "nobody met the point yet"
        else:
            rate = (f"{_pct(self.after.rate)} % troubled (95 % Wilson {_pct(low)} % to "
                    f"{_pct(high)} %, {self.after.met} testers)")
        before = ("nobody before" if self.before.met == 0
                  else f"{_pct(self.before.rate)} % in {self.before.label}")
        if math.isfinite(self.effect) and all(map(math.isfinite, self.interval)):
            lo, hi = self.interval
            shift = (f"{_signed(self.effect)} points (always-valid 95 % interval "
                     f"{_signed(lo)} to {_signed(hi)})")
        else:
            shift = "no interval yet"
        return f"{self.after.label}: {rate} against {before}: {shift}: {self.verdict.value}"

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {"before": self.before.label, "after": self.after.label,
                "effect": _num(self.effect), "interval": [_num(low), _num(high)],
                "method": "always-valid", "enough": self.enough,
                "verdict": self.verdict.value, "definition": self.verdict.definition,
                "said": self.said()}


@dataclass(frozen=True)
class PointReport:
    """One point followed across a family: every group's rate (the before first) and
    the change from the before to each later group."""

    point: str
    rates: tuple[GroupRate, ...]
    changes: tuple[Change, ...]

    @property
    def before(self) -> GroupRate | None:
        return self.rates[0] if self.rates else None

    def to_json(self) -> dict[str, Any]:
        return {"point": self.point, "rates": [r.to_json() for r in self.rates],
                "changes": [c.to_json() for c in self.changes]}


def _num(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None


def _clip(value: float) -> float:
    return value if math.isnan(value) else min(1.0, max(-1.0, value))


def _pct(share: float) -> str:
    return f"{share * 100:.0f}"


def _signed(share: float) -> str:
    return f"{share * 100:+.0f}".replace("-", "−")


# --- one function per step -------------------------------------------------------------


def enough_testers(before: GroupRate) -> int | None:
    """Testers who met the point each side needs before "no change" may be said: those
    that give the always-valid interval an 80 % chance to find a fall to half of the
    rate before (:func:`analytics.remedies.always_valid_arm_size`, the testers per arm
    the follow-up was sized for). None when the rate before is 0 or unknown (nothing to
    halve) or more than 100,000 would be needed.

    >>> enough_testers(GroupRate(Group(1), 40, 12))
    264
    >>> enough_testers(GroupRate(Group(1), 40, 0)) is None
    True
    """
    return _enough(before.troubled, before.met)


@functools.lru_cache(maxsize=4096)
def _enough(troubled: int, met: int) -> int | None:
    # cached: the sizing solves for a power twice (milliseconds), and a family's page,
    # plan and calibration ask it of the same few counts again and again
    if troubled <= 0 or met <= 0:
        return None
    rate = troubled / met
    try:
        return always_valid_arm_size(rate, rate / 2)
    except RemedyError:
        return None


def decide_change(comparison: SequentialComparison, before: GroupRate, after: GroupRate,
                  enough: int | None) -> Verdict:
    """The verdict of a change (:data:`DEFINITIONS`): fixed, better, worse, no change or
    too few testers yet, in that order of checks.

    >>> flat = sequential_test([0.0, 1.0] * 50, [0.0, 1.0] * 50, "rate")
    >>> decide_change(flat, GroupRate(Group(1), 100, 50), GroupRate(Group(2), 100, 50), 40)
    <Verdict.NO_CHANGE: 'no change'>
    >>> decide_change(flat, GroupRate(Group(1), 100, 50), GroupRate(Group(2), 100, 50), 400)
    <Verdict.TOO_FEW: 'too few testers yet'>
    """
    low, high = comparison.ci95
    if not (math.isfinite(low) and math.isfinite(high)):
        return Verdict.TOO_FEW
    if high < 0:
        return Verdict.FIXED if after.interval[1] <= FIXED_BELOW else Verdict.BETTER
    if low > 0:
        return Verdict.WORSE
    if enough is not None and min(before.met, after.met) >= enough:
        return Verdict.NO_CHANGE
    return Verdict.TOO_FEW


def compare(before: GroupRate, after: GroupRate, alpha: float = ALPHA) -> Change:
    """After − before with the always-valid interval of the Experiments page
    (:func:`analytics.stats.sequential_test` on the testers' 0/1 values, for rates) and
    its verdict (:func:`decide_change`).

    >>> compare(GroupRate(Group(1), 1, 1), GroupRate(Group(2), 5, 0)).verdict.value
    'too few testers yet'
    """
    comparison = _rate_comparison(before.troubled, before.met, after.troubled, after.met,
                                  alpha)
    enough = enough_testers(before)
    return Change(before, after, comparison, enough,
                  decide_change(comparison, before, after, enough))


@functools.lru_cache(maxsize=65_536)
def _rate_comparison(troubled_before: int, met_before: int, troubled_after: int,
                     met_after: int, alpha: float) -> SequentialComparison:
    """:func:`analytics.stats.sequential_test` of two groups' 0/1 values, which their
    counts fix: computed once per four counts (a family's looks, and a calibration's
    thousands of families, meet the same counts again and again)."""
    return sequential_test(GroupRate(Group(1), met_before, troubled_before).values(),
                           GroupRate(Group(2), met_after, troubled_after).values(), "rate",
                           alpha=alpha)


def trouble_values(data: StudyData, point: str) -> pd.Series:
    """Per tester who met ``point`` in ``data``: 1.0 when troubled on one of its
    occasions, else 0.0 (the trouble metric, :func:`analytics.metrics.trouble_metric`;
    a point of another family than rule, message or survey raises its
    :class:`analytics.metrics.MetricError`).

    >>> trouble_values(StudyData.empty("s"), "rule:walled").empty
    True
    """
    inputs = MetricInputs(data, None, empty_scores(), empty_quiz())
    values = trouble_metric(point).values(inputs)
    values.index = values.index.astype(str)
    return values.astype(float)


def _targets(experiment: Mapping[str, Any]) -> tuple[str, ...]:
    targets = experiment.get("targets")
    if isinstance(targets, str):
        return (targets,)
    if isinstance(targets, list | tuple):
        return tuple(str(t) for t in targets)
    return ()


def targeting_experiment(data: StudyData, point: str) -> Mapping[str, Any] | None:
    """The study's experiment whose ``targets`` names ``point`` (the first), if any.

    >>> data = StudyData.empty("s")
    >>> data.study["experiments"] = [{"key": "fu", "variants": ["a", "b"],
    ...                               "targets": "rule:walled"}]
    >>> targeting_experiment(data, "rule:walled")["key"], targeting_experiment(data, "x")
    ('fu', None)
    """
    for experiment in data.study.get("experiments") or []:
        if isinstance(experiment, Mapping) and point in _targets(experiment):
            return experiment
    return None


def groups_of(version: int, data: StudyData, point: str) -> list[GroupRate]:
    """The groups of one version for ``point``: the whole version, or, when it runs an
    experiment targeting the point, each of its arms in the experiment's order (testers
    without an arm left out).

    >>> [g.label for g in groups_of(3, StudyData.empty("s"), "rule:walled")]
    ['v3']
    """
    values = trouble_values(data, point)
    experiment = targeting_experiment(data, point)
    if experiment is None:
        return [GroupRate(Group(version), len(values), int(values.sum()))]
    assigned = participant_variants(data, str(experiment.get("key")))
    assigned.index = assigned.index.astype(str)
    variants = experiment.get("variants") or []
    names = list(dict.fromkeys([str(v) for v in variants] +
                               sorted(assigned.astype(str).unique())))
    arm = assigned.reindex(values.index)
    return [GroupRate(Group(version, name), int((arm == name).sum()),
                      int(values[arm == name].sum())) for name in names]


def follow_point(point: str, groups: Sequence[GroupRate], alpha: float = ALPHA
                 ) -> PointReport:
    """One point across its groups in order: the first is the before, each later one
    is compared with it (:func:`compare`).

    >>> report = follow_point("rule:x", [GroupRate(Group(1), 80, 40),
    ...                                  GroupRate(Group(2), 80, 0)])
    >>> [c.verdict.value for c in report.changes]
    ['fixed']
    """
    if not groups:
        return PointReport(point, (), ())
    before = groups[0]
    return PointReport(point, tuple(groups),
                       tuple(compare(before, after, alpha) for after in groups[1:]))


def did_it_work(versions: Iterable[tuple[int, StudyData]], points: Sequence[str],
                alpha: float = ALPHA) -> list[PointReport]:
    """Each of ``points`` followed across a family's ``versions`` (``(version, data)``
    in any order; sorted by version): per point its groups (:func:`groups_of`), the
    before (the first version's whole, or its first arm when it runs the point's
    experiment) and the change to each later group. A version number given twice
    raises :class:`DidItWorkError`.

    >>> [r.point for r in did_it_work([(1, StudyData.empty("a")), (2, StudyData.empty("b"))],
    ...                               ["rule:walled"])]
    ['rule:walled']
    """
    ordered = sorted(versions, key=lambda pair: pair[0])
    numbers = [number for number, _ in ordered]
    if len(set(numbers)) != len(numbers):
        raise DidItWorkError(f"a family's versions are each given once, got {numbers}")
    reports = []
    for point in dict.fromkeys(points):
        groups = [group for number, data in ordered for group in groups_of(number, data, point)]
        reports.append(follow_point(point, groups, alpha))
    return reports


# --- the figure ------------------------------------------------------------------------

_COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7", "#F0E442",
            "#000000"]  # Okabe–Ito, as analytics.figures


def trajectory_figure(reports: Sequence[PointReport], top: int = 5,
                      labels: Mapping[str, str] | None = None) -> go.Figure:
    """The trouble rate of the first ``top`` points (the order given: most severe first)
    across the family's versions and arms, one line per point, 95 % Wilson intervals as
    error bars; a group where nobody met the point is a gap. ``labels``: a point's name
    in words (default: its id).

    >>> fig = trajectory_figure([follow_point("rule:x", [GroupRate(Group(1), 10, 5),
    ...                                                   GroupRate(Group(2), 0, 0)])])
    >>> fig.data[0].y, fig.layout.xaxis.title.text
    ((50.0, None), 'Version (and arm)')
    """
    shown = list(reports)[:max(top, 0)]
    # by version, a whole version before its arms, arms in their experiment's order
    seen = dict.fromkeys(rate.group for report in shown for rate in report.rates)
    order = sorted(seen, key=lambda group: (group.version, group.arm is not None))
    x = [group.label for group in order]
    fig = go.Figure()
    for number, report in enumerate(shown):
        by_group = {rate.group: rate for rate in report.rates}
        ys: list[float | None] = []
        ups: list[float] = []
        downs: list[float] = []
        hover = []
        for group in order:
            rate = by_group.get(group)
            if rate is None or rate.met == 0:
                ys.append(None)
                ups.append(0.0)
                downs.append(0.0)
                hover.append("nobody met the point")
                continue
            low, high = rate.interval
            ys.append(rate.rate * 100)
            ups.append((high - rate.rate) * 100)
            downs.append((rate.rate - low) * 100)
            hover.append(f"{rate.troubled} of {rate.met} testers troubled "
                         f"(95 % Wilson {_pct(low)} % to {_pct(high)} %)")
        name = (labels or {}).get(report.point, report.point)
        fig.add_trace(go.Scatter(
            x=x, y=ys, mode="lines+markers", name=html.escape(name), hovertext=hover,
            line={"color": _COLOURS[number % len(_COLOURS)]}, connectgaps=False,
            error_y={"type": "data", "symmetric": False, "array": ups,
                     "arrayminus": downs}))
    fig.update_layout(
        title="Did the fix work? Trouble rate of the top confusion points by version",
        xaxis_title="Version (and arm)", yaxis_title="Testers troubled (% of those who "
        "met the point)", yaxis_range=[0, 100], colorway=_COLOURS,
        margin={"l": 60, "r": 20, "t": 60, "b": 50})
    fig.update_xaxes(type="category", categoryorder="array", categoryarray=x)
    if not shown or not order:
        fig.add_annotation(text="No versions or points to follow yet", showarrow=False,
                           xref="paper", yref="paper", x=0.5, y=0.5)
    return fig


# --- what changed since the previous version ------------------------------------------

#: Keys of a study's settings that name it rather than set anything for testers.
_NOT_SETTINGS = frozenset({"study_id", "title", "family", "version", "experiments",
                           "rules", "created_at", "updated_at", "status"})


def _words(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "none"
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def _setting_name(key: str) -> str:
    return key.replace("_", " ").capitalize()


def _rule_changes(before: Any, after: Any, path: str = "Rules") -> list[str]:
    """What differs between two rules (a preset's name or an object of options).

    >>> _rule_changes({"walls": True, "mills": 3}, {"walls": False, "mills": 3, "x": 1})
    ['Rules › walls: on → off.', 'Rules › x: none → 1.']
    >>> _rule_changes("standard", {"base": "standard"})
    ['Rules: standard → {"base": "standard"}.']
    """
    if before == after:
        return []
    if isinstance(before, dict) and isinstance(after, dict):
        found = []
        for key in dict.fromkeys([*before, *after]):
            found += _rule_changes(before.get(key), after.get(key), f"{path} › {key}")
        return found
    return [f"{path}: {_words(before)} → {_words(after)}."]


def _experiment_words(experiment: Mapping[str, Any]) -> str:
    variants = experiment.get("variants") or []
    return (f"{experiment.get('target') or 'no target'}: "
            f"{', '.join(str(v) for v in variants) or 'no variants'}")


def settings_changes(previous: Mapping[str, Any], current: Mapping[str, Any]) -> list[str]:
    """The differences of settings from a version's study settings (``previous``, a
    plain dict as the exchange format's ``study`` record) to the next one's
    (``current``), in words: experiments added, removed or changed (by key), the rules
    (a preset or each option), then every other setting (display settings, seats,
    surveys…). Names of the study (id, title, family, version) are not settings.

    >>> settings_changes({"rules": "standard"}, {"rules": "standard"})
    []
    >>> settings_changes({"experiments": [{"key": "a", "variants": ["x", "y"],
    ...     "target": "rules"}], "highlight_options": False},
    ...     {"experiments": [{"key": "a", "variants": ["x", "z"], "target": "rules"}],
    ...      "highlight_options": True})
    ['Experiment a changed: variants x, y → x, z.', 'Highlight options: off → on.']
    """
    found: list[str] = []
    old = {str(e.get("key")): e for e in previous.get("experiments") or []
           if isinstance(e, Mapping)}
    new = {str(e.get("key")): e for e in current.get("experiments") or []
           if isinstance(e, Mapping)}
    for key, experiment in new.items():
        if key not in old:
            aimed = _targets(experiment)
            found.append(f"Experiment {key} added ({_experiment_words(experiment)})"
                         + (f", made to fix {', '.join(aimed)}" if aimed else "") + ".")
        elif experiment != old[key]:
            parts = []
            for field in dict.fromkeys([*old[key], *experiment]):
                was, now = old[key].get(field), experiment.get(field)
                if was != now:
                    shown = [", ".join(map(str, v)) if isinstance(v, list) else _words(v)
                             for v in (was, now)]
                    parts.append(f"{field.replace('_', ' ')} {shown[0]} → {shown[1]}")
            found.append(f"Experiment {key} changed: {'; '.join(parts)}.")
    found += [f"Experiment {key} removed ({_experiment_words(e)})." for key, e in old.items()
              if key not in new]
    found += _rule_changes(previous.get("rules"), current.get("rules"))
    for key in dict.fromkeys([*previous, *current]):
        if key in _NOT_SETTINGS or previous.get(key) == current.get(key):
            continue
        found.append(f"{_setting_name(str(key))}: {_words(previous.get(key))} → "
                     f"{_words(current.get(key))}.")
    return found
