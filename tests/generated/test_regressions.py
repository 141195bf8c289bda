"""Valid exchange files that once crashed something, kept as they were found
(``regressions/*.jsonl``): each imports with exit 0, adds nothing the second time, and
gets a report."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from sqlalchemy.engine import Engine

from analytics.data import empty_quiz, empty_scores
from analytics.metrics import MetricInputs, metric_by_key
from playtest.storage.db import make_engine, upgrade
from playtest.storage.exchange import load_study_data
from tests.generated.checks import check_file
from tests.generated.cli_runs import import_clean, report_files

REGRESSIONS = Path(__file__).parent / "regressions"
FILES = sorted(REGRESSIONS.glob("*.jsonl"))


def _study_id(path: Path) -> str:
    first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    return str(first["study_id"])


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_found_file_imports_once_and_reports(db: Engine, tmp_path: Path, path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    first = import_clean(capsys, path)
    assert "added 1 study" in first.out and "dashboard data of study" in first.out
    again = import_clean(capsys, path)
    assert "added 0 studies, 0 participants, 0 assignments, 0 events" in again.out
    report = report_files(capsys, _study_id(path), tmp_path)
    assert report["study_id"] == _study_id(path)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_found_file_passes_every_check(path: Path, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """The checks every generated file gets (:func:`tests.generated.checks.check_file`):
    pages render, counts agree, intervals contain their estimates."""
    template = tmp_path / "template.sqlite"
    engine = make_engine(f"sqlite:///{template}")
    upgrade(engine)
    engine.dispose()
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
               if line.strip()]
    folder = tmp_path / "check"
    folder.mkdir()
    check_file(records, folder, template, monkeypatch, capsys)


def test_two_messages_before_one_turn_count_each(db: Engine,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Each message shown is one observation of the turn after it (the same turn twice
    when two messages come before it), and a turn without a click has no thinking time."""
    import_clean(capsys, REGRESSIONS / "two_messages_one_turn.jsonl")
    data = load_study_data(db, "two-messages")
    inputs = MetricInputs(data, "extra_turn", empty_scores(), empty_quiz())
    think = metric_by_key("think_time_after").values(inputs)
    wrong = metric_by_key("wrong_clicks_after").values(inputs)
    # tester-i's turn after the two messages has its first click after 2.5 + 0.3 i s; the
    # turn after the third message has none (so it counts for wrong clicks only).
    expected = pd.Series({f"tester-{i}": 2.5 + 0.3 * i for i in range(4)})
    pd.testing.assert_series_equal(think.sort_index(), expected, check_names=False)
    assert wrong.sort_index().to_dict() == {f"tester-{i}": 0.0 for i in range(4)}
