"""The live monitor's numbers on planted data: the median time per step and its interval
(coverage over many planted studies), who is in a step now, started, finished, idle."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analytics.live import HOUR_MS, MINUTE_MS, live_view, median_interval, step_times


def _planted(rng: np.random.Generator, testers: int, median_s: float) -> pd.DataFrame:
    """Testers who each spend a log-normal time (true median ``median_s``) on the
    pre-play survey, then reach the play page."""
    rows = []
    for n in range(testers):
        start = int(rng.integers(0, HOUR_MS))
        spent = median_s * float(np.exp(rng.normal(0.0, 0.6)))
        rows += [(f"t{n}", start, "pre_survey"), (f"t{n}", start + int(spent * 1000), "play")]
    return pd.DataFrame(rows, columns=["participant_id", "at_ms", "page"])


def test_the_median_interval_covers_the_planted_median_about_95_in_100() -> None:
    rng = np.random.default_rng(7)
    covered = 0
    for _ in range(400):
        (times,) = step_times(_planted(rng, 30, median_s=120.0))
        assert times.step == "pre_survey" and times.testers == 30
        assert times.low_s is not None and times.high_s is not None
        covered += times.low_s <= 120.0 <= times.high_s
    assert 0.92 <= covered / 400 <= 0.995


def test_too_few_testers_get_no_interval() -> None:
    assert median_interval(np.array([1.0, 2.0, 3.0, 4.0, 5.0])) == (None, None)


def test_in_step_started_finished_and_idle_as_defined() -> None:
    now = 10 * HOUR_MS
    pages = pd.DataFrame([
        ("busy", now - 20 * MINUTE_MS, "consent"), ("busy", now - 19 * MINUTE_MS, "play"),
        ("stuck", now - 40 * MINUTE_MS, "consent"), ("stuck", now - 39 * MINUTE_MS, "pre_survey"),
        ("gone", now - 3 * HOUR_MS, "consent"), ("gone", now - 3 * HOUR_MS + 1, "play"),
        ("done", now - 50 * MINUTE_MS, "consent"), ("done", now - 10 * MINUTE_MS, "done"),
        ("early", now - 2 * HOUR_MS, "consent"), ("early", now - 30 * MINUTE_MS, "done"),
    ], columns=["participant_id", "at_ms", "page"])
    last = {"busy": now - MINUTE_MS, "stuck": now - 12 * MINUTE_MS,
            "gone": now - 2 * HOUR_MS}
    view = live_view(pages, last, now_ms=now)
    assert view.in_step == {"play": 1, "pre_survey": 1}  # gone: no action for 2 hours
    assert view.started_last_hour == 3 and view.finished_last_hour == 2
    assert [(i.participant_id, i.step, i.idle_minutes) for i in view.idle] == [
        ("stuck", "pre_survey", 12.0)]
    assert live_view(pages.iloc[:0], {}, now_ms=now).in_step == {}
