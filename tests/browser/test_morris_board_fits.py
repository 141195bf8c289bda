"""The Bricks & Walls board fits a phone's screen (360×740) whole when the game starts,
after the consent and the survey, and the message above it is on screen too.
Screenshots artifacts/screenshots/morris-fits-*.

At 1280×800, where its bottom row was once cut off by the screen's edge at the start of
a game (a tester scrolled between the message above the board and the points below), the
same check (``study_flow.morris_board_on_screen``) runs in test_morris_tester_e2e.py as
its game starts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from designer_flow import SIZES
from sqlalchemy.engine import Engine
from study_flow import APP, consent, fill_survey, morris_board_on_screen, study_db

from playtest.study_config import StudyConfig

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Engine]:
    config = StudyConfig(game="morris", seats=["human", "ai:easy"], games_per_tester=1,
                         allow_more_games=False, audience="adults")
    return study_db(tmp_path_factory, "morris-fits", study_id="fits", title="Fits",
                    config=config)


def test_every_point_of_the_board_is_on_screen_when_the_game_starts(
    streamlit_app: Callable[..., Any], new_page: Callable[..., Any],
    app_db: tuple[str, Engine], screenshot: Callable[[Any, str], Path],
) -> None:
    url, _engine = app_db
    size = "phone"
    width, height = SIZES[size]
    page = new_page(streamlit_app(APP, {"DATABASE_URL": url}), "?study=fits",
                    width=width, height=height)
    consent(page)
    fill_survey(page, screenshot, f"morris-fits-survey-{size}")
    morris_board_on_screen(page)
    screenshot(page, f"morris-fits-board-{size}")
