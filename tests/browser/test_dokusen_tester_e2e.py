"""Dokusen in a study, end to end in Debian's Chromium (issue 14, item 6).

A tester opens the link of a Dokusen study (the first stage, one seat), consents,
answers the game's pre-play survey, plays the whole stage with real clicks on the
game's own board, answers the post-play survey and gets a completion code. The test
chooses each square with the engine's greedy level from the game as the database holds
it, then checks the database: a ``dokusen`` game whose record replays to the stage's end,
every click an event with ``at``, and the engine's ``place`` and ``grow`` events stored.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine
from test_tester_e2e import _consent, _fill_survey, _settle

from engine.core import GameRecord
from engine.dokusen.ai import greedy_action
from playtest import services
from playtest.storage import repository as repo
from playtest.storage.db import make_engine, upgrade
from playtest.storage.models import EventRow
from playtest.study_config import StudyConfig

pytestmark = pytest.mark.browser

APP = "playtest/app.py"
BOARD = "[data-testid=dokusen-board]"


@pytest.fixture(scope="module")
def app_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Engine]:
    url = f"sqlite:///{tmp_path_factory.mktemp('dokusen-e2e') / 'playtest.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    config = StudyConfig(game="dokusen", rules="S1", games_per_tester=1,
                         allow_more_games=False, audience="adults")
    services.create_study(engine, title="Dokusen e2e", config=config, study_id="dokusen")
    return url, engine


def _game(engine: Engine, code: str) -> tuple[repo.GameRecord, Any]:
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


def test_a_dokusen_tester_plays_a_stage_from_link_to_completion_code(
    streamlit_app: Callable[..., Any], new_page: Callable[..., Any],
    app_db: tuple[str, Engine], screenshot: Callable[[Any, str], Path],
) -> None:
    url, engine = app_db
    page = new_page(streamlit_app(APP, {"DATABASE_URL": url}), "?study=dokusen",
                    width=1280, height=800)
    page.get_by_text("Dokusen playtest").wait_for(timeout=30_000)
    _consent(page)
    code = page.url.split("p=")[1].split("&")[0]
    assert _fill_survey(page, screenshot, "dokusen-e2e-01-pre-survey") >= 1
    page.locator(BOARD).wait_for(timeout=30_000)
    screenshot(page, "dokusen-e2e-02-board")
    record, state = _game(engine, code)
    moves = 0
    while not state.is_terminal():
        assert state.current_player() == 0, "the tester is to move after every round"
        page.locator(f'{BOARD}[data-animating="0"][data-to-move="0"]').wait_for(timeout=30_000)
        token = page.locator(BOARD).get_attribute("data-token")
        action = greedy_action(state)
        r, c = state.game.grid.coord(action)
        stored = len(record.actions)
        page.locator(f"{BOARD} button.sq[data-r='{r}'][data-c='{c}']").click()
        deadline = time.monotonic() + 30
        while len(record.actions) <= stored:
            assert time.monotonic() < deadline, "the click's square was not stored"
            time.sleep(0.05)
            record, state = _game(engine, code)
        _settle(page)
        # The next click waits for the board to show the position after this one: the
        # run is over before the board has its new data (4x slower CPU: seconds), and a
        # click on the old position carries the old token, which the app refuses.
        page.locator(f'{BOARD}:not([data-token="{token}"])').wait_for(timeout=30_000)
        record, state = _game(engine, code)
        moves += 1
        assert moves < 200
    page.get_by_role("button", name="Continue to the last questions").wait_for(timeout=30_000)
    screenshot(page, "dokusen-e2e-03-stage-over")
    page.get_by_role("button", name="Continue to the last questions").click()
    _settle(page)
    assert _fill_survey(page, screenshot, "dokusen-e2e-04-post-survey", free_text="it grew") >= 1
    page.get_by_text("Your completion code is:").wait_for(timeout=30_000)
    shown = page.locator("[data-testid=stCode]").first.inner_text().strip()

    participant = repo.get_participant(engine, code)
    assert participant is not None and participant.stage == "done"
    assert participant.completion_code == shown
    record, state = _game(engine, code)
    assert record.game == "dokusen" and record.finished and state.is_terminal()
    assert list(record.seats) == ["human"]
    events = _events(engine, code)
    assert [p["page"] for t, p in events if t == "page"] == [
        "consent", "pre_survey", "play", "post_survey", "done"]
    (end,) = [p for t, p in events if t == "game_end"]
    assert end["record"] == [list(a) for a in record.actions]
    clicks = [p for t, p in events if t == "click"]
    assert len(clicks) == moves and all(p["ok"] and p["seat"] == 1 for p in clicks)
    assert [p["at"] for p in clicks] == [
        list(state.game.grid.coord(state.game.action_from_json(a))) for a in record.actions
        if a[0] == "place"]
    assert len([1 for t, _ in events if t == "place"]) == moves
    assert [t for t, _ in events if t == "grow"]
