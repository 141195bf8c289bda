"""A Dokusen study on the designer's pages, in Chromium at 1280x800 and on a 360x740
phone (screenshots artifacts/screenshots/dokusen-designer-*).

The study is a course of seven stages with an A/B test of one stage's parameters,
filled by ``playtest demo``'s simulated testers (who play each game on the stage they
have reached, against the stages' own computer levels). The confusion page shows the
per-stage table and chart (first-attempt win rate, rounds, fresh flips, each with its
definition and interval) and the ranked confusion points, among them Dokusen's refusal
reasons and fresh flips; the experiments page compares the two variants.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from designer_flow import APP, PASSWORD, SIZES, expect_charts, go, sign_in
from playwright.sync_api import expect

from analytics.games.dokusen import stage_summary
from playtest import auth, demo, services
from playtest.storage.db import make_engine, upgrade
from playtest.study_config import parse_study_config
from playtest.study_data import load_bundle

pytestmark = pytest.mark.browser

COURSE = ["S1", "S2", "S3", "S4", "S5", "S6", "S7"]
KNOWN: dict[str, Any] = {}


@pytest.fixture(scope="module")
def app(streamlit_app: Callable[..., Any], tmp_path_factory: pytest.TempPathFactory) -> Any:
    url = f"sqlite:///{tmp_path_factory.mktemp('dokusen-designer') / 'playtest.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    config = parse_study_config({
        "game": "dokusen", "rules": {"stages": COURSE}, "games_per_tester": 6,
        "experiments": [{"key": "s4_limit", "target": "rules", "variants": {
            "A": {"stages": COURSE},
            "B": {"stages": COURSE, "changes": {"S4": {"maxRounds": 3}}}}}]})
    study = services.create_study(engine, title="Dokusen stages", config=config,
                                  study_id="dk")
    demo.generate(engine, 30, seed=3, study=study, workers=1)
    summary = stage_summary(load_bundle(engine, "dk").data)
    KNOWN["stages"] = list(summary["stage"])
    engine.dispose()
    return streamlit_app(APP, {"DATABASE_URL": url, auth.ENV_VAR: auth.hash_password(PASSWORD)})


@pytest.mark.parametrize("size", list(SIZES))
def test_confusion_page_shows_stages_and_dokusen_confusion_points(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path], size: str
) -> None:
    # the simulated testers got past the first stage: the table has several rows
    assert KNOWN["stages"][:3] == ["S1", "S2", "S3"]
    page = sign_in(new_page, app, size)
    go(page, "Confusion", "dk")
    expect(page.get_by_text("Per stage: win rate, rounds, fresh flips").first).to_be_visible(
        timeout=60_000)
    expect(page.get_by_text("First-attempt win rate: among testers whose first game",
                            exact=False)).to_be_visible()
    expect(page.get_by_text("Fresh flip: a tester's placement", exact=False)).to_be_visible()
    table = page.locator("[data-testid=stDataFrame]")
    expect(table.first).to_be_visible(timeout=60_000)
    points = page.locator("[data-testid=stDataFrame]").first
    points.scroll_into_view_if_needed()
    screenshot(page, f"dokusen-designer-confusion-{size}")
    expect_charts(page, 2)  # refused clicks by reason; per-stage rates with intervals
    page.get_by_text("Per stage: win rate, rounds, fresh flips").first.scroll_into_view_if_needed()
    screenshot(page, f"dokusen-designer-stages-{size}")
    stages_table = page.locator("[data-testid=stDataFrame]").filter(
        has_text="First-attempt win rate (95 %)")
    stages_table.scroll_into_view_if_needed()
    expect(stages_table).to_be_visible(timeout=60_000)
    screenshot(page, f"dokusen-designer-stages-table-{size}")
    refusals = page.locator("[data-testid=stDataFrame]").filter(has_text="Refused because the tester")
    refusals.scroll_into_view_if_needed()
    expect(refusals).to_be_visible(timeout=60_000)


@pytest.mark.parametrize("size", list(SIZES))
def test_plan_lists_dokusen_points_and_stages(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path], size: str
) -> None:
    page = sign_in(new_page, app, size)
    go(page, "Design plan", "dk")
    expect(page.get_by_text("Ranked confusion points").first).to_be_visible(timeout=60_000)
    screenshot(page, f"dokusen-designer-plan-{size}")
    go(page, "Experiments", "dk")
    expect(page.get_by_text("s4_limit", exact=False).first).to_be_visible(timeout=60_000)
    screenshot(page, f"dokusen-designer-experiments-{size}")
