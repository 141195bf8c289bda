"""A tester's whole way through the real app in Debian's Chromium, then the database.

The tester opens a study link, consents, answers the pre-play survey, plays a whole game
against Easy with real clicks on the board (wrong clicks included), answers the post-play
survey and gets a completion code. A second test, a tester already at the game, reloads
mid-game and carries on.
Screenshots of each step go to artifacts/screenshots/.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine
from study_flow import (
    APP,
    assert_completed,
    consent,
    fill_survey,
    finish_study,
    new_player_at_play,
    participant_code,
    settle,
    study_db,
)

from playtest.storage import repository as repo
from playtest.storage.models import ResponseRow
from playtest.study_config import StudyConfig

pytestmark = pytest.mark.browser

BOARD = ".st-key-board-"  # the board's key is board-<game id>
HOSTILE = "<b>bold</b> [link](http://x.example) ‮"


@pytest.fixture(scope="module")
def app_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Engine]:
    config = StudyConfig(
        seats=["human", "ai:easy"],
        ai_think_ms=0,
        highlight_options=True,
        games_per_tester=1,
        allow_more_games=False,
        audience="adults",
    )
    return study_db(tmp_path_factory, "e2e", study_id="e2e", title="E2E study", config=config)


@pytest.fixture(scope="module")
def app(streamlit_app: Callable[..., Any], app_db: tuple[str, Engine]) -> Any:
    return streamlit_app(APP, {"DATABASE_URL": app_db[0]})


def _board(page: Any) -> Any:
    return page.locator(f"[class*='{BOARD[1:]}'] .vb")


def _wait_board(page: Any) -> None:
    """Wait until the board shows a game: its markup exists before its script has drawn
    the first view, and a roll clicked then would be read against no view at all."""
    page.locator(f"[class*='{BOARD[1:]}'] .vb[data-token][data-phase]").wait_for(
        timeout=30_000)
    settle(page)


def _phase(page: Any) -> str:
    return str(_board(page).get_attribute("data-phase"))


def _shell(page: Any) -> Any:
    """The board shell around the game's board: it plays the sound cues."""
    return page.locator(f"[class*='{BOARD[1:]}'] [data-testid=board-shell]")


def _marks(page: Any) -> tuple[str, str]:
    """What changes on screen after an input: the view token (a game step) or the last
    sound cue the shell played (every answered input, wrong clicks included)."""
    # A board that has played no sound yet has no data-last-sound: "" stands for it on
    # both sides of the comparison in _wait_change (str(None) would never equal it).
    return (_board(page).get_attribute("data-token") or "",
            _shell(page).get_attribute("data-last-sound") or "")


def _wait_change(page: Any, before: tuple[str, str]) -> None:
    """Wait until the board answered the last input."""
    page.wait_for_function(
        "([el, sh, t, s]) => (el.dataset.token ?? '') !== t"
        " || (sh.dataset.lastSound ?? '') !== s",
        arg=[_board(page).element_handle(), _shell(page).element_handle(), before[0],
             before[1]], timeout=30_000, polling=100)
    settle(page)


def _tiles(page: Any) -> Any:
    return _board(page).locator("button.tile")


def _classes(page: Any) -> list[str]:
    """Every tile's classes, in the board's order: read in one call, not one per tile."""
    classes: list[str] = _tiles(page).evaluate_all("els => els.map(e => e.className)")
    assert len(classes) == 144
    return classes


