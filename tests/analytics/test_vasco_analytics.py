"""Vasco's analytics on planted studies of real engine games, where the truth is known."""

from __future__ import annotations

import math

import pytest
from vasco_planted import planted_study

from analytics.game_parts import wilson
from analytics.games.vasco.cascades import surprise
from analytics.games.vasco.decisions import decisions, reason_table


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


def test_the_plug_in_ranks_planted_refusals_as_rule_points_with_their_occasions() -> None:
    """Through the analytics core (confusion points, the plug-in's sections and charts):
    each planted reason is a ``rule:<reason>`` point whose occasions are every tile the
    testers placed and whose troubles are the planted refusals; the second game counts as
    later."""
    from analytics import confusion
    from analytics.game_analytics import for_study
    from analytics.games.vasco import ANALYTICS

    data = planted_study(testers=12, games=2, seed=11,
                         refusal_rates={"mismatch": 0.3, "dead_cell": 0.15})
    truth = data.study["planted"]
    assert for_study(data) is ANALYTICS
    table = decisions(data)
    assert table["later"].any() and not table["later"].all()
    firsts = table.groupby("participant_id")["game_id"].transform("first")
    assert (table["later"] == (table["game_id"] != firsts)).all()
    # the rule points are the core's, on its turns (the plug-in only words them)
    assert ANALYTICS.families == ()
    scored, _ = confusion.scored_candidates(data)
    by_id = {s.tally.id: s.tally for s in scored if s.tally.family == "rule"}
    assert set(by_id) == {f"rule:{r}" for r in truth["refusals"]}
    for reason, count in truth["refusals"].items():
        tally = by_id[f"rule:{reason}"]
        assert tally.occasions == truth["decisions"] and tally.troubles == count
        assert tally.later_occasions == int(table["later"].sum())
    # the confusion points of the study include them (the core asks the plug-in)
    ids = {p.id for p in confusion.confusion_points(data)}
    assert {f"rule:{r}" for r in truth["refusals"]} <= ids
    # the sections' rows: the same numbers as the measures, with their intervals
    (reasons, cascade) = ANALYTICS.sections
    rows = {r["reason"]: r for r in reasons.rows(data, 10, 0)}
    assert {r: rows[r]["refusals"] for r in rows} == truth["refusals"]
    for row in rows.values():
        low, high = row["interval"]
        assert low <= row["rate"] <= high
    (row,) = cascade.rows(data, 10, 0)
    s = surprise(data)
    assert row["excess"] == round(s.excess, 4)
    assert row["interval"] == [round(s.ci_low, 4), round(s.ci_high, 4)]
    assert "median first click" in row["definition"]
    for chart in ANALYTICS.charts:
        assert chart.build(data).data  # draws
