"""Every valid exchange file imports, reports and renders, with its numbers agreeing
(issue 22, item 1): Hypothesis draws studies of each game (:mod:`tests.generated.strategies`)
and :func:`tests.generated.checks.check_file` checks each end to end.

The examples per game come from the profile :mod:`tests.generated.profiles` selects
(``ci`` by default; ``PLAYTEST_GENERATED_PROFILE=deep`` for a long search)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given

from playtest.games.registry import game_names
from playtest.storage.db import make_engine, upgrade
from tests.generated.checks import check_file
from tests.generated.profiles import chosen
from tests.generated.strategies import StudyPlan, build_records, study_plans


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated, empty SQLite file: each example imports into a copy of it."""
    path = tmp_path_factory.mktemp("template") / "playtest.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    engine.dispose()
    return path


@pytest.mark.slow
@pytest.mark.parametrize("game", game_names())
def test_every_valid_study_imports_reports_and_renders(
        game: str, template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    @chosen()
    @given(plan=study_plans(games=(game,)))
    def run(plan: StudyPlan) -> None:
        with tempfile.TemporaryDirectory(dir=tmp_path) as folder:
            check_file(build_records(plan), Path(folder), template, monkeypatch, capsys)

    run()
