"""Did they learn? Learning gains from the fluency probe, the play log and the rules quiz.

Every number here is one of these definitions (the Learning page and the plan show them):

- **Probe answer**: a response whose value is a list of probe entries
  (``"6x7=42;ok;2310"``: a question as shown, the answer, ``ok``/``wrong``/``none`` and its
  ms; see ``surveys/fluency.py``, which writes them). A tester's probe score per phase
  (``pre``/``post``) adds up their probe answers of that phase: **accuracy** = correct ÷
  answered; **correct facts per minute** (cpm) = correct × 60 000 ÷ the probe's time
  (the sum of its questions' ms).
- **Gain** (per tester with both): post − pre, in cpm and in accuracy (percentage
  points), with a *paired* 95 % interval per group of testers (the mean of the
  differences, Student's t: ``scipy.stats.ttest_1samp``).
- **Normalised gain** (per tester, on accuracy): Hake's ``g = (post − pre) / (1 − pre)``
  when the tester did not get worse; a loss is scaled by the room there was to lose,
  ``(post − pre) / pre`` (Marx & Cummings 2007, "normalized change"). A tester **at
  ceiling** (100 % before and after) or at floor (0 % both times) has no room to change:
  left out of the mean and counted. The mean has a t interval.
- **Arms** (an experiment's variants): the difference in cpm gain between each variant
  and the control, *adjusted for the pre score* (ANCOVA: ``post ~ pre + arm``, ordinary
  least squares with HC3 standard errors, statsmodels), with its 95 % interval (α split
  over the comparisons with more than two arms). Verdict: ``"<arm> learned more"`` when
  the interval excludes 0; ``"no difference"`` when it lies inside ± ``min_effect``;
  else ``"too few testers"``. A fixed-sample interval, read once the study is done
  (calibrated on planted studies: :mod:`analytics.calibrate_learning`); an experiment
  whose primary metric is ``learning_gain`` is judged on the Experiments page with the
  always-valid interval instead, valid however often one looks, which needs more testers.
- **Facts** (``7x8``, smaller factor first): per fact, the share answered right before
  and after (probe) or on a tester's first try and on later tries of the same fact
  (play); each rate shrunk toward the rate of all facts (empirical-Bayes beta-binomial,
  :func:`analytics.severity.fit_prior`), and the **change** shrunk toward the mean change
  of all facts (normal–normal empirical Bayes, the between-fact variance by Paule–Mandel,
  ``statsmodels.stats.meta_analysis``), so that a fact seen twice does not shout; the
  common change itself is measured per tester (the mean gain in accuracy; in play, the
  mean change from first to later tries), so that its interval holds although a tester
  answers many facts. ``improved`` / ``got worse`` when the change's 95 % interval
  excludes 0.
- **In-play learning curve**: a tester's attempts at one fact in the order played
  (attempt 1 = the first time they were asked it); per attempt number, the share right
  (Wilson interval) and the median time to the first click (distribution-free interval).
- **Rule understanding**: per tester, the share of their turns with a refused click
  other than a maths slip, in the first half of their turns against the second half
  (paired difference, t interval); and the rules quiz, the share right per question (Wilson
  interval), before and after play when the quiz frame has a ``phase`` and both phases
  were asked.

>>> from analytics.data import StudyData
>>> data = StudyData.empty("s")
>>> probe_scores(data).empty, gains_per_tester(data).empty
(True, True)
>>> parse_entry("8x7=56;ok;900")
ProbeQuestion(a=8, b=7, given=56, correct=True, ms=900)
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

import numpy as np
import pandas as pd
from scipy import stats as sps

from analytics import severity
from analytics.data import StudyData
from analytics.stats import median_interval, wilson_interval

ALPHA: Final = 0.05
#: The smallest difference in cpm gain between arms worth acting on (default).
MIN_EFFECT_CPM: Final = 2.0
PHASE_ORDER: Final = {"pre": 0, "play": 1, "post": 2}
_ENTRY: Final = re.compile(r"^(\d{1,2})x(\d{1,2})=(\d{0,3});(ok|wrong|none);(\d{1,10})$")

VERDICT_TOO_FEW: Final = "too few testers"
VERDICT_NO_DIFFERENCE: Final = "no difference"
IMPROVED, WORSE, UNCLEAR = "improved", "got worse", "no clear change"

CPM_DEFINITION: Final = ("Correct facts per minute: the probe's right answers × 60 000 ÷ "
                         "its time in ms (the sum of every question's time).")
ACCURACY_DEFINITION: Final = "Accuracy: the probe's right answers ÷ the questions answered."
GAIN_DEFINITION: Final = ("Gain: a tester's after-play score minus their before-play score "
                          "(on the other, parallel form); the mean over testers with its "
                          "paired 95 % interval (Student's t).")
NORMALISED_DEFINITION: Final = (
    "Normalised gain (on accuracy): Hake's g = (after − before) ÷ (1 − before) for a "
    "tester who did not get worse; a loss is scaled by the room there was to lose, "
    "(after − before) ÷ before (Marx & Cummings 2007). Testers at 100 % both times (at "
    "ceiling) or 0 % both times have no room to change: left out and counted.")
ARMS_DEFINITION: Final = (
    "Difference in gain of correct facts per minute between a variant and the control, "
    "adjusted for the before-play score (ANCOVA: the after-play score regressed on the "
    "before-play score and the variant, least squares with HC3 standard errors), with its "
    "95 % interval. '<variant> learned more' when the "
    "interval excludes 0; 'no difference' when it lies inside ± the smallest difference "
    "worth acting on; else 'too few testers'. A fixed-sample interval: read it when the "
    "study is done.")
FACT_DEFINITION: Final = (
    "Per fact: the share right before and after (or on the first try and on later tries "
    "in play), each shrunk toward the rate of all facts (empirical-Bayes beta-binomial), "
    "and the change shrunk toward the change of all facts measured per tester (normal–normal "
    "empirical Bayes), so that a fact seen a few times does not stand out by chance; 95 % "
    "intervals. 'improved' or 'got worse' when the change's interval excludes 0.")
CURVE_DEFINITION: Final = (
    "In-play learning curve: each tester's attempts at one fact in the order played "
    "(attempt 1: the first time they rolled it), pooled over facts and testers: the "
    "share answered without a maths slip (Wilson 95 % interval) and the median time to "
    "the first click (distribution-free 95 % interval).")
RULES_DEFINITION: Final = (
    "Rule errors per turn: the share of a tester's turns with a click the rules refused "
    "(not a maths slip), in the first half of their turns (in the order played, over all "
    "their games) and in the second half; only turns where a rule could refuse a click, "
    "for a game that logs them; the change is the mean over testers with two such turns "
    "or more, with its paired 95 % interval.")
QUIZ_DEFINITION: Final = ("Rules quiz: the share of testers who answered each question "
                          "right, with its Wilson 95 % interval.")


# ----------------------------------------------------------------- probe answers
@dataclass(frozen=True)
class ProbeQuestion:
    """One stored probe entry: ``a × b`` as shown, the answer (None: none), right or not,
    and its ms."""

    a: int
    b: int
    given: int | None
    correct: bool
    ms: int

    @property
    def fact(self) -> str:
        low, high = sorted((self.a, self.b))
        return f"{low}x{high}"


def parse_entry(text: Any) -> ProbeQuestion | None:
    """A probe entry read (None when ``text`` is not one)."""
    match = _ENTRY.match(text) if isinstance(text, str) else None
    if match is None:
        return None
    a, b, given, verdict, ms = match.groups()
    return ProbeQuestion(int(a), int(b), int(given) if given else None, verdict == "ok", int(ms))


PROBE_QUESTION_COLUMNS: Final = ["participant_id", "phase", "survey", "item", "position",
                                 "fact", "a", "b", "answered", "correct", "ms"]


def probe_questions(data: StudyData) -> pd.DataFrame:
    """One row per probe question shown (columns :data:`PROBE_QUESTION_COLUMNS`;
    ``position`` counts from 1 in the order shown). A response is a probe answer when
    every text of its list is a probe entry."""
    def compute() -> pd.DataFrame:
        rows: list[tuple[Any, ...]] = []
        match = _ENTRY.match
        responses = data.responses
        for pid, phase, survey, item, value in zip(
                responses["participant_id"], responses["phase"], responses["survey"],
                responses["item"], responses["value"], strict=True):
            if not isinstance(value, list | tuple) or not value or not isinstance(value[0], str):
                continue
            found = [match(text) if isinstance(text, str) else None for text in value]
            if any(m is None for m in found):
                continue
            for position, m in enumerate(found, start=1):
                a, b, _, verdict, ms = m.groups()  # type: ignore[union-attr]
                low, high = (a, b) if int(a) <= int(b) else (b, a)
                rows.append((pid, phase, survey, item, position, f"{low}x{high}", int(a),
                             int(b), verdict != "none", verdict == "ok", int(ms)))
        return _typed(pd.DataFrame(rows, columns=PROBE_QUESTION_COLUMNS))
    return _remember(data, "learning:probe_questions", compute)


def _typed(table: pd.DataFrame) -> pd.DataFrame:
    return table.astype({"participant_id": str, "phase": str, "answered": bool,
                         "correct": bool})


def _remember(data: StudyData, key: str, compute: Callable[[], Any]) -> Any:
    from analytics import derive

    return derive.remember(data, key, compute)


def probe_scores(data: StudyData) -> pd.DataFrame:
    """Per tester and phase: ``answered, correct, ms, accuracy, cpm`` (module docstring)."""
    return _remember(data, "learning:probe_scores", lambda: _probe_scores(data)).copy()


def _probe_scores(data: StudyData) -> pd.DataFrame:
    questions = probe_questions(data)
    columns = ["participant_id", "phase", "answered", "correct", "ms", "accuracy", "cpm"]
    if questions.empty:
        return pd.DataFrame(columns=columns)
    grouped = questions.groupby(["participant_id", "phase"], sort=True).agg(
        answered=("answered", "sum"), correct=("correct", "sum"), ms=("ms", "sum"))
    table = grouped.reset_index()
    table["accuracy"] = np.where(table["answered"] > 0,
                                 table["correct"] / table["answered"].clip(lower=1), np.nan)
    table["cpm"] = np.where(table["ms"] > 0, table["correct"] * 60_000 / table["ms"].clip(lower=1),
                            np.nan)
    return table[columns]


GAIN_COLUMNS: Final = ["participant_id", "pre_cpm", "post_cpm", "gain_cpm", "pre_accuracy",
                       "post_accuracy", "gain_accuracy", "normalised_gain", "no_room"]


def normalised_change(pre: float, post: float) -> float | None:
    """A tester's normalised gain on accuracy (module docstring); None with no room to
    change (at ceiling or floor both times).

    >>> normalised_change(0.5, 0.75), normalised_change(0.8, 0.4), normalised_change(1.0, 1.0)
    (0.5, -0.5, None)
    >>> normalised_change(1.0, 0.9)
    -0.09999999999999998
    """
    if pre == post and pre in (0.0, 1.0):
        return None
    if post >= pre:
        return (post - pre) / (1 - pre) if pre < 1 else 0.0
    return (post - pre) / pre


def gains_per_tester(data: StudyData) -> pd.DataFrame:
    """Per tester with a probe before and after play: the columns :data:`GAIN_COLUMNS`
    (``no_room``: at ceiling or floor both times, so no normalised gain)."""
    return _remember(data, "learning:gains", lambda: _gains(data)).copy()


def _gains(data: StudyData) -> pd.DataFrame:
    scores = probe_scores(data)
    if scores.empty:
        return pd.DataFrame(columns=GAIN_COLUMNS)
    wide = scores.pivot(index="participant_id", columns="phase", values=["cpm", "accuracy"])
    needed = [("cpm", "pre"), ("cpm", "post")]
    if not all(column in wide.columns for column in needed):
        return pd.DataFrame(columns=GAIN_COLUMNS)
    table = pd.DataFrame({
        "participant_id": wide.index.astype(str),
        "pre_cpm": wide[("cpm", "pre")].to_numpy(float),
        "post_cpm": wide[("cpm", "post")].to_numpy(float),
        "pre_accuracy": wide[("accuracy", "pre")].to_numpy(float),
        "post_accuracy": wide[("accuracy", "post")].to_numpy(float),
    })
    table = table[np.isfinite(table["pre_cpm"]) & np.isfinite(table["post_cpm"])]
    table["gain_cpm"] = table["post_cpm"] - table["pre_cpm"]
    table["gain_accuracy"] = table["post_accuracy"] - table["pre_accuracy"]
    normalised = [normalised_change(pre, post) if math.isfinite(pre) and math.isfinite(post)
                  else None for pre, post in zip(table["pre_accuracy"], table["post_accuracy"],
                                                 strict=True)]
    table["normalised_gain"] = [math.nan if g is None else g for g in normalised]
    table["no_room"] = [g is None and math.isfinite(p) for g, p in
                        zip(normalised, table["pre_accuracy"], strict=True)]
    return table[GAIN_COLUMNS].reset_index(drop=True)


def learning_gain_values(data: StudyData) -> pd.Series:
    """The ``learning_gain`` metric: each tester's gain in correct facts per minute,
    indexed by participant_id (testers without both probes left out)."""
    gains = gains_per_tester(data)
    return pd.Series(gains["gain_cpm"].to_numpy(float), index=gains["participant_id"].to_numpy(),
                     dtype=float)


@dataclass(frozen=True)
class Estimate:
    """A mean (or rate, or difference) with its 95 % interval and the count behind it."""

    value: float
    low: float
    high: float
    n: int

    def text(self, unit: str = "", scale: float = 1.0, digits: int = 1, signed: bool = True) -> str:
        """``'+2.1 facts/min (95% interval +0.4 to +3.8, n = 18)'`` (no brackets: the
        plan's Markdown would escape them).

        >>> Estimate(0.021, -0.004, 0.038, 18).text("pp", 100.0)
        '+2.1 pp (95% interval −0.4 to +3.8, n = 18)'
        """
        if not math.isfinite(self.value):
            return f"– (n = {self.n})"
        sign = "+" if signed else ""

        def fmt(x: float) -> str:
            return "–" if not math.isfinite(x) else f"{x * scale:{sign}.{digits}f}".replace("-", "−")
        tail = f" {unit}" if unit else ""
        if not (math.isfinite(self.low) and math.isfinite(self.high)):
            return f"{fmt(self.value)}{tail} (no interval yet, n = {self.n})"
        return (f"{fmt(self.value)}{tail} (95% interval {fmt(self.low)} to {fmt(self.high)}, "
                f"n = {self.n})")

    def to_json(self) -> dict[str, Any]:
        return {"value": _num(self.value), "interval": [_num(self.low), _num(self.high)],
                "n": self.n}


def _num(value: float) -> float | None:
    return None if value is None or not math.isfinite(value) else round(float(value), 6)


def mean_estimate(values: Iterable[float]) -> Estimate:
    """The mean with Student's t 95 % interval (``scipy.stats.ttest_1samp``).

    >>> e = mean_estimate([1.0, 2.0, 3.0])
    >>> e.value, round(e.low, 3), round(e.high, 3), e.n
    (2.0, -0.484, 4.484, 3)
    """
    array = np.asarray([v for v in values if v is not None and math.isfinite(v)], dtype=float)
    if len(array) == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = float(array.mean())
    if len(array) < 2 or float(np.ptp(array)) == 0.0:
        return Estimate(mean, math.nan, math.nan, len(array))
    interval = sps.ttest_1samp(array, 0.0).confidence_interval(1 - ALPHA)
    return Estimate(mean, float(interval.low), float(interval.high), len(array))


@dataclass(frozen=True)
class GainSummary:
    """One group's gains (all testers, or one variant's): means with paired intervals."""

    group: str
    pre_cpm: Estimate
    post_cpm: Estimate
    gain_cpm: Estimate
    gain_accuracy: Estimate
    normalised_gain: Estimate
    no_room: int

    def to_json(self) -> dict[str, Any]:
        return {"group": self.group, "pre_cpm": self.pre_cpm.to_json(),
                "post_cpm": self.post_cpm.to_json(), "gain_cpm": self.gain_cpm.to_json(),
                "gain_accuracy": self.gain_accuracy.to_json(),
                "normalised_gain": self.normalised_gain.to_json(), "no_room": self.no_room}


def summarise(gains: pd.DataFrame, group: str = "all testers") -> GainSummary:
    """:class:`GainSummary` of the rows of :func:`gains_per_tester`."""
    return GainSummary(group, mean_estimate(gains["pre_cpm"]), mean_estimate(gains["post_cpm"]),
                       mean_estimate(gains["gain_cpm"]), mean_estimate(gains["gain_accuracy"]),
                       mean_estimate(gains["normalised_gain"]), int(gains["no_room"].sum()))


def variants(data: StudyData, experiment: str) -> pd.Series:
    """variant by participant_id (the latest assignment wins)."""
    table = data.assignments[data.assignments["experiment"] == experiment]
    table = table.sort_values("at", kind="stable").drop_duplicates("participant_id", keep="last")
    return pd.Series(table["variant"].astype(str).to_numpy(),
                     index=table["participant_id"].astype(str).to_numpy())


def summaries_by_variant(gains: pd.DataFrame, assigned: pd.Series,
                         names: Sequence[str]) -> list[GainSummary]:
    """:func:`summarise` per variant, in ``names`` order."""
    arm = gains["participant_id"].map(assigned)
    return [summarise(gains[arm == name], name) for name in names]


@dataclass(frozen=True)
class ArmComparison:
    """Whether an experiment's arms differ in learning (module docstring, "Arms")."""

    experiment: str
    control: str
    treatment: str
    counts: Mapping[str, int]
    effect: Estimate
    p_value: float
    verdict: str
    min_effect: float

    def summary(self) -> str:
        """The verdict in one sentence with the effect and its interval."""
        return (f"{self.verdict}: {self.treatment} − {self.control} = "
                f"{self.effect.text('facts/min')} in gain of correct facts per minute, "
                f"adjusted for the before-play score (smallest difference worth acting "
                f"on: {self.min_effect:g} facts/min).")

    def to_json(self) -> dict[str, Any]:
        return {"experiment": self.experiment, "control": self.control,
                "treatment": self.treatment, "counts": dict(self.counts),
                "effect": self.effect.to_json(), "p_value": _num(self.p_value),
                "verdict": self.verdict, "min_effect": self.min_effect,
                "summary": self.summary(), "definition": ARMS_DEFINITION}


