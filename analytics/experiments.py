"""A/B experiments: one primary metric decides, secondaries are shown, guardrails warn.

Metrics are the definitions of :mod:`analytics.metrics` (one value per tester each). For
every experiment:

- **Primary metric** (the designer's ``primary_metric``, else the target's default;
  a follow-up experiment's is its confusion point's trouble rate, ``trouble:<point>``,
  :func:`analytics.metrics.trouble_metric`, the share of the testers who met the point
  who had trouble on it):
  treatment − control with an *always-valid* 95 % interval — the asymptotic confidence
  sequence of Waudby-Smith et al. (2023), the method of GrowthBook's sequential testing
  (:func:`analytics.stats.sequential_test`). It stays valid however often the designer
  looks, so a daily look does not inflate false "better" verdicts.
- **Verdict** (the contract's four words), from the primary alone:

  - ``"<variant> better"`` when the interval excludes 0;
  - ``"no difference"`` only when the interval lies inside ±``min_effect``
    (equivalence: any difference is smaller than the smallest worth acting on);
  - ``"too few participants"`` otherwise, with the testers per variant the interval
    needs for 80 % power at ``min_effect`` given the spread observed
    (:func:`analytics.stats.sequential_needed_n`).

  With more than two variants the control is compared with the variant most likely
  best, at α / (variants − 1) (Bonferroni). :mod:`analytics.verdicts` says the verdict
  in one plain sentence ("No change worth acting on" for a "better" whose difference is
  smaller than ``min_effect``), the variants with what they show (:func:`variant_shows`).
- **Secondary metrics**: fixed-sample tests (Welch or Mann–Whitney, exact tests for
  rates) with Holm-adjusted p-values across the secondaries that vary. A metric where
  every tester has the same value is marked ``no_variance`` and not tested.
- **Guardrails** (completion, wrong clicks, survey scores): a variant is named beside
  the verdict as worse on one only when that difference survives the correction for
  how many metrics are looked at: its Holm-adjusted p-value (over the secondaries, the
  one shown) is below 5 % *and* its 95 % interval lies wholly on the harmful side. Each
  tested alone at 5 %, three guardrails cautioned in about one A/A study in eight.

>>> from analytics.data import StudyData, empty_quiz, empty_scores
>>> analyze_experiments(StudyData.empty("s"), empty_scores(), empty_quiz())
[]
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from analytics.data import SCORE_COLUMNS, StudyData, require_columns
from analytics.metrics import (
    Metric,
    MetricError,
    MetricInputs,
    check_primary,
    completed_participants,
    metric_by_key,
    metrics_for_target,
    target_kind,
)
from analytics.stats import (
    ALPHA,
    DRAWS,
    SEQUENTIAL_METHOD,
    Comparison,
    SequentialComparison,
    holm,
    mean_test,
    prob_best_means,
    prob_best_rates,
    rate_test,
    sequential_needed_n,
    sequential_test,
    srm_check,
)
from analytics.verdicts import VERDICT_NO_DIFFERENCE, VerdictText, verdict_text

__all__ = ["completed_participants", "analyze_experiment", "analyze_experiments",
           "participant_variants", "decide", "analyze_metrics", "MetricValues",
           "variant_shows", "variant_rows", "readable_rows"]

VERDICT_TOO_FEW = "too few participants"


@dataclass(frozen=True)
class MetricValues:
    """One metric's per-tester values by variant (NaN-free), first variant = control."""

    metric: Metric
    values: dict[str, np.ndarray]


