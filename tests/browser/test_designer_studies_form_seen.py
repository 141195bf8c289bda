"""The Studies page's experiment form, a hostile study title and the designer's tables as
Chromium draws them on a 360×740 phone (issue 23 item 8, issue 25 item 5), with a
screenshot of each (artifacts/screenshots/pages-*). The phone is where a form or a table
sticks out of the screen, if any does (the checks are against the screen's width, which
a 1280-wide page leaves margins to spare of); a title's markdown is drawn, or fetched,
alike at every width. What the pages say is checked in AppTest (tests/app); the pages at
1280×800 are in the screenshots of ``python -m benchmarks.screenshots``.

One Streamlit server for the module; each test signs in afresh in its own browser
context, and what it creates is its own (titles named after the test and size).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from designer_flow import APP, PASSWORD, SIZES, go, settle, sign_in
from playwright.sync_api import expect

from analytics.text_safety import LINK_BREAK
from playtest import auth, demo, services
from playtest.storage.db import make_engine, upgrade
from playtest.study_config import StudyConfig

pytestmark = pytest.mark.browser

IMAGE = "![x](http://x.example/a.png)"
TITLE = f"{IMAGE} [here](http://x.example/b) Plan\u202e 12"
PROBE = "probe"
#: Pages of results, and a table each draws.
PAGES = ["Overview", "Confusion", "Questionnaires", "Experiments", "Replay", "Design plan"]
#: The screen the pages are seen on (see the module's doc).
SIZE = "phone"


@pytest.fixture(scope="module")
def app(streamlit_app: Callable[..., Any], tmp_path_factory: pytest.TempPathFactory) -> Any:
    url = f"sqlite:///{tmp_path_factory.mktemp('pages-form') / 'playtest.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    demo.generate(engine, 24, seed=5, workers=1)
    services.create_study(engine, title=TITLE, study_id=PROBE, config=StudyConfig())
    engine.dispose()
    return streamlit_app(APP, {"DATABASE_URL": url, auth.ENV_VAR: auth.hash_password(PASSWORD)})


def _fits(page: Any) -> list[str]:
    """What sticks out of the page to the right (the page, or a table)."""
    return list(page.evaluate("""() => {
      const width = document.documentElement.clientWidth, out = [];
      if (document.documentElement.scrollWidth > width + 1)
        out.push(`page ${document.documentElement.scrollWidth} > ${width}`);
      for (const t of document.querySelectorAll('[data-testid=stDataFrame]')) {
        const r = t.getBoundingClientRect();
        if (r.width && r.right > width + 1) out.push(`table right ${r.right} > ${width}`);
      }
      return out; }"""))


def _table(page: Any, header: str) -> Any:
    """The page's table (``st.dataframe``) with a column named ``header``."""
    return page.locator("[data-testid=stDataFrame]").filter(has=page.locator(
        "[role=columnheader]", has_text=re.compile(f"^{re.escape(header)}$")))


def test_a_hostile_title_fetches_nothing_and_reads_as_written(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    size = SIZE
    page = sign_in(new_page, app, size)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    go(page, "Studies")
    header = page.locator("[data-testid=stExpander] summary").filter(has_text=f"· {PROBE} ·")
    expect(header).to_have_count(1)
    assert header.locator("img, a").count() == 0
    # every character of the title as typed, then the id, in reading order
    assert header.inner_text().strip().replace(LINK_BREAK, "").endswith(
        f"{IMAGE} [here](http://x.example/b) Plan 12 · {PROBE} · open")
    go(page, "Overview", PROBE)
    expect(page.get_by_text("the Overview page has nothing to show yet")).to_be_visible()
    picker = page.locator("[data-testid=stSidebar] [data-testid=stSelectbox]").first
    assert picker.locator("img, a").count() == 0
    assert not [url for url in asked if "x.example" in url], asked
    go(page, "Studies")
    header.scroll_into_view_if_needed()
    screenshot(page, f"pages-hostile-title-{size}")


def test_an_experiment_made_with_the_form_is_created_and_the_form_clears(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    size = SIZE
    page = sign_in(new_page, app, size)
    go(page, "Studies")
    target = page.locator(".st-key-xb-target-new [role=combobox]")
    target.click()
    page.keyboard.type("extra_turn")  # the list is long: typed to filter it
    page.get_by_role("option", name=re.compile(r"^Message “extra_turn”")).click()
    settle(page)
    expect(target).to_have_value(re.compile(r"^Message “extra_turn”: Extra go!"))
    preview = _table(page, "testers see")
    expect(preview).to_be_visible()
    assert _fits(page) == []
    preview.scroll_into_view_if_needed()
    screenshot(page, f"pages-experiment-form-{size}")
    page.get_by_role("button", name="Add to the experiments above").click()
    settle(page)
    expect(_table(page, "varies")).to_be_visible()
    expect(page.locator(".st-key-exp-new textarea")).to_have_value(
        re.compile(r"target: message:extra_turn"))
    title = page.locator(".st-key-title-new input")
    title.fill(f"Form study {size}")
    page.get_by_role("button", name="Create study").click()
    settle(page)
    expect(page.get_by_text(re.compile(r"Created study \w+"))).to_be_visible()
    expect(title).to_have_value("")
    expect(page.locator(".st-key-exp-new textarea")).to_have_value("")
    go(page, "Studies")  # the new study lists its experiment
    made = page.locator("[data-testid=stExpander]").filter(has_text=f"Form study {size}").first
    made.locator("summary").first.click()
    expect(made.locator("textarea").first).to_have_value(
        re.compile(r"key: extra_turn_wording"))
    assert _fits(page) == []
    made.scroll_into_view_if_needed()
    screenshot(page, f"pages-experiment-created-{size}")


def test_the_designer_pages_fit_the_page(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    size = SIZE
    page = sign_in(new_page, app, size)
    for name in PAGES:
        go(page, name, "demo")
        expect(page.locator("[data-testid=stDataFrame]").first).to_be_visible(timeout=90_000)
        assert _fits(page) == [], name
        screenshot(page, f"pages-{name.lower().replace(' ', '-')}-{size}")
    go(page, "Balance", "demo")
    page.get_by_role("button", name="Simulate").click()
    settle(page)
    expect(page.get_by_role("heading", name="Who wins")).to_be_visible(timeout=120_000)
    assert _fits(page) == [], "Balance"
    screenshot(page, f"pages-balance-{size}")


def test_the_replay_log_is_in_words_and_the_designers_time(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    """The browser's time zone (Europe/Berlin here) names the log's times; no line of it
    is a raw dict or an ISO time."""
    width, height = SIZES["wide"]
    page = new_page(app, "", width=width, height=height, timezone_id="Europe/Berlin")
    page.get_by_label("Designer password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_text("Signed in as the designer.")).to_be_visible()
    settle(page)
    go(page, "Replay", "demo")
    log = _table(page, "What happened")
    expect(log).to_be_visible(timeout=90_000)
    headers = log.locator("[role=columnheader]").all_inner_texts()
    assert [h.strip() for h in headers] == ["Time (Europe/Berlin)", "What happened"]
    text = log.inner_text()
    assert "{" not in text and not re.search(r"\d{4}-\d\d-\d\dT", text), text
    log.scroll_into_view_if_needed()
    screenshot(page, "pages-replay-log-wide")
