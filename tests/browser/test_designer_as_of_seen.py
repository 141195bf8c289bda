"""A big study's dashboard after new data (issue 12), in Chromium at 1280×800: the page
shows its earlier results at once with the notice saying as of when and how many testers
changed since, then redraws by itself with the current numbers once the background update
is done: the page's own timer, which only a browser runs (the notice's words and numbers:
tests/app/test_designer_as_of.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from designer_flow import PASSWORD, expect_charts, go, settle, sign_in
from playwright.sync_api import expect
from study_flow import AppDatabase

from playtest import auth, demo, study_snapshot

pytestmark = pytest.mark.browser
APP = "tests/browser/apps/designer_small_study_as_big.py"


@pytest.fixture(scope="module")
def app(streamlit_app: Callable[..., Any], app_db: AppDatabase) -> Any:
    """The app in which a study of 5 testers counts as big, on a demo study of 8 testers
    with its results kept (as `playtest demo` leaves it)."""
    demo.generate(app_db.engine, 8, seed=5, workers=1)
    study_snapshot.refresh(app_db.engine, demo.DEMO_STUDY_ID)
    return streamlit_app(APP, {"DATABASE_URL": app_db.url,
                               auth.ENV_VAR: auth.hash_password(PASSWORD)})


def test_after_new_data_the_page_is_labelled_then_updates_by_itself(
    new_page: Callable[..., Any], app: Any, app_db: AppDatabase,
) -> None:
    page = sign_in(new_page, app)
    go(page, "Overview", demo.DEMO_STUDY_ID)
    notice = page.get_by_text(re.compile(r"These results are as of"))
    expect_charts(page, 1)  # the funnel, from the results kept by the refresh
    expect(notice).to_have_count(0)

    demo.generate(app_db.engine, 3, seed=6, workers=1)  # testers play while the designer watches
    go(page, "Confusion")
    expect(notice).to_be_visible()
    expect(page.get_by_text(re.compile(r"3 testers have new or changed data since"))) \
        .to_be_visible()
    # the page checks every 2 s and redraws with the current results, no click needed
    expect(notice).to_have_count(0, timeout=120_000)
    settle(page)
    expect(page.get_by_role("heading", name="Confusion points")).to_be_visible()
