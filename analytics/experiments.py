"""A/B experiments: per-participant metrics, tests, Holm adjustment, verdicts.

Metric definitions (all aggregated to **one value per participant** first):

- ``wrong_per_turn_after_message`` (target ``message:<key>``): wrong clicks in the
  human turn immediately following each ``message`` event of that key, divided by the
  number of such turns — per participant. Lower is better.
- ``hesitation_after_message_ms``: mean hesitation (first-click ``ms``) in those turns.
  Lower is better.
- ``wrong_per_turn`` / ``hesitation_ms``: the same over all human turns (other targets).
- ``quiz_correct``: share of a participant's quiz items answered correctly. Higher is better.
- ``score:<instrument>``: the post-play ``total`` score of each instrument in ``scores``.
  Higher is better except workload instruments (``LOWER_IS_BETTER_INSTRUMENTS``).
- ``completion``: 1 when the participant has a ``page`` event ``done``, else 0 (a rate).

Verdict: among metrics with Holm-adjusted p < 0.05, the variant most significant metrics
favour is "<name> better" (a tie goes to the variant the primary — earliest listed —
significant metric favours). With no significant
metric: "too few participants" when the smallest variant of the primary (first) metric
has fewer participants than 80 % power needs for a medium effect (Cohen's d or h = 0.5),
else "no difference".
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from analytics import derive
from analytics.data import (
    QUIZ_COLUMNS,
    SCORE_COLUMNS,
    StudyData,
    require_columns,
)
from analytics.stats import (
    ALPHA,
    DRAWS,
    Comparison,
    MetricKind,
    holm,
    mean_test,
    needed_n_per_variant,
    prob_best_means,
    prob_best_rates,
    rate_test,
    srm_check,
)

LOWER_IS_BETTER_INSTRUMENTS = frozenset({"tlx", "rtlx", "raw_tlx", "nasa_tlx"})
VERDICT_NO_DIFFERENCE = "no difference"
VERDICT_TOO_FEW = "too few participants"


@dataclass(frozen=True)
class MetricValues:
    """One metric's per-participant values by variant (NaN-free)."""

    metric: str
    kind: MetricKind
    lower_is_better: bool
    values: dict[str, np.ndarray]


@dataclass(frozen=True)
class MetricResult:
    """A metric's comparison: control is the first variant, ``compared`` the other one."""

    metric: str
    kind: MetricKind
    lower_is_better: bool
    variants: dict[str, dict[str, Any]]
    compared: tuple[str, str]
    comparison: Comparison
    prob_best: dict[str, float]
    p_adjusted: float = math.nan

    def to_json(self) -> dict[str, Any]:
        """The ``metrics[]`` entry of the report JSON (plus ``test`` and ``compared``)."""
        return {
            "metric": self.metric,
            "variants": self.variants,
            "effect": _num(self.comparison.effect),
            "ci95": [_num(self.comparison.ci95[0]), _num(self.comparison.ci95[1])],
            "p_value": _num(self.comparison.p_value),
            "p_adjusted": _num(self.p_adjusted),
            "prob_best": self.prob_best,
            "test": self.comparison.test,
            "compared": list(self.compared),
            "lower_is_better": self.lower_is_better,
        }