@dataclass(frozen=True)
class MetricResult:
    """A metric compared across variants: ``compared`` is (control, treatment).

    ``comparison`` is the fixed-sample test (Welch, Mann–Whitney or an exact test);
    ``sequential`` the always-valid one (the primary metric only, whose ``comparison``
    repeats it: the primary is tested by it alone). ``worse``: the variant clearly worse
    on a guardrail, if any.
    """

    metric: Metric
    role: str  # "primary" or "secondary"
    variants: dict[str, dict[str, Any]]
    compared: tuple[str, str]
    comparison: Comparison
    prob_best: dict[str, float]
    no_variance: bool = False
    sequential: SequentialComparison | None = None
    p_adjusted: float = math.nan
    worse: str | None = None

    @property
    def interval(self) -> tuple[float, float]:
        """The interval shown: always-valid for the primary, fixed-sample otherwise. A
        difference of two shares is clipped to [−1, +1] (±100 points): no difference of
        shares lies beyond, though the always-valid interval of a few testers reaches
        past it (the verdict reads the interval unclipped; clipping cannot move it)."""
        low, high = self.sequential.ci95 if self.sequential is not None \
            else self.comparison.ci95
        if self.metric.unit == "share":
            low, high = _clipped(low), _clipped(high)
        return low, high

    @property
    def effect(self) -> float:
        return self.comparison.effect

    @property
    def p_value(self) -> float:
        return self.sequential.p_value if self.sequential is not None \
            else self.comparison.p_value

    def effect_text(self) -> str:
        """``'−1.2 s [−2.0, −0.4]'`` (treatment − control)."""
        if self.no_variance:
            return "no variance: every tester has the same value"
        return self.metric.format_effect(_num(self.effect),
                                         (_num(self.interval[0]), _num(self.interval[1])))

    def to_json(self) -> dict[str, Any]:
        """The ``metrics[]`` entry of the report JSON, with the metric's definition."""
        low, high = self.interval
        method = "always-valid" if self.sequential is not None else self.comparison.test
        return {
            "metric": self.metric.key,
            "name": self.metric.name,
            "unit": self.metric.unit,
            "definition": self.metric.definition,
            "per_tester": self.metric.per_tester,
            "direction": self.metric.direction,
            "role": self.role,
            "guardrail": self.metric.guardrail,
            "variants": self.variants,
            "effect": _num(self.effect),
            "ci95": [_num(low), _num(high)],
            "interval": {"low": _num(low), "high": _num(high), "method": method},
            "effect_text": self.effect_text(),
            "p_value": _num(self.p_value),
            "p_adjusted": _num(self.p_adjusted),
            "prob_best": self.prob_best,
            "test": "always-valid" if self.sequential is not None else self.comparison.test,
            "compared": list(self.compared),
            "lower_is_better": self.metric.lower_is_better,
            "no_variance": self.no_variance,
            "worse": self.worse,
            "min_effect": _num(self.metric.min_effect),
        }


@dataclass(frozen=True)
class ExperimentResult:
    """One experiment: counts, SRM p-value, metric results, verdict and its reasons."""

    key: str
    variants: list[str]
    counts: dict[str, int]
    srm_p: float
    target: str = ""
    primary: str = ""
    min_effect: float = math.nan
    metrics: list[MetricResult] = field(default_factory=list)
    verdict: str = VERDICT_TOO_FEW
    n_needed: int | None = None
    notes: tuple[str, ...] = ()
    #: What each variant shows testers, in words (:func:`variant_shows`).
    shows: dict[str, str] = field(default_factory=dict)

    @property
    def primary_result(self) -> MetricResult | None:
        return next((m for m in self.metrics if m.role == "primary"), None)

    @property
    def guardrails(self) -> list[MetricResult]:
        """Guardrail metrics a variant is clearly worse on."""
        return [m for m in self.metrics if m.worse is not None]

    def words(self) -> VerdictText:
        """The verdict in plain words (:mod:`analytics.verdicts`)."""
        return verdict_text(self._entry())

    def summary(self) -> str:
        """The verdict in one plain sentence (which variant, with its text for a message;
        on what; by how much, with its interval), then "But …" for the guardrails that
        disagree, and the testers needed when there are too few."""
        return self.words().text

    def to_json(self) -> dict[str, Any]:
        """The ``experiments[]`` entry of the report JSON: the contract's keys, the
        definitions, ``shows`` (what each variant shows testers), and the verdict in
        words (``headline``, ``summary``: :mod:`analytics.verdicts`)."""
        entry = self._entry()
        words = verdict_text(entry)
        return {**entry, "headline": words.headline, "summary": words.text}

    def _entry(self) -> dict[str, Any]:
        primary = self.primary_result
        return {
            "key": self.key, "target": self.target, "srm_p": _num(self.srm_p),
            "counts": self.counts,
            "primary_metric": self.primary,
            "min_effect": _num(self.min_effect),
            "definition": primary.metric.definition if primary else None,
            "interval": primary.to_json()["interval"] if primary else None,
            "method": SEQUENTIAL_METHOD,
            "metrics": [{**m.to_json(), "min_effect": _num(self.min_effect)}
                        if m.role == "primary" else m.to_json() for m in self.metrics],
            "verdict": self.verdict, "n_needed": self.n_needed,
            "guardrails": [{"metric": m.metric.key, "name": m.metric.name,
                            "worse": m.worse, "effect_text": m.effect_text()}
                           for m in self.guardrails],
            "shows": dict(self.shows),
            "notes": list(self.notes),
        }


