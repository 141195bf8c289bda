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
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine
from test_tester_e2e import _consent, _fill_survey, _settle

from engine.core import GameRecord
from engine.players import make_player
from engine.vasco import decode
from playtest import services
from playtest.games.registry import game_plugin
from playtest.storage import repository as repo
from playtest.storage.db import make_engine, upgrade
from playtest.storage.models import EventRow
from playtest.study_config import StudyConfig

pytestmark = pytest.mark.browser

APP = "playtest/app.py"
BOARD = "[data-testid=vasco-board]"


@pytest.fixture(scope="module")
def app_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Engine]:
    url = f"sqlite:///{tmp_path_factory.mktemp('vasco-e2e') / 'playtest.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    config = StudyConfig(game="vasco", seats=["human", "ai:medium"], games_per_tester=1,
                         allow_more_games=False,
                         audience="adults")
    services.create_study(engine, title="Vasco e2e", config=config, study_id="vasco")
    return url, engine


def _game(engine: Engine, code: str) -> tuple[repo.GameRecord, Any]:
    """The tester's game as stored, and its engine state replayed from the record."""
    (record,) = repo.list_games(engine, code)
    state = GameRecord(record.game, record.rules, len(record.seats), record.actions).replay()
    return record, state


def _events(engine: Engine, code: str) -> list[tuple[str, dict[str, Any]]]:
    with engine.connect() as conn:
        table = EventRow.__table__  # type: ignore[attr-defined]
        rows = conn.execute(select(table.c.type, table.c.props)
                            .where(table.c.participant_id == code)
                            .order_by(table.c.session_id, table.c.seq)).all()
    return [(r.type, r.props) for r in rows]


def _wait_stored(engine: Engine, code: str, more_than: int) -> None:
    deadline = time.monotonic() + 30
    while len(_game(engine, code)[0].actions) <= more_than:
        if time.monotonic() > deadline:
            raise AssertionError("the click's tile was not stored")
        time.sleep(0.05)


def test_a_vasco_tester_goes_from_link_to_completion_code(
    streamlit_app: Callable[..., Any], new_page: Callable[..., Any],
    app_db: tuple[str, Engine], screenshot: Callable[[Any, str], Path],
) -> None:
    url, engine = app_db
    page = new_page(streamlit_app(APP, {"DATABASE_URL": url}), "?study=vasco",
                    width=1280, height=800)
    page.get_by_text("Vasco playtest").wait_for(timeout=30_000)
    screenshot(page, "vasco-e2e-01-consent")
    _consent(page)
    code = page.url.split("p=")[1].split("&")[0]
    assert _fill_survey(page, screenshot, "vasco-e2e-02-pre-survey") >= 1
    page.locator(BOARD).wait_for(timeout=30_000)
    screenshot(page, "vasco-e2e-03-board")
    rng = random.Random(5)
    record, state = _game(engine, code)
    moves = 0
    while not state.is_terminal():
        deadline = time.monotonic() + 30
        while state.current_player() != 0 and not state.is_terminal():
            # The computer (Blue) answers in the run the tester's click started.
            assert time.monotonic() < deadline, "the computer did not answer"
            time.sleep(0.05)
            record, state = _game(engine, code)
        if state.is_terminal():
            break
        action = make_player("medium", rng.randrange(1 << 30), game="vasco").decide(state).action \
            if rng.random() < 0.7 else rng.choice(state.legal_actions())
        place = decode(action)
        stored = len(record.actions)
        page.locator(f'{BOARD} polygon.vc[data-cell="{place.r},{place.c}"]').click()
        preview = page.locator(f'{BOARD} button.vb-preview[data-state="{place.state}"]')
        preview.wait_for(timeout=30_000)
        if moves == 1:
            screenshot(page, "vasco-e2e-04-previews")
        preview.click()
        _wait_stored(engine, code, stored)
        _settle(page)
        record, state = _game(engine, code)
        moves += 1
        assert moves < 200
    page.get_by_role("button", name="Continue to the last questions").wait_for(timeout=30_000)
    screenshot(page, "vasco-e2e-05-game-over")
    page.get_by_role("button", name="Continue to the last questions").click()
    _settle(page)
    assert _fill_survey(page, screenshot, "vasco-e2e-06-post-survey", free_text="loops!") >= 1
    page.get_by_text("Your completion code is:").wait_for(timeout=30_000)
    screenshot(page, "vasco-e2e-07-done")
    shown = page.locator("[data-testid=stCode]").first.inner_text().strip()

    participant = repo.get_participant(engine, code)
    assert participant is not None and participant.stage == "done"
    assert participant.completion_code == shown
    record, state = _game(engine, code)
    assert record.game == "vasco" and record.finished and state.is_terminal()
    events = _events(engine, code)
    assert [p["page"] for t, p in events if t == "page"] == [
        "consent", "pre_survey", "play", "post_survey", "done"]
    assert [p["game"] for t, p in events if t == "game_start"] == ["vasco"]
    (end,) = [p for t, p in events if t == "game_end"]
    assert end["record"] == [list(a) for a in record.actions]
    clicks = [p for t, p in events if t == "click"]
    assert len(clicks) == 2 * moves and all(p["seat"] == 1 and "cell" in p for p in clicks)
    placed = [p for p in clicks if "tile" in p]
    assert len(placed) == moves and all(p["ok"] for p in placed)
    places = [p for t, p in events if t == "place"]
    assert len(places) == len(record.actions)  # one place per stored action, either seat
    assert [p for t, p in events if t == "ai_move"] and moves >= 1
    assert services.study_config(repo.get_study(engine, "vasco")).post_survey == (  # type: ignore[arg-type]
        game_plugin("vasco").post_survey)