@dataclass(frozen=True)
class ExperimentResult:
    """One experiment: assignment counts, SRM p-value, metric results and verdict."""

    key: str
    variants: list[str]
    counts: dict[str, int]
    srm_p: float
    metrics: list[MetricResult] = field(default_factory=list)
    verdict: str = VERDICT_TOO_FEW
    n_needed: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``experiments[]`` entry of the report JSON."""
        return {"key": self.key, "srm_p": _num(self.srm_p), "counts": self.counts,
                "metrics": [m.to_json() for m in self.metrics], "verdict": self.verdict,
                "n_needed": self.n_needed}


def _num(value: float) -> float | None:
    """JSON has no NaN: missing numbers become null."""
    return None if value is None or not math.isfinite(value) else float(value)


def compare_metric(values: MetricValues, seed: int = 0, draws: int = DRAWS) -> MetricResult:
    """Test one metric across variants.

    Two variants: control (first) vs the other. More: control vs the variant most likely
    best. Means use :func:`analytics.stats.mean_test`; rates (0/1 per participant) use
    :func:`analytics.stats.rate_test` and Beta posteriors.
    """
    names = list(values.values)
    summary = {name: {"n": int(len(v)), "mean": _num(float(v.mean())) if len(v) else None}
               for name, v in values.values.items()}
    if values.kind == "rate":
        successes = {name: int(np.asarray(v).sum()) for name, v in values.values.items()}
        totals = {name: int(len(v)) for name, v in values.values.items()}
        prob = prob_best_rates(successes, totals, values.lower_is_better, seed=seed,
                               draws=draws)
    else:
        prob = prob_best_means(values.values, values.lower_is_better, seed=seed, draws=draws)
    control = names[0]
    others = names[1:]
    treatment = max(others, key=lambda name: prob.get(name, 0.0)) if others else control
    a, b = values.values[control], values.values[treatment]
    if values.kind == "rate":
        comparison = rate_test(int(a.sum()), len(a), int(b.sum()), len(b))
    else:
        comparison = mean_test(a, b, seed=seed)
    return MetricResult(values.metric, values.kind, values.lower_is_better,
                        summary, (control, treatment), comparison, prob)


def verdict(metrics: list[MetricResult], alpha: float = ALPHA) -> tuple[str, int | None]:
    """The plain verdict and, for "too few participants", the n needed per variant.

    >>> verdict([])
    ('too few participants', None)
    """
    votes: dict[str, int] = {}
    first_winner: str | None = None
    for metric in metrics:
        if math.isfinite(metric.p_adjusted) and metric.p_adjusted < alpha:
            control, treatment = metric.compared
            better_is_treatment = (metric.comparison.effect < 0) == metric.lower_is_better
            winner = treatment if better_is_treatment else control
            votes[winner] = votes.get(winner, 0) + 1
            first_winner = first_winner or winner
    if votes:
        most = max(votes.values())
        leaders = [name for name, count in votes.items() if count == most]
        # A tie in votes goes to the variant the earliest significant metric favours
        # (metrics are listed primary first).
        winner = first_winner if first_winner in leaders else leaders[0]
        return f"{winner} better", None
    if not metrics:
        return VERDICT_TOO_FEW, None
    primary = metrics[0]
    needed = needed_n_per_variant(primary.kind)
    smallest = min(int(v["n"]) for v in primary.variants.values())
    if smallest < needed:
        return VERDICT_TOO_FEW, needed
    return VERDICT_NO_DIFFERENCE, None


def analyze_metrics(values: list[MetricValues], seed: int = 0, draws: int = DRAWS
                    ) -> list[MetricResult]:
    """Compare every metric and Holm-adjust the p-values across them.

    ``draws``: Monte Carlo draws per posterior for the probability to be best.
    """
    results = [compare_metric(v, seed=seed, draws=draws) for v in values]
    adjusted = holm([r.comparison.p_value for r in results])
    return [MetricResult(r.metric, r.kind, r.lower_is_better, r.variants, r.compared,
                         r.comparison, r.prob_best, p) for r, p in zip(results, adjusted,
                                                                       strict=True)]


# --- per-participant metrics from study data -----------------------------------------

def participant_variants(data: StudyData, experiment: str) -> pd.Series:
    """variant by participant_id for one experiment (the latest assignment wins)."""
    table = data.assignments[data.assignments["experiment"] == experiment]
    table = table.sort_values("at", kind="stable").drop_duplicates("participant_id",
                                                                     keep="last")
    return pd.Series(table["variant"].astype(str).to_numpy(),
                     index=table["participant_id"].to_numpy())


def message_turn_metrics(data: StudyData, key: str) -> pd.DataFrame:
    """Per participant: turns after a ``key`` message, wrong clicks per turn, hesitation.

    Columns: ``participant_id, turns, wrong_per_turn, hesitation_ms, rules_opened``.
    """
    table = derive.messages(data)
    shown = table[(table["key"] == key) & (table["next_turn_id"] >= 0)]
    turn_table = derive.turns(data).set_index("turn_id")
    after = turn_table.loc[shown["next_turn_id"].to_numpy(), ["participant_id", "n_wrong",
                                                              "first_ms"]]
    grouped = after.groupby("participant_id")
    result = pd.DataFrame({
        "turns": grouped.size(),
        "wrong_per_turn": grouped["n_wrong"].mean(),
        "hesitation_ms": grouped["first_ms"].mean(),
    })
    return result.rename_axis("participant_id").reset_index()


def participant_turn_metrics(data: StudyData) -> pd.DataFrame:
    """Per participant over all human turns: ``turns, wrong_per_turn, hesitation_ms``."""
    turn_table = derive.turns(data)
    grouped = turn_table.groupby("participant_id")
    return pd.DataFrame({
        "turns": grouped.size(),
        "wrong_per_turn": grouped["n_wrong"].mean(),
        "hesitation_ms": grouped["first_ms"].mean(),
    }).rename_axis("participant_id").reset_index()


def completed_participants(data: StudyData) -> set[str]:
    """Participants with a ``page`` event whose ``page`` is ``done``."""
    pages = derive.props_of(data, "page", ["page"])
    return set(pages.loc[pages["page"] == "done", "participant_id"].astype(str))


def experiment_metric_values(data: StudyData, experiment: dict[str, Any],
                             scores: pd.DataFrame, quiz: pd.DataFrame) -> list[MetricValues]:
    """Every metric of one experiment as per-participant values by variant."""
    key = str(experiment["key"])
    names = [str(v) for v in experiment.get("variants") or []]
    assigned = participant_variants(data, key)
    if not names:
        names = sorted(assigned.unique())
    target = str(experiment.get("target") or "")
    per_participant: list[tuple[str, MetricKind, bool, pd.Series]] = []
    if target.startswith("message:"):
        table = message_turn_metrics(data, target.split(":", 1)[1]).set_index("participant_id")
        per_participant.append(("wrong_per_turn_after_message", "mean", True,
                                table["wrong_per_turn"]))
        per_participant.append(("hesitation_after_message_ms", "mean", True,
                                table["hesitation_ms"]))
    else:
        table = participant_turn_metrics(data).set_index("participant_id")
        per_participant.append(("wrong_per_turn", "mean", True, table["wrong_per_turn"]))
        per_participant.append(("hesitation_ms", "mean", True, table["hesitation_ms"]))
    require_columns(quiz, QUIZ_COLUMNS, "quiz")
    if len(quiz):
        share = quiz.assign(correct=quiz["correct"].astype(float)).groupby(
            "participant_id")["correct"].mean()
        per_participant.append(("quiz_correct", "mean", False, share))
    require_columns(scores, SCORE_COLUMNS, "scores")
    totals = scores[(scores["scale"] == "total") & (scores["phase"] == "post")]
    for instrument, group in totals.groupby("instrument", sort=True):
        value = pd.to_numeric(group["value"], errors="coerce").groupby(
            group["participant_id"]).mean()
        per_participant.append((f"score:{instrument}", "mean",
                                str(instrument).lower() in LOWER_IS_BETTER_INSTRUMENTS, value))
    done = completed_participants(data)
    completion = pd.Series(assigned.index.isin(list(done)).astype(float),
                           index=assigned.index)
    per_participant.append(("completion", "rate", False, completion))
    result = []
    for metric, kind, lower, series in per_participant:
        joined = pd.DataFrame({"variant": assigned}).join(series.rename("value"), how="inner")
        joined = joined[np.isfinite(joined["value"].astype(float))]
        by_variant = {name: joined.loc[joined["variant"] == name, "value"].to_numpy(float)
                      for name in names}
        result.append(MetricValues(metric, kind, lower, by_variant))
    return result


def analyze_experiment(data: StudyData, experiment: dict[str, Any],
                       scores: pd.DataFrame, quiz: pd.DataFrame,
                       seed: int = 0) -> ExperimentResult:
    """Assignment counts + SRM, every metric with Holm adjustment, and the verdict.

    ``experiment`` is one entry of ``study["experiments"]``: ``{key, variants, target}``.
    """
    key = str(experiment["key"])
    assigned = participant_variants(data, key)
    names = [str(v) for v in experiment.get("variants") or []] or sorted(assigned.unique())
    counts = {name: int((assigned == name).sum()) for name in names}
    srm_p = srm_check(counts).p_value if len(names) >= 2 else math.nan
    if len(names) < 2:
        return ExperimentResult(key, names, counts, srm_p)
    metrics = analyze_metrics(experiment_metric_values(data, experiment, scores, quiz),
                              seed=seed)
    text, needed = verdict(metrics)
    return ExperimentResult(key, names, counts, srm_p, metrics, text, needed)


def analyze_experiments(data: StudyData, scores: pd.DataFrame, quiz: pd.DataFrame,
                        seed: int = 0) -> list[ExperimentResult]:
    """:func:`analyze_experiment` for every experiment of the study."""
    return [analyze_experiment(data, experiment, scores, quiz, seed=seed)
            for experiment in data.study.get("experiments") or []]
