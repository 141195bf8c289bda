"""Vapoosh!'s play screen keeps its place between turns, in Debian's Chromium.

A child aims at a tile: the board must not change size, nor the "Sound on" button jump
between rows, when the side panel changes from "You rolled" to "The computer rolled", the
Roll button appears or goes, or a message comes. The test, a tester already at the game,
plays turns against Easy at 1280x800 and at 360x740 and compares the board's and the buttons' boxes after every step;
on the phone it also checks that the tiles are big enough for a finger and on screen.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from study_flow import APP, board_token, new_player_at_play, settle, study_db, wait_redrawn

from playtest.study_config import StudyConfig

pytestmark = pytest.mark.browser

BOARD = "[class*='st-key-board-'] .vb"


@pytest.fixture(scope="module")
def app_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Engine]:
    config = StudyConfig(seats=["human", "ai:easy"], ai_think_ms=0, highlight_options=True,
                         games_per_tester=1, allow_more_games=False, audience="adults")
    return study_db(tmp_path_factory, "steady", study_id="steady", title="Steady",
                    config=config)


@pytest.fixture(scope="module")
def app(streamlit_app: Callable[..., Any], app_db: tuple[str, Engine]) -> Any:
    return streamlit_app(APP, {"DATABASE_URL": app_db[0]})


def _wait_change(page: Any, token: str) -> None:
    """Wait until the board answered the last input: a new position that takes an input
    (or the end). A position on the way (the dice still rolling, the board idle) shakes
    a tile clicked on it and sends nothing: a CI run at high load clicked so and waited
    in vain."""
    wait_redrawn(page, token)
    settle(page)


def _boxes(page: Any) -> dict[str, tuple[int, int, int, int]]:
    """The boxes (rounded px) of what a finger aims at: the grid, a tile, the Sound button."""
    found: dict[str, tuple[int, int, int, int]] = {}
    for name, selector in (("grid", ".vb-grid"), ("tile", "button.tile >> nth=0"),
                           ("sound", "button.vb-mute"), ("roll slot", ".vb-controls")):
        box = page.locator(BOARD).locator(selector).bounding_box()
        assert box is not None, name
        found[name] = (round(box["x"]), round(box["y"]), round(box["width"]),
                       round(box["height"]))
    return found


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (360, 740)])
def test_the_board_and_its_buttons_keep_their_place_between_turns(
    new_page: Callable[..., Any], app: Any, app_db: tuple[str, Engine],
    screenshot: Callable[[Any, str], Path], width: int, height: int,
) -> None:
    # a tester at the game (consent and surveys are test_tester_e2e.py's)
    code = new_player_at_play(app_db[1], "steady")
    page = new_page(app, f"?p={code}", width=width, height=height)
    page.locator(f"{BOARD}[data-token][data-phase]").wait_for(timeout=30_000)
    settle(page)
    first = _boxes(page)
    seen = [("start", first)]
    tiles = page.locator(BOARD).locator("button.tile")
    for turn in range(3):
        before = board_token(page)
        page.get_by_role("button", name="Roll the dice").click()
        _wait_change(page, before)
        seen.append((f"turn {turn} rolled", _boxes(page)))
        if turn == 0:
            screenshot(page, f"steady-{width}-rolled")
        phase = page.locator(BOARD).get_attribute("data-phase")
        if phase == "over":
            break  # four sixes: the tester won on the spot (the boxes were compared)
        if phase != "place":
            continue  # a blocked roll: the computer played and the tester rolls again
        # The highlight marks both rolled tiles, even one the tester already owns (class
        # o1), which the rules refuse: a CI run clicked that one and waited for a new
        # position in vain. An empty tile first, then the computer's.
        classes = [c.split() for c in tiles.evaluate_all("els => els.map(e => e.className)")]
        options = [i for i, cls in enumerate(classes) if "hl" in cls and "o1" not in cls]
        option = min(options, key=lambda i: "o0" not in classes[i])
        before = board_token(page)
        tiles.nth(option).click()
        _wait_change(page, before)
        # the computer's turn plays out at the study's pace; then the tester rolls again
        # (or the game is over)
        page.get_by_role("button", name="Roll the dice").or_(
            page.locator(f"{BOARD}[data-phase=over]")).first.wait_for(timeout=30_000)
        settle(page)
        if page.locator(BOARD).get_attribute("data-phase") == "over":
            break
        # The computer (no think time) has rolled and placed: its dice and message show.
        seen.append((f"turn {turn} after the computer", _boxes(page)))
        if turn == 0:
            screenshot(page, f"steady-{width}-computer-moved")
    moved = [(when, boxes) for when, boxes in seen if boxes != first]
    assert not moved, f"at {width}x{height} first {first}, then {moved}"
    if width == 360:
        # A child's finger: a tile of at least 26 px on a 360 px phone, the whole board on
        # the screen's width and nothing to scroll sideways.
        grid = first["grid"]
        assert first["tile"][2] >= 26 and first["tile"][3] >= 26, first["tile"]
        assert grid[0] >= 0 and grid[0] + grid[2] <= width, grid
        assert page.evaluate("document.documentElement.scrollWidth") <= width
