"""Each other game's demo study (simulated testers of ``playtest demo`` playing real engine
games on a real SQLite file) has turns: one per action of the tester's (the engine's
``place``/``move``/``remove`` events of the tester's seat: a removal is a decision of its
own, after the move that formed the wall), so its experiments' per-turn metrics have
values for both arms, on the Experiments page (with the game's definition of a turn) and
in the report and plan."""

from __future__ import annotations

from pathlib import Path

import pytest

from analytics import derive
from analytics.data import UNNAMED_GAME
from analytics.game_analytics import load, turn_definition
from analytics.report import build_report, report_markdown
from playtest import demo, services
from playtest.games.registry import game_names, game_plugin
from playtest.study_config import parse_study_config
from playtest.study_snapshot import load_prepared
from tests.app.designer_support import designer_page, use_copy

OTHER_GAMES = [name for name in game_names() if name != UNNAMED_GAME]
PER_TURN = ("wrong_clicks_per_turn", "think_time")
#: The engine events that are an action of the mover's (a turn each).
MOVES = ("place", "move", "remove")


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Per game a database with its demo study and 10 simulated testers; a demo study
    without an experiment on the rules (none, or a message wording's, whose metrics are
    the message's aftermath) has it replaced by an A/A experiment on its default rules,
    so the Experiments page's first experiment has per-turn arms."""
    from playtest.storage.db import make_engine, upgrade

    made: dict[str, Path] = {}
    for game in OTHER_GAMES:
        path = tmp_path_factory.mktemp(game) / "playtest.sqlite"
        engine = make_engine(f"sqlite:///{path}")
        upgrade(engine)
        config = demo.game_demo_config(game)
        if not any(e.target == "rules" for e in config.experiments):
            rules = game_plugin(game).default_rules
            config = parse_study_config({**config.model_dump(mode="json"), "experiments": [
                {"key": "same_rules", "target": "rules", "variants": {"a": rules, "b": rules}}]})
        study = services.create_study(engine, title=f"{game} turns",
                                      study_id=f"{demo.DEMO_STUDY_ID}-{game}", config=config)
        demo.generate(engine, 10, seed=3, study=study, workers=1)
        engine.dispose()
        made[game] = path
    return made


def _bundle(path: Path, game: str):  # type: ignore[no-untyped-def]
    from playtest.storage.db import make_engine

    engine = make_engine(f"sqlite:///{path}")
    try:
        return load_prepared(engine, f"{demo.DEMO_STUDY_ID}-{game}").bundle
    finally:
        engine.dispose()


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_the_demo_s_turns_are_the_tester_s_moves(filled: dict[str, Path], game: str) -> None:
    data = _bundle(filled[game], game).data
    seats: dict[str, list[str]] = {}
    moves = 0
    for kind, props, game_id in zip(data.events["type"], data.events["props"],
                                    data.events["game_id"], strict=True):
        if kind == "game_start":
            seats[props["game_id"]] = props["seats"]
        elif kind in MOVES:
            listed = seats.get(game_id, [])
            moves += 1 <= props["seat"] <= len(listed) and listed[props["seat"] - 1] == "human"
    turns = derive.turns(data)
    assert moves > 20
    assert len(turns) == moves
    assert turns["n_clicks"].min() >= 1
    assert turns["first_ms"].notna().all()


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_the_report_has_per_turn_metrics_for_both_arms(filled: dict[str, Path],
                                                       game: str) -> None:
    bundle = _bundle(filled[game], game)
    report = build_report(bundle.data, bundle.scores, bundle.quiz)
    assert report["game"] == game
    metrics = {m["metric"]: m for m in report["experiments"][0]["metrics"]}
    for key in PER_TURN:
        arms = metrics[key]["variants"]
        assert len(arms) == 2 and all(arm["n"] > 0 and arm["mean"] is not None
                                      for arm in arms.values()), (key, arms)
    plan = report_markdown(report)
    assert load(game).turns.definition in plan  # the game's words, under its experiment


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_the_experiments_page_shows_per_turn_values_and_what_a_turn_is(
    filled: dict[str, Path], game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    use_copy(filled[game], tmp_path, monkeypatch)
    at = designer_page("experiments", f"{demo.DEMO_STUDY_ID}-{game}")
    captions = [str(c.value) for c in at.caption]
    assert turn_definition(load(game)) in captions
    table = at.dataframe[0].value
    for name in ("Wrong clicks per turn", "Thinking time per turn"):
        row = table[table["Metric"] == name].iloc[0]
        arms = [column for column in table.columns if column.endswith(" (n)")]
        assert len(arms) == 2
        for column in arms:
            value, count = str(row[column]).rsplit(" (", 1)
            assert value != "–" and int(count.rstrip(")")) > 0, (name, column, row[column])


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_the_confusion_page_says_what_the_next_turn_is(
    filled: dict[str, Path], game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    use_copy(filled[game], tmp_path, monkeypatch)
    at = designer_page("confusion", f"{demo.DEMO_STUDY_ID}-{game}")
    aftermath = [str(c.value) for c in at.caption if "next turn" in str(c.value)]
    assert len(aftermath) == 1 and aftermath[0].endswith(turn_definition(load(game)))
