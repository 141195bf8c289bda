"""Dokusen's per-stage analytics on planted studies where the truth is known.

Testers play real engine games (``engine.dokusen``) and their events are logged as the
platform logs them (engine events as their kind with ``seat``/``tiles``/data props,
``game_start``, ``click``). The truth is taken from the engine's *states* during play,
not from the events, so the analytics' reading of the events is checked against it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

from analytics.data import (
    StudyData,
)
from analytics.games.dokusen import fresh_flips, games, refused_clicks, stage_summary
from analytics.games.dokusen.stages import cluster_rate, median_interval, wilson
from tests.analytics.dokusen_planted import planted_dokusen_study


@pytest.fixture(scope="module")
def planted() -> tuple[StudyData, dict[str, Any]]:
    return planted_dokusen_study()


def test_games_carry_stage_result_rounds_and_attempt(
    planted: tuple[StudyData, dict[str, Any]],
) -> None:
    data, truth = planted
    table = games(data)
    assert len(table) == 48
    for stage in ("S1", "S5"):
        rows = table[table["stage"] == stage].sort_values(["participant_id", "attempt"])
        want = sorted(truth[stage])
        got = [
            (r.participant_id, r.result, None if np.isnan(r.rounds) else int(r.rounds))
            for r in rows.itertuples()
        ]
        assert got == [(p, res, rounds) for p, _, res, rounds in want]
    s5 = table[table["stage"] == "S5"]
    assert sorted(s5["attempt"].unique()) == [1, 2]


def test_stage_summary_recovers_the_planted_numbers(
    planted: tuple[StudyData, dict[str, Any]],
) -> None:
    data, truth = planted
    summary = stage_summary(data).set_index("stage")
    for stage in ("S1", "S5"):
        first = [
            res for p, n, res, _ in truth[stage] if res is not None and (stage == "S1" or n == 1)
        ]
        row = summary.loc[stage]
        assert row["first_finished"] == len(first)
        assert row["first_wins"] == sum(r == "win" for r in first)
        assert row["win_low"] <= row["win_rate"] <= row["win_high"]
        flipped, placed = truth["flips"][stage]
        assert row["placements"] == placed
        assert row["flip_rate"] == pytest.approx(flipped / placed)
        assert row["flip_low"] <= row["flip_rate"] <= row["flip_high"]
    # the careless half of the testers walk into flips; the planted signal is there
    flips = fresh_flips(data)
    by_tester = flips.groupby("participant_id")["flipped"].mean()
    careless = by_tester[[f"t{k:02d}" for k in range(1, 16, 2)]]
    careful = by_tester[[f"t{k:02d}" for k in range(0, 16, 2)]]
    assert careless.mean() > careful.mean() + 0.2
    assert summary.loc["S5", "finished"] == summary.loc["S5", "games"] - 1  # one tester left


def test_refused_clicks_by_reason(planted: tuple[StudyData, dict[str, Any]]) -> None:
    data, truth = planted
    table = refused_clicks(data)
    assert list(table["reason"]) == ["own_square"]
    assert int(table["clicks"].iloc[0]) == truth["refused"]


def test_wilson_interval_is_calibrated() -> None:
    """95 % intervals on 2000 planted studies of 30 testers cover the true rate about
    95 % of the time (the stage's first-attempt win rate is this case)."""
    rng = np.random.default_rng(7)
    for p in (0.2, 0.5, 0.8):
        wins = rng.binomial(30, p, size=2000)
        covered = np.mean([lo <= p <= hi for lo, hi in (wilson(int(w), 30) for w in wins)])
        assert 0.93 <= covered <= 0.975, (p, covered)


def test_cluster_bootstrap_interval_is_calibrated_under_tester_clustering() -> None:
    """Testers differ (their own flip rate drawn around the truth): the cluster bootstrap
    covers the true pooled rate about 95 % of the time, where a per-move Wilson would not."""
    rng = np.random.default_rng(11)
    covered = wilson_covered = 0
    runs = 300
    for _ in range(runs):
        rates = rng.beta(2, 6, size=20)  # mean 0.25
        moves = rng.integers(10, 30, size=20)
        flags, clusters = [], []
        for t, (r, m) in enumerate(zip(rates, moves, strict=True)):
            flags += list(rng.random(m) < r)
            clusters += [t] * m
        rate, lo, hi = cluster_rate(pd.Series(flags), pd.Series(clusters))
        covered += lo <= 0.25 <= hi
        wl, wh = wilson(int(sum(flags)), len(flags))
        wilson_covered += wl <= 0.25 <= wh
    assert 0.90 <= covered / runs <= 0.985
    assert wilson_covered < covered


def test_median_interval_is_distribution_free() -> None:
    rng = np.random.default_rng(3)
    hits = 0
    for _ in range(1000):
        x = rng.exponential(10, size=15)
        _, lo, hi = median_interval(x)
        hits += lo <= 10 * np.log(2) <= hi
    assert 0.94 <= hits / 1000 <= 0.995
    assert np.isnan(median_interval(np.array([1.0, 2.0]))[1])



def test_decisions_and_refusal_reasons_per_placement(
    planted: tuple[StudyData, dict[str, Any]],
) -> None:
    from analytics.games.dokusen.decisions import decisions, reason_table

    data, truth = planted
    table = decisions(data)
    placements = truth["flips"]["S1"][1] + truth["flips"]["S5"][1]
    assert len(table) == placements
    # the planted testers click their own square at most once before a placement
    assert int(table["refusals"].sum()) == truth["refused"]
    assert set(table.loc[~table["later"], "stage"]) == {"S1"}  # every tester began on S1
    reasons = reason_table(data)
    assert list(reasons["reason"]) == ["own_square"]
    row = reasons.iloc[0]
    assert row["decisions_with"] == truth["refused"] and row["occasions"] == placements
    assert row["ci_low"] <= row["rate"] <= row["ci_high"]


def test_confusion_points_for_refusals_and_fresh_flips(
    planted: tuple[StudyData, dict[str, Any]],
) -> None:
    """The study's confusion points (the core's ranking) include Dokusen's own: the
    refusal reason and the per-stage fresh flips, with the planted counts."""
    from analytics import confusion
    from analytics.game_analytics import for_study

    data, truth = planted
    assert for_study(data).name == "dokusen"
    points = {p.id: p for p in confusion.confusion_points(data)}
    rule = points["rule:own_square"]
    assert rule.evidence["occasions"] == truth["flips"]["S1"][1] + truth["flips"]["S5"][1]
    assert rule.evidence["troubles"] == truth["refused"]
    flip = points["flip:S5"]
    assert (flip.evidence["troubles"], flip.evidence["occasions"]) == tuple(truth["flips"]["S5"])
    assert "S5" in flip.label and flip.action and flip.definition.startswith("Occasions")


def test_report_sections_rows_are_json_and_match_the_summary(
    planted: tuple[StudyData, dict[str, Any]],
) -> None:
    import json

    from analytics.games.dokusen import ANALYTICS

    data, _ = planted
    sections = {s.key: s for s in ANALYTICS.sections}
    rows = sections["stages"].rows(data, 10, 5)
    json.dumps(rows)  # JSON-safe (no NaN)
    summary = stage_summary(data).set_index("stage")
    assert [r["stage"] for r in rows] == list(summary.index)
    for r in rows:
        assert r["win_rate"] == pytest.approx(summary.loc[r["stage"], "win_rate"])
        assert r["placements"] == summary.loc[r["stage"], "placements"]
        for column in sections["stages"].columns:
            assert column.show(r[column.key])
    refusals = sections["refusals"].rows(data, 10, 5)
    assert [r["reason"] for r in refusals] == ["own_square"]
    for chart in ANALYTICS.charts:
        assert chart.build(data).data, chart.name


def test_page_tables_show_each_rate_with_its_interval(
    planted: tuple[StudyData, dict[str, Any]],
) -> None:
    from analytics.games.dokusen import ANALYTICS

    data, _ = planted
    frames = {s.key: s.frame(data) for s in ANALYTICS.sections if s.frame is not None}
    summary = stage_summary(data).set_index("stage")
    for row in frames["stages"].itertuples():
        s = summary.loc[row.stage]
        assert row.win == f"{s['win_rate']:.0%} ({s['win_low']:.0%}–{s['win_high']:.0%})"
        assert row.flips.startswith(f"{s['flip_rate']:.0%} (")
        assert row.rounds.startswith(f"{s['rounds_median']:g}")
    (refusal,) = frames["refusals"].itertuples()
    assert refusal.code == "own_square" and "already own" in refusal.reason
    assert refusal.rate.endswith("%)")
