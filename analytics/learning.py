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

The facts and the in-play curve are in :mod:`analytics.learning_facts`; rule
understanding, the page's view and the plan's rows in :mod:`analytics.learning_view`.

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
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import pandas as pd

from analytics.data import StudyData

ALPHA: Final = 0.05
#: The smallest difference in cpm gain between arms worth acting on (default).
MIN_EFFECT_CPM: Final = 2.0
PHASE_ORDER: Final = {"pre": 0, "play": 1, "post": 2}
_ENTRY: Final = re.compile(r"^(\d{1,2})x(\d{1,2})=(\d{0,3});(ok|wrong|none);(\d{1,10})$")

VERDICT_TOO_FEW: Final = "too few testers"
VERDICT_NO_DIFFERENCE: Final = "no difference"

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
    from scipy import stats as sps
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
