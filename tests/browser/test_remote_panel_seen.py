"""A Prolific participant in Chromium: the study link with Prolific's parameters, consent,
a few moves, the same link in another browser resuming the same tester, "Stop playing"
(the shortest way to the end the study allows), and the browser taken back to Prolific
with the completion code by the page's own script; then a full study refusing politely.

Prolific's address is answered by the test (Playwright's routing), so the test needs no
network and sees exactly where the browser went. One server for the module.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect
from study_flow import AppDatabase, consent, new_study, participant_code, settle

from playtest.panels import PanelConfig, QuotaConfig
from playtest.storage import admission
from playtest.storage import repository as repo

pytestmark = pytest.mark.browser

PROLIFIC = PanelConfig(kind="prolific", completion_code="C0MPL3TE", screenout_code="N0C0NSENT")
LINK = "&PROLIFIC_PID={pid}&STUDY_ID=60aa0b1c2d3e4f5a6b7c8d9e&SESSION_ID=sess0123456789abcdef"
PID = "5f1e2d3c4b5a6978a1b2c3d4"
BACK = "https://app.prolific.com/submissions/complete?cc="


def _answer_prolific(page: Any) -> list[str]:
    """Prolific's site, as this test answers it: the addresses the browser opened."""
    opened: list[str] = []

    def fulfil(route: Any) -> None:
        opened.append(route.request.url)
        route.fulfill(status=200, content_type="text/html", body="<h1>Prolific</h1>")

    page.context.route(re.compile(r"https://app\.prolific\.com/.*"), fulfil)
    return opened


def _board(page: Any) -> Any:
    return page.locator("[class*='st-key-board-'] .vb[data-token][data-phase]")


def _move(page: Any) -> None:
    """One turn: roll, then the options the board highlights until one is placed (the
    rules may refuse one: a tile of the tester's own, whose product the dice also make)."""
    board = _board(page)
    if board.get_attribute("data-phase") == "over":
        return  # four sixes won the game on an earlier roll
    token = board.get_attribute("data-token")
    page.get_by_role("button", name="Roll the dice").click()
    expect(board).not_to_have_attribute("data-token", token or "", timeout=30_000)
    settle(page)
    shell = page.locator("[class*='st-key-board-'] [data-testid=board-shell]")
    for option in range(board.locator("button.tile.hl").count()):
        if board.get_attribute("data-phase") != "place":
            break
        token = board.get_attribute("data-token") or ""
        sound = shell.get_attribute("data-last-sound") or ""
        board.locator("button.tile.hl").nth(option).click()
        # answered: a new position, or the refusal's sound and message
        page.wait_for_function(
            "([el, sh, t, s]) => (el.dataset.token ?? '') !== t"
            " || (sh.dataset.lastSound ?? '') !== s",
            arg=[board.element_handle(), shell.element_handle(), token, sound],
            timeout=30_000, polling=100)
        settle(page)
        if (board.get_attribute("data-token") or "") != token:
            break


def test_a_prolific_participant_plays_resumes_and_goes_back_with_the_code(
    app_server: Any, app_db: AppDatabase, new_page: Callable[..., Any],
) -> None:
    study = new_study(app_db, title="On Prolific", panel=PROLIFIC,
                      quota=QuotaConfig(completes=1), audience="adults", pre_survey=None,
                      post_survey=None, games_per_tester=1, allow_more_games=False,
                      seats=["human", "ai:easy"], ai_think_ms=0, highlight_options=True)
    link = f"?study={study}" + LINK.format(pid=PID)
    page = new_page(app_server, link, width=1000, height=1200)
    opened = _answer_prolific(page)
    consent(page)
    code = participant_code(page)
    assert admission.panel_ids_of(app_db.engine, code) is not None
    _board(page).wait_for(timeout=30_000)
    for _ in range(2):
        _move(page)

    # The same Prolific link in another browser: the same tester, at their own address.
    again = new_page(app_server, link, width=1000, height=1200)
    expect(again).to_have_url(re.compile(rf".*\?p={code}$"))
    _board(again).wait_for(timeout=30_000)
    assert len(repo.list_participants(app_db.engine, study)) == 1

    # The shortest way to the end: the menu's "Stop playing", then the thank-you page (or,
    # when four sixes ended the game already, the end screen's way on).
    if _board(page).get_attribute("data-phase") == "over":
        page.get_by_role("button", name="Continue to the last questions").click()
    else:
        page.get_by_role("button", name="Back to menu").click()
        page.get_by_role("button", name="Stop playing and answer the last questions").click()
    page.get_by_text("Your Prolific completion code is:").wait_for(timeout=30_000)
    page.wait_for_url(BACK + "C0MPL3TE", timeout=30_000)
    assert opened == [BACK + "C0MPL3TE"]
    participant = repo.get_participant(app_db.engine, code)
    assert participant is not None and participant.stage == "done"

    # Someone else arrives from Prolific: the one place is taken.
    late = new_page(app_server, f"?study={study}" + LINK.format(pid="another0participant"),
                    width=360, height=740)
    expect(late.get_by_text("This study is full")).to_be_visible()
    expect(late.get_by_text("not taking new players")).to_be_visible()
    expect(late.get_by_role("link", name="Back to Prolific")).to_have_attribute(
        "href", BACK + "N0C0NSENT")
    expect(late.get_by_text("I agree")).to_have_count(0)
    assert len(repo.list_participants(app_db.engine, study)) == 1
