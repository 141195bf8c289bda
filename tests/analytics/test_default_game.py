"""Records that name no game are the registry's first game's, and analytics knows it
without naming it: the game's own analytics plug-in claims them (``plays_unnamed``)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import analytics.games
from analytics.data import UNNAMED_GAME, StudyData, empty_quiz, empty_scores
from analytics.game_analytics import (
    GENERIC,
    AnalyticsPluginError,
    default_game,
    for_study,
    game_of,
    load,
)
from analytics.report import build_report, report_game
from playtest.games.registry import game_names
from playtest.storage.db import make_engine, upgrade
from playtest.storage.exchange import import_jsonl, load_study_data


def test_analytics_default_game_is_the_registrys() -> None:
    assert default_game() == UNNAMED_GAME
    claims = [name for name in game_names() if load(name).plays_unnamed]
    assert claims == [UNNAMED_GAME]


def test_a_study_and_a_report_that_name_no_game_are_the_default_games() -> None:
    unnamed = StudyData.empty("old")
    assert "game" not in unnamed.study
    assert game_of(unnamed) == UNNAMED_GAME
    plugin = for_study(unnamed)
    assert plugin.name == UNNAMED_GAME and plugin is not GENERIC
    report = build_report(unnamed, empty_scores(), empty_quiz())
    assert report["game"] == UNNAMED_GAME
    assert {section.key for section in plugin.sections} <= set(report)
    assert report_game({"study_id": "old"}) is plugin
    # a study that names another game is that game's
    other = next(name for name in game_names() if name != UNNAMED_GAME)
    assert build_report(StudyData.empty("new", other), empty_scores(),
                        empty_quiz())["game"] == other


def test_an_export_from_before_games_were_named_reads_as_the_default_game(
        tmp_path: Path) -> None:
    records = [
        {"record": "study", "study_id": "old", "title": "Before games were named",
         "rules": "standard", "experiments": []},
        {"record": "participant", "study_id": "old", "participant_id": "p1",
         "created_at": "2025-06-01T10:00:00.000Z", "consented_at": "2025-06-01T10:00:01.000Z"},
    ]
    path = tmp_path / "old.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    engine = make_engine(f"sqlite:///{tmp_path / 'lab.sqlite'}")
    upgrade(engine)
    try:
        assert import_jsonl(engine, path).added["study"] == 1
        data = load_study_data(engine, "old")
    finally:
        engine.dispose()
    assert data.study["game"] == UNNAMED_GAME  # the storage layer says it
    report = build_report(data, empty_scores(), empty_quiz())
    assert report["game"] == UNNAMED_GAME and report["participants"] == 1


@pytest.fixture
def second_claimant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A real plug-in folder, added to ``analytics/games/``, that also claims unnamed
    records."""
    folder = tmp_path / "claimant"
    folder.mkdir()
    (folder / "__init__.py").write_text(
        "from analytics.game_analytics import GameAnalytics\n"
        "ANALYTICS = GameAnalytics(name='claimant', title='Claimant', plays_unnamed=True)\n")
    monkeypatch.setattr(analytics.games, "__path__", [*analytics.games.__path__, str(tmp_path)])
    default_game.cache_clear()
    yield "claimant"
    default_game.cache_clear()
    sys.modules.pop("analytics.games.claimant", None)


def test_two_plugins_claiming_unnamed_records_are_refused(second_claimant: str) -> None:
    with pytest.raises(AnalyticsPluginError, match=f"{second_claimant}.*only one may"):
        default_game()
