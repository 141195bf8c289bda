"""Cookies in real Chromium: the designer's sign-in survives a reload and opens direct links
(issue 10 item 10); a tester who opens the study link again comes back to their own place
(issue 10 item 8); a designer page's own address asks for the password and shows nothing
of the dashboard; a locked database shows a calm line and the page recovers by itself.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from designer_flow import PASSWORD
from playwright.sync_api import expect
from study_flow import AppDatabase

from benchmarks import loadtest
from playtest import auth, services
from playtest.storage import repository as repo

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app(app_server: Any, app_db: AppDatabase) -> Any:
    """The module's app, its database holding the load test's study."""
    services.create_study(app_db.engine, title="Load test", study_id=loadtest.STUDY_ID,
                          config=loadtest.load_study_config())
    app_server.db_path = app_db.path
    return app_server


def _settle(page: Any) -> None:
    page.locator("[data-testid=stApp][data-test-script-state=notRunning]"
                 "[data-test-connection-state=CONNECTED]").wait_for(timeout=60_000)


def test_designer_sign_in_survives_a_reload_and_opens_direct_links(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path],
) -> None:
    page = new_page(app, "overview", width=1280, height=800)
    # A direct link before signing in asks for the password, on that page's address.
    expect(page.get_by_text("This designer page needs the designer's password.")).to_be_visible()
    assert page.locator("[data-testid=stPlotlyChart], [data-testid=stDataFrame]").count() == 0
    screenshot(page, "faults-designer-direct-link-asks")
    page.get_by_label("Designer password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    _settle(page)
    expect(page.locator("h1").filter(has_text="Overview")).to_be_visible()
    assert "/overview" in page.url
    page.wait_for_function(f"document.cookie.includes('{auth.COOKIE_NAME}=')",
                           polling=100)
    cookie = [c for c in page.context.cookies() if c["name"] == auth.COOKIE_NAME]
    assert cookie and cookie[0]["sameSite"] == "Strict"
    page.reload()
    _settle(page)
    expect(page.locator("h1").filter(has_text="Overview")).to_be_visible()
    expect(page.get_by_text("This designer page needs")).to_have_count(0)
    screenshot(page, "faults-designer-after-reload")
    # A new tab of the same browser is signed in too; a forged cookie is not.
    other = page.context.new_page()
    other.goto(f"{app.url}/confusion")
    _settle(other)
    expect(other.locator("h1").filter(has_text="Confusion")).to_be_visible()
    forged = page.context.browser.new_context()
    forged.add_cookies([{"name": auth.COOKIE_NAME, "value": "99999999999.deadbeef",
                         "url": app.url}])
    stranger = forged.new_page()
    stranger.goto(f"{app.url}/confusion")
    _settle(stranger)
    expect(stranger.get_by_text("This designer page needs the designer's password.")
           ).to_be_visible()
    forged.close()


def test_a_tester_opening_the_study_link_again_comes_back(
    new_page: Callable[..., Any], app: Any, app_db: AppDatabase,
    screenshot: Callable[[Any, str], Path],
) -> None:
    page = new_page(app, f"?study={loadtest.STUDY_ID}", width=360, height=740)
    page.get_by_text("I have read the above and I agree to take part.").click()
    page.get_by_role("button", name="I agree").click()
    _settle(page)
    page.wait_for_url("**/?p=*")
    code = page.url.split("p=", 1)[1]
    page.wait_for_function("document.cookie.includes('playtest_tester_')", polling=100)
    # The study link again, later, in a new tab of the same browser (a new connection).
    again = page.context.new_page()
    again.goto(f"{app.url}/?study={loadtest.STUDY_ID}")
    _settle(again)
    expect(again.get_by_text("Welcome back")).to_be_visible()
    screenshot(again, "faults-tester-welcome-back-phone")
    again.get_by_role("button", name="Carry on where I left off").click()
    _settle(again)
    again.wait_for_url(f"**/?p={code}")
    engine = app_db.engine
    assert len(repo.list_participants(engine, loadtest.STUDY_ID)) == 1
    # "Not you?" starts a new tester, and the browser then remembers the new one.
    third = page.context.new_page()
    third.goto(f"{app.url}/?study={loadtest.STUDY_ID}")
    _settle(third)
    third.get_by_role("button", name="Not you? Start as a new tester").click()
    _settle(third)
    expect(third.get_by_role("button", name="I agree")).to_be_visible()
    screenshot(third, "faults-tester-not-you-phone")
    third.get_by_text("I have read the above and I agree to take part.").click()
    third.get_by_role("button", name="I agree").click()
    _settle(third)
    third.wait_for_url("**/?p=*")
    assert third.url.split("p=", 1)[1] != code
    assert len(repo.list_participants(engine, loadtest.STUDY_ID)) == 2


def test_a_locked_database_shows_the_calm_line_and_recovers(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path],
) -> None:
    import sqlite3

    from playtest.app_pages import trouble

    page = new_page(app, f"?study={loadtest.STUDY_ID}", width=1280, height=800)
    page.get_by_text("I have read the above and I agree to take part.").click()
    page.get_by_role("button", name="I agree").click()
    _settle(page)
    roll = page.get_by_role("button", name="Roll the dice")
    roll.wait_for(timeout=30_000)
    holder = sqlite3.connect(app.db_path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer, longer than the 5 s busy timeout
    try:
        roll.click()
        notice = page.get_by_text(trouble.CALM)
        notice.wait_for(timeout=30_000)
        screenshot(page, "faults-calm-notice-locked-1280")
        body = page.inner_text("body")
        for leak in ("OperationalError", "INSERT", "locked", "Traceback"):
            assert leak not in body, leak
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    # The page tries again by itself and the line goes; the game carries on.
    expect(notice).to_have_count(0, timeout=30_000)
    _settle(page)
    page.get_by_role("button", name="Roll the dice").click()
    _settle(page)
    assert page.locator("[data-testid=stException]").count() == 0
