"""One cache key: every cached table (the snapshot's) and every page result is kept under
one code version (``playtest.study_state.code_signature``) that covers everything it is
computed from; editing any of it gives another key."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from playtest import page_results, study_snapshot, study_state
from playtest.study_state import ROOT, code_files, code_version

#: What a cached table or page result depends on, one file of each kind at least: the
#: core's derivations and turns, each game's analytics folder (its TurnRule is in its
#: ``__init__``), the survey scoring, each game's surveys and plug-in (its catalog's
#: words), the app modules that read and shape the data.
DEPENDENCIES = (
    "analytics/data.py", "analytics/derive.py", "analytics/turns.py",
    "analytics/confusion.py", "analytics/severity.py", "analytics/metrics.py",
    "analytics/experiments.py", "analytics/stats.py", "analytics/report.py",
    "analytics/questionnaires.py", "analytics/game_analytics.py",
    "analytics/games/vapoosh/__init__.py", "analytics/games/vapoosh/rolls.py",
    "analytics/games/morris/__init__.py", "analytics/games/morris/decisions.py",
    "analytics/games/vasco/__init__.py", "analytics/games/vasco/cascades.py",
    "analytics/games/dokusen/__init__.py", "analytics/games/dokusen/stages.py",
    "engine/seats.py",
    "surveys/instruments.py", "surveys/responses.py",
    "surveys/games/vapoosh/vapoosh_post_short.yaml",
    "surveys/games/morris/morris_post.yaml",
    "playtest/games/registry.py", "playtest/games/morris/messages.yaml",
    "playtest/study_data.py", "playtest/study_snapshot.py", "playtest/page_results.py",
    "playtest/study_state.py", "playtest/survey_items.py", "playtest/storage/exchange.py",
    "playtest/storage/survey_records.py",
)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of every file the code version reads, in a folder of its own."""
    copy = tmp_path_factory.mktemp("tree")
    for path in code_files():
        target = copy / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    return copy


def test_the_copy_has_the_same_version(tree: Path) -> None:
    assert code_version(tree) == code_version() == study_state.code_signature()


@pytest.mark.parametrize("name", DEPENDENCIES)
def test_editing_a_dependency_changes_the_key(tree: Path, name: str) -> None:
    path = tree / name
    assert path.is_file(), f"{name} is not covered by the code version"
    before = code_version(tree)
    original = path.read_bytes()
    try:
        path.write_bytes(original + b"\n# edited\n")
        assert code_version(tree) != before
    finally:
        path.write_bytes(original)
    assert code_version(tree) == before


def test_a_new_game_folder_changes_the_key(tree: Path) -> None:
    before = code_version(tree)
    folder = tree / "analytics" / "games" / "halma"
    folder.mkdir()
    try:
        (folder / "__init__.py").write_text("ANALYTICS = None\n", encoding="utf-8")
        assert code_version(tree) != before
    finally:
        shutil.rmtree(folder)


def test_every_module_the_dashboard_computes_with_is_covered() -> None:
    """Every module of ours loaded once a study's pages are computed (analytics, surveys,
    the games' plug-ins and catalogs, the engine's value objects) is a file the code
    version reads."""
    import playtest.games.registry
    import playtest.survey_items  # noqa: F401 - loaded for what it imports

    for plugin in playtest.games.registry.games():
        assert plugin.analytics is not None  # imported with the plug-in
    covered = {path.resolve() for path in code_files()}
    loaded = [module for name, module in sys.modules.items()
              if name.split(".")[0] in ("analytics", "surveys")
              or name.startswith(("playtest.games", "playtest.messages", "engine.seats"))]
    missing = sorted(str(module.__file__) for module in loaded
                     if getattr(module, "__file__", None)
                     and Path(str(module.__file__)).resolve() not in covered)
    assert missing == []


def test_the_snapshot_and_the_page_results_share_the_key() -> None:
    """One key: the snapshot's (with its format) is the page results' code version."""
    assert study_snapshot.code_signature().endswith(study_state.code_signature())
    assert page_results.code_signature is study_state.code_signature