def _ancova(frame: pd.DataFrame, treatment: str, alpha: float) -> tuple[Estimate, float]:
    """post ~ pre + treated (HC3): the treated coefficient, its interval and p-value."""
    import statsmodels.api as sm

    treated = (frame["arm"] == treatment).astype(float).to_numpy()
    design = np.column_stack([np.ones(len(frame)), frame["pre_cpm"].to_numpy(float), treated])
    n = len(frame)
    if n < 5 or treated.sum() < 2 or (n - treated.sum()) < 2:
        effect = float(frame.loc[treated == 1, "gain_cpm"].mean()
                       - frame.loc[treated == 0, "gain_cpm"].mean()) if n else math.nan
        return Estimate(effect, math.nan, math.nan, n), math.nan
    fit = sm.OLS(frame["post_cpm"].to_numpy(float), design).fit(cov_type="HC3", use_t=True)
    low, high = fit.conf_int(alpha=alpha)[2]
    return Estimate(float(fit.params[2]), float(low), float(high), n), float(fit.pvalues[2])


def compare_arms(gains: pd.DataFrame, assigned: pd.Series, names: Sequence[str],
                 experiment: str = "", min_effect: float = MIN_EFFECT_CPM,
                 alpha: float = ALPHA) -> ArmComparison | None:
    """The arms' difference in learning (module docstring, "Arms"): the first of
    ``names`` is the control; with more arms, the one that gained most is compared, at
    α / (arms − 1). None with fewer than two arms."""
    if len(names) < 2:
        return None
    frame = gains.assign(arm=gains["participant_id"].map(assigned))
    frame = frame[frame["arm"].isin(list(names))]
    counts = {name: int((frame["arm"] == name).sum()) for name in names}
    control = names[0]
    means = {name: float(frame.loc[frame["arm"] == name, "gain_cpm"].mean())
             if counts[name] else -math.inf for name in names[1:]}
    treatment = max(means, key=lambda name: means[name])
    pair = frame[frame["arm"].isin([control, treatment])]
    effect, p_value = _ancova(pair, treatment, alpha / (len(names) - 1))
    if not (math.isfinite(effect.low) and math.isfinite(effect.high)):
        verdict = VERDICT_TOO_FEW
    elif effect.low > 0:
        verdict = f"{treatment} learned more"
    elif effect.high < 0:
        verdict = f"{control} learned more"
    elif -min_effect < effect.low and effect.high < min_effect:
        verdict = VERDICT_NO_DIFFERENCE
    else:
        verdict = VERDICT_TOO_FEW
    return ArmComparison(experiment, control, treatment, counts, effect, p_value, verdict,
                         min_effect)