def _clipped(share_difference: float) -> float:
    """A difference of shares within [−1, +1] (NaN stays NaN).

    >>> _clipped(-1.37), _clipped(0.25), _clipped(2.0)
    (-1.0, 0.25, 1.0)
    """
    return share_difference if math.isnan(share_difference) else \
        min(1.0, max(-1.0, share_difference))


def _num(value: float | None) -> float | None:
    """JSON has no NaN: missing numbers become null."""
    return None if value is None or not math.isfinite(value) else float(value)


def _summary(values: dict[str, np.ndarray]) -> dict[str, dict[str, Any]]:
    return {name: {"n": int(len(v)),
                   "mean": _num(float(v.mean())) if len(v) else None,
                   "median": _num(float(np.median(v))) if len(v) else None}
            for name, v in values.items()}


def _no_variance(values: dict[str, np.ndarray]) -> bool:
    pooled = np.concatenate([v for v in values.values()]) if values else np.array([])
    if len(pooled) < 2:
        return False
    # equal up to float rounding (times computed from timestamps differ in the last bits)
    return bool(np.ptp(pooled) <= 1e-9 * max(1.0, float(np.abs(pooled).max())))


def compare_metric(values: MetricValues, role: str = "secondary", alpha: float = ALPHA,
                   seed: int = 0, draws: int = DRAWS) -> MetricResult:
    """Compare one metric: control (first variant) against the variant most likely best.

    ``role="primary"`` compares with the always-valid interval alone (at ``alpha`` /
    (variants − 1)): the result's ``comparison`` is that one, not a fixed-sample test.

    >>> from analytics.metrics import metric_by_key
    >>> shares = {"A": np.array([1.0, 0.0] * 10), "B": np.array([1.0] * 18 + [0.0] * 2)}
    >>> primary = compare_metric(MetricValues(metric_by_key("completion"), shares), "primary")
    >>> primary.comparison.test, primary.comparison.ci95 == primary.sequential.ci95
    ('always-valid', True)
    >>> compare_metric(MetricValues(metric_by_key("completion"), shares)).comparison.test
    'boschloo'
    """
    metric = values.metric
    names = list(values.values)
    lower = metric.lower_is_better
    if metric.kind == "rate":
        successes = {n: int(np.asarray(v).sum()) for n, v in values.values.items()}
        totals = {n: int(len(v)) for n, v in values.values.items()}
        prob = prob_best_rates(successes, totals, lower, seed=seed, draws=draws)
    else:
        prob = prob_best_means(values.values, lower, seed=seed, draws=draws)
    if metric.direction == "neither":
        prob = {}
    control, others = names[0], names[1:]
    treatment = max(others, key=lambda n: prob.get(n, 0.0)) if others else control
    a, b = values.values[control], values.values[treatment]
    flat = _no_variance(values.values)
    sequential = None
    if role == "primary":
        sequential = sequential_test(a, b, metric.kind,
                                     alpha=alpha / max(len(names) - 1, 1))
    if flat:
        prob = {}  # nothing to rank
        effect = float(b.mean() - a.mean()) if len(a) and len(b) else math.nan
        comparison = Comparison("none", effect, (math.nan, math.nan), math.nan)
    elif sequential is not None:
        # The primary is tested once, by its always-valid interval: a fixed-sample test
        # (Boschloo's maximisation, a bootstrap) would be computed for nothing.
        comparison = Comparison(sequential.test, sequential.effect, sequential.ci95,
                                sequential.p_value)
    elif metric.kind == "rate":
        comparison = rate_test(int(a.sum()), len(a), int(b.sum()), len(b))
    else:
        comparison = mean_test(a, b, seed=seed)
    return MetricResult(metric, role, _summary(values.values), (control, treatment),
                        comparison, prob, flat, sequential)


