"""The fifth game (tic-tac-toe, a plug-in in tests/fifth_game/ registered by configuration)
plays end to end in Debian's Chromium, on a laptop's screen and a phone's (issue 21,
item 10).

One Streamlit server for the module, started with ``PLAYTEST_GAMES`` naming the plug-in.
A tester opens the study's link, consents, answers the game's own pre-play survey (from
its plug-in's survey folder), plays a whole game against the computer with real clicks
on the game's own board (one click on a taken square, on purpose), answers its own
post-play survey and gets to the end of the study. The database then holds a finished
game of it whose record replays, every click with its square, the one refusal with the
engine's reason, and the answers to both surveys.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from sqlalchemy.engine import Engine
from study_flow import (
    APP,
    board_token,
    fill_survey,
    finish_study,
    one_game_study_db,
    settle,
    stored_events,
    wait_for_tester,
    wait_redrawn,
    wait_stored,
)

from playtest.storage import repository as repo
from tests.fifth_game.support import GAME, REFERENCE, registered_here

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Engine]]:
    with registered_here():
        yield one_game_study_db(tmp_path_factory, GAME, study_id="ttt",
                                title="Tic-tac-toe e2e", seats=["human", "ai:medium"],
                                highlight_options=True, ai_think_ms=0)






def _clicks(engine: Engine, code: str) -> list[dict[str, Any]]:
    return [p for t, p in stored_events(engine, code) if t == "click"]


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (360, 740)])
def test_a_tester_plays_a_whole_game_by_clicks(
    streamlit_app: Callable[..., Any], new_page: Callable[..., Any],
    app_db: tuple[str, Engine], screenshot: Callable[[Any, str], Path],
    width: int, height: int,
) -> None:
    url, engine = app_db
    server = streamlit_app(APP, {"DATABASE_URL": url, "PLAYTEST_GAMES": REFERENCE})
    page = new_page(server, "?study=ttt", width=width, height=height)
    name = f"fifth-{width}"
    page.get_by_text("I have read the above and I agree to take part.").click()
    page.get_by_role("button", name="I agree").click()
    page.wait_for_url("**?p=**", timeout=30_000)
    settle(page)
    code = page.url.split("p=")[1].split("&")[0]
    assert fill_survey(page, screenshot, f"{name}-00-pre-survey") == 1
    board = page.locator("[data-testid=ttt-board]")
    board.wait_for(timeout=30_000)
    box = board.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    screenshot(page, f"{name}-01-board")

    rng = random.Random(width)
    wrong = 0
    with registered_here():
        record, state = wait_for_tester(engine, code)
        while not state.is_terminal():
            token = board_token(page)
            if wrong == 0 and any(c is not None for c in state.cells):
                taken = next(s for s, c in zip(_squares(), state.cells, strict=True)
                             if c is not None)
                before = len(_clicks(engine, code))
                board.locator(f"[data-target={taken}]").click()
                deadline = time.monotonic() + 30
                while len(_clicks(engine, code)) == before:
                    assert time.monotonic() < deadline, "the wrong click never reached Python"
                    time.sleep(0.1)
                settle(page)
                wrong = 1
                message = page.locator("[data-testid=board-shell] [data-role=message]")
                expect(message).to_contain_text("taken", timeout=30_000)
                screenshot(page, f"{name}-02-refused")
                continue
            square = _squares()[rng.choice(state.legal_actions())]
            stored = len(record.actions)
            board.locator(f"[data-target={square}]").click()
            wait_stored(engine, code, stored)
            wait_redrawn(page, token)
            settle(page)
            record, state = wait_for_tester(engine, code)
    pages, _ = finish_study(page, screenshot, name, first_shot=3, free_text="Nothing.")
    assert pages == 1
    from tests.fifth_game.plugin import PLUGIN

    for survey in (PLUGIN.pre_survey, PLUGIN.post_survey):
        assert survey is not None and repo.load_responses(engine, code, survey), survey

    assert record.game == GAME and record.finished
    events = stored_events(engine, code)
    assert [p["game"] for t, p in events if t == "game_start"] == [GAME]
    (end,) = [p for t, p in events if t == "game_end"]
    assert end["record"] == [list(a) for a in record.actions]
    clicks = [p for t, p in events if t == "click"]
    assert all(p["seat"] == 1 and p["square"] == p["target"] for p in clicks)
    refused = [p for p in clicks if not p["ok"]]
    assert [p["reason"] for p in refused] == ["taken"]
    assert [p["seat"] for t, p in events if t == "ai_move"]  # the computer played O
    assert "refused_taken" in [p["key"] for t, p in events if t == "message"]


def _squares() -> tuple[str, ...]:
    from tests.fifth_game.engine import SQUARES

    return SQUARES
