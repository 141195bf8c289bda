"""The Experiments page of Bricks & Walls' demo study (filled by ``playtest demo``, its
highlighting experiment) as a designer sees it in Chromium at 1280×800 and on a 360×740
phone: the game's definition of a turn is on the page and the per-turn metrics have
values for both arms (screenshots artifacts/screenshots/turns-experiments-*)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from designer_flow import APP, PASSWORD, SIZES, go, sign_in
from playwright.sync_api import expect

from analytics.game_analytics import load
from playtest import auth, demo
from playtest.storage.db import make_engine, upgrade

pytestmark = pytest.mark.browser

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


@pytest.mark.parametrize("size", list(SIZES))
def test_the_experiments_page_says_what_a_turn_is(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path], size: str
) -> None:
    page = sign_in(new_page, app, size)
    go(page, "Experiments", STUDY)
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