def decide(primary: MetricResult, min_effect: float) -> tuple[str, int | None]:
    """The verdict from the primary metric's always-valid interval (module docstring).

    Returns the verdict and, for "too few participants", testers needed per variant.
    """
    sequential = primary.sequential
    if sequential is None or primary.no_variance:
        return VERDICT_TOO_FEW, None
    low, high = sequential.ci95
    if not (math.isfinite(low) and math.isfinite(high)):
        return VERDICT_TOO_FEW, None
    control, treatment = primary.compared
    if low > 0 or high < 0:
        treatment_better = (sequential.effect < 0) == primary.metric.lower_is_better
        return f"{treatment if treatment_better else control} better", None
    if -min_effect < low and high < min_effect:
        return VERDICT_NO_DIFFERENCE, None
    return VERDICT_TOO_FEW, sequential_needed_n(sequential.sd, min_effect)


def _guardrail_worse(result: MetricResult, p_adjusted: float) -> str | None:
    """The variant clearly worse on a guardrail: the Holm-adjusted p-value below
    :data:`~analytics.stats.ALPHA` and the fixed-sample 95 % interval wholly on the
    harmful side (None otherwise)."""
    low, high = result.comparison.ci95
    if result.no_variance or not (math.isfinite(low) and math.isfinite(high)):
        return None
    if not (math.isfinite(p_adjusted) and p_adjusted < ALPHA):
        return None  # not beyond chance once every metric looked at is counted
    control, treatment = result.compared
    if low > 0:  # treatment higher
        return treatment if result.metric.lower_is_better else control
    if high < 0:  # treatment lower
        return control if result.metric.lower_is_better else treatment
    return None


def analyze_metrics(values: list[MetricValues], seed: int = 0, draws: int = DRAWS
                    ) -> list[MetricResult]:
    """Compare every metric; the first is the primary, the others are Holm-adjusted
    among themselves (metrics without variance are left out of the adjustment), and a
    guardrail names a worse variant only when its adjusted p-value says so."""
    if not values:
        return []
    results = [compare_metric(values[0], "primary", seed=seed, draws=draws)]
    results += [compare_metric(v, "secondary", seed=seed, draws=draws) for v in values[1:]]
    secondary_p = [math.nan if r.no_variance else r.comparison.p_value for r in results[1:]]
    adjusted = [results[0].p_value, *holm(secondary_p)]
    final = []
    for result, p_adj in zip(results, adjusted, strict=True):
        worse = _guardrail_worse(result, p_adj) if result.metric.guardrail and \
            result.role == "secondary" else None
        final.append(MetricResult(result.metric, result.role, result.variants,
                                  result.compared, result.comparison, result.prob_best,
                                  result.no_variance, result.sequential, p_adj, worse))
    return final


# --- per-tester values from study data ------------------------------------------------

def participant_variants(data: StudyData, experiment: str) -> pd.Series:
    """variant by participant_id for one experiment (the latest assignment wins)."""
    table = data.assignments[data.assignments["experiment"] == experiment]
    table = table.sort_values("at", kind="stable").drop_duplicates("participant_id",
                                                                     keep="last")
    return pd.Series(table["variant"].astype(str).to_numpy(),
                     index=table["participant_id"].to_numpy())


