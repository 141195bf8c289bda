"""Dokusen in a study, end to end in Debian's Chromium (issue 14, item 6).

A tester on a 360x740 phone opens the link of a Dokusen study (the first stage, one
seat), consents, answers the game's pre-play survey, plays the whole stage with real
clicks on the game's own board, answers the post-play survey and gets a completion code.
The end of the stage is said on screen without scrolling (at 1280x800 too: the stage won
in test_dokusen_stages_e2e.py's 1280 test). The test
chooses each square with the engine's greedy level from the game as the database holds
it, then checks the database: a ``dokusen`` game whose record replays to the stage's end,
every click an event with ``at``, and the engine's ``place`` and ``grow`` events stored.
"""

from __future__ import annotations

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
    stored_game,
    study_db,
    wait_redrawn,
    wait_stored,
)

from engine.dokusen.ai import greedy_action
from playtest.study_config import StudyConfig

pytestmark = pytest.mark.browser

BOARD = "[data-testid=dokusen-board]"


@pytest.fixture(scope="module")
def app_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Engine]:
    config = StudyConfig(game="dokusen", rules="S1", games_per_tester=1,
                         allow_more_games=False, audience="adults")
    return study_db(tmp_path_factory, "dokusen-e2e", study_id="dokusen", title="Dokusen e2e",
                    config=config)


def test_a_dokusen_tester_plays_a_stage_from_link_to_completion_code(
    streamlit_app: Callable[..., Any], new_page: Callable[..., Any],
    app_db: tuple[str, Engine], screenshot: Callable[[Any, str], Path],
) -> None:
    url, engine = app_db
    width, height = 360, 740  # the phone: the tightest screen for the result in view
    page = new_page(streamlit_app(APP, {"DATABASE_URL": url}), "?study=dokusen",
                    width=width, height=height)
    page.get_by_text("Dokusen playtest").wait_for(timeout=30_000)
    consent(page)
    code = participant_code(page)
    assert fill_survey(page, screenshot, "dokusen-e2e-01-pre-survey") >= 1
    page.locator(BOARD).wait_for(timeout=30_000)
    # where the tester is in the study: its one game, no stage won yet
    progress = page.locator(f"{BOARD} [data-testid=dokusen-progress]")
    assert progress.inner_text() == "Game 1 of 1 · stages won: 0"
    screenshot(page, "dokusen-e2e-02-board")
    record, state = stored_game(engine, code)
    moves = 0
    while not state.is_terminal():
        assert state.current_player() == 0, "the tester is to move after every round"
        page.locator(f'{BOARD}[data-animating="0"][data-to-move="0"]').wait_for(timeout=30_000)
        if moves == 1:
            rules_open_and_close(page)
        token = board_token(page)
        action = greedy_action(state)
        r, c = state.game.grid.coord(action)
        stored = len(record.actions)
        page.locator(f"{BOARD} button.sq[data-r='{r}'][data-c='{c}']").click()
        wait_stored(engine, code, stored, "square")
        settle(page)
        # The next click waits for the board to show the position after this one, one
        # that takes an input (or the end): a click on the old position carries the old
        # token, which the app refuses.
        wait_redrawn(page, token)
        record, state = stored_game(engine, code)
        moves += 1
        assert moves < 200
    # The end of the game: the result is said in a child's words, on screen without
    # scrolling, at once (while the last growth is replayed) and after it.
    said = page.locator(f"{BOARD} [data-testid=dokusen-message]:visible, "
                        f"{BOARD} [data-testid=dokusen-over]:visible").first
    assert "Watch the colours grow" not in said.inner_text()
    page.locator(f'{BOARD}[data-animating="0"] [data-testid=dokusen-over]:visible').wait_for(
        timeout=30_000)
    over = page.locator(f"{BOARD} [data-testid=dokusen-over]")
    # the result in the banner, why in the message line above it (said once)
    assert over.inner_text().strip() == "Stage won!"
    why = page.locator(f"{BOARD} [data-testid=dokusen-message]").inner_text()
    assert re.fullmatch(r"You have \d+ of the \d+ squares: over half!", why), why
    scrolled = page.evaluate("window.scrollY")
    for shown in (over, page.locator(f"{BOARD} [data-testid=dokusen-message]")):
        box = shown.bounding_box()
        assert box is not None
        top = box["y"] + scrolled
        assert top >= 0 and top + box["height"] <= height, (box, height)
    head = page.locator(f"{BOARD} [data-testid=dokusen-round]").inner_text()
    assert re.fullmatch(r"Round \d+", head), head  # S1's far-off limit (100) is not said
    assert "Black" in page.locator(f"{BOARD} [data-testid=dokusen-counts]").inner_text()
    assert progress.inner_text() == "Game 1 of 1 · stages won: 1"  # the stage just won
    screenshot(page, f"dokusen-e2e-{width}-game-over")
    post_pages, shown = finish_study(page, screenshot, f"dokusen-e2e-{width}", first_shot=3,
                                     free_text="it grew")
    assert post_pages >= 1

    record, state, events = assert_completed(engine, code, shown, "dokusen")
    assert list(record.seats) == ["human"]
    clicks = [p for t, p in events if t == "click"]
    assert len(clicks) == moves and all(p["ok"] and p["seat"] == 1 for p in clicks)
    assert [p["at"] for p in clicks] == [
        list(state.game.grid.coord(state.game.action_from_json(a))) for a in record.actions
        if a[0] == "place"]
    assert len([1 for t, _ in events if t == "place"]) == moves
    assert [t for t, _ in events if t == "grow"]
