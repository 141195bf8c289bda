"""The designer signs in in real Chromium and sees every dashboard page (screenshots)."""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from designer_flow import APP, PASSWORD, settle
from playwright.sync_api import expect

from playtest import auth, demo
from playtest.storage.db import make_engine, upgrade

pytestmark = pytest.mark.browser

PAGES = ["Studies", "Overview", "Confusion", "Questionnaires", "Experiments", "Replay",
         "Balance", "Design plan"]


@pytest.fixture(scope="module")
def app(streamlit_app: Callable[..., Any], tmp_path_factory: pytest.TempPathFactory) -> Any:
    url = f"sqlite:///{tmp_path_factory.mktemp('designer') / 'playtest.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    demo.generate(engine, 8, seed=5)
    engine.dispose()
    return streamlit_app(APP, {"DATABASE_URL": url,
                               auth.ENV_VAR: auth.hash_password(PASSWORD)})


def test_designer_signs_in_and_sees_every_page(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    page = new_page(app, "", width=1280, height=1000)
    screenshot(page, "designer-00-start")
    # Before signing in, no designer page is reachable by its address either.
    nav = page.locator("[data-testid=stSidebarNav]")
    assert nav.get_by_text("Confusion").count() == 0
    page.get_by_label("Designer password").fill("wrong password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_text("That password is not right.")).to_be_visible()
    page.get_by_label("Designer password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_text("Signed in as the designer.")).to_be_visible()
    for number, name in enumerate(PAGES, start=1):
        page.locator("[data-testid=stSidebarNav]").get_by_text(name, exact=True).click()
        settle(page)
        expect(page.locator("h1").filter(has_text=name.replace("Design plan", "UX design plan"))
               .first).to_be_visible(timeout=60_000)
        assert page.locator("[data-testid=stException]").count() == 0, name
        screenshot(page, f"designer-{number:02d}-{name.lower().replace(' ', '-')}")


def test_designer_pages_are_not_reachable_without_the_password(
    new_page: Callable[..., Any], app: Any
) -> None:
    page = new_page(app, "confusion", width=1280, height=1000)
    # The address of a designer page asks for the password there, with no dashboard.
    expect(page.get_by_text("This designer page needs the designer's password.")).to_be_visible()
    assert page.get_by_text("Confusion points").count() == 0


def test_the_design_plan_downloads_as_markdown_html_and_json(
    new_page: Callable[..., Any], app: Any
) -> None:
    page = new_page(app, "", width=1280, height=1000)
    page.get_by_label("Designer password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_text("Signed in as the designer.")).to_be_visible()
    page.locator("[data-testid=stSidebarNav]").get_by_text("Design plan", exact=True).click()
    settle(page)
    # The HTML (~5 MB) is made only when asked for.
    assert page.get_by_role("button", name="Download plan (HTML with charts)").count() == 0
    page.get_by_role("button", name="Prepare the plan as HTML with charts").click()
    settle(page)
    files: dict[str, str] = {}
    for label, suffix in (("Markdown", ".md"), ("HTML with charts", ".html"), ("JSON", ".json")):
        with page.expect_download(timeout=60_000) as pending:
            page.get_by_role("button", name=f"Download plan ({label})").click()
        download = pending.value
        assert download.suggested_filename == f"plan-{demo.DEMO_STUDY_ID}{suffix}"
        files[suffix] = Path(download.path()).read_text(encoding="utf-8")
    plan = json.loads(files[".json"])
    assert plan["participants"] == 8 and plan["confusion_points"]
    assert files[".md"].startswith(f"# UX design plan: study {demo.DEMO_STUDY_ID}")
    first_point = plan["confusion_points"][0]["label"]
    assert html.escape(first_point) in files[".html"] and "Plotly.newPlot" in files[".html"]
