"""What the designer-page browser tests share: signing in, the sidebar (folded away on
phones), going to a page of a chosen study, and waiting for Plotly's lazily drawn charts.

Import it by name (``from designer_flow import go``), as ``study_flow``: pytest puts this
folder on ``sys.path`` for the tests in it (tests/ has no ``__init__.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

APP = "playtest/app.py"
PASSWORD = "a designer's secret"
SIZES = {"wide": (1280, 800), "phone": (360, 740)}


def settle(page: Any) -> None:
    """Wait until the app's current run is over and the browser is connected (designer
    pages read whole studies: a first render on a busy machine may take a minute)."""
    page.locator("[data-testid=stApp][data-test-script-state=notRunning]"
                 "[data-test-connection-state=CONNECTED]").wait_for(timeout=90_000)


def pick(page: Any, box: str, option: str, count: int | None = None) -> None:
    """Choose the option that contains ``option`` in the select box named ``box``; with
    ``count``, first check the open list has that many options.

    A select box whose options depend on an earlier choice is drawn again when the
    app's run for that choice arrives, which may be after :func:`settle` has looked
    (the browser sends the change, the server starts the run a moment later). A list
    opened on the old box closes with it, so the list is opened again until the option
    is there: each try waits on the page, none on the clock.
    """
    combobox = page.get_by_role("combobox", name=box)
    options = page.get_by_role("option")
    wanted = options.filter(has_text=option)
    for _ in range(5):
        settle(page)
        combobox.click()
        try:
            wanted.first.wait_for(timeout=10_000)
            if count is not None:
                expect(options).to_have_count(count, timeout=5_000)
            wanted.first.click(timeout=5_000)
        except (PlaywrightTimeout, AssertionError):
            # the list closed with its box (drawn again) before the click: open it again
            page.keyboard.press("Escape")
            continue
        settle(page)
        return
    raise AssertionError(f"the {box!r} list never offered {option!r} "
                         f"({count} options) long enough to be clicked")


def sign_in(new_page: Callable[..., Any], app: Any, size: str = "wide") -> Any:
    """A new page of ``app`` at one of :data:`SIZES`, signed in with :data:`PASSWORD`."""
    width, height = SIZES[size]
    page = new_page(app, "", width=width, height=height)
    page.get_by_label("Designer password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_text("Signed in as the designer.")).to_be_visible()
    settle(page)
    return page


def sidebar(page: Any) -> Any:
    """The sidebar, opened first where it is folded away (phones)."""
    bar = page.locator("[data-testid=stSidebar]")
    if not page.locator("[data-testid=stSidebarNav]").is_visible():
        page.locator("[data-testid=stExpandSidebarButton]").click()
        expect(page.locator("[data-testid=stSidebarNav]")).to_be_visible()
    return bar


def close_sidebar(page: Any) -> None:
    """Fold the sidebar away on a phone, where it covers the page."""
    if page.viewport_size["width"] < 640 and page.locator(
            "[data-testid=stSidebarNav]").is_visible():
        page.locator("[data-testid=stSidebarCollapseButton] button").click()
        expect(page.locator("[data-testid=stSidebarNav]")).to_be_hidden()


def go(page: Any, name: str, study: str | None = None) -> None:
    """Open the page ``name`` from the sidebar, of study ``study`` (its id) if given."""
    bar = sidebar(page)
    entry = bar.locator("[data-testid=stSidebarNav]").get_by_text(name, exact=True)
    href = entry.locator("xpath=ancestor-or-self::a[1]").get_attribute("href") or ""
    entry.click()
    # The page's own address first: a run that is still drawing the page before reads as
    # settled, and CI once found the old page's content there (under load, the new page's
    # run had not begun).
    page.wait_for_function("h => location.pathname === new URL(h, location.href).pathname",
                           arg=href, timeout=30_000, polling=100)
    settle(page)
    if study is not None:
        chosen = sidebar(page).locator("[data-testid=stSelectbox]").first.get_by_role(
            "combobox")
        expect(chosen).to_have_value(re.compile(r"\)$"))
        if not chosen.input_value().endswith(f"({study})"):
            # Typed to filter the list to this study, then its option taken: Enter alone
            # took whichever option the list had focused, at times the study before.
            chosen.click()
            page.keyboard.type(f"({study})")
            wanted = re.compile(rf"\({re.escape(study)}\)$")
            option = page.get_by_role("option", name=wanted)
            expect(option).to_have_count(1)
            option.click()
            settle(page)
            expect(chosen).to_have_value(wanted)
    close_sidebar(page)
    assert page.locator("[data-testid=stException]").count() == 0, name


def expect_charts(page: Any, count: int) -> None:
    """Plotly loads lazily: wait until ``count`` charts are drawn (their SVG is there)."""
    expect(page.locator("[data-testid=stPlotlyChart] .main-svg >> nth=0")).to_be_visible(
        timeout=60_000)
    expect(page.locator("[data-testid=stPlotlyChart]")).to_have_count(count)
    for chart in page.locator("[data-testid=stPlotlyChart]").all():
        chart.scroll_into_view_if_needed()
        expect(chart.locator(".main-svg").first).to_be_visible(timeout=60_000)


# Every text of a drawn Plotly chart (titles, axis titles, tick labels) whose box pokes out
# of its chart's box: cut off on screen.
_CHART_TEXT_OUTSIDE = """() => {
  const out = [];
  for (const chart of document.querySelectorAll('[data-testid=stPlotlyChart] .svg-container')) {
    const box = chart.getBoundingClientRect();
    for (const text of chart.querySelectorAll('text')) {
      const r = text.getBoundingClientRect();
      if (r.width && text.textContent.trim()
          && (r.right > box.right + 1 || r.left < box.left - 1))
        out.push(text.textContent.trim());
    }
  }
  return out; }"""


def chart_text_cut_off(page: Any) -> list[str]:
    """The texts of the page's drawn charts that stick out of their chart (cut off)."""
    return list(page.evaluate(_CHART_TEXT_OUTSIDE))


def column_headers(page: Any, header: str) -> list[str]:
    """The column headers of the page's table (``st.dataframe``) that has a column named
    ``header``."""
    table = page.locator("[data-testid=stDataFrame]").filter(
        # the grid's header row is an accessibility table, not in the role tree
        has=page.locator("[role=columnheader]", has_text=re.compile(f"^{re.escape(header)}$")))
    expect(table).to_have_count(1)
    return [text.strip() for text in table.locator("[role=columnheader]").all_inner_texts()]
