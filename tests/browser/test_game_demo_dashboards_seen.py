"""Each other game's demo study, filled by ``playtest demo``, as a designer sees it in
Chromium: the Overview and Confusion pages draw its testers' funnel and refused clicks
without an error, at 1280×800 and on a 360×740 phone (screenshots
artifacts/screenshots/game-demo-*)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from designer_flow import APP, PASSWORD, SIZES, go, settle, sign_in
from playwright.sync_api import expect

from playtest import auth, demo
from playtest.games.registry import games
from playtest.storage.db import make_engine, upgrade

pytestmark = pytest.mark.browser

OTHER_STUDIES = [f"{demo.DEMO_STUDY_ID}-{p.name}" for p in games()[1:]]


@pytest.fixture(scope="module")
def app(streamlit_app: Callable[..., Any], tmp_path_factory: pytest.TempPathFactory) -> Any:
    url = f"sqlite:///{tmp_path_factory.mktemp('game-demos') / 'playtest.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    for study in demo.ensure_game_demo_studies(engine):
        demo.generate(engine, 12, seed=4, study=study, workers=1)
    engine.dispose()
    return streamlit_app(APP, {"DATABASE_URL": url, auth.ENV_VAR: auth.hash_password(PASSWORD)})


@pytest.mark.parametrize("size", list(SIZES))
def test_each_game_s_demo_dashboard_is_filled(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path], size: str
) -> None:
    page = sign_in(new_page, app, size)
    for study in OTHER_STUDIES:
        go(page, "Overview", study)
        expect(page.locator("[data-testid=stPlotlyChart]").first).to_be_visible(timeout=90_000)
        expect(page.get_by_text("no tester has taken part", exact=False)).to_have_count(0)
        assert page.locator("[data-testid=stException]").count() == 0, study
        screenshot(page, f"game-demo-{study}-overview-{size}")
        go(page, "Confusion", study)
        assert page.locator("[data-testid=stException]").count() == 0, study
        expect(page.get_by_text("no tester has taken part", exact=False)).to_have_count(0)
        screenshot(page, f"game-demo-{study}-confusion-{size}")


#: The demo studies whose game's demo.py adds an experiment: its subheader, its arms.
EXPERIMENTS = {
    f"{demo.DEMO_STUDY_ID}-vasco": ("forced_gap_wording · message:forced_gap",
                                    ("plain", "formal")),
    f"{demo.DEMO_STUDY_ID}-dokusen": ("s1_orange · rules", ("orange_grows", "orange_plays")),
}


def test_the_demo_experiments_are_shown_with_numbers(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    """The Experiments page of the Vasco and Dokusen demo studies at 1280×800: the
    experiment's verdict, its testers per arm, the metrics table and the effect chart."""
    page = sign_in(new_page, app)
    for study, (heading, arms) in EXPERIMENTS.items():
        go(page, "Experiments", study)
        expect(page.get_by_role("heading", name=heading)).to_be_visible(timeout=90_000)
        expect(page.get_by_text("This study has no experiments")).to_have_count(0)
        for arm in arms:  # this study's arms, not the last page's elements still shown
            expect(page.locator("[data-testid=stMetric]").filter(
                has_text=f"Testers with {arm}")).to_have_count(1, timeout=90_000)
            expect(page.locator("[data-testid=stDataFrame]").first).to_contain_text(
                f"{arm} (n)")
        settle(page)
        expect(page.locator("[data-testid=stPlotlyChart]").first).to_be_visible()
        assert page.locator("[data-testid=stException]").count() == 0, study
        screenshot(page, f"game-demo-{study}-experiments-wide")
