"""The Balance page of each game's demo study, in Chromium at 1280x800 and on a 360x740
phone (screenshots artifacts/screenshots/balance-<game>-*): the study's game is
simulated, the who-wins table and chart with intervals, the game's own section and the
game length are drawn; a one-seat game (Dokusen) compares levels per stage."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from designer_flow import (
    APP,
    PASSWORD,
    SIZES,
    close_sidebar,
    expect_charts,
    go,
    settle,
    sidebar,
    sign_in,
)
from playwright.sync_api import expect

from analytics.data import UNNAMED_GAME
from engine.balance import balance_hooks
from playtest import auth, demo
from playtest.games.registry import game_names, game_plugin
from playtest.storage.db import make_engine, upgrade

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app(streamlit_app: Callable[..., Any], tmp_path_factory: pytest.TempPathFactory) -> Any:
    url = f"sqlite:///{tmp_path_factory.mktemp('balance') / 'playtest.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    demo.ensure_demo_study(engine)
    demo.ensure_game_demo_studies(engine)
    engine.dispose()
    return streamlit_app(APP, {"DATABASE_URL": url, auth.ENV_VAR: auth.hash_password(PASSWORD)})


def _choose_study(page: Any, title: str, study: str) -> None:
    """Pick the study by typing its title: typing "(demo)" could fuzzy-match
    "(demo-dokusen)" too."""
    chosen = sidebar(page).locator("[data-testid=stSelectbox]").first.get_by_role("combobox")
    if not chosen.input_value().endswith(f"({study})"):
        chosen.click()
        page.keyboard.type(title)
        page.keyboard.press("Enter")
        settle(page)
    expect(chosen).to_have_value(f"{title} ({study})")
    close_sidebar(page)


def _one_seat(game: str) -> bool:
    allowed = balance_hooks(game).seat_range or game_plugin(game).seats
    return allowed[1] == 1


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", game_names())
def test_the_balance_page_simulates_the_study_s_game(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path],
    game: str, size: str,
) -> None:
    page = sign_in(new_page, app, size)
    study = demo.DEMO_STUDY_ID if game == UNNAMED_GAME else f"{demo.DEMO_STUDY_ID}-{game}"
    go(page, "Balance")
    _choose_study(page, f"{game_plugin(game).title} demo study", study)
    expect(page.get_by_text(f"many games of {game_plugin(game).title}", exact=False)
           ).to_be_visible()
    games = page.get_by_role("spinbutton", name="Games")
    # The study's switch reruns the page: until that run is over the last study's form
    # may still be drawn beside the new one.
    expect(games).to_have_count(1)
    games.fill("6")
    games.press("Tab")  # committed before the form is sent
    page.get_by_role("button", name="Simulate").click()
    settle(page)
    expect(page.get_by_role("heading", name="How long games are")).to_be_visible(
        timeout=180_000)
    assert page.locator("[data-testid=stException]").count() == 0
    expect(page.get_by_role("button", name="Run 6 more games")).to_be_visible()
    if _one_seat(game):
        heading = page.get_by_role("heading", name="Who wins, per part and level")
        expect_charts(page, 4)  # per stage and level; one run's wins, events, length
    else:
        heading = page.get_by_role("heading", name="Who wins", exact=True)
        expect_charts(page, 3)  # wins per seat, the game's own section, length
    heading.scroll_into_view_if_needed()
    screenshot(page, f"balance-{game}-{size}")
    page.locator("[data-testid=stDataFrame]").first.scroll_into_view_if_needed()
    screenshot(page, f"balance-{game}-table-{size}")
    page.get_by_role("heading", name="How long games are").scroll_into_view_if_needed()
    screenshot(page, f"balance-{game}-length-{size}")
