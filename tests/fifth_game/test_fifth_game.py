"""The proof of the game platform (issue 21, item 10): a fifth game, tic-tac-toe, that lives
entirely in ``tests/fifth_game/`` and is registered by configuration
(``PLAYTEST_GAMES=tests.fifth_game.plugin:PLUGIN``), is offered on the Studies page, is
filled by ``playtest demo``, replays on the designer's Replay page, goes out and back
in through ``playtest export``/``import``, and gets a report with confusion points from
its own refusals. (It plays end to end in Chromium: tests/browser/test_fifth_game_seen.py.)

The commands run as the designer runs them, in processes of their own, with the game
configured in their environment; the pages run in this process (AppTest), with the
registry re-read once the variable is set.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from engine.core import GameRecord
from playtest.storage import repository as repo
from tests.databases import migrated
from tests.fifth_game.support import GAME, ROOT, configured, registered_here

PAGE_APP = str(ROOT / "tests" / "app" / "apps" / "designer_page.py")
STUDY = f"demo-{GAME}"
TESTERS = 12


@pytest.fixture(scope="module", autouse=True)
def registered() -> Iterator[None]:
    with registered_here():
        yield


def playtest(*args: str, url: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``playtest <args>`` in a process of its own on the database ``url``."""
    env = configured({**os.environ, "DATABASE_URL": url})
    done = subprocess.run([sys.executable, "-m", "playtest", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=600)
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Engine, Path]]:
    """A database whose fifth-game demo study ``playtest demo`` filled (the study made as
    ``playtest up`` makes every game's)."""
    from playtest import demo

    folder = tmp_path_factory.mktemp("fifth")
    url = f"sqlite:///{folder / 'playtest.sqlite'}"
    with migrated(url) as engine:
        studies = {s.game: s for s in demo.ensure_game_demo_studies(engine)}
        assert studies[GAME].study_id == STUDY
        done = playtest("demo", "--study", STUDY, "--testers", str(TESTERS), url=url,
                        cwd=folder)
        assert f"imported {TESTERS} simulated testers" in done.stdout
        yield url, engine, folder


def _games(engine: Engine) -> list[repo.GameRecord]:
    """The study's games (the demo's are known from their events: replay.games_of)."""
    from playtest.replay import games_of

    return [g for p in repo.list_participant_ids(engine, STUDY) for g in games_of(engine, p)]


def _events(engine: Engine) -> list[tuple[str, dict]]:
    from playtest.study_data import load_bundle

    events = load_bundle(engine, STUDY).data.events
    return list(zip(events["type"], events["props"], strict=True))