def experiment_comparisons(data: StudyData, gains: pd.DataFrame | None = None
                           ) -> list[ArmComparison]:
    """:func:`compare_arms` for every experiment of the study (its ``min_effect`` when its
    primary metric is ``learning_gain``)."""
    gains = gains_per_tester(data) if gains is None else gains
    found = []
    for experiment in data.study.get("experiments") or []:
        key = str(experiment.get("key"))
        assigned = variants(data, key)
        names = [str(v) for v in experiment.get("variants") or []] or sorted(assigned.unique())
        min_effect = MIN_EFFECT_CPM
        if experiment.get("primary_metric") == "learning_gain":
            try:
                min_effect = float(experiment.get("min_effect") or MIN_EFFECT_CPM)
            except (TypeError, ValueError):
                min_effect = MIN_EFFECT_CPM
            if not (math.isfinite(min_effect) and min_effect > 0):
                min_effect = MIN_EFFECT_CPM
        result = compare_arms(gains, assigned, names, key, min_effect)
        if result is not None:
            found.append(result)
    return found


# ----------------------------------------------------------------- facts
FACT_CHANGE_COLUMNS: Final = [
    "fact", "n_before", "right_before", "rate_before", "before_low", "before_high",
    "n_after", "right_after", "rate_after", "after_low", "after_high",
    "change", "change_low", "change_high", "verdict"]


