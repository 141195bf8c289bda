"""Vasco on a 360×740 phone in Debian's Chromium, by taps only (issue 13, item 3's
"keyboard and touch"; the developer guide's phone check).

A tester of a Vasco study, at the game on a touch phone (consent and surveys passed:
the page at ``?p=<code>``; a tester's consent and surveys on a phone are
test_dokusen_tester_e2e.py's), plays a whole (short, 24-tile: a few moves) game against
the computer by tapping: a green space, then one of its tile previews. After every tap on
a space the previews must be inside the visible screen and big enough for a finger, the
caption must name no coordinates, and the chosen space glows, and the last move's forced
tiles are not hidden again to replay; the computer's answer is announced; the Rules open
and close mid-game; the result is said with its reason. The board's zoom buttons must not
cover the turn line, the counter or the message. A pinch on the board zooms it (its
viewBox narrows).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from study_flow import (
    APP,
    board_token,
    new_player_at_play,
    rules_open_and_close,
    settle,
    stored_game,
    study_db,
    vasco_computer_announced,
    wait_for_tester,
    wait_redrawn,
    wait_stored,
)

from engine.players import make_player
from engine.vasco import decode
from playtest.study_config import StudyConfig

pytestmark = pytest.mark.browser

BOARD = "[data-testid=vasco-board]"
WIDTH, HEIGHT = 360, 740
COORDINATES = re.compile(r"-?\d+,-?\d+")


@pytest.fixture(scope="module")
def phone_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Engine]:
    config = StudyConfig(game="vasco", rules={"base": "standard", "pool": 24},
                         seats=["human", "ai:medium"], games_per_tester=1,
                         allow_more_games=False, audience="adults")
    return study_db(tmp_path_factory, "vasco-phone", study_id="vphone", title="Vasco phone",
                    config=config)


def _inside_screen(box: dict[str, float] | None) -> bool:
    return box is not None and box["x"] >= 0 and box["y"] >= 0 and (
        box["x"] + box["width"] <= WIDTH and box["y"] + box["height"] <= HEIGHT)


def _overlap(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    if a is None or b is None:
        return False
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def _view_width(page: Any) -> float:
    box = page.locator(f"{BOARD} svg.vb-svg").get_attribute("viewBox") or "0 0 0 0"
    return float(box.split()[2])


def test_a_whole_vasco_game_by_taps_on_a_phone(
    streamlit_app: Callable[..., Any], new_page: Callable[..., Any],
    phone_db: tuple[str, Engine], screenshot: Callable[[Any, str], Path],
) -> None:
    url, engine = phone_db
    code = new_player_at_play(engine, "vphone")
    page = new_page(streamlit_app(APP, {"DATABASE_URL": url}), f"?p={code}",
                    width=WIDTH, height=HEIGHT, has_touch=True, is_mobile=True)
    page.locator(BOARD).wait_for(timeout=30_000)
    settle(page)
    screenshot(page, "vasco-phone-02-board")

    # Nothing the board draws on top covers the turn line, the counter or the message.
    zoom = page.locator(f"{BOARD} .vb-zoom").bounding_box()
    for part in ("turn", "counter", "message"):
        assert not _overlap(zoom, page.locator(f"{BOARD} [data-role={part}]").bounding_box())

    # A pinch (two touch pointers moving apart) zooms the board in.
    svg = page.locator(f"{BOARD} svg.vb-svg")
    box = svg.bounding_box()
    assert box is not None
    before = _view_width(page)
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    svg.dispatch_event("pointerdown", {"pointerId": 11, "pointerType": "touch",
                                       "clientX": cx - 20, "clientY": cy})
    svg.dispatch_event("pointerdown", {"pointerId": 12, "pointerType": "touch",
                                       "clientX": cx + 20, "clientY": cy})
    svg.dispatch_event("pointermove", {"pointerId": 12, "pointerType": "touch",
                                       "clientX": cx + 80, "clientY": cy})
    for pid in (11, 12):
        svg.dispatch_event("pointerup", {"pointerId": pid, "pointerType": "touch"})
    assert _view_width(page) < before
    page.locator(f"{BOARD} [data-zoom=fit]").tap()

    rng = random.Random(8)
    record, state = wait_for_tester(engine, code)
    moves = 0
    while not state.is_terminal():
        action = make_player("medium", rng.randrange(1 << 30), game="vasco").decide(state).action
        place = decode(action)
        stored = len(record.actions)
        # the last move's forced tiles have slid in (animated once)
        page.locator(f"{BOARD} g.vt-hidden").first.wait_for(state="detached")
        # and the computer's move has been played out: the board takes taps again
        page.locator(f"{BOARD}:not([data-playing='1'])").wait_for()
        if moves == 1:
            rules_open_and_close(page)
        page.locator(f'{BOARD} polygon.vc[data-cell="{place.r},{place.c}"]').tap()
        preview = page.locator(f'{BOARD} button.vb-preview[data-state="{place.state}"]')
        preview.wait_for(timeout=30_000)
        page.locator(f'{BOARD} polygon.vc-selected[data-cell="{place.r},{place.c}"]').wait_for()
        # choosing a space does not replay the forced tiles (they stay on the board)
        assert page.locator(f"{BOARD} g.vt-hidden").count() == 0
        caption = page.locator(f"{BOARD} .vb-picker-label").inner_text()
        assert "glowing" in caption and not COORDINATES.search(caption), caption
        for button in page.locator(f"{BOARD} button.vb-preview").all():
            b = button.bounding_box()
            assert _inside_screen(b), f"a tile preview is off the screen: {b}"
            assert b is not None and b["width"] >= 44 and b["height"] >= 44
        if moves == 0:
            screenshot(page, "vasco-phone-03-previews")
        token = board_token(page)
        preview.tap()
        wait_stored(engine, code, stored, "tile")
        wait_redrawn(page, token)
        settle(page)
        record, state = wait_for_tester(engine, code)
        vasco_computer_announced(page, record, stored)
        moves += 1
        assert moves < 100
    page.get_by_role("button", name="Continue to the last questions").wait_for(timeout=30_000)
    # the result once the last move has been played out, with its reason
    page.locator(f"{BOARD}:not([data-playing='1'])").wait_for()
    end = page.locator(f"{BOARD} [data-role=result]")
    end.wait_for()
    assert re.search(r"loop|path|draw", end.inner_text()), end.inner_text()
    screenshot(page, "vasco-phone-04-game-over")
    record, state = stored_game(engine, code)
    assert record.finished and state.is_terminal() and moves >= 2
