"""The designer's Learning page (issue 27, items 3 and 5) for each game's demo study, in
AppTest on real SQLite files filled by ``playtest demo``; the per-fact export through the
command line. The first game's demo study carries the fluency probe on both forms."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from analytics.data import UNNAMED_GAME as DEFAULT_GAME
from playtest import demo, services
from playtest.games.registry import game_names, game_plugin
from playtest.study_config import StudyConfig
from tests.app.designer_support import demo_databases, designer_page, use_copy

OTHER_GAMES = [name for name in game_names() if name != DEFAULT_GAME]


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Per game a database with its demo study and simulated testers; the first game's
    also holds a study on the game's default forms (no probe), ``plain``."""
    from playtest.storage.db import make_engine, upgrade

    made = demo_databases(tmp_path_factory, OTHER_GAMES, testers=10, seed=3)
    path = tmp_path_factory.mktemp(DEFAULT_GAME) / "playtest.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    demo.generate(engine, 24, seed=5, workers=1)
    plain = services.create_study(engine, title="no probe", study_id="plain",
                                  config=StudyConfig(game=DEFAULT_GAME))
    demo.generate(engine, 8, seed=5, study=plain, workers=1)
    engine.dispose()
    made[DEFAULT_GAME] = path
    return made


def _learning_page(study_id: str) -> AppTest:
    return designer_page("learning", study_id, timeout=120)


def _table(at: AppTest, column: str, nth: int = 0) -> pd.DataFrame:
    """The ``nth`` table (``st.dataframe``) of the page with a column named ``column``."""
    tables = [d.value for d in at.dataframe if column in d.value.columns]
    return tables[nth]


def _numbers(at: AppTest) -> pd.DataFrame:
    return _table(at, "Measure").set_index("Measure")


def _said(at: AppTest) -> str:
    return "\n".join(str(e.value) for e in [*at.markdown, *at.info, *at.caption, *at.success])


def test_the_first_games_demo_shows_gains_arms_facts_and_the_curve(
        filled: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_copy(filled[DEFAULT_GAME], tmp_path, monkeypatch)
    at = _learning_page(demo.DEMO_STUDY_ID)
    assert [h.value for h in at.header] == ["Times-table facts", "Rule understanding",
                                            "Every number"]
    numbers = _numbers(at)
    gain = numbers.loc["Gain in correct facts per minute", "Result (95% interval)"]
    assert "facts/min (95% interval " in gain and ", n = " in gain  # value, interval, count
    assert numbers["Definition"].str.len().gt(0).all()
    # both of the demo's experiments get a verdict on learning, with its interval (read as
    # shown: the designer's words are Markdown-escaped in the notice)
    shown = [str(e.value).replace("\\", "") for e in [*at.info, *at.success]]
    verdicts = [v for v in shown if "facts/min (95% interval" in v]
    assert {v.split(":")[0].strip("*") for v in verdicts} == {"extra_turn_wording", "highlight"}
    probe, play = _table(at, "Fact", 0), _table(at, "Fact", 1)  # the two tabs
    assert probe["Fact"].str.contains(" × ").all() and len(play) > 0
    assert "In-play learning curve" in _said(at)
    assert "asks no times-table facts" not in _said(at)
    assert at.get("download_button")  # the per-fact table


def test_a_study_without_the_probe_says_how_to_add_it(
        filled: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_copy(filled[DEFAULT_GAME], tmp_path, monkeypatch)
    at = _learning_page("plain")
    assert any("No tester has answered the fluency probe" in str(i.value) for i in at.info)
    assert "Gain in correct facts per minute" not in _numbers(at).index
    # play still shows its facts (the probe's tab says it has none)
    assert len(_table(at, "Fact", 0)) > 0
    assert "No fact has tries on both sides yet." in _said(at)


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_a_game_without_facts_says_so_and_shows_rule_understanding(
        filled: dict[str, Path], game: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    use_copy(filled[game], tmp_path, monkeypatch)
    at = _learning_page(f"{demo.DEMO_STUDY_ID}-{game}")
    title = game_plugin(game).title
    assert any(f"{title} asks no times-table facts" in str(i.value) for i in at.info)
    assert [h.value for h in at.header] == ["Rule understanding", "Every number"]
    assert not [d for d in at.dataframe if "Fact" in d.value.columns]
    numbers = _numbers(at)
    quiz = [m for m in numbers.index if m.startswith("Rules quiz ")]
    assert quiz, numbers.index.tolist()  # the post form's rules quiz, each question
    assert all("%" in numbers.loc[m, "Result (95% interval)"] for m in quiz)
    assert "Rule errors per turn: second half − first half of turns" in numbers.index
    assert "ask the same questions" in _said(at)  # no quiz before play in its pre form


def test_the_per_fact_table_exports_and_loads_in_one_line(
        filled: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = use_copy(filled[DEFAULT_GAME], tmp_path, monkeypatch)
    env = {"DATABASE_URL": f"sqlite:///{copy}", "PATH": ""}
    for fmt, reader in (("facts-csv", pd.read_csv), ("facts-parquet", pd.read_parquet)):
        out = subprocess.run([sys.executable, "-m", "playtest", "export", "--study", "demo",
                              "--out", "demo.jsonl", "--format", fmt], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        path = tmp_path / f"demo.facts.{fmt.split('-')[1]}"
        table = reader(path)
        assert list(table.columns) == ["tester", "fact", "attempt", "phase", "correct", "ms"]
        assert set(table["phase"]) == {"pre", "play", "post"}
        assert table.groupby(["tester", "fact"])["attempt"].apply(
            lambda a: sorted(a) == list(range(1, len(a) + 1))).all()
    again = subprocess.run([sys.executable, "-m", "playtest", "export", "--study", "demo",
                            "--out", "demo.jsonl", "--format", "facts-csv"], cwd=tmp_path,
                           env=env, capture_output=True, text=True, timeout=300)
    assert again.returncode == 2 and again.stderr.count("\n") == 1  # no overwrite without --force
