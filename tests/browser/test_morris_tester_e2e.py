"""Bricks & Walls in a study, end to end in Debian's Chromium (issue 15, item 7).

A tester opens the link of a Bricks & Walls study at 1280x800, consents, answers the
game's pre-play survey, sees the whole board on the screen as the game starts, plays a
whole game against the computer with real clicks on the game's
own board (one wrong click on purpose), answers the post-play survey and gets a
completion code. The test chooses each move with the engine from the game as the
database holds it, then checks the database: the game is stored as a ``morris`` game
whose record replays, every click is an event with the engine's refusal reason.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from sqlalchemy.engine import Engine
from study_flow import (
    APP,
    assert_completed,
    board_token,
    consent,
    fill_survey,
    finish_study,
    morris_board_on_screen,
    one_game_study_db,
    participant_code,
    rules_open_and_close,
    settle,
    stored_events,
    wait_for_tester,
    wait_redrawn,
    wait_stored,
)

from engine.morris import Move, Place, Remove, decode
from engine.morris.heuristics import greedy_action
from playtest import services
from playtest.games.registry import game_plugin
from playtest.storage import repository as repo

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Engine]:
    return one_game_study_db(tmp_path_factory, "morris", study_id="bricks",
                             title="Bricks e2e", seats=["human", "ai:easy"],
                             highlight_options=True)






def _press(page: Any, point: str) -> None:
    page.locator(f"[data-testid=morris-board] .pt[data-point={point}]").click()


def test_a_bricks_and_walls_tester_goes_from_link_to_completion_code(
    streamlit_app: Callable[..., Any], new_page: Callable[..., Any],
    app_db: tuple[str, Engine], screenshot: Callable[[Any, str], Path],
) -> None:
    url, engine = app_db
    page = new_page(streamlit_app(APP, {"DATABASE_URL": url}), "?study=bricks",
                    width=1280, height=800)
    page.get_by_text("Bricks & Walls playtest").wait_for(timeout=30_000)
    screenshot(page, "morris-e2e-01-consent")
    consent(page)
    code = participant_code(page)
    assert fill_survey(page, screenshot, "morris-e2e-02-pre-survey") >= 1
    page.locator("[data-testid=morris-board]").wait_for(timeout=30_000)
    morris_board_on_screen(page)  # the whole board at 1280x800 as the game starts
    screenshot(page, "morris-e2e-03-board")
    rng = random.Random(5)
    record, state = wait_for_tester(engine, code)
    token = ""
    # One wrong click on purpose: a point the computer's brick holds, or any taken one.
    wrong = 0
    steps = 0
    rules_seen = False
    while not state.is_terminal():
        if steps == 1 and not rules_seen:
            rules_open_and_close(page)
            rules_seen = True
        if wrong == 0 and state.board:
            taken = next(iter(state.board))
            before_clicks = len([t for t, _ in stored_events(engine, code) if t == "click"])
            _press(page, taken)
            deadline = time.monotonic() + 30
            while len([t for t, _ in stored_events(engine, code) if t == "click"]) == before_clicks:
                assert time.monotonic() < deadline, "the wrong click never reached Python"
                time.sleep(0.1)
            settle(page)
            wrong = 1
            record, state = wait_for_tester(engine, code)
            continue
        action = greedy_action(state, rng) if rng.random() < 0.7 else \
            rng.choice(state.legal_actions())
        obj = decode(action)
        stored = len(record.actions)
        if token:  # the first position needs no waiting for
            wait_redrawn(page, token)
        token = board_token(page)
        if isinstance(obj, Move):
            for attempt in range(3):  # a press while the page redraws may not take
                _press(page, obj.frm)
                try:
                    page.locator(f"[data-testid=morris-board][data-selection={obj.frm}]"
                                 ).wait_for(timeout=10_000)
                    break
                except PlaywrightTimeout:
                    if attempt == 2:
                        raise
                    settle(page)
            _press(page, obj.to)
        else:
            _press(page, obj.to if isinstance(obj, Place) else obj.at)
            assert isinstance(obj, Place | Remove)
        wait_stored(engine, code, stored)
        settle(page)
        # The computer (Black) answers in the run the tester's click started.
        record, state = wait_for_tester(engine, code)
        steps += 1
        assert steps < 400
    # the end card says why the game ended (a catalog end_<reason> line), not only who won
    reason = page.locator("[data-role=end] .sh-end-text")
    reason.wait_for(timeout=30_000)
    assert len(reason.inner_text()) > 20, reason.inner_text()
    post_pages, shown = finish_study(page, screenshot, "morris-e2e", first_shot=4,
                                     free_text="walls!")
    assert post_pages >= 2

    record, state, events = assert_completed(engine, code, shown, "morris")
    starts = [p for t, p in events if t == "game_start"]
    assert [p["game"] for p in starts] == ["morris"]
    clicks = [p for t, p in events if t == "click"]
    refused = [p for p in clicks if not p["ok"]]
    assert len(refused) == wrong == 1 and refused[0]["reason"]
    assert all("point" in p and p["seat"] == 1 for p in clicks)
    ai_moves = [p for t, p in events if t == "ai_move"]
    assert ai_moves and all(p["seat"] == 2 for p in ai_moves)
    assert services.study_config(repo.get_study(engine, "bricks")).post_survey == (  # type: ignore[arg-type]
        game_plugin("morris").post_survey)
