"""The design plan lists each remedied confusion point's follow-up experiment, as the
Confusion page prefills it (issue 26, item 2: "on the Confusion page and in the plan"),
for every game's demo study: in the report JSON, the Markdown and the HTML."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from analytics.confusion import confusion_points
from analytics.data import StudyData, empty_quiz, empty_scores
from analytics.follow_ups import DEFINITIONS, proposed_follow_ups
from analytics.report import build_report, report_html, report_markdown
from playtest.games.registry import game_names
from tests.demo_studies import demo_study_data


@pytest.mark.parametrize("game", sorted(game_names()))
def test_the_plan_lists_each_remedied_points_follow_up(tmp_path: Path, game: str) -> None:
    data = demo_study_data(tmp_path / "playtest.sqlite", game)
    report = build_report(data, empty_scores(), empty_quiz())
    json.dumps(report, allow_nan=False)  # strict JSON, as the exchange format wants
    rows = report["follow_ups"]
    assert rows, f"{game}: the demo study has a remedied confusion point"
    # the same follow-ups, in the same order, as the Confusion page prefills
    assert [row["point"] for row in rows] == [
        p.point for p in proposed_follow_ups(data, points=confusion_points(data))]
    listed = [point["id"] for point in report["confusion_points"]]
    assert all(row["point"] in listed for row in rows)
    for row in rows:
        assert row["metric"] == f"trouble:{row['point']}" and row["per_arm"] > 0
        low, high = row["interval"]
        assert 0 <= low <= row["rate"] <= high <= 1 and row["testers_met"] > 0
        assert 0 < row["min_effect"] <= row["rate"]
    markdown = report_markdown(report)
    lines = [line for line in markdown.splitlines() if "Follow-up experiment: " in line]
    assert len(lines) == len(rows)
    first = lines[0]
    assert rows[0]["remedy"] in first.replace("\\", "")
    assert re.search(r"Trouble rate today \d+ % \(95 % Wilson interval \d+ % to \d+ %, \d+ testers "
                     r"who met the point\)", first), first
    assert f"{rows[0]['per_arm']} testers per arm for 80 % power" in first
    # the line sits under its own point (the point's label comes just before it)
    at = markdown.index(first)
    point_label = next(p["label"] for p in report["confusion_points"]
                       if p["id"] == rows[0]["point"])
    assert markdown.rfind(point_label.replace("_", "\\_"), 0, at) >= 0 or \
        markdown.rfind(point_label, 0, at) >= 0
    for definition in DEFINITIONS.values():
        assert definition.split(":")[0] in markdown
    page = report_html(report, {})
    assert page.count("Follow-up experiment: ") == len(rows)


def test_a_plan_without_confusion_has_no_follow_up_lines() -> None:
    report = build_report(StudyData.empty("s1"), empty_scores(), empty_quiz())
    assert report["follow_ups"] == []
    assert "Follow-up experiment" not in report_markdown(report)
    assert "Follow-up experiment" not in report_html(report, {})
    assert "Testers per arm:" not in report_markdown(report)
