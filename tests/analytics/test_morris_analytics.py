"""Bricks & Walls analytics: the points heatmap and wall/removal hesitation, on hand-made
events with exact answers and on planted studies of real engine games."""

from __future__ import annotations

import json
import math
from typing import Any

import pandas as pd
import pytest

from analytics import game_analytics
from analytics.data import (
    ASSIGNMENT_COLUMNS,
    PARTICIPANT_COLUMNS,
    RESPONSE_COLUMNS,
    StudyData,
    empty_quiz,
    empty_scores,
)
from analytics.games.morris import ANALYTICS, board, hesitation, points
from analytics.report import (
    build_report,
    report_chart_names,
    report_figures,
    report_html,
    report_markdown,
)
from tests.analytics.conftest import T0, Builder


def _click(ok: bool, point: str, ms: float, reason: str | None = None,
           seat: int = 1, **extra: Any) -> dict[str, Any]:
    props: dict[str, Any] = {"seat": seat, "ok": ok, "ms": ms, "point": point, **extra}
    if reason:
        props["reason"] = reason
    return props


def _study(b: Builder, testers: list[str]) -> StudyData:
    return StudyData(
        study={"study_id": "m", "title": "m", "game": "morris", "rules": "standard",
               "experiments": []},
        participants=pd.DataFrame([["m", pid, T0, T0] for pid in testers],
                                  columns=PARTICIPANT_COLUMNS),
        assignments=pd.DataFrame(columns=ASSIGNMENT_COLUMNS), events=b.frame(),
        responses=pd.DataFrame(columns=RESPONSE_COLUMNS))


@pytest.fixture
def hand_study() -> StudyData:
    return hand_morris_study()


def hand_morris_study() -> StudyData:
    """T1 (White, human, vs ai) forms a wall at 10 s with a 1500 ms click on a4; clicks
    the walled g7 (refused) at 12 s; removes at 14 s: one due removal of 4000 ms with one
    wrong click. Black (the computer) forms a wall: not a tester's. T1 then forms a
    double wall (two ``wall`` events) and removes 2 s later: one removal. Last, a wall
    that wins at once (no ``remove``): no removal due. T1 also clicks the taken d7
    (refused ``occupied``) once."""
    b = Builder()
    g = "g1"
    b.add("T1", "game_start", {"game_id": g, "game": "morris",
                               "seats": ["human", "ai:random"]}, g, seconds=0)
    # as the app logs: a click, then the engine's events of the action it made
    b.add("T1", "click", _click(False, "d7", 700, "occupied"), g, seconds=5)
    b.add("T1", "click", _click(True, "a4", 1500), g, seconds=10)
    b.add("T1", "place", {"seat": 1, "point": "a4"}, g, seconds=10)
    b.add("T1", "wall", {"seat": 1, "points": ["a7", "a4", "a1"]}, g, seconds=10)
    b.add("T1", "click", _click(False, "g7", 2000, "walled"), g, seconds=12)
    b.add("T1", "click", _click(True, "d1", 4000), g, seconds=14)
    b.add("T1", "remove", {"seat": 1, "point": "d1"}, g, seconds=14)
    b.add("T1", "place", {"seat": 2, "point": "g1"}, g, seconds=15)
    b.add("T1", "wall", {"seat": 2, "points": ["g7", "g4", "g1"]}, g, seconds=15)
    b.add("T1", "remove", {"seat": 2, "point": "a4"}, g, seconds=16)
    b.add("T1", "click", _click(True, "b4", 400), g, seconds=20)
    b.add("T1", "click", _click(True, "a4", 900, **{"from": "b4"}), g, seconds=21)
    b.add("T1", "move", {"seat": 1, "from": "b4", "point": "a4"}, g, seconds=21)
    b.add("T1", "wall", {"seat": 1, "points": ["a7", "a4", "a1"]}, g, seconds=21)
    b.add("T1", "wall", {"seat": 1, "points": ["a4", "b4", "c4"]}, g, seconds=21)
    b.add("T1", "click", _click(True, "g4", 2000), g, seconds=23)
    b.add("T1", "remove", {"seat": 1, "point": "g4"}, g, seconds=23)
    b.add("T1", "place", {"seat": 2, "point": "d5"}, g, seconds=24)
    b.add("T1", "move", {"seat": 1, "from": "d2", "point": "d3"}, g, seconds=30)
    b.add("T1", "wall", {"seat": 1, "points": ["c3", "d3", "e3"]}, g, seconds=30)
    b.add("T1", "win", {"seat": 1, "reason": "wall"}, g, seconds=30)
    b.add("T1", "game_end", {"game_id": g, "winner": 1, "reason": "wall"}, g, seconds=31)
    return _study(b, ["T1"])