def _shrunk(counts: pd.DataFrame, n_col: str, k_col: str) -> tuple[np.ndarray, ...]:
    """Each row's rate shrunk toward the pooled rate (beta-binomial EB), with its interval."""
    tallies = [severity.Tally(str(i), "fact", int(n), int(k), 0, 0, 0, 0, 0, 0, 0.0, 1.0)
               for i, n, k in zip(counts.index, counts[n_col], counts[k_col], strict=True)]
    prior = severity.fit_prior(tallies)
    rate, low, high = prior.posterior(counts[k_col].to_numpy(float), counts[n_col].to_numpy(float))
    return np.asarray(rate, float), np.asarray(low, float), np.asarray(high, float)


def pooled_changes(change: np.ndarray, variance: np.ndarray, common: Estimate | None = None
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each raw change shrunk toward the common change (normal–normal empirical Bayes; the
    between-fact variance by Paule–Mandel, ``statsmodels``), with a 95 % interval that
    counts the common change's own uncertainty. ``common``: the common change measured
    per tester (its interval holds although a tester answers many facts); without it, the
    facts' own weighted mean.

    >>> shrunk, low, high = pooled_changes(np.array([0.5, 0.0, 0.1]), np.array([1.0, 0.01, 0.01]))
    >>> bool(shrunk[0] < 0.5), bool(low[0] < shrunk[0] < high[0])
    (True, True)
    """
    if len(change) == 0:
        empty = np.array([], dtype=float)
        return empty, empty, empty
    if len(change) < 3:
        half = 1.96 * np.sqrt(variance)
        return change, change - half, change + half
    from statsmodels.stats.meta_analysis import combine_effects

    combined = combine_effects(change, variance, method_re="iterated", use_t=False)
    tau2 = max(float(combined.tau2), 0.0)
    mean = float(combined.mean_effect_re)
    mean_var = float(combined.sd_eff_w_re) ** 2
    if common is not None and math.isfinite(common.low) and math.isfinite(common.high):
        mean, mean_var = common.value, ((common.high - common.low) / (2 * 1.96)) ** 2
    weight = tau2 / (tau2 + variance)
    shrunk = mean + weight * (change - mean)
    spread = np.sqrt(weight * variance + (1 - weight) ** 2 * mean_var)
    return shrunk, shrunk - 1.96 * spread, shrunk + 1.96 * spread


def fact_changes(before: pd.DataFrame, after: pd.DataFrame, common: Estimate | None = None
                 ) -> pd.DataFrame:
    """Per fact with tries in both ``before`` and ``after`` (frames with ``fact`` and
    ``correct``): the columns :data:`FACT_CHANGE_COLUMNS` (module docstring, "Facts"),
    most improved first; ``common``: the change of all facts measured per tester
    (:func:`pooled_changes`)."""
    first = before.groupby("fact")["correct"].agg(n_before="size", right_before="sum")
    later = after.groupby("fact")["correct"].agg(n_after="size", right_after="sum")
    counts = first.join(later, how="inner")
    if counts.empty:
        return pd.DataFrame(columns=FACT_CHANGE_COLUMNS)
    counts = counts.astype(int)
    b_rate, b_low, b_high = _shrunk(counts, "n_before", "right_before")
    a_rate, a_low, a_high = _shrunk(counts, "n_after", "right_after")
    # Agresti–Caffo: add one right and one wrong to each side (no zero variance at 0 or 100 %)
    p1 = (counts["right_before"] + 1) / (counts["n_before"] + 2)
    p2 = (counts["right_after"] + 1) / (counts["n_after"] + 2)
    raw = (p2 - p1).to_numpy(float)
    variance = (p1 * (1 - p1) / (counts["n_before"] + 2)
                + p2 * (1 - p2) / (counts["n_after"] + 2)).to_numpy(float)
    change, low, high = pooled_changes(raw, variance, common)
    table = counts.reset_index()
    table["rate_before"], table["before_low"], table["before_high"] = b_rate, b_low, b_high
    table["rate_after"], table["after_low"], table["after_high"] = a_rate, a_low, a_high
    table["change"], table["change_low"], table["change_high"] = change, low, high
    table["verdict"] = np.where(low > 0, IMPROVED, np.where(high < 0, WORSE, UNCLEAR))
    factors = table["fact"].str.split("x", expand=True).astype(int)
    table["_a"], table["_b"] = factors[0], factors[1]
    return table.sort_values(["change", "_a", "_b"], ascending=[False, True, True],
                             kind="stable").reset_index(drop=True)[FACT_CHANGE_COLUMNS]


def probe_fact_changes(data: StudyData) -> pd.DataFrame:
    """:func:`fact_changes` of the probe's answered questions, before against after play
    (the common change: the testers' mean gain in accuracy)."""
    questions = probe_questions(data)
    answered = questions[questions["answered"]]
    common = mean_estimate(gains_per_tester(data)["gain_accuracy"])
    return fact_changes(answered[answered["phase"] == "pre"],
                        answered[answered["phase"] == "post"], common)


PLAY_ATTEMPT_COLUMNS: Final = ["participant_id", "fact", "attempt", "correct", "ms", "at"]


def numbered_attempts(table: pd.DataFrame) -> pd.DataFrame:
    """A game's in-play tries at facts (``participant_id, fact, correct, ms, at``, in any
    order) with ``attempt``: 1, 2, … per tester and fact in the order played."""
    if table.empty:
        return pd.DataFrame(columns=PLAY_ATTEMPT_COLUMNS)
    ordered = table.sort_values(["participant_id", "at"], kind="stable").reset_index(drop=True)
    ordered["attempt"] = ordered.groupby(["participant_id", "fact"]).cumcount() + 1
    return ordered[PLAY_ATTEMPT_COLUMNS]


def play_fact_changes(attempts: pd.DataFrame) -> pd.DataFrame:
    """:func:`fact_changes` in play: each tester's first try at a fact against their later
    tries at it."""
    return fact_changes(attempts[attempts["attempt"] == 1], attempts[attempts["attempt"] > 1],
                        curve_change(attempts))


def learning_curve(attempts: pd.DataFrame, last: int = 5, min_tries: int = 10) -> pd.DataFrame:
    """Per attempt number (1 … ``last``, then ``last``+ together; fewer numbers when the
    later ones have under ``min_tries`` tries between them: those go together into the
    last shown): ``attempt, label, tries, testers, right_rate, right_low, right_high,
    median_ms, ms_low, ms_high`` (module docstring, "In-play learning curve")."""
    columns = ["attempt", "label", "tries", "testers", "right_rate", "right_low", "right_high",
               "median_ms", "ms_low", "ms_high"]
    if attempts.empty:
        return pd.DataFrame(columns=columns)
    reached = [n for n in range(2, last + 1) if int((attempts["attempt"] >= n).sum()) >= min_tries]
    last = max(reached, default=1)
    bucket = attempts["attempt"].clip(upper=last)
    rows = []
    for number, group in attempts.groupby(bucket, sort=True):
        k, n = int(group["correct"].sum()), len(group)
        low, high = wilson_interval(k, n)
        median, ms_low, ms_high = median_interval(
            pd.to_numeric(group["ms"], errors="coerce").to_numpy(float))
        more = number == last and int(attempts["attempt"].max()) > last
        rows.append((int(number), f"{number}+" if more else str(number), n,
                     group["participant_id"].nunique(), k / n, low, high, median, ms_low, ms_high))
    return pd.DataFrame(rows, columns=columns)


def curve_change(attempts: pd.DataFrame) -> Estimate:
    """Per tester who tried some fact twice or more: their share right on later tries of
    their repeated facts minus on the first tries of them; the mean with its paired
    interval."""
    if attempts.empty:
        return Estimate(math.nan, math.nan, math.nan, 0)
    repeated = attempts.groupby(["participant_id", "fact"])["attempt"].transform("max") > 1
    rows = attempts[repeated]
    first = rows[rows["attempt"] == 1].groupby("participant_id")["correct"].mean()
    later = rows[rows["attempt"] > 1].groupby("participant_id")["correct"].mean()
    both = pd.concat([first.rename("first"), later.rename("later")], axis=1).dropna()
    return mean_estimate((both["later"] - both["first"]).astype(float))


# ----------------------------------------------------------------- rules
#: A game's rule occasions: per turn (:func:`analytics.derive.turns` rows), the rule
#: reasons that could refuse a click on it (a list; NaN where the game did not log them).
Occasions = Callable[[StudyData, pd.DataFrame], pd.Series]


def rule_errors_by_half(data: StudyData, occasions: Occasions | None = None) -> pd.DataFrame:
    """Per tester with two turns or more: ``first`` (share of the first half of their
    turns, in the order played, with a click the rules refused), ``later`` (the same over
    the second half) and ``turns``. A refused click is a wrong click that is not a maths
    slip: its ``wrong_kind`` is ``rule``, or it has none (games whose clicks are only
    refused by their rules). With the game's ``occasions``, only the turns on which a rule
    could refuse a click count (a board that fills up offers more chances to err: that is
    not a change in understanding)."""
    from analytics import derive

    columns = ["participant_id", "first", "later", "turns"]
    table = derive.turns(data)
    if not table.empty and occasions is not None:
        possible = occasions(data, table)
        table = table[[not isinstance(v, list | tuple) or len(v) > 0 for v in possible]]
    if table.empty:
        return pd.DataFrame(columns=columns)
    clicks = derive.clicks(data)
    refused = clicks[(clicks["turn_id"] >= 0) & ~clicks["ok"]
                     & (clicks["wrong_kind"].isna() | (clicks["wrong_kind"] == "rule"))]
    table = table.assign(rule=table["turn_id"].isin(set(refused["turn_id"])),
                         seq=pd.to_numeric(table["seq"], errors="coerce"))
    table = table.sort_values(["participant_id", "at", "seq"], kind="stable")
    position = table.groupby("participant_id").cumcount()
    count = table.groupby("participant_id")["rule"].transform("size")
    table = table.assign(later=position >= count / 2)[count >= 2]
    if table.empty:
        return pd.DataFrame(columns=columns)
    shares = table.groupby(["participant_id", "later"])["rule"].mean().unstack()
    turns = table.groupby("participant_id").size()
    return pd.DataFrame({"participant_id": shares.index.astype(str),
                         "first": shares[False].to_numpy(float),
                         "later": shares[True].to_numpy(float),
                         "turns": turns.reindex(shares.index).to_numpy(int)})


@dataclass(frozen=True)
class RuleTrend:
    """Rule errors per turn in the first and the second half of testers' turns (module
    docstring)."""

    first: Estimate
    later: Estimate
    change: Estimate

    def to_json(self) -> dict[str, Any]:
        return {"first_half": self.first.to_json(), "second_half": self.later.to_json(),
                "change": self.change.to_json(), "definition": RULES_DEFINITION}


def rule_trend(data: StudyData, occasions: Occasions | None = None) -> RuleTrend:
    """:class:`RuleTrend` over the testers with two turns or more (on the game's rule
    ``occasions`` when it has them)."""
    table = rule_errors_by_half(data, occasions)
    both = table.dropna(subset=["first", "later"])
    return RuleTrend(mean_estimate(both["first"]), mean_estimate(both["later"]),
                     mean_estimate(both["later"] - both["first"]))


QUIZ_ROW_COLUMNS: Final = ["item", "phase", "testers", "right", "rate", "low", "high"]


def quiz_rows(quiz: pd.DataFrame) -> pd.DataFrame:
    """Per quiz question and phase (``post`` when the frame has no ``phase``): testers,
    right answers, the share right and its Wilson interval."""
    if quiz.empty:
        return pd.DataFrame(columns=QUIZ_ROW_COLUMNS)
    frame = quiz if "phase" in quiz.columns else quiz.assign(phase="post")
    rows = []
    for (item, phase), group in frame.groupby(["item", "phase"], sort=True):
        right = int(group["correct"].astype(bool).sum())
        low, high = wilson_interval(right, len(group))
        rows.append((str(item), str(phase), len(group), right, right / len(group), low, high))
    table = pd.DataFrame(rows, columns=QUIZ_ROW_COLUMNS)
    table["order"] = table["phase"].map(PHASE_ORDER).fillna(9)
    return table.sort_values(["item", "order"], kind="stable").drop(columns="order").reset_index(drop=True)


def quiz_change(quiz: pd.DataFrame) -> Estimate:
    """Per tester who answered quiz questions before and after play: share right after
    minus before; the mean with its paired interval (NaN without both phases)."""
    if quiz.empty or "phase" not in quiz.columns:
        return Estimate(math.nan, math.nan, math.nan, 0)
    share = quiz.assign(correct=quiz["correct"].astype(float)).groupby(
        ["participant_id", "phase"])["correct"].mean().unstack()
    if "pre" not in share.columns or "post" not in share.columns:
        return Estimate(math.nan, math.nan, math.nan, 0)
    both = share.dropna(subset=["pre", "post"])
    return mean_estimate(both["post"] - both["pre"])


# ----------------------------------------------------------------- per-fact table
FACT_TABLE_COLUMNS: Final = ["tester", "fact", "attempt", "phase", "correct", "ms"]


def fact_table(data: StudyData, play: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every answer to a fact, one row each: ``tester, fact, attempt, phase, correct, ms``
    (the export's per-fact table). ``phase`` is ``pre`` (probe before play), ``play``
    (the game's tries: ``play``, a game's :func:`numbered_attempts` input, None: none) or
    ``post``; ``attempt`` counts a tester's answers to that fact through the study in that
    order (probe questions in the order shown)."""
    questions = probe_questions(data)
    answered = questions[questions["answered"]]
    probe = pd.DataFrame({"tester": answered["participant_id"], "fact": answered["fact"],
                          "phase": answered["phase"], "correct": answered["correct"],
                          "ms": answered["ms"], "order": answered["position"]})
    parts = [probe]
    if play is not None and not play.empty:
        ordered = play.sort_values(["participant_id", "at"], kind="stable")
        parts.append(pd.DataFrame({"tester": ordered["participant_id"].astype(str),
                                   "fact": ordered["fact"], "phase": "play",
                                   "correct": ordered["correct"].astype(bool),
                                   "ms": pd.to_numeric(ordered["ms"], errors="coerce"),
                                   "order": np.arange(len(ordered))}))
    table = pd.concat([p for p in parts if not p.empty], ignore_index=True) \
        if any(not p.empty for p in parts) else pd.DataFrame(columns=[*FACT_TABLE_COLUMNS, "order"])
    if table.empty:
        return pd.DataFrame(columns=FACT_TABLE_COLUMNS)
    table["rank"] = table["phase"].map(PHASE_ORDER).fillna(3)
    table = table.sort_values(["tester", "rank", "order"], kind="stable")
    table["attempt"] = table.groupby(["tester", "fact"]).cumcount() + 1
    table["ms"] = pd.to_numeric(table["ms"], errors="coerce").round().astype("Int64")
    table["correct"] = table["correct"].astype(bool)
    return table[FACT_TABLE_COLUMNS].reset_index(drop=True)


# ----------------------------------------------------------------- the page and the plan
@dataclass(frozen=True)
class LearningView:
    """Everything the Learning page and the plan's section show, worked out once.

    ``game_title``; ``has_facts``: the game asks facts in play (its plug-in's
    ``fact_attempts``); ``gains`` (None without testers with both probes) and
    ``by_variant`` (experiment → one summary per variant); ``arms``: each experiment's
    :class:`ArmComparison`; ``probe_facts`` / ``play_facts``: :func:`fact_changes`;
    ``curve`` and ``curve_change``: the in-play learning curve; ``rules``: rule errors
    over games; ``quiz`` (:func:`quiz_rows`) and ``quiz_change``; ``probe_testers``:
    testers with a probe answer per phase.
    """

    game_title: str
    has_facts: bool
    probe_testers: Mapping[str, int]
    gains: GainSummary | None
    by_variant: Mapping[str, tuple[GainSummary, ...]]
    arms: tuple[ArmComparison, ...]
    probe_facts: pd.DataFrame
    play_facts: pd.DataFrame
    curve: pd.DataFrame
    curve_change: Estimate
    rules: RuleTrend
    quiz: pd.DataFrame
    quiz_change: Estimate


def learning_view(data: StudyData, quiz: pd.DataFrame, game_title: str,
                  fact_attempts: Callable[[StudyData], pd.DataFrame] | None,
                  occasions: Occasions | None = None) -> LearningView:
    """:class:`LearningView` of a study (``quiz``: the quiz frame, with a ``phase`` column
    when known; ``fact_attempts``: the game's tries at facts in play, None without;
    ``occasions``: its rule occasions, :func:`rule_errors_by_half`)."""
    scores = probe_scores(data)
    gains = gains_per_tester(data)
    by_variant: dict[str, tuple[GainSummary, ...]] = {}
    for experiment in data.study.get("experiments") or []:
        key = str(experiment.get("key"))
        assigned = variants(data, key)
        names = [str(v) for v in experiment.get("variants") or []] or sorted(assigned.unique())
        by_variant[key] = tuple(replace(summary, group=f"{key}: {summary.group}")
                                for summary in summaries_by_variant(gains, assigned, names))
    attempts = numbered_attempts(fact_attempts(data)) if fact_attempts is not None \
        else pd.DataFrame(columns=PLAY_ATTEMPT_COLUMNS)
    return LearningView(
        game_title=game_title, has_facts=fact_attempts is not None,
        probe_testers={phase: int((scores["phase"] == phase).sum()) for phase in ("pre", "post")},
        gains=summarise(gains) if len(gains) else None, by_variant=by_variant,
        arms=tuple(experiment_comparisons(data, gains)),
        probe_facts=probe_fact_changes(data), play_facts=play_fact_changes(attempts),
        curve=learning_curve(attempts), curve_change=curve_change(attempts),
        rules=rule_trend(data, occasions), quiz=quiz_rows(quiz), quiz_change=quiz_change(quiz))


def _pct(estimate: Estimate) -> str:
    return estimate.text("pp", 100.0)


def _facts_named(table: pd.DataFrame, verdict: str) -> str:
    named = table.loc[table["verdict"] == verdict, "fact"].astype(str).tolist()
    if named and not facts_stand_apart(table):
        return f"all {len(table)} facts, together (none changed apart from the others)"
    return ", ".join(f.replace("x", " × ") for f in named) if named else "none"


def plan_rows(view: LearningView) -> list[dict[str, str]]:
    """The plan's Learning table: ``measure``, ``result`` (with its 95 % interval and
    count) and ``definition`` per row."""
    rows: list[dict[str, str]] = []

    def add(measure: str, result: str, definition: str) -> None:
        rows.append({"measure": measure, "result": result, "definition": definition})

    if not view.has_facts:
        add("Times-table facts", f"none: {view.game_title} asks no facts, so its learning "
            "is rule understanding (below)", "")
    elif view.gains is None:
        add("Fluency probe", f"no tester answered it before and after play (before: "
            f"{view.probe_testers.get('pre', 0)}, after: {view.probe_testers.get('post', 0)})",
            "Add a fluency_probe item to the pre and post forms to measure gains.")
    if view.gains is not None:
        g = view.gains
        add("Correct facts per minute before play", g.pre_cpm.text(signed=False), CPM_DEFINITION)
        add("Correct facts per minute after play", g.post_cpm.text(signed=False), CPM_DEFINITION)
        add("Gain in correct facts per minute", g.gain_cpm.text("facts/min"), GAIN_DEFINITION)
        add("Gain in accuracy", _pct(g.gain_accuracy), ACCURACY_DEFINITION + " " + GAIN_DEFINITION)
        add("Normalised gain", g.normalised_gain.text(digits=2)
            + f"; {g.no_room} at ceiling or floor", NORMALISED_DEFINITION)
        for arm in view.arms:
            add(f"Experiment {arm.experiment}: {arm.verdict}",
                f"{arm.treatment} − {arm.control}: {arm.effect.text('facts/min')}", ARMS_DEFINITION)
    for source, table in (("probe, before → after play", view.probe_facts),
                          ("play, first try → later tries", view.play_facts)):
        if len(table):
            add(f"Facts that improved ({source})", _facts_named(table, IMPROVED), FACT_DEFINITION)
            add(f"Facts that got worse ({source})", _facts_named(table, WORSE), FACT_DEFINITION)
    if view.has_facts and view.curve_change.n:
        add("In play: share right on later tries − first tries", _pct(view.curve_change),
            CURVE_DEFINITION)
    if view.rules.change.n:
        add("Rule errors per turn: second half − first half of turns", _pct(view.rules.change),
            RULES_DEFINITION)
    else:
        add("Rule errors per turn", "no tester has played two turns yet", RULES_DEFINITION)
    if view.quiz_change.n:
        add("Rules quiz: share right after − before play", _pct(view.quiz_change),
            QUIZ_DEFINITION)
    for row in view.quiz.itertuples(index=False):
        when = "before play" if row.phase == "pre" else "after play"
        add(f"Rules quiz {row.item}, {when}",
            f"{row.rate:.0%} (95% interval {row.low:.0%} to {row.high:.0%}, n = {row.testers})",
            QUIZ_DEFINITION)
    return rows


def report_section(view: LearningView) -> dict[str, Any]:
    """The report JSON's ``learning`` key: the plan's rows and the numbers behind them."""
    return {
        "game": view.game_title, "has_facts": view.has_facts,
        "probe_testers": dict(view.probe_testers),
        "gains": None if view.gains is None else view.gains.to_json(),
        "by_variant": {key: [s.to_json() for s in summaries]
                       for key, summaries in view.by_variant.items()},
        "experiments": [arm.to_json() for arm in view.arms],
        "facts_improved": {
            "probe": view.probe_facts.loc[view.probe_facts["verdict"] == IMPROVED, "fact"].tolist(),
            "play": view.play_facts.loc[view.play_facts["verdict"] == IMPROVED, "fact"].tolist()},
        "facts_worse": {
            "probe": view.probe_facts.loc[view.probe_facts["verdict"] == WORSE, "fact"].tolist(),
            "play": view.play_facts.loc[view.play_facts["verdict"] == WORSE, "fact"].tolist()},
        "rules": view.rules.to_json(), "quiz_change": view.quiz_change.to_json(),
        "rows": plan_rows(view),
    }


def facts_stand_apart(table: pd.DataFrame) -> bool:
    """Whether the facts' changes differ beyond chance (partial pooling left them apart);
    False when every fact was pulled to the common change."""
    return len(table) > 1 and float(table["change"].max() - table["change"].min()) > 1e-9


def facts_to_draw(table: pd.DataFrame, most: int = 10) -> pd.DataFrame:
    """The facts a chart shows: every one that improved or got worse, and the ``most``
    that changed most each way (so the chart stays readable with 66 facts)."""
    if len(table) <= 2 * most:
        return table
    marked = table["verdict"] != UNCLEAR
    ends = table.index.isin(table.index[:most]) | table.index.isin(table.index[-most:])
    return table[marked | ends]


def facts_for_people(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`fact_changes` for people: the fact written out, tries and shrunk shares
    with their intervals, the change and the verdict."""
    def share(rate: float, low: float, high: float) -> str:
        return f"{rate:.0%} ({low:.0%} to {high:.0%})"

    def change(value: float, low: float, high: float) -> str:
        return Estimate(value, low, high, 0).text("pp", 100.0).removesuffix(", n = 0)") + ")"

    return pd.DataFrame({
        "Fact": [f.replace("x", " × ") for f in table["fact"]],
        "Tries before": table["n_before"],
        "Right before, shrunk (95%)": [share(*v) for v in zip(
            table["rate_before"], table["before_low"], table["before_high"], strict=True)],
        "Tries after": table["n_after"],
        "Right after, shrunk (95%)": [share(*v) for v in zip(
            table["rate_after"], table["after_low"], table["after_high"], strict=True)],
        "Change, pooled (95%)": [change(*v) for v in zip(
            table["change"], table["change_low"], table["change_high"], strict=True)],
        "Verdict": table["verdict"]})
