"""Vasco's analytics on planted studies of real engine games, where the truth is known."""

from __future__ import annotations

import math

import pytest
from vasco_planted import planted_study

from analytics.games.vasco.cascades import surprise
from analytics.games.vasco.decisions import decisions, reason_table, wilson


@pytest.fixture(scope="module")
def refusals_study():  # type: ignore[no-untyped-def]
    return planted_study(
        testers=12, games=1, seed=7, refusal_rates={"mismatch": 0.3, "dead_cell": 0.15}
    )


def test_every_planted_refusal_is_recovered_with_its_reason(refusals_study) -> None:  # type: ignore[no-untyped-def]
    truth = refusals_study.study["planted"]
    table = reason_table(refusals_study).set_index("reason")
    assert dict(table["refusals"]) == truth["refusals"]
    # one refusal per reason per decision at most was planted: decisions_with = refusals
    assert dict(table["decisions_with"]) == truth["refusals"]
    assert set(table["occasions"]) == {truth["decisions"]}
    for reason, row in table.iterrows():
        assert row["ci_low"] <= row["rate"] <= row["ci_high"], reason


def test_decisions_are_the_testers_placements_only(refusals_study) -> None:  # type: ignore[no-untyped-def]
    table = decisions(refusals_study)
    events = refusals_study.events
    human_places = sum(
        1
        for t, p in zip(events["type"], events["props"], strict=True)
        if t == "place" and p["seat"] == 1
    )
    assert len(table) == human_places == refusals_study.study["planted"]["decisions"]
    assert set(table["seat"]) == {1}
    assert (table["clicks"] == 2 + table["refusals"]).all()


def test_stale_clicks_are_left_out(refusals_study) -> None:  # type: ignore[no-untyped-def]
    from analytics.data import StudyData

    events = refusals_study.events.copy()
    events["props"] = [
        {**p, "stale": True} if t == "click" and p.get("ok") is False else p
        for t, p in zip(events["type"], events["props"], strict=True)
    ]
    data = StudyData(
        refusals_study.study,
        refusals_study.participants,
        refusals_study.assignments,
        events,
        refusals_study.responses,
    )
    assert reason_table(data).empty


def test_planted_hesitation_after_cascades_is_found() -> None:
    found = surprise(planted_study(testers=12, games=2, seed=11, surprise_factor=3.0))
    assert found.after_cascade > 20 and found.ci_low > 0
    assert found.median_ratio_after_cascade > 2


def test_no_planted_hesitation_gives_an_interval_around_zero() -> None:
    found = surprise(planted_study(testers=12, games=2, seed=12))
    assert found.after_cascade > 20 and found.after_none > 5
    assert found.ci_low <= 0 <= found.ci_high


def test_wilson_edges() -> None:
    assert all(math.isnan(v) for v in wilson(0, 0))
    low, high = wilson(0, 20)
    assert low == 0 and 0 < high < 0.2
