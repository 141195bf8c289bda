"""Dokusen's stage progression in the real app, in Debian's Chromium (issue 14: "Stage
won / lost" with retry and next; progress kept per tester).

- At 1280x800 with the mouse: a tester of a course (S1, then S4) wins S1, presses **Next
  stage: S4** (beside it: **Play this stage again**) and gets S4; loses S4 on purpose,
  sees "Stage lost" with **Try this stage again** and no Next stage, presses it with the
  keyboard and gets S4 again. The database holds the three games in
  that order, each record's rules naming its stage.
- On a 360x740 phone with taps: the board fits the screen, S1 is won by taps, and the
  Next stage button under the board is tapped; a reload then resumes the stored S4 game (the
  progress is the stored games', not the page's).

Each square is chosen from the game as the database holds it (greedy to win, the
square that leaves blue worst off to lose); screenshots in artifacts/screenshots/.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from study_flow import (
    APP,
    board_token,
    consent,
    participant_code,
    rules_open_and_close,
    settle,
    study_db,
    wait_redrawn,
)

from engine.core import GameRecord
from engine.dokusen.ai import greedy_action
from engine.dokusen.board import grow
from engine.dokusen.state import DokusenState
from playtest.storage import repository as repo
from playtest.study_config import StudyConfig

pytestmark = pytest.mark.browser

BOARD = "[data-testid=dokusen-board]"
OVER = "[data-testid=dokusen-over]"
#: The way on after S1 is won: S4 of the course, the tester's second game of four.
NEXT_S4 = re.compile(r"^Next stage: S4 · The Plus \(2 of 4\)$")


@pytest.fixture(scope="module")
def app_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Engine]:
    config = StudyConfig(game="dokusen", rules={"stages": ["S1", "S4", "S2"]},
                         games_per_tester=4, allow_more_games=False, audience="adults",
                         pre_survey=None, post_survey=None, ai_think_ms=0)
    return study_db(tmp_path_factory, "dokusen-stages", study_id="stages",
                    title="Dokusen stages", config=config)


def _latest(engine: Engine, code: str) -> tuple[repo.GameRecord, DokusenState]:
    record = repo.list_games(engine, code)[-1]
    state = GameRecord(record.game, record.rules, len(record.seats), record.actions).replay()
    assert isinstance(state, DokusenState)
    return record, state


def _worst(state: DokusenState) -> int:
    """The square after which blue has the fewest squares once the board grows."""
    grid = state.game.grid

    def blue_after(action: int) -> int:
        cells = list(state.cells)
        cells[action] = 0
        return sum(1 for o in grow(grid, cells) if o == 0)

    return min(state.legal_actions(), key=blue_after)


def _play_stage(page: Any, engine: Engine, code: str, choose: Callable[[DokusenState], int],
                *, tap: bool = False) -> DokusenState:
    record, state = _latest(engine, code)
    moves = 0
    while not state.is_terminal():
        # the board that takes this input: a finished game's board may still be on the
        # page for a moment after a new game starts (its rerun has not ended)
        live = page.locator(f'{BOARD}[data-animating="0"][data-to-move="0"]')
        live.wait_for(timeout=60_000)
        token = board_token(page)
        r, c = state.game.grid.coord(choose(state))
        square = live.locator(f"button.sq[data-r='{r}'][data-c='{c}']")
        if tap:
            square.tap()
        else:
            square.click()
        stored = len(record.actions)
        deadline = time.monotonic() + 30
        while len(record.actions) <= stored:  # the stored record, not replayed
            assert time.monotonic() < deadline, "the square was not stored"
            time.sleep(0.1)
            record = repo.list_games(engine, code)[-1]
        wait_redrawn(page, token)  # a click on the old position would be refused as stale
        settle(page)
        record, state = _latest(engine, code)
        moves += 1
        assert moves < 200
    page.locator(f'{BOARD}[data-animating="0"]').wait_for(timeout=60_000)
    page.locator(OVER).wait_for(state="visible", timeout=60_000)
    return state


def _stages(engine: Engine, code: str) -> list[tuple[Any, bool, str | None]]:
    return [(g.rules, g.finished, g.reason) for g in repo.list_games(engine, code)]


def test_win_then_next_stage_lose_then_retry_at_1280(
    streamlit_app: Callable[..., Any], new_page: Callable[..., Any],
    app_db: tuple[str, Engine], screenshot: Callable[[Any, str], Path],
) -> None:
    url, engine = app_db
    page = new_page(streamlit_app(APP, {"DATABASE_URL": url}), "?study=stages",
                    width=1280, height=800)
    page.get_by_text("Dokusen playtest").wait_for(timeout=30_000)
    consent(page)
    code = participant_code(page)
    page.locator(BOARD).wait_for(timeout=30_000)
    assert page.locator("[data-testid=dokusen-title]").inner_text().startswith("S1")
    assert page.locator("[data-testid=dokusen-stage-of]").inner_text() == "Stage 1 of 3"
    screenshot(page, "dokusen-stages-01-s1-start-1280")
    rules_open_and_close(page)  # Dokusen's Rules and the page's labels at 1280x800

    won = _play_stage(page, engine, code, greedy_action)
    assert won.outcome is not None and won.outcome.won
    over = page.locator(OVER)
    assert "Stage won" in over.inner_text()
    # the way on, beside the board: the next stage first, the same one again after it
    nxt = page.get_by_role("button", name=NEXT_S4)
    again = page.get_by_role("button", name=re.compile(r"^Play this stage again"))
    nxt.wait_for(timeout=30_000)
    assert again.is_visible()
    # the final board stays in view with the way on
    assert page.locator(f"{BOARD} .db-grid").is_visible()
    # the result and why, in a message line above it, on the 800-high screen unscrolled
    scrolled = page.evaluate("window.scrollY")
    for shown in (over, page.locator(f"{BOARD} [data-testid=dokusen-message]")):
        box = shown.bounding_box()
        assert box is not None
        top = box["y"] + scrolled
        assert top >= 0 and top + box["height"] <= 800, (box, 800)
    screenshot(page, "dokusen-stages-02-s1-won-1280")
    nxt.click()
    page.locator(f"{BOARD}[data-phase=place]").wait_for(timeout=30_000)
    page.locator("[data-testid=dokusen-title]", has_text="S4").wait_for(timeout=30_000)
    assert [s[0] for s in _stages(engine, code)] == ["S1", "S4"]

    lost = _play_stage(page, engine, code, _worst)
    assert lost.outcome is not None and not lost.outcome.won
    assert "Stage lost" in page.locator(OVER).inner_text()
    retry = page.get_by_role("button", name=re.compile(r"^Try this stage again"))
    retry.wait_for(timeout=30_000)
    assert page.get_by_role("button", name=re.compile(r"^Next stage")).count() == 0
    screenshot(page, "dokusen-stages-03-s4-lost-1280")
    # the keyboard presses it too
    retry.focus()
    page.keyboard.press("Enter")
    # The new game's board: until the rerun ends, Streamlit may still show the lost
    # game's board beside it, so the title is read from the new board only.
    fresh = page.locator(f"{BOARD}[data-phase=place][data-token$=':0']")
    fresh.wait_for(timeout=30_000)
    assert fresh.locator("[data-testid=dokusen-title]").inner_text().startswith("S4")
    screenshot(page, "dokusen-stages-04-s4-retry-1280")
    games = _stages(engine, code)
    assert [g[0] for g in games] == ["S1", "S4", "S4"]
    assert [g[1] for g in games] == [True, True, False]
    assert games[0][2].startswith("win") and games[1][2].startswith("loss")  # type: ignore[union-attr]


def test_phone_taps_a_stage_and_next_stage_survives_a_reload(
    streamlit_app: Callable[..., Any], new_page: Callable[..., Any],
    app_db: tuple[str, Engine], screenshot: Callable[[Any, str], Path],
) -> None:
    url, engine = app_db
    page = new_page(streamlit_app(APP, {"DATABASE_URL": url}), "?study=stages",
                    width=360, height=740, has_touch=True, is_mobile=True)
    page.get_by_text("Dokusen playtest").wait_for(timeout=30_000)
    consent(page)
    code = participant_code(page)
    page.locator(BOARD).wait_for(timeout=30_000)
    box = page.locator(f"{BOARD} .db-grid").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    squares = page.locator(f"{BOARD} button.sq")
    first = squares.first.bounding_box()
    assert first is not None and first["width"] >= 32, "squares big enough for a finger"
    screenshot(page, "dokusen-stages-05-s1-start-360")
    page.locator("[data-testid=dokusen-why]").tap()
    assert page.locator(f"{BOARD}.why-on").count() == 1
    screenshot(page, "dokusen-stages-06-why-360")
    page.locator("[data-testid=dokusen-why]").tap()

    won = _play_stage(page, engine, code, greedy_action, tap=True)
    assert won.outcome is not None and won.outcome.won
    page.locator(OVER).scroll_into_view_if_needed()
    screenshot(page, "dokusen-stages-07-s1-won-360")
    nxt = page.get_by_role("button", name=NEXT_S4)
    nxt.wait_for(timeout=30_000)
    nxt.scroll_into_view_if_needed()
    nbox = nxt.bounding_box()
    assert nbox is not None and nbox["x"] + nbox["width"] <= 360
    nxt.tap()
    page.locator("[data-testid=dokusen-title]", has_text="S4").wait_for(timeout=30_000)
    assert [s[0] for s in _stages(engine, code)] == ["S1", "S4"]
    # Another visit (a new session on the same link) resumes the stored S4 game.
    page.reload()
    page.locator("[data-testid=dokusen-title]", has_text="S4").wait_for(timeout=30_000)
    screenshot(page, "dokusen-stages-08-s4-after-reload-360")
    assert [s[0] for s in _stages(engine, code)] == ["S1", "S4"]
