"""The Vapoosh! confusion page, drawn from its game plug-in (wrong-click charts side by
side, the 12×12 boards, the facts section), in Chromium at 1280×800 and on a 360×740
phone (screenshots artifacts/screenshots/vapoosh-confusion-*)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from designer_flow import SIZES, expect_charts, go, sign_in
from playwright.sync_api import expect

from tests.browser.test_designer_pages_seen import app as app  # noqa: F401 (the fixture)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", list(SIZES))
def test_the_vapoosh_confusion_page_draws_its_games_charts(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path],  # noqa: F811
    size: str
) -> None:
    page = sign_in(new_page, app, size)
    go(page, "Confusion", "demo")
    expect(page.get_by_role("heading", name="Hardest multiplication facts")).to_be_visible()
    assert page.get_by_role("heading", name="Clicks per point").count() == 0
    # by class, by rule reason, the two 12×12 boards, the facts
    expect_charts(page, 5)
    boxes = [chart.bounding_box() for chart in
             page.locator("[data-testid=stPlotlyChart]").all()[:2]]
    assert boxes[0] and boxes[1]
    if size == "wide":  # the two wrong-click charts side by side
        assert abs(boxes[0]["y"] - boxes[1]["y"]) < 5 and boxes[0]["x"] < boxes[1]["x"]
    page.locator("[data-testid=stPlotlyChart]").first.scroll_into_view_if_needed()
    screenshot(page, f"vapoosh-confusion-wrong-{size}")
    page.get_by_role("heading", name="Hardest multiplication facts") \
        .scroll_into_view_if_needed()
    screenshot(page, f"vapoosh-confusion-facts-{size}")
