"""The Experiments page of Bricks & Walls' demo study (filled by ``playtest demo``, its
highlighting experiment) as a designer sees it in Chromium at 1280×800 and on a 360×740
phone: the game's definition of a turn is on the page and the per-turn metrics have
values for both arms (screenshots artifacts/screenshots/turns-experiments-*)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from analytics.game_analytics import load
from playtest import auth, demo
from playtest.storage.db import make_engine, upgrade

pytestmark = pytest.mark.browser

APP = "playtest/app.py"
PASSWORD = "a designer's secret"
SIZES = {"wide": (1280, 800), "phone": (360, 740)}
GAME = "morris"
STUDY = f"{demo.DEMO_STUDY_ID}-{GAME}"


@pytest.fixture(scope="module")
def app(streamlit_app: Callable[..., Any], tmp_path_factory: pytest.TempPathFactory) -> Any:
    url = f"sqlite:///{tmp_path_factory.mktemp('turns') / 'playtest.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    study = {s.game: s for s in demo.ensure_game_demo_studies(engine)}[GAME]
    demo.generate(engine, 12, seed=4, study=study, workers=1)
    engine.dispose()
    return streamlit_app(APP, {"DATABASE_URL": url, auth.ENV_VAR: auth.hash_password(PASSWORD)})


def _settle(page: Any) -> None:
    page.locator("[data-testid=stApp][data-test-script-state=notRunning]"
                 "[data-test-connection-state=CONNECTED]").wait_for(timeout=90_000)


def _sidebar(page: Any) -> Any:
    sidebar = page.locator("[data-testid=stSidebar]")
    if not page.locator("[data-testid=stSidebarNav]").is_visible():
        page.locator("[data-testid=stExpandSidebarButton]").click()
        expect(page.locator("[data-testid=stSidebarNav]")).to_be_visible()
    return sidebar


@pytest.mark.parametrize("size", list(SIZES))
def test_the_experiments_page_says_what_a_turn_is(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path], size: str
) -> None:
    width, height = SIZES[size]
    page = new_page(app, "", width=width, height=height)
    page.get_by_label("Designer password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_text("Signed in as the designer.")).to_be_visible()
    _settle(page)
    _sidebar(page).locator("[data-testid=stSidebarNav]").get_by_text(
        "Experiments", exact=True).click()
    _settle(page)
    chosen = _sidebar(page).locator("[data-testid=stSelectbox]").first.get_by_role("combobox")
    if not chosen.input_value().endswith(f"({STUDY})"):
        chosen.click()
        page.keyboard.type(f"({STUDY})")
        page.keyboard.press("Enter")
        _settle(page)
        expect(chosen).to_have_value(re.compile(rf"\({STUDY}\)$"))
    if width < 640:
        page.locator("[data-testid=stSidebarCollapseButton] button").click()
        expect(page.locator("[data-testid=stSidebarNav]")).to_be_hidden()
    definition = load(GAME).turns.definition
    caption = page.get_by_text(definition[:60], exact=False)
    expect(caption).to_be_visible(timeout=90_000)
    assert page.locator("[data-testid=stException]").count() == 0
    caption.scroll_into_view_if_needed()
    screenshot(page, f"turns-experiments-{size}")
    table = page.locator("[data-testid=stDataFrame]").first
    table.scroll_into_view_if_needed(timeout=90_000)
    expect(table).to_be_visible()
    screenshot(page, f"turns-experiments-table-{size}")