def _play_turn(page: Any, wrong_clicks: list[int]) -> None:
    """Roll, click a far-away wrong tile now and then, then an option."""
    token = _marks(page)
    page.get_by_role("button", name="Roll the dice").click()
    _wait_change(page, token)
    if _phase(page) != "place":
        return
    tiles = _tiles(page)
    options = [i for i, cls in enumerate(_classes(page)) if "hl" in cls]
    assert options, "the study highlights options, so a rolled option must be marked"
    if len(wrong_clicks) < 3:
        far = next(
            i
            for i in range(144)
            if all(abs(i % 12 - o % 12) > 1 or abs(i // 12 - o // 12) > 1 for o in options)
        )
        token = _marks(page)
        tiles.nth(far).click()
        _wait_change(page, token)
        wrong_clicks.append(far)
    for index in options:
        token = _marks(page)
        tiles.nth(index).click()
        _wait_change(page, token)
        classes = _classes(page)
        if _phase(page) != "place" or not any("hl" in classes[i] for i in options):
            return
        # The other option: the one clicked was forbidden by the rules (a wrong click too).
        wrong_clicks.append(index)


def test_a_tester_goes_from_study_link_to_completion_code(
    new_page: Callable[..., Any],
    app: Any,
    app_db: tuple[str, Engine],
    screenshot: Callable[[Any, str], Path],
) -> None:
    _url, engine = app_db
    page = new_page(app, "?study=e2e", width=1000, height=1300)
    screenshot(page, "e2e-01-consent")
    consent(page)
    code = participant_code(page)
    assert repo.get_participant(engine, code) is not None
    pre_pages = fill_survey(page, screenshot, "e2e-02-pre-survey")
    assert pre_pages >= 3
    _wait_board(page)
    screenshot(page, "e2e-03-board")
    wrong: list[int] = []
    turns = 0
    while _phase(page) != "over" and turns < 200:
        _play_turn(page, wrong)
        turns += 1
    assert _phase(page) == "over"
    post_pages, shown_code = finish_study(page, screenshot, "e2e", first_shot=4,
                                          free_text=HOSTILE)
    assert post_pages >= 3

    # Everything the tester did is in the database, once.
    _record, _state, events = assert_completed(engine, code, shown_code, "vapoosh")
    clicks = [p for t, p in events if t == "click"]
    assert [p for p in clicks if not p["ok"]], "the wrong clicks were logged"
    assert len([p for p in clicks if not p["ok"]]) == len(wrong)
    assert all(
        p["wrong_kind"] in ("rule", "near_miss", "arithmetic", "same_product")
        for p in clicks
        if not p["ok"]
    )
    human_placements = [p for t, p in events if t in ("place", "brown") and p["seat"] == 1]
    assert len([p for p in clicks if p["ok"]]) == len(human_placements)
    assert [t for t, _ in events].count("game_start") == 1
    assert [t for t, _ in events].count("game_end") == 1
    with engine.connect() as conn:
        table = ResponseRow.__table__  # type: ignore[attr-defined]
        answers = {
            (r.phase, r.item): r.value
            for r in conn.execute(
                select(table.c.phase, table.c.item, table.c.value).where(
                    table.c.participant_id == code
                )
            )
        }
    assert ("pre", "demo.age_band") in answers  # the adults' form: consent said who plays
    assert ("pre", "demo.role") not in answers
    assert ("post", "quiz.square_roll") in answers
    assert answers[("post", "open.confused")] == HOSTILE


def test_a_reload_mid_game_carries_on_where_it_was(
    new_page: Callable[..., Any],
    app: Any,
    app_db: tuple[str, Engine],
    screenshot: Callable[[Any, str], Path],
) -> None:
    _url, engine = app_db
    code = new_player_at_play(engine, "e2e")  # at the game: the way there is the test above's
    page = new_page(app, f"?p={code}", width=1000, height=1300)
    _wait_board(page)
    wrong: list[int] = [0, 0, 0]  # no wrong clicks in this test
    for _ in range(3):
        if _phase(page) == "over":
            break
        _play_turn(page, wrong)
    before = _classes(page)
    record = repo.latest_unfinished_game(engine, code)
    page.reload()
    settle(page)
    _wait_board(page)
    screenshot(page, "e2e-resume-after-reload")
    after = _classes(page)
    strip = re.compile(r" g-\w+")  # the glow of the last move is not part of the position
    assert [strip.sub("", c) for c in after] == [strip.sub("", c) for c in before]
    if record is not None:
        again = repo.latest_unfinished_game(engine, code)
        assert again is not None and again.game_id == record.game_id
        assert len(again.actions) == len(record.actions)
        if _phase(page) != "over":
            _play_turn(page, wrong)
            later = repo.load_game(engine, record.game_id)
            assert later is not None and len(later.actions) > len(record.actions)
