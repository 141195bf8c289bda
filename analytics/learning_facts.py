"""Which facts did they learn? Per-fact changes with partial pooling, the in-play
learning curve and the per-fact table (the definitions: :mod:`analytics.learning`).

>>> import pandas as pd
>>> before = pd.DataFrame({"fact": ["7x8"] * 4, "correct": [False, False, True, False]})
>>> after = pd.DataFrame({"fact": ["7x8"] * 4, "correct": [True, True, True, False]})
>>> fact_changes(before, after)["n_after"].tolist()
[4]
"""

from __future__ import annotations

import math
from typing import Final

import numpy as np
import pandas as pd

from analytics import severity
from analytics.data import StudyData
from analytics.learning import (
    PHASE_ORDER,
    Estimate,
    gains_per_tester,
    mean_estimate,
    probe_questions,
)
from analytics.stats import median_interval, wilson_interval

IMPROVED, WORSE, UNCLEAR = "improved", "got worse", "no clear change"


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
