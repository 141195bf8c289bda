"""Records that name no game are ``analytics.data.UNNAMED_GAME``'s, as the exchange format
says, whatever the registry's order; a study's analytics plug-in is the one its caller
gives (``game_analytics.use``), else the one its game's folder holds."""

from __future__ import annotations

import json
from pathlib import Path

from analytics import derive
from analytics.data import UNNAMED_GAME, StudyData, empty_quiz, empty_scores
from analytics.game_analytics import GENERIC, GameAnalytics, for_study, game_of, load, use
from analytics.report import build_report, report_game
from analytics.turns import TurnRule
from playtest.games.registry import game_names, game_plugin
from playtest.storage.db import make_engine, upgrade
from playtest.storage.exchange import import_jsonl, load_study_data

DEFAULT_GAME = UNNAMED_GAME


def test_the_unnamed_game_is_a_registered_game_with_analytics() -> None:
    assert UNNAMED_GAME in game_names()
    assert load(UNNAMED_GAME) is not GENERIC
    assert game_plugin(UNNAMED_GAME).analytics is load(UNNAMED_GAME)


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


def test_the_caller_s_plug_in_is_the_one_used() -> None:
    """A plug-in given to a study (the app gives the registry's) decides its turns, even
    for a game no analytics folder holds."""
    data = StudyData.empty("s", "chess")
    assert for_study(data) is GENERIC
    own = GameAnalytics(name="chess", title="Chess",
                        turns=TurnRule(acts=("mark",)))
    use(data, own)
    assert for_study(data) is own and derive.turn_rule(data) is own.turns