#: Longest text a variant is shown with (an imported study's text may be long).
SHOWN_TEXT_MAX = 160
_WORDING_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def variant_shows(experiment: dict[str, Any]) -> dict[str, str]:
    """What each variant of ``experiment`` (an entry of ``study["experiments"]``) shows
    testers, in words, by variant name:

    - a message (``message:<key>``): its text, as the study record's ``texts`` give it
      (the app writes each wording's text from the game's catalog there:
      :mod:`playtest.experiment_texts`); else a payload that is a text of its own (not a
      wording name of the catalog); else nothing;
    - a display setting (``ui:<setting>``): ``'highlight options: on'``;
    - the rules: ``'preset “house”'``, or what a rules object sets that the others do not.

    Payloads are the record's ``payloads`` (the exchange format) or ``variants`` when
    that maps names to payloads. A variant with nothing known is left out.

    >>> variant_shows({"target": "message:extra_turn", "variants": ["A", "B", "C"],
    ...     "payloads": {"A": "default", "B": "formal", "C": "Go on!"},
    ...     "texts": {"A": "Extra go!"}})
    {'A': 'Extra go!', 'C': 'Go on!'}
    >>> variant_shows({"target": "ui:highlight_options", "variants": {"off": False, "on": True}})
    {'off': 'highlight options: off', 'on': 'highlight options: on'}
    """
    target = str(experiment.get("target") or "")
    variants = experiment.get("variants") or []
    names = [str(v) for v in variants]
    payloads = experiment.get("payloads")
    if not isinstance(payloads, dict):
        payloads = variants if isinstance(variants, dict) else {}
    kind, _, name = target.partition(":")
    shows: dict[str, str] = {}
    if kind == "message":
        given = experiment.get("texts")
        texts: dict[str, Any] = given if isinstance(given, dict) else {}
        for variant in names:
            payload = payloads.get(variant)
            text = texts.get(variant) if isinstance(texts.get(variant), str) else None
            if text is None and isinstance(payload, str) and payload.strip() and \
                    not _WORDING_NAME.match(payload):
                text = payload
            if text:
                shows[variant] = _clipped_text(text)
    elif kind == "ui":
        for variant in names:
            if variant in payloads:
                value = payloads[variant]
                shown = ("on" if value else "off") if isinstance(value, bool) else str(value)
                shows[variant] = f"{name.replace('_', ' ')}: {shown}"
    elif target == "rules":
        shows = _rules_shows({n: payloads[n] for n in names if n in payloads})
    return shows


def _setting_words(path: str, value: Any) -> str:
    """One setting of a rules object in words, nested objects by their path.

    >>> _setting_words("changes", {"S1": {"players": [{"id": 1, "ai": "random"}]}})
    'changes › S1 › players: id 1, ai random'
    """
    if isinstance(value, dict) and value:
        return "; ".join(_setting_words(f"{path} › {k}", v) for k, v in value.items())
    return f"{path}: {_value_words(value)}"


def _value_words(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value_words(v)}" for k, v in value.items()) or "none"
    if isinstance(value, list):
        return "; ".join(_value_words(v) for v in value) or "none"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return str(value)


