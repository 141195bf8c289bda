"""Bricks & Walls in a study, end to end in Debian's Chromium (issue 15, item 7).

A tester opens the link of a Bricks & Walls study, consents, answers the game's
pre-play survey, plays a whole game against the computer with real clicks on the game's
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
from sqlalchemy import select
from sqlalchemy.engine import Engine
from test_tester_e2e import _consent, _fill_survey, _settle

from engine.core import GameRecord
from engine.morris import Move, Place, Remove, decode
from engine.morris.heuristics import greedy_action
from playtest import services
from playtest.games.registry import game_plugin
from playtest.storage import repository as repo
from playtest.storage.db import make_engine, upgrade
from playtest.storage.models import EventRow
from playtest.study_config import StudyConfig

pytestmark = pytest.mark.browser

APP = "playtest/app.py"


@pytest.fixture(scope="module")
def app_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Engine]:
    url = f"sqlite:///{tmp_path_factory.mktemp('morris-e2e') / 'playtest.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    config = StudyConfig(game="morris", seats=["human", "ai:easy"], games_per_tester=1,
                         allow_more_games=False, audience="adults", highlight_options=True)
    services.create_study(engine, title="Bricks e2e", config=config, study_id="bricks")
    return url, engine


def _game(engine: Engine, code: str) -> tuple[repo.GameRecord, Any]:
    """The tester's game as stored, and its engine state replayed from the record."""
    (record,) = repo.list_games(engine, code)
    state = GameRecord(record.game, record.rules, len(record.seats), record.actions).replay()
    return record, state


def _wait_stored(engine: Engine, code: str, more_than: int) -> None:
    deadline = time.monotonic() + 30
    while len(_game(engine, code)[0].actions) <= more_than:
        if time.monotonic() > deadline:
            raise AssertionError("the click's action was not stored")
        time.sleep(0.05)


def _events(engine: Engine, code: str) -> list[tuple[str, dict[str, Any]]]:
    with engine.connect() as conn:
        table = EventRow.__table__  # type: ignore[attr-defined]
        rows = conn.execute(select(table.c.type, table.c.props)
                            .where(table.c.participant_id == code)
                            .order_by(table.c.session_id, table.c.seq)).all()
    return [(r.type, r.props) for r in rows]


def _token(page: Any) -> str:
    return str(page.locator("[data-testid=morris-board]").get_attribute("data-token") or "")


def _wait_drawn(page: Any, before: str) -> None:
    """Wait until the board shows a position after ``before`` (Python's answer drawn; the
    board lives in the component's shadow root, which Playwright's locators reach)."""
    deadline = time.monotonic() + 30
    while _token(page) == before:
        assert time.monotonic() < deadline, f"the board still shows position {before}"
        page.wait_for_timeout(50)


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
    _consent(page)
    code = page.url.split("p=")[1].split("&")[0]
    assert _fill_survey(page, screenshot, "morris-e2e-02-pre-survey") >= 1
    page.locator("[data-testid=morris-board]").wait_for(timeout=30_000)
    screenshot(page, "morris-e2e-03-board")
    rng = random.Random(5)
    record, state = _game(engine, code)
    token = ""
    # One wrong click on purpose: a point the computer's brick holds, or any taken one.
    wrong = 0
    steps = 0
    while not state.is_terminal():
        deadline = time.monotonic() + 30
        while state.current_player() != 0 and not state.is_terminal():
            # The computer (Black) answers in the run the tester's click started.
            assert time.monotonic() < deadline, "the computer did not answer"
            time.sleep(0.05)
            record, state = _game(engine, code)
        if state.is_terminal():
            break
        if wrong == 0 and state.board:
            taken = next(iter(state.board))
            before_clicks = len([t for t, _ in _events(engine, code) if t == "click"])
            _press(page, taken)
            deadline = time.monotonic() + 30
            while len([t for t, _ in _events(engine, code) if t == "click"]) == before_clicks:
                assert time.monotonic() < deadline, "the wrong click never reached Python"
                time.sleep(0.05)
            _settle(page)
            wrong = 1
            record, state = _game(engine, code)
            continue
        action = greedy_action(state, rng) if rng.random() < 0.7 else \
            rng.choice(state.legal_actions())
        obj = decode(action)
        stored = len(record.actions)
        if token:  # the first position needs no waiting for
            _wait_drawn(page, token)
        token = _token(page)
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
                    _settle(page)
            _press(page, obj.to)
        else:
            _press(page, obj.to if isinstance(obj, Place) else obj.at)
            assert isinstance(obj, Place | Remove)
        _wait_stored(engine, code, stored)
        _settle(page)
        record, state = _game(engine, code)
        steps += 1
        assert steps < 400
    screenshot(page, "morris-e2e-04-game-over")
    page.get_by_role("button", name="Continue to the last questions").click()
    _settle(page)
    assert _fill_survey(page, screenshot, "morris-e2e-05-post-survey", free_text="walls!") >= 2
    page.get_by_text("Your completion code is:").wait_for(timeout=30_000)
    screenshot(page, "morris-e2e-06-done")
    shown = page.locator("[data-testid=stCode]").first.inner_text().strip()

    participant = repo.get_participant(engine, code)
    assert participant is not None and participant.stage == "done"
    assert participant.completion_code == shown
    record, state = _game(engine, code)
    assert record.game == "morris" and record.finished and state.is_terminal()
    events = _events(engine, code)
    assert [p["page"] for t, p in events if t == "page"] == [
        "consent", "pre_survey", "play", "post_survey", "done"]
    starts = [p for t, p in events if t == "game_start"]
    assert [p["game"] for p in starts] == ["morris"]
    (end,) = [p for t, p in events if t == "game_end"]
    assert end["record"] == [list(a) for a in record.actions]
    clicks = [p for t, p in events if t == "click"]
    refused = [p for p in clicks if not p["ok"]]
    assert len(refused) == wrong == 1 and refused[0]["reason"]
    assert all("point" in p and p["seat"] == 1 for p in clicks)
    ai_moves = [p for t, p in events if t == "ai_move"]
    assert ai_moves and all(p["seat"] == 2 for p in ai_moves)
    assert services.study_config(repo.get_study(engine, "bricks")).post_survey == (  # type: ignore[arg-type]
        game_plugin("morris").post_survey)
