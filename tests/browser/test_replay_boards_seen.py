"""The Replay page draws every game's board, read-only, as its play screen does: each
registered game's demo study, its first tester's first game at the last step, in
Chromium at 1280×800 and on a 360×740 phone. The board is a drawn SVG (or the game's own
board component) with the expected number of points / tiles / squares, no text or code
block (``<pre>``), and it fits the screen (screenshots artifacts/screenshots/replay-*)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from designer_flow import APP, PASSWORD, SIZES, go, settle, sign_in
from playwright.sync_api import expect

from playtest import auth, demo
from playtest.games.registry import game_plugin, games
from playtest.replay import games_of
from playtest.storage import repository as repo
from playtest.storage.db import make_engine, upgrade

pytestmark = pytest.mark.browser


def _study_of(game: str) -> str:
    return demo.DEMO_STUDY_ID if game == games()[0].name else f"{demo.DEMO_STUDY_ID}-{game}"


def _drawn(game: str, state: Any) -> tuple[str, int]:
    """The board's drawn elements on the Replay page and how many ``state`` has."""
    if game == "vapoosh":  # the game's own board component, 12 × 12 cells
        return "[data-testid=vapoosh-board] .cell", 144
    if game == "morris":  # the 24 points of the three squares
        return ".replay-board[data-game=morris] svg g.pt", 24
    if game == "vasco":  # one triangle per tile laid
        return ".replay-board[data-game=vasco] svg g.vt", len(state.tiles)
    if game == "dokusen":  # one square per square of the stage's board
        return (".replay-board[data-game=dokusen] svg g.sq",
                sum(1 for square in state.game.grid.is_square if square))
    raise AssertionError(f"a new game: say what its Replay board draws ({game})")


@pytest.fixture(scope="module")
def app(streamlit_app: Callable[..., Any],
        tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, dict[str, tuple[str, int]]]:
    url = f"sqlite:///{tmp_path_factory.mktemp('replay') / 'playtest.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    studies = [demo.ensure_demo_study(engine), *demo.ensure_game_demo_studies(engine)]
    expected: dict[str, tuple[str, int]] = {}
    for study in studies:
        demo.generate(engine, 3, seed=5, study=study, workers=1)
        # what the page opens on: the first tester's first game, at its last step
        first = repo.list_participant_ids(engine, study.study_id)[0]
        game = games_of(engine, first)[0]
        rules = game_plugin(game.game).make_game(game.rules, len(game.seats))
        state: Any = rules.new_initial_state()
        for action in game.actions:
            state.apply_action(rules.action_from_json(action))
        expected[game.game] = _drawn(game.game, state)
    engine.dispose()
    server = streamlit_app(APP, {"DATABASE_URL": url,
                                 auth.ENV_VAR: auth.hash_password(PASSWORD)})
    return server, expected


@pytest.mark.parametrize("size", list(SIZES))
def test_replay_draws_each_game_s_board_on_screen(
    new_page: Callable[..., Any], app: tuple[Any, dict[str, tuple[str, int]]],
    screenshot: Callable[[Any, str], Path], size: str,
) -> None:
    server, expected = app
    assert set(expected) == {p.name for p in games()}
    page = sign_in(new_page, server, size)
    width, height = SIZES[size]
    for plugin in games():
        selector, count = expected[plugin.name]
        assert count > 0, plugin.name
        go(page, "Replay", _study_of(plugin.name))
        settle(page)
        drawn = page.locator(selector)
        expect(drawn).to_have_count(count, timeout=60_000)
        main = page.locator("[data-testid=stMain]")
        expect(main.locator("pre")).to_have_count(0)
        expect(main.locator("[data-testid=stCode]")).to_have_count(0)
        board = drawn.first.locator("xpath=ancestor::*[name()='svg' or "
                                    "@data-testid='vapoosh-board'][1]")
        board.scroll_into_view_if_needed()
        box = board.bounding_box()
        assert box is not None, plugin.name
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (plugin.name, box)
        assert box["height"] <= height, (plugin.name, box)
        screenshot(page, f"replay-{plugin.name}-{size}")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_funnel_names_its_steps_for_people(
    new_page: Callable[..., Any], app: tuple[Any, dict[str, tuple[str, int]]],
    screenshot: Callable[[Any, str], Path], size: str,
) -> None:
    """The Overview's funnel chart says "Survey before play", never ``pre_survey``; the
    Confusion and Questionnaires pages are shot for a look (their tables are drawn on a
    canvas: their words are checked in tests/app)."""
    server, _ = app
    page = sign_in(new_page, server, size)
    for plugin in games():
        study = _study_of(plugin.name)
        go(page, "Overview", study)
        ticks = page.locator("[data-testid=stPlotlyChart] .xtick text")
        expect(ticks.filter(has_text="Survey before play")).to_have_count(1, timeout=60_000)
        expect(ticks.filter(has_text="pre_survey")).to_have_count(0)
        expect(ticks.filter(has_text="post_survey")).to_have_count(0)
        screenshot(page, f"words-{plugin.name}-overview-{size}")
        for name in ("Confusion", "Questionnaires"):
            go(page, name, study)
            settle(page)
            screenshot(page, f"words-{plugin.name}-{name.lower()}-{size}")
