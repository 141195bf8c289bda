"""Multiplication facts: the hardest facts and the ``fact:<a>x<b>`` confusion points.

A turn's **fact** is ``P×G`` with ``P = p1+p2``, ``G = g1+g2`` (see
:mod:`analytics.games.vapoosh.rolls`), keyed smaller factor first (``"7x8"``). An attempt is a human
turn with at least one click; it is wrong when it holds a wrong click other than a
``rule`` one (a maths slip).

>>> from analytics.data import StudyData
>>> hardest_facts(StudyData.empty("s")).empty
True
>>> fact_label("7x8", {}), fact_action("7x8", {}).split(";")[0]
('Hard fact 7 × 8 = 56', 'When 7 × 8 is rolled, show the row and column headers of 7 and 8')
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from analytics import derive, severity
from analytics.confusion import _rows, occasion_tallies
from analytics.data import StudyData
from analytics.games.vapoosh.rolls import roll_turns

FACT_DEFINITION = ("Occasions: turns that rolled this fact and got a click. Trouble: a maths "
                   "wrong click. Baseline: the study's maths-slip rate.")


def hardest_facts(data: StudyData, min_attempts: int = 5) -> pd.DataFrame:
    """Multiplication facts ranked by maths-error rate (smaller factor first: ``7x8``).

    Columns: ``fact, a, b, attempts, wrong, wrong_rate, median_ms, smoothed_rate, ci_low,
    ci_high``; facts with fewer than ``min_attempts`` attempts are left out.
    ``smoothed_rate`` is the wrong rate shrunk toward the study's maths-error rate by
    empirical Bayes (:func:`analytics.severity.fit_prior` over all facts),
    ``ci_low``/``ci_high`` its 95 % interval; ranked by it, then attempts.
    """
    # confusion_points, the page and the report all ask: computed once per StudyData
    return derive.remember(data, f"hardest_facts:{min_attempts}",
                           lambda: _hardest_facts(data, min_attempts)).copy()


def _hardest_facts(data: StudyData, min_attempts: int) -> pd.DataFrame:
    columns = ["fact", "a", "b", "attempts", "wrong", "wrong_rate", "median_ms",
               "smoothed_rate", "ci_low", "ci_high"]
    turn_table = roll_turns(data)
    attempted = turn_table[(turn_table["n_clicks"] > 0) & turn_table["fact"].notna()]
    grouped = attempted.assign(wrong=attempted["n_wrong_math"] > 0).groupby("fact")
    result = pd.DataFrame({
        "a": grouped["a"].first(), "b": grouped["b"].first(),
        "attempts": grouped.size(), "wrong": grouped["wrong"].sum(),
        "median_ms": grouped["first_ms"].median(),
    }).rename_axis("fact").reset_index()
    if result.empty:
        return pd.DataFrame(columns=columns)
    study_rate = float((attempted["n_wrong_math"] > 0).mean())
    prior = severity.fit_prior(
        [severity.Tally(str(f), "fact", int(n), int(k), 0, 0, 0, 0, 0, 0, study_rate, 1.0)
         for f, n, k in zip(result["fact"], result["attempts"], result["wrong"],
                            strict=True)], study_rate)
    result = result[result["attempts"] >= min_attempts].copy()
    result["a"] = result["a"].astype(int)
    result["b"] = result["b"].astype(int)
    result["wrong"] = result["wrong"].astype(int)
    result["wrong_rate"] = result["wrong"] / result["attempts"]
    rate, low, high = prior.posterior(result["wrong"], result["attempts"])
    result["smoothed_rate"] = rate
    result["ci_low"] = low if len(result) else []
    result["ci_high"] = high if len(result) else []
    return result.sort_values(["smoothed_rate", "attempts"], ascending=[False, False],
                              kind="stable").reset_index(drop=True)[columns]


def facts_for_people(data: StudyData) -> pd.DataFrame:
    """:func:`hardest_facts` with each fact written out: ``7 × 8 = 56``."""
    facts = hardest_facts(data)
    return facts.assign(fact=[f"{a} × {b} = {a * b}" for a, b in zip(
        facts["a"], facts["b"], strict=True)]) if len(facts) else facts


def hardest_facts_rows(data: StudyData, top: int, min_attempts: int
                       ) -> list[dict[str, Any]]:
    """The report's ``hardest_facts``: ``fact, attempts, wrong_rate, median_ms,
    shrunk_rate, interval`` (the rate shrunk toward the study's maths-error rate and its
    95 % interval), the ``top`` hardest with at least ``min_attempts`` attempts."""
    facts = hardest_facts(data, min_attempts=min_attempts).head(top)
    return [{"fact": str(row.fact), "attempts": int(row.attempts),
             "wrong_rate": float(row.wrong_rate),
             "median_ms": None if pd.isna(row.median_ms) else float(row.median_ms),
             "shrunk_rate": round(float(row.smoothed_rate), 4),
             "interval": [round(float(row.ci_low), 4), round(float(row.ci_high), 4)]}
            for row in _rows(facts)]


def fact_tallies(data: StudyData, attempted: pd.DataFrame, later: pd.Series
                 ) -> tuple[list[severity.Tally], float | None]:
    """One ``fact:<a>x<b>`` tally per rolled fact; the mean is the study's slip rate."""
    rolled = roll_turns(data).set_index("turn_id")
    attempted = attempted.assign(fact=attempted["turn_id"].map(rolled["fact"]),
                                 n_wrong_math=attempted["turn_id"].map(rolled["n_wrong_math"]))
    facts = attempted[attempted["fact"].notna()]
    slips = facts["n_wrong_math"] > 0
    mean = float(slips.mean()) if len(facts) else 0.0
    return occasion_tallies(pd.DataFrame({
        "candidate": facts["fact"],
        "participant_id": facts["participant_id"], "later": later.reindex(facts.index),
        "trouble": slips}), "fact", mean, 1.0), mean


def fact_label(name: str, extra: dict[str, Any]) -> str:
    """``Hard fact 7 × 8 = 56``."""
    a, _, b = name.partition("x")
    return f"Hard fact {a} × {b} = {int(a) * int(b)}" if a.isdigit() and b.isdigit() \
        else f"Hard fact {name}"


def fact_action(name: str, extra: dict[str, Any]) -> str:
    """What to change when a fact troubles testers."""
    a, _, b = name.partition("x")
    return (f"When {a} × {b} is rolled, show the row and column headers of {a} and "
            f"{b}; practise this fact in a warm-up.")