def test_the_study_picks_the_morris_plugin(hand_study: StudyData) -> None:
    assert game_analytics.for_study(hand_study) is ANALYTICS


def test_due_removals_are_timed_from_the_wall_to_the_removal(hand_study: StudyData) -> None:
    table = hesitation.removals(hand_study)
    assert list(table["removal_ms"]) == [4000.0, 2000.0]
    assert list(table["wrong_clicks"]) == [1, 0]
    assert list(table["reasons"]) == [["walled"], []]
    assert list(table["forming_ms"]) == [1500.0, 900.0]


def test_hesitation_summary_has_medians_and_the_wrong_first_share(
        hand_study: StudyData) -> None:
    summary = hesitation.hesitation_summary(hand_study).set_index("measure")
    assert summary.loc["removal", "median_ms"] == 3000.0
    assert summary.loc["removal", "n"] == 2
    assert summary.loc["wall_forming", "median_ms"] == 1200.0
    assert summary.loc["wrong_first", "share"] == 0.5
    low, high = summary.loc["wrong_first", ["ci_low", "ci_high"]]
    assert 0 < low < 0.5 < high < 1


def test_points_count_clicks_and_wrong_clicks(hand_study: StudyData) -> None:
    table = points.points_table(hand_study).set_index("point")
    assert list(table.index) == list(board.POINTS)
    assert table.loc["a4", "clicks"] == 2 and table.loc["a4", "wrong"] == 0
    assert table.loc["d7", "wrong"] == 1 and table.loc["d7", "wrong_rate"] == 1.0
    assert table.loc["d7", "top_reason"] == "occupied"
    assert table.loc["g7", "top_reason"] == "walled"
    assert int(table["clicks"].sum()) == 7
    assert math.isnan(table.loc["c4", "wrong_rate"])


def test_a_computers_clicks_and_walls_do_not_count() -> None:
    b = Builder()
    b.add("T2", "game_start", {"game_id": "g", "seats": ["ai:random", "human"]}, "g")
    b.add("T2", "click", _click(False, "d7", 700, "occupied", seat=1), "g")
    b.add("T2", "place", {"seat": 1, "point": "a4"}, "g")
    b.add("T2", "wall", {"seat": 1, "points": ["a7", "a4", "a1"]}, "g")
    b.add("T2", "remove", {"seat": 1, "point": "d1"}, "g")
    data = _study(b, ["T2"])
    assert hesitation.removals(data).empty
    assert int(points.points_table(data)["clicks"].sum()) == 0


def test_the_report_names_its_game_and_has_morris_keys(hand_study: StudyData) -> None:
    report = build_report(hand_study, empty_scores(), empty_quiz())
    json.dumps(report, allow_nan=False)
    assert report["game"] == "morris"
    assert "hardest_facts" not in report
    # the game's words, not another game's: decisions, no rolls or facts
    assert "decision" in report["severity_definition"]
    assert "roll" not in report["severity_definition"] and "fact" not in \
        report["severity_definition"]
    assert {"points", "removal_hesitation"} <= set(report)
    assert report["points"][0]["point"] in {"d7", "g7"}
    removal = next(r for r in report["removal_hesitation"] if r["measure"] == "removal")
    assert removal["median_ms"] == 3000.0 and removal["n"] == 2
    names = report_chart_names(report)
    assert "Clicks per point" in names and "Hardest facts" not in names
    charts = report_figures(hand_study, report)
    assert list(charts) == names
    markdown = report_markdown(report, charts)
    assert "## Clicks per point" in markdown and "Hardest facts" not in markdown
    assert "| d7 | 1 | 1 | 100% |" in markdown
    assert "Wall and removal hesitation" in report_html(report, {})


def test_the_engine_board_has_the_points_the_charts_draw() -> None:
    from engine.morris import board as engine_board  # our own package: never a skip

    assert tuple(engine_board.POINTS) == board.POINTS
    assert all(board.xy(p) == engine_board.xy(p) for p in board.POINTS)
    drawn = {frozenset(pair) for pair in board.drawn_lines()}
    edges = {frozenset((engine_board.name(i), engine_board.name(j)))
             for i, near in enumerate(engine_board.ADJACENT) for j in near}
    assert drawn == edges