def _clipped_text(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= SHOWN_TEXT_MAX else flat[:SHOWN_TEXT_MAX - 1] + "…"


def _rules_shows(payloads: dict[str, Any]) -> dict[str, str]:
    """Each rules variant in words: a preset by its name; a rules object by what it sets
    that not every variant sets alike (what they share says nothing about the difference).

    >>> _rules_shows({"grows": {"stages": ["S1"]},
    ...               "plays": {"stages": ["S1"], "changes": {"S1": {"ai": "random"}}}})
    {'grows': 'no changes', 'plays': 'changes › S1 › ai: random'}
    >>> _rules_shows({"A": "standard", "B": {"base": "standard", "walls": False}})
    {'A': 'preset “standard”', 'B': 'base: standard; walls: false'}
    """
    objects = [p for p in payloads.values() if isinstance(p, dict)]
    keys = list(dict.fromkeys(k for p in objects for k in p))
    shared = {k for k in keys if len(objects) == len(payloads) and
              all(k in p and p[k] == objects[0][k] for p in objects)}
    shows = {}
    for variant, payload in payloads.items():
        if not isinstance(payload, dict):
            shows[variant] = _clipped_text(f"preset “{payload}”")
            continue
        parts = [_setting_words(k, payload[k]) for k in payload if k not in shared]
        parts += [f"no {k}" for k in keys if k not in payload and k not in shared]
        shows[variant] = _clipped_text("; ".join(parts) or "the same rules as the others")
    return shows


def _instruments(scores: pd.DataFrame) -> list[str]:
    require_columns(scores, SCORE_COLUMNS, "scores")
    totals = scores[(scores["scale"] == "total") & (scores["phase"] == "post")]
    return sorted(str(name) for name in totals["instrument"].dropna().unique())


def primary_of(experiment: dict[str, Any]) -> tuple[Metric, float, tuple[str, ...]]:
    """The experiment's primary metric and min_effect, with a note when the stored
    choice could not be used (the target's default is used then)."""
    target = str(experiment.get("target") or "")
    notes: tuple[str, ...] = ()
    chosen = experiment.get("primary_metric")
    try:
        metric = check_primary(target, str(chosen) if chosen else None)
    except MetricError as error:
        metric = check_primary(target, None)
        notes = (f"{error}; the default {metric.key} is used",)
    raw = experiment.get("min_effect")
    try:
        min_effect = float(raw) if raw is not None else metric.min_effect
    except (TypeError, ValueError):
        min_effect = math.nan
    if not (math.isfinite(min_effect) and min_effect > 0):
        notes += (f"min_effect {raw!r} is not a positive number; the metric's default "
                  f"{metric.min_effect:g} is used",)
        min_effect = metric.min_effect
    return metric, min_effect, notes


def experiment_metric_values(data: StudyData, experiment: dict[str, Any],
                             scores: pd.DataFrame, quiz: pd.DataFrame,
                             assigned: pd.Series | None = None) -> list[MetricValues]:
    """Every metric of one experiment as per-tester values by variant, primary first
    (``assigned``: the experiment's :func:`participant_variants`, when the caller has
    them already)."""
    key = str(experiment["key"])
    target = str(experiment.get("target") or "")
    if assigned is None:
        assigned = participant_variants(data, key)
    names = [str(v) for v in experiment.get("variants") or []] or sorted(assigned.unique())
    primary, _, _ = primary_of(experiment)
    message_key = target.split(":", 1)[1] if target_kind(target) == "message" else None
    inputs = MetricInputs(data, message_key, scores, quiz)
    # Quiz items the designer tied to the experiment (``quiz_items`` in its record).
    items = [str(item) for item in experiment.get("quiz_items") or []]
    chosen = metrics_for_target(target, _instruments(scores), items)
    if primary.key not in {m.key for m in chosen}:
        chosen.append(primary)
    ordered = [primary] + [m for m in chosen if m.key != primary.key]
    result = []
    for metric in ordered:
        if metric.key == "quiz_correct" and quiz.empty and metric is not primary:
            continue  # no quiz in this study (kept when it decides: then "too few")
        result.append(MetricValues(metric, _by_variant(assigned, metric.values(inputs),
                                                       names)))
    return result


def _by_variant(assigned: pd.Series, values: pd.Series, names: list[str]
                ) -> dict[str, np.ndarray]:
    """Each variant's finite values, in the order of ``assigned`` (testers without a
    value left out): an inner join of the two on the tester, as arrays."""
    if not (values.index.is_unique and assigned.index.is_unique):
        frame = pd.DataFrame({"variant": assigned}).join(values.rename("value"), how="inner")
        frame = frame[np.isfinite(frame["value"].astype(float))]
        return {name: frame.loc[frame["variant"] == name, "value"].to_numpy(float)
                for name in names}
    # one lookup of every assigned tester's value instead of a join per metric
    position = values.index.get_indexer(assigned.index)
    found = position >= 0
    numbers = values.to_numpy()[position[found]].astype(float)
    variant = assigned.to_numpy()[found]
    finite = np.isfinite(numbers)
    numbers, variant = numbers[finite], variant[finite]
    return {name: numbers[variant == name] for name in names}


def analyze_experiment(data: StudyData, experiment: dict[str, Any],
                       scores: pd.DataFrame, quiz: pd.DataFrame,
                       seed: int = 0, draws: int = DRAWS) -> ExperimentResult:
    """Counts + SRM, the primary metric's verdict, secondaries with Holm, guardrails.

    ``experiment`` is one entry of ``study["experiments"]``: ``{key, variants, target}``
    and optionally ``primary_metric`` and ``min_effect``.
    """
    key = str(experiment["key"])
    target = str(experiment.get("target") or "")
    assigned = participant_variants(data, key)
    names = [str(v) for v in experiment.get("variants") or []] or sorted(assigned.unique())
    counts = {name: int((assigned == name).sum()) for name in names}
    srm_p = srm_check(counts).p_value if len(names) >= 2 else math.nan
    shows = variant_shows(experiment)
    try:
        primary, min_effect, notes = primary_of(experiment)
    except MetricError as error:
        return ExperimentResult(key, names, counts, srm_p, target, notes=(str(error),),
                                shows=shows)
    if len(names) < 2:
        return ExperimentResult(key, names, counts, srm_p, target, primary.key, min_effect,
                                notes=notes, shows=shows)
    metrics = analyze_metrics(experiment_metric_values(data, experiment, scores, quiz,
                                                       assigned), seed=seed, draws=draws)
    text, needed = decide(metrics[0], min_effect) if metrics else (VERDICT_TOO_FEW, None)
    return ExperimentResult(key, names, counts, srm_p, target, primary.key, min_effect,
                            metrics, text, needed, notes, shows)


def analyze_experiments(data: StudyData, scores: pd.DataFrame, quiz: pd.DataFrame,
                        seed: int = 0, draws: int = DRAWS) -> list[ExperimentResult]:
    """:func:`analyze_experiment` for every experiment of the study."""
    return [analyze_experiment(data, experiment, scores, quiz, seed=seed, draws=draws)
            for experiment in data.study.get("experiments") or []]


# --- for people: one row per metric with readable names and rounded numbers -----------

def _metric_of(entry: dict[str, Any]) -> Metric | None:
    try:
        return metric_by_key(str(entry.get("metric")))
    except MetricError:
        return None


def variant_rows(experiment: dict[str, Any]) -> list[dict[str, str]]:
    """The variants of one ``experiments[]`` report entry as rows for a page or the plan:
    each variant's name, what it shows testers (a message's text in quotes), its testers,
    and its value of the primary metric (the mean over its testers, with the unit).

    >>> rows = variant_rows({"target": "message:extra_turn", "counts": {"A": 3, "B": 4},
    ...     "shows": {"A": "Extra go!"}, "metrics": [{"metric": "response_time",
    ...     "name": "Response time after the message", "role": "primary",
    ...     "variants": {"A": {"n": 3, "mean": 2.25}, "B": {"n": 4, "mean": 1.5}}}]})
    >>> rows[0]
    {'Variant': 'A', 'What testers see': '“Extra go!”', 'Testers': '3', 'Response time after the message (mean)': '2.2 s'}
    >>> rows[1]["What testers see"]
    '–'
    """
    message = str(experiment.get("target") or "").startswith("message:")
    shows = experiment.get("shows") or {}
    primary = next((m for m in experiment.get("metrics") or []
                    if m.get("role") == "primary"), None)
    metric = _metric_of(primary) if primary is not None else None
    rows = []
    for name, count in (experiment.get("counts") or {}).items():
        text = shows.get(name)
        row = {"Variant": str(name),
               "What testers see": "–" if not text else f"“{text}”" if message else str(text),
               "Testers": str(count)}
        if primary is not None:
            mean = ((primary.get("variants") or {}).get(name) or {}).get("mean")
            row[f"{primary.get('name') or primary.get('metric')} (mean)"] = (
                metric.format_value(mean) if metric is not None
                else "–" if mean is None else f"{mean:.3g}")
        rows.append(row)
    return rows


def readable_rows(experiment: dict[str, Any]) -> list[dict[str, str]]:
    """The metrics of one ``experiments[]`` report entry as rows for a page or the plan:
    people's column names, rounded values with units, the effect with its interval.

    >>> readable_rows({"metrics": []})
    []
    """
    rows = []
    for entry in experiment.get("metrics", []):
        metric = _metric_of(entry)
        compared = entry.get("compared") or list(entry.get("variants", {}))[:2]
        row: dict[str, str] = {
            "Metric": str(entry.get("name") or entry.get("metric")),
            "Role": ("primary (decides)" if entry.get("role") == "primary"
                     else "guardrail" if entry.get("guardrail") else "secondary"),
        }
        for name, summary in entry.get("variants", {}).items():
            mean = summary.get("mean")
            value = metric.format_value(mean) if metric is not None else (
                "–" if mean is None else f"{mean:.3g}")
            row[f"{name} (n)"] = f"{value} ({summary.get('n', 0)})"
        label = f"{compared[1]} − {compared[0]}" if len(compared) == 2 else "effect"
        row[f"Difference {label} [95% interval]"] = str(entry.get("effect_text", "–"))
        p_value = entry.get("p_adjusted")
        row["p (primary: always-valid; others: Holm)"] = (
            "not tested" if entry.get("no_variance") else
            "–" if p_value is None else ("< 0.001" if p_value < 0.001 else f"{p_value:.3f}"))
        best = entry.get("prob_best") or {}
        row["Chance best"] = ", ".join(f"{k} {v:.0%}" for k, v in best.items()) or "–"
        row["Definition"] = str(entry.get("definition", ""))
        rows.append(row)
    return rows
