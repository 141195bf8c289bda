"""Vasco in a study, end to end in Debian's Chromium (issue 13, item 5).

A tester opens the link of a Vasco study, consents, answers the game's pre-play survey,
plays a whole game against the greedy computer with real clicks on the game's own board
(a candidate cell, then one of its tile previews), answers the post-play survey and gets
a completion code. The test chooses each move with the engine from the game as the
database holds it, then checks the database: the game is stored as a ``vasco`` game
whose record replays to the end, every click is an event with the game's own fields
``cell`` and ``tile``, and the engine's events (``place``, ``auto``) are there for the
analytics.
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
    assert_completed,
    board_token,
    consent,
    fill_survey,
    finish_study,
    participant_code,
    rules_open_and_close,
    settle,
    study_db,
    vasco_computer_announced,
    wait_for_tester,
    wait_redrawn,
    wait_stored,
)

from engine.players import make_player
from engine.vasco import decode
from playtest import services
from playtest.games.registry import game_plugin
from playtest.storage import repository as repo
from playtest.study_config import StudyConfig

pytestmark = pytest.mark.browser

BOARD = "[data-testid=vasco-board]"


@pytest.fixture(scope="module")
def app_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Engine]:
    config = StudyConfig(game="vasco", seats=["human", "ai:medium"], games_per_tester=1,
                         allow_more_games=False,
                         audience="adults")
    return study_db(tmp_path_factory, "vasco-e2e", study_id="vasco", title="Vasco e2e",
                    config=config)


def test_a_vasco_tester_goes_from_link_to_completion_code(
    streamlit_app: Callable[..., Any], new_page: Callable[..., Any],
    app_db: tuple[str, Engine], screenshot: Callable[[Any, str], Path],
) -> None:
    url, engine = app_db
    page = new_page(streamlit_app(APP, {"DATABASE_URL": url}), "?study=vasco",
                    width=1280, height=800)
    page.get_by_text("Vasco playtest").wait_for(timeout=30_000)
    screenshot(page, "vasco-e2e-01-consent")
    consent(page)
    code = participant_code(page)
    assert fill_survey(page, screenshot, "vasco-e2e-02-pre-survey") >= 1
    page.locator(BOARD).wait_for(timeout=30_000)
    screenshot(page, "vasco-e2e-03-board")
    rng = random.Random(5)
    record, state = wait_for_tester(engine, code)
    moves = 0
    while not state.is_terminal():
        action = make_player("medium", rng.randrange(1 << 30), game="vasco").decide(state).action \
            if rng.random() < 0.7 else rng.choice(state.legal_actions())
        place = decode(action)
        stored = len(record.actions)
        # the computer's move has been played out: the board takes clicks again
        page.locator(f"{BOARD}:not([data-playing='1'])").wait_for(timeout=30_000)
        if moves == 1:
            rules_open_and_close(page)
        page.locator(f'{BOARD} polygon.vc[data-cell="{place.r},{place.c}"]').click()
        preview = page.locator(f'{BOARD} button.vb-preview[data-state="{place.state}"]')
        preview.wait_for(timeout=30_000)
        if moves == 1:
            screenshot(page, "vasco-e2e-04-previews")
            # The tiles to choose from are on screen at 1280x800 without scrolling, and the
            # turn line says the tester's colour in words (not the rules' "Red (O)").
            last = page.locator(f"{BOARD} button.vb-preview").last.bounding_box()
            assert last is not None
            scrolled = page.evaluate("window.scrollY")
            assert last["y"] + scrolled + last["height"] <= 800, (last, scrolled)
            text = page.locator(BOARD).inner_text()
            assert "Your turn: red lines" in text and "(O)" not in text, text
        token = board_token(page)
        preview.click()
        wait_stored(engine, code, stored, "tile")
        wait_redrawn(page, token)
        settle(page)
        # The computer (Blue) answers in the run the tester's click started.
        record, state = wait_for_tester(engine, code)
        vasco_computer_announced(page, record, stored)
        moves += 1
        assert moves < 200
    # the result once the last move has been played out, with its reason
    page.locator(f"{BOARD}:not([data-playing='1'])").wait_for(timeout=30_000)
    end = page.locator(f"{BOARD} [data-role=result]")
    end.wait_for()
    assert re.search(r"loop|path|draw", end.inner_text()), end.inner_text()
    post_pages, shown = finish_study(page, screenshot, "vasco-e2e", first_shot=5,
                                     free_text="loops!")
    assert post_pages >= 1

    record, state, events = assert_completed(engine, code, shown, "vasco")
    assert [p["game"] for t, p in events if t == "game_start"] == ["vasco"]
    clicks = [p for t, p in events if t == "click"]
    assert len(clicks) == 2 * moves and all(p["seat"] == 1 and "cell" in p for p in clicks)
    placed = [p for p in clicks if "tile" in p]
    assert len(placed) == moves and all(p["ok"] for p in placed)
    places = [p for t, p in events if t == "place"]
    assert len(places) == len(record.actions)  # one place per stored action, either seat
    assert [p for t, p in events if t == "ai_move"] and moves >= 1
    assert services.study_config(repo.get_study(engine, "vasco")).post_survey == (  # type: ignore[arg-type]
        game_plugin("vasco").post_survey)