# -- planted studies of real games -----------------------------------------------------


@pytest.fixture(scope="module")
def planted() -> tuple[StudyData, Any]:
    from tests.analytics.morris_planted import MorrisTruth, planted_morris_study

    truth = MorrisTruth()
    return planted_morris_study(40, seed=1, truth=truth), truth


def test_planted_removal_and_forming_medians_are_recovered(planted: Any) -> None:
    data, truth = planted
    summary = hesitation.hesitation_summary(data).set_index("measure")
    for measure, median in (("removal", truth.removal_ms), ("wall_forming",
                                                            truth.forming_ms)):
        row = summary.loc[measure]
        assert row["n"] >= 50
        assert row["ci_low"] <= median <= row["ci_high"]
        assert abs(row["median_ms"] - median) / median < 0.1
    # the ordinary clicks are faster: the forming click stands out
    assert summary.loc["wall_forming", "ci_low"] > truth.click_ms


def test_planted_removals_and_walled_slips_are_all_found(planted: Any) -> None:
    data, _ = planted
    events = data.events
    own_removals = sum(1 for kind, props in zip(events["type"], events["props"],
                                                 strict=True)
                       if kind == "remove" and props["seat"] == 1)
    walled_slips = sum(1 for kind, props in zip(events["type"], events["props"],
                                                 strict=True)
                       if kind == "click" and props.get("reason") == "walled")
    table = hesitation.removals(data)
    assert len(table) == own_removals
    assert int(table["wrong_clicks"].sum()) == walled_slips


def test_the_planted_trap_point_tops_the_points_heatmap(planted: Any) -> None:
    data, truth = planted
    table = points.points_table(data).sort_values("wrong", ascending=False)
    top = table.iloc[0]
    assert top["point"] == truth.trap and top["top_reason"] == "occupied"
    others = table.iloc[1:]
    assert top["ci_low"] > others["wrong_rate"].max()


def test_refused_clicks_belong_to_the_decision_they_preceded(hand_study: StudyData) -> None:
    from analytics.games.morris import decisions

    table = decisions.decisions(hand_study)
    # a decision is a turn of the tester's: the last move has no click of theirs
    assert list(table["phase"]) == ["place", "remove", "move", "remove"]
    assert list(table["reasons"]) == [["occupied"], ["walled"], [], []]


def test_planted_slips_become_rule_points_with_their_occasions(planted: Any) -> None:
    from analytics import confusion

    data, _ = planted
    events = data.events
    clicks = [props for kind, props in zip(events["type"], events["props"], strict=True)
              if kind == "click" and not props["ok"]]
    points_found = {p.id: p for p in confusion.confusion_points(data)}
    assert set(points_found) == {"rule:occupied", "rule:walled"}
    walled = points_found["rule:walled"].evidence
    assert walled["troubles"] == sum(c["reason"] == "walled" for c in clicks)
    assert walled["occasions"] == len(hesitation.removals(data))  # every due removal
    occupied = points_found["rule:occupied"].evidence
    assert occupied["troubles"] == sum(c["reason"] == "occupied" for c in clicks)
    assert "unclickable" in points_found["rule:occupied"].action


def test_no_planted_slip_no_rule_point() -> None:
    from analytics import confusion
    from tests.analytics.morris_planted import MorrisTruth, planted_morris_study

    data = planted_morris_study(20, seed=2, truth=MorrisTruth(walled_slip=0, trap_slip=0))
    assert confusion.confusion_points(data) == []


def test_a_game_without_analytics_of_its_own_gets_the_core_report() -> None:
    data = hand_morris_study()
    other = StudyData(study={**data.study, "game": "halma"}, participants=data.participants,
                      assignments=data.assignments, events=data.events,
                      responses=data.responses)
    assert game_analytics.for_study(other) is game_analytics.GENERIC
    report = build_report(other, empty_scores(), empty_quiz())
    assert report["game"] == "halma"
    assert not {"hardest_facts", "points", "removal_hesitation"} & set(report)
    assert report_chart_names(report) == ["Funnel"]
    assert "## Experiments" in report_markdown(report)