def test_the_studies_page_offers_it_and_makes_its_study(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.fifth_game.plugin import PLUGIN

    url = f"sqlite:///{tmp_path / 'playtest.sqlite'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.chdir(tmp_path)
    with migrated(url) as engine:
        at = AppTest.from_file(PAGE_APP, default_timeout=90)
        at.query_params["page"] = "studies"
        at.session_state["designer_signed_in"] = True
        at.run()
        assert not at.exception, at.exception
        assert PLUGIN.title in at.selectbox(key="game-new").options
        at.selectbox(key="game-new").set_value(PLUGIN).run()
        assert not at.exception, at.exception
        assert "Presets: standard" in " ".join(str(m.value) for m in at.markdown)
        at.text_input(key=f"title-new-{GAME}").input("Noughts and crosses")
        at.button(key=f"FormSubmitter:study-new-{GAME}-Create study").click().run()
        assert not at.exception, at.exception
        (made,) = [s for s in repo.list_studies(engine) if s.title == "Noughts and crosses"]
        assert made.game == GAME
        assert made.config["seats"] == ["human", "ai:easy"]


def test_playtest_demo_fills_it_with_whole_games_and_refused_clicks(
        filled: tuple[str, Engine, Path]) -> None:
    _, engine, _ = filled
    games = _games(engine)
    assert len(games) >= TESTERS and {g.game for g in games} == {GAME}
    for game in games:
        assert game.finished
        final = GameRecord(GAME, game.rules, 2, game.actions).replay()
        assert final.is_terminal()  # every stored game replays to its end
    clicks = [props for kind, props in _events(engine) if kind == "click"]
    refused = [p for p in clicks if p.get("ok") is False]
    assert refused and {p["reason"] for p in refused} <= {"taken", "game_over", "no_square"}
    assert any(p["reason"] == "taken" for p in refused)


def test_export_then_import_gives_the_same_study(filled: tuple[str, Engine, Path],
                                                 tmp_path: Path) -> None:
    url, engine, _ = filled
    out = tmp_path / "study.jsonl"
    playtest("export", "--study", STUDY, "--out", str(out), url=url, cwd=tmp_path)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert {r["game"] for r in records if r["record"] == "study"} == {GAME}
    assert {r["props"]["game"] for r in records
            if r["record"] == "event" and r["type"] == "game_start"} == {GAME}
    second = f"sqlite:///{tmp_path / 'other.sqlite'}"
    with migrated(second) as other:
        done = playtest("import", str(out), url=second, cwd=tmp_path)
        assert "added" in done.stdout
        def key(db: Engine) -> list[tuple]:
            return sorted((g.game_id, g.game, tuple(map(tuple, g.actions)), g.winner,
                           g.reason) for g in _games(db))

        assert key(other) == key(engine) and len(key(engine)) >= TESTERS
        assert len(_events(other)) == len(_events(engine))
        again = tmp_path / "again.jsonl"
        playtest("export", "--study", STUDY, "--out", str(again), url=second, cwd=tmp_path)
        assert sorted(again.read_text().splitlines()) == sorted(out.read_text().splitlines())


def test_its_report_has_a_confusion_point_from_its_own_refusals(
        filled: tuple[str, Engine, Path]) -> None:
    """Built with the game's analytics (its plug-in's ``analytics``), the report ranks the
    refusal reason ``taken`` as a confusion point, counted from the stored clicks."""
    from analytics.report import build_report
    from playtest.study_data import load_bundle
    from tests.fifth_game.plugin import PLUGIN

    _, engine, _ = filled
    bundle = load_bundle(engine, STUDY)
    report = build_report(bundle.data, bundle.scores, bundle.quiz, game=PLUGIN.analytics)
    points = {p["id"]: p for p in report["confusion_points"]}
    assert "rule:taken" in points
    taken = [p for kind, p in _events(engine) if kind == "click" and p.get("reason") == "taken"]
    assert points["rule:taken"]["evidence"]["troubles"] <= len(taken)
    assert points["rule:taken"]["evidence"]["troubles"] > 0


def test_playtest_report_has_a_confusion_point_from_its_own_refusals(
        filled: tuple[str, Engine, Path], tmp_path: Path) -> None:
    url, _, _ = filled
    plan = tmp_path / "plan.json"
    done = playtest("report", "--study", STUDY, "--out", str(tmp_path / "plan.md"),
                    "--json", str(plan), url=url, cwd=tmp_path)
    assert f"{TESTERS} participants" in done.stdout
    report = json.loads(plan.read_text())
    assert report["game"] == GAME
    points = {p["id"]: p for p in report["confusion_points"]}
    # the game's own fix for it: its plug-in's analytics, not the core alone
    assert points["rule:taken"]["action"] == "Make taken squares look unclickable."


def test_a_study_read_outside_the_app_gets_its_plugins_analytics(
        filled: tuple[str, Engine, Path]) -> None:
    """A study loaded as a script or command loads it (no plug-in given) and a lookup by
    the game's name both give its registry plug-in's analytics."""
    from analytics import game_analytics
    from analytics.report import build_report
    from playtest.study_data import load_bundle
    from tests.fifth_game.plugin import PLUGIN

    _, engine, _ = filled
    assert game_analytics.load(GAME) is PLUGIN.analytics
    bundle = load_bundle(engine, STUDY)
    assert game_analytics.for_study(bundle.data) is PLUGIN.analytics
    report = build_report(bundle.data, bundle.scores, bundle.quiz)
    points = {p["id"]: p for p in report["confusion_points"]}
    assert points["rule:taken"]["action"] == "Make taken squares look unclickable."


def test_its_study_asks_its_own_surveys(filled: tuple[str, Engine, Path]) -> None:
    """The plug-in's survey folder is bundled: its demo study's default pre and post
    surveys are the game's own, the simulated testers answered them, and they score."""
    from playtest.study_data import load_bundle
    from surveys import list_surveys, load_survey

    _, engine, _ = filled
    assert {"tictactoe_pre", "tictactoe_post"} <= set(list_surveys())
    (study,) = [s for s in repo.list_studies(engine) if s.study_id == STUDY]
    assert (study.config["pre_survey"], study.config["post_survey"]) == (
        "tictactoe_pre", "tictactoe_post")
    answers = load_bundle(engine, STUDY).data.responses
    answered = set(zip(answers["survey"], answers["item"], strict=True))
    for survey in ("tictactoe_pre", "tictactoe_post"):
        items = {i.id for page in load_survey(survey).pages for i in page.items
                 if i.type != "info"}
        assert {(survey, item) for item in items} & answered, survey
    assert ("tictactoe_post", "tictactoe.taken_clear") in answered


def test_a_study_config_knows_its_surveys_only_while_it_is_configured() -> None:
    from analytics import game_analytics
    from playtest.games import registry
    from playtest.study_config import StudyConfig
    from surveys import list_surveys

    config = {"game": GAME, "pre_survey": "tictactoe_pre", "post_survey": "tictactoe_post"}
    assert StudyConfig.model_validate(config).pre_survey == "tictactoe_pre"
    listed = os.environ.pop("PLAYTEST_GAMES")
    try:
        registry.reload()
        assert GAME not in registry.game_names()
        assert "tictactoe_pre" not in list_surveys()
        assert game_analytics.load(GAME) is game_analytics.GENERIC
    finally:
        os.environ["PLAYTEST_GAMES"] = listed
        registry.reload()
    assert GAME in registry.game_names() and "tictactoe_pre" in list_surveys()


def test_the_engine_builds_it_by_name_in_a_process_without_the_registry() -> None:
    """The engine imports the configured modules for a name it lacks: a replay and a
    balance simulation whose worker processes are started by a forkserver (as under the
    Streamlit server, whose threads make forking unsafe) know the game, and nothing read
    the app's registry."""
    script = (
        "import sys, threading\n"
        "from engine.balance import simulate\n"
        "from engine.core import make_game\n"
        "from engine.players import levels\n"
        "stop = threading.Event()\n"
        "threading.Thread(target=stop.wait, daemon=True).start()  # forkserver workers\n"
        "print(make_game('tictactoe', 'standard', 2).num_players, *levels('tictactoe'))\n"
        "report = simulate('tictactoe', None, ['easy', 'easy'], games=8, seed=1,"
        " workers=2)\n"
        "print(report.games, 'playtest.games.registry' in sys.modules)\n"
        "stop.set()\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=configured(dict(os.environ)), cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["2 easy medium hard", "8 False"]


def test_the_designer_replays_its_game_on_its_board(filled: tuple[str, Engine, Path],
                                                   tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    url, engine, _ = filled
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.chdir(tmp_path)
    game = _games(engine)[0]
    at = AppTest.from_file(PAGE_APP, default_timeout=90)
    at.query_params["page"] = "replay"
    at.session_state["designer_signed_in"] = True
    at.session_state["study_id"] = STUDY
    at.session_state["replay_tester"] = game.participant_id
    at.run()
    assert not at.exception, at.exception
    assert list(at.code) == []  # its board, not the engine's text
    total = len(game.actions)
    assert any(str(c.value).startswith(f"Step {total} of {total}: ") for c in at.caption)
    at.slider(key=f"replay_step-{game.game_id}").set_value(1).run()
    assert not at.exception, at.exception
    assert any(str(c.value).startswith(f"Step 1 of {total}: ") for c in at.caption)


def test_its_rules_overlay_pictures_are_positions_of_its_own_board() -> None:
    from playtest.board.rules_overlay import load_rules, picture_view
    from playtest.games.registry import game_plugin

    plugin = game_plugin(GAME)
    assert plugin.rules_path is not None
    pictures = [s.picture for s in load_rules(plugin.rules_path).sections if s.picture]
    assert pictures
    view = picture_view(plugin, pictures[0])
    assert view["line"] == ["a1", "a2", "a3"] and view["turn_text"] == "Game over"
