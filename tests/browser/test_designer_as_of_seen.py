"""A big study's dashboard after new data (issue 12), in Chromium at 1280×800 and on a
360×740 phone: the page shows its earlier results at once with the notice saying as of
when and how many testers changed since, then redraws by itself with the current numbers
once the background update is done (screenshots: artifacts/screenshots/as-of-*)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from designer_flow import PASSWORD, expect_charts, go, settle, sign_in
from playwright.sync_api import expect

from playtest import auth, demo, study_snapshot
from playtest.storage.db import make_engine, upgrade

pytestmark = pytest.mark.browser
APP = "tests/browser/apps/designer_small_study_as_big.py"


@pytest.mark.parametrize("size", ["wide", "phone"])
def test_after_new_data_the_page_is_labelled_then_updates_by_itself(
    new_page: Callable[..., Any], streamlit_app: Callable[..., Any],
    screenshot: Callable[[Any, str], Path], tmp_path: Path, size: str
) -> None:
    url = f"sqlite:///{tmp_path / 'playtest.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    demo.generate(engine, 8, seed=5, workers=1)
    study_snapshot.refresh(engine, demo.DEMO_STUDY_ID)  # as `playtest demo` leaves it
    app = streamlit_app(APP, {"DATABASE_URL": url, auth.ENV_VAR: auth.hash_password(PASSWORD)})
    page = sign_in(new_page, app, size)
    go(page, "Overview")
    notice = page.get_by_text(re.compile(r"These results are as of"))
    expect_charts(page, 1)  # the funnel, from the results kept by the refresh
    expect(notice).to_have_count(0)

    demo.generate(engine, 3, seed=6, workers=1)  # testers play while the designer watches
    engine.dispose()
    go(page, "Confusion")
    expect(notice).to_be_visible()
    expect(page.get_by_text(re.compile(r"3 testers have new or changed data since"))) \
        .to_be_visible()
    screenshot(page, f"as-of-confusion-{size}")
    # the page checks every 2 s and redraws with the current results, no click needed
    expect(notice).to_have_count(0, timeout=120_000)
    settle(page)
    expect(page.get_by_role("heading", name="Confusion points")).to_be_visible()
    screenshot(page, f"as-of-confusion-updated-{size}")
