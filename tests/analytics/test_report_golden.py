"""The report JSON of fixed studies is the one the analytics gave before the game
plug-ins (golden files written at that commit), apart from the keys added since."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.analytics import golden_reports


def _golden(name: str) -> dict[str, Any]:
    path = golden_reports.GOLDEN / f"report_{name}.json"
    result: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return result


def test_planted_confusion_study_report_is_unchanged() -> None:
    report = golden_reports.confusion_report()
    assert golden_reports.normalised(report) == _golden("confusion")


def test_planted_experiment_study_report_is_unchanged() -> None:
    report = golden_reports.experiment_report()
    assert golden_reports.normalised(report) == _golden("experiment")


def test_demo_study_report_is_unchanged(tmp_path: Path) -> None:
    report = golden_reports.demo_report(tmp_path / "demo.sqlite")
    assert golden_reports.normalised(report) == _golden("demo")


@pytest.mark.parametrize("name", ["confusion", "experiment", "demo"])
def test_golden_files_hold_a_real_report(name: str) -> None:
    """The golden files are not empty shells: testers, points and facts are in them."""
    golden = _golden(name)
    assert golden["participants"] > 0
    assert golden["confusion_points"]
    assert golden["hardest_facts"]
