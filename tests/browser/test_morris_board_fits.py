"""The Bricks & Walls board fits a laptop's screen (1280×800) whole: its bottom row was
cut off by the screen's edge at the start of a game, so a tester scrolled between the
message above the board and the points below. On a phone (360×740) it fits the width.
Screenshots artifacts/screenshots/morris-fits-*."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from designer_flow import SIZES
from playwright.sync_api import expect
from sqlalchemy.engine import Engine
from study_flow import APP, consent, drawn, fill_survey, study_db

from playtest.study_config import StudyConfig

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Engine]:
    config = StudyConfig(game="morris", seats=["human", "ai:easy"], games_per_tester=1,
                         allow_more_games=False, audience="adults")
    return study_db(tmp_path_factory, "morris-fits", study_id="fits", title="Fits",
                    config=config)


@pytest.mark.parametrize("size", list(SIZES))
def test_every_point_of_the_board_is_on_screen_when_the_game_starts(
    streamlit_app: Callable[..., Any], new_page: Callable[..., Any],
    app_db: tuple[str, Engine], screenshot: Callable[[Any, str], Path], size: str,
) -> None:
    url, _engine = app_db
    width, height = SIZES[size]
    page = new_page(streamlit_app(APP, {"DATABASE_URL": url}), "?study=fits",
                    width=width, height=height)
    consent(page)
    fill_survey(page, screenshot, f"morris-fits-survey-{size}")
    points = page.locator("[data-testid=morris-board] .pt")
    expect(points).to_have_count(24)
    drawn(page)
    message = page.locator("[data-testid=morris-board] .mb-msg")
    expect(message).to_be_visible()
    boxes = [point.bounding_box() for point in points.all()]
    assert all(box is not None for box in boxes)
    below = [b for b in boxes if b and b["y"] + b["height"] > height]
    beside = [b for b in boxes if b and (b["x"] < 0 or b["x"] + b["width"] > width)]
    assert below == [] and beside == [], (below, beside)
    top = message.bounding_box()
    assert top is not None and top["y"] >= 0  # the message above it is on screen too
    screenshot(page, f"morris-fits-board-{size}")
