"""Who is where in a study right now: the designer's live monitor, as pure functions.

Input: the study's ``page`` events of a recent window (one row per page a tester
reached: ``participant_id``, ``at_ms``, ``page``) and each of those testers' last event
of any kind (``last_at_ms``). Definitions (:data:`DEFINITIONS`, shown on the page):

- a tester's *step* is the page they reached last; ``done`` is the thank-you page;
- *in the step now*: not done, and some event of theirs in the last
  :data:`ACTIVE_MINUTES` minutes;
- *started in the last hour*: reached the ``consent`` page (logged at consent) within
  the hour; *finished*: reached ``done`` within the hour;
- *time in a step*: from reaching a page to reaching the next one, for every step a
  tester left inside the window; its median, with a 95% interval from the order
  statistics (distribution-free; none below 6 testers);
- *idle*: not done, with no event for :data:`IDLE_MINUTES` minutes or more but less
  than an hour (beyond that, they are counted as gone, not stuck).

>>> import pandas as pd
>>> pages = pd.DataFrame({"participant_id": ["a", "a", "b"], "at_ms": [0, 60_000, 30_000],
...                       "page": ["consent", "play", "consent"]})
>>> view = live_view(pages, {"a": 600_000, "b": 40_000}, now_ms=700_000)
>>> view.in_step, view.started_last_hour, [i.participant_id for i in view.idle]
({'play': 1, 'consent': 1}, 2, ['b'])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

import numpy as np
import pandas as pd

#: The page events the monitor reads: the last this many hours.
WINDOW_HOURS: Final = 6
ACTIVE_MINUTES: Final = 30
IDLE_MINUTES: Final = 5
HOUR_MS: Final = 3_600_000
MINUTE_MS: Final = 60_000
DONE: Final = "done"
DEFINITIONS: Final = {
    "in_step": f"Testers not finished whose last action was in the last {ACTIVE_MINUTES} "
               "minutes, by the page they reached last.",
    "started": "Testers who agreed at consent in the last hour.",
    "finished": "Testers who reached the thank-you page in the last hour.",
    "median": "From reaching a page to reaching the next, for the pages testers left in "
              f"the last {WINDOW_HOURS} hours; the median, and a 95% interval from the order statistics "
              "(none below 6 testers).",
    "idle": f"Testers not finished with no action for {IDLE_MINUTES} minutes or more "
            "(but less than an hour: beyond that they have left), longest first.",
}


@dataclass(frozen=True)
class StepTime:
    """A step's median time in seconds, its 95% interval (None: too few) and count."""

    step: str
    median_s: float
    low_s: float | None
    high_s: float | None
    testers: int


@dataclass(frozen=True)
class Idle:
    """A tester with no action for a while, on the page they reached last."""

    participant_id: str
    step: str
    idle_minutes: float


@dataclass(frozen=True)
class LiveView:
    """The monitor's numbers (module docstring for their definitions)."""

    in_step: dict[str, int]
    started_last_hour: int
    finished_last_hour: int
    step_times: list[StepTime]
    idle: list[Idle]


def median_interval(values: np.ndarray, level: float = 0.95) -> tuple[float | None, float | None]:
    """A distribution-free interval for the median: order statistics k and n-k+1 with
    k from the binomial(n, 1/2) quantile; (None, None) below 6 values.

    >>> median_interval(np.arange(1.0, 21.0))
    (6.0, 15.0)
    """
    from scipy import stats
    n = len(values)
    if n < 6:
        return None, None
    ordered = np.sort(values)
    k = int(stats.binom.ppf((1 - level) / 2, n, 0.5))
    k = max(k, 1)
    return float(ordered[k - 1]), float(ordered[n - k])


def step_times(pages: pd.DataFrame) -> list[StepTime]:
    """Each step's time (module docstring), in the order the steps are first reached."""
    if pages.empty:
        return []
    ordered = pages.sort_values(["participant_id", "at_ms"], kind="stable")
    following = ordered.groupby("participant_id", sort=False)["at_ms"].shift(-1)
    spent = ordered.assign(seconds=(following - ordered["at_ms"]) / 1000.0)
    spent = spent[spent["seconds"].notna() & (spent["page"] != DONE)]
    order = list(dict.fromkeys(ordered.sort_values("at_ms", kind="stable")["page"]))
    times = []
    for step, group in spent.groupby("page", sort=False):
        values = group["seconds"].to_numpy(dtype=float)
        low, high = median_interval(values)
        times.append(StepTime(str(step), float(np.median(values)), low, high,
                              int(group["participant_id"].nunique())))
    return sorted(times, key=lambda t: order.index(t.step))


def live_view(pages: pd.DataFrame, last_at_ms: Mapping[str, int], *, now_ms: int) -> LiveView:
    """The monitor's numbers at ``now_ms`` from a window's page events and each tester's
    last event time (module docstring)."""
    if pages.empty:
        return LiveView({}, 0, 0, [], [])
    latest = pages.sort_values("at_ms", kind="stable").groupby("participant_id").last()
    last = pd.Series(last_at_ms, dtype=float).reindex(latest.index)
    last = last.fillna(latest["at_ms"].astype(float))
    waiting = now_ms - last
    open_ = latest["page"] != DONE
    active = open_ & (waiting <= ACTIVE_MINUTES * MINUTE_MS)
    in_step = {str(k): int(v) for k, v in latest.loc[active, "page"].value_counts().items()}
    hour_ago = now_ms - HOUR_MS
    recent = pages[pages["at_ms"] >= hour_ago]
    idle_mask = open_ & (waiting >= IDLE_MINUTES * MINUTE_MS) & (waiting < HOUR_MS)
    idle = [Idle(str(p), str(latest.at[p, "page"]), round(float(waiting[p]) / MINUTE_MS, 1))
            for p in waiting[idle_mask].sort_values(ascending=False).index]
    return LiveView(
        in_step=in_step,
        started_last_hour=int(recent.loc[recent["page"] == "consent", "participant_id"]
                              .nunique()),
        finished_last_hour=int(recent.loc[recent["page"] == DONE, "participant_id"].nunique()),
        step_times=step_times(pages),
        idle=idle)
