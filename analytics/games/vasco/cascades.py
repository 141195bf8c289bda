"""Did a forced cascade surprise the tester? Hesitation after forced tiles.

A decision **follows a cascade** when forced tiles appeared since the tester's previous
decision (their own move's or the computer's). A decision is **slow** when its first
click took more than ``factor`` (2) times the tester's own median first-click time over
the decisions that followed no cascade (their baseline; testers without two such
decisions are left out).

The **surprise excess** is the share of slow decisions after a cascade minus the share
after no cascade, with a 95 % interval (Newcombe's hybrid score interval of a difference
of two proportions). Without surprise, about the same share of decisions is slow either
way and the interval covers 0; the tests plant hesitation after cascades in real games
and recover it, and plant none and see the interval cover 0.

>>> from analytics.data import StudyData
>>> surprise(StudyData.empty("s")).after_cascade
0
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analytics.data import StudyData
from analytics.game_parts import wilson
from analytics.games.vasco.decisions import decisions


@dataclass(frozen=True)
class Surprise:
    """The cascade-surprise measure (see the module docstring)."""

    after_cascade: int
    slow_after_cascade: int
    after_none: int
    slow_after_none: int
    excess: float
    ci_low: float
    ci_high: float
    median_ratio_after_cascade: float
    testers: int

    @property
    def rate_after_cascade(self) -> float:
        return self.slow_after_cascade / self.after_cascade if self.after_cascade else math.nan

    @property
    def rate_after_none(self) -> float:
        return self.slow_after_none / self.after_none if self.after_none else math.nan


def marked(data: StudyData, factor: float = 2.0) -> pd.DataFrame:
    """The decisions with ``baseline_ms`` (the tester's median first click after no
    cascade), ``ratio`` (first click / baseline) and ``slow``; testers without a baseline
    of two decisions are dropped."""
    table = decisions(data)
    table = table[table["first_ms"].notna()].copy()
    if table.empty:
        return table.assign(baseline_ms=[], ratio=[], slow=[])
    calm = table[~table["after_cascade"]]
    counts = calm.groupby("participant_id")["first_ms"].count()
    baseline = calm.groupby("participant_id")["first_ms"].median()[counts >= 2]
    table["baseline_ms"] = table["participant_id"].map(baseline)
    table = table[table["baseline_ms"].notna() & (table["baseline_ms"] > 0)]
    table["ratio"] = table["first_ms"] / table["baseline_ms"]
    table["slow"] = table["ratio"] > factor
    return table


def _newcombe(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float, float]:
    """Difference p1 - p2 with Newcombe's hybrid score 95 % interval."""
    if n1 == 0 or n2 == 0:
        return (math.nan, math.nan, math.nan)
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return (d, low, high)


def surprise(data: StudyData, factor: float = 2.0) -> Surprise:
    """The surprise excess of a study (see the module docstring)."""
    table = marked(data, factor)
    after = table[table["after_cascade"]] if not table.empty else table
    none = table[~table["after_cascade"]] if not table.empty else table
    k1, n1 = int(after["slow"].sum()) if len(after) else 0, len(after)
    k2, n2 = int(none["slow"].sum()) if len(none) else 0, len(none)
    d, low, high = _newcombe(k1, n1, k2, n2)
    ratio = float(np.median(after["ratio"])) if len(after) else math.nan
    testers = int(table["participant_id"].nunique()) if len(table) else 0
    return Surprise(n1, k1, n2, k2, d, low, high, ratio, testers)
