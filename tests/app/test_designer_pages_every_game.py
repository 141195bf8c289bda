"""Every designer page renders each game's demo study, filled with simulated testers
(``playtest demo`` on ``demo-<game>``), in AppTest on a real SQLite file: no exception,
and the pages show that study's data (not an empty study's hints)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analytics.data import UNNAMED_GAME
from playtest import demo
from playtest.games.registry import game_names, game_plugin
from playtest.storage import repository as repo
from tests.app.designer_support import demo_databases, designer_page, use_copy

PAGES = ["overview", "confusion", "questionnaires", "experiments", "replay", "balance",
         "report"]
OTHER_GAMES = [name for name in game_names() if name != UNNAMED_GAME]


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One database per game, with its demo study and 10 simulated testers (made once)."""
    return demo_databases(tmp_path_factory, OTHER_GAMES, testers=10, seed=3)


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("game", OTHER_GAMES)
def test_every_designer_page_renders_each_game_s_filled_demo_study(
    filled: dict[str, Path], game: str, page: str, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    use_copy(filled[game], tmp_path, monkeypatch)
    at = designer_page(page, f"{demo.DEMO_STUDY_ID}-{game}")
    assert at.sidebar.selectbox(key="study_picker").value == f"{demo.DEMO_STUDY_ID}-{game}"
    shown = "\n".join(str(e.value) for e in [*at.markdown, *at.info, *at.caption, *at.warning])
    assert "no tester has taken part" not in shown
    if page == "overview":  # the funnel's steps in people's words (was tests/browser/
        # test_replay_boards_seen.py::test_the_funnel_names_its_steps_for_people)
        (funnel,) = [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")
                     if "Funnel" in json.dumps(json.loads(chart.proto.spec)["layout"])]
        steps = set(funnel["data"][0]["x"])
        assert "Survey before play" in steps and not {"pre_survey", "post_survey"} & steps
    if page == "confusion" and game_plugin(game).analytics is not None:
        # a game with its analytics plug-in ranks the refused clicks by the engine's reasons
        tables = [df.value for df in at.dataframe]
        assert any(len(table) for table in tables)


def test_the_filled_studies_hold_testers(filled: dict[str, Path]) -> None:
    from playtest.storage.db import make_engine

    for game, path in filled.items():
        engine = make_engine(f"sqlite:///{path}")
        assert len(repo.list_participants(engine, f"{demo.DEMO_STUDY_ID}-{game}")) == 10
        engine.dispose()
