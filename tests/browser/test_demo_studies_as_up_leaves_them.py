"""The designer pages of each game's demo study as ``playtest up`` leaves them: filled by
simulated testers and with the pages' results kept on disk (``study_snapshot.refresh``
precomputes them), so a designer's first visit draws from the kept results, as it does
in use, not from a fresh computation. In Chromium at 1280×800 and on a 360×740 phone
(screenshots artifacts/screenshots/up-*).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from designer_flow import (
    APP,
    PASSWORD,
    SIZES,
    chart_text_cut_off,
    column_headers,
    expect_charts,
    go,
    sign_in,
)
from playwright.sync_api import expect
from study_flow import answer_page, consent, drawn, submit, survey_caption

from playtest import auth, demo
from playtest.storage.db import make_engine, upgrade
from playtest.study_snapshot import refresh

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app(streamlit_app: Callable[..., Any], tmp_path_factory: pytest.TempPathFactory) -> Any:
    url = f"sqlite:///{tmp_path_factory.mktemp('up-demo') / 'playtest.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    study = demo.ensure_demo_study(engine)
    demo.generate(engine, 12, seed=3, workers=1)
    refresh(engine, study.study_id)  # as `playtest up` and `playtest demo` do
    engine.dispose()
    return streamlit_app(APP, {"DATABASE_URL": url, auth.ENV_VAR: auth.hash_password(PASSWORD)})


@pytest.mark.parametrize("size", list(SIZES))
def test_kept_confusion_results_still_draw_the_board_heatmaps(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path], size: str
) -> None:
    """A kept figure holds its arrays as Plotly typed arrays (base64): the 12×12 boards
    of wrong clicks and hesitation were taken for empty ("No data yet") on every visit
    after the first."""
    page = sign_in(new_page, app, size)
    go(page, "Confusion", "demo")
    expect(page.get_by_role("heading", name="Hardest multiplication facts")).to_be_visible()
    expect_charts(page, 5)  # by class, by rule reason, the two boards, the facts
    for title in ("Wrong clicks per tile", "Median hesitation when the tile is the answer"):
        expect(page.get_by_text(f"No data yet: {title}")).to_have_count(0)
    board = page.locator("[data-testid=stPlotlyChart]").nth(2)
    board.scroll_into_view_if_needed()
    expect(board.locator(".heatmaplayer image, .heatmaplayer .hm").first).to_be_attached()
    screenshot(page, f"up-confusion-board-{size}")


@pytest.mark.parametrize("size", list(SIZES))
def test_score_quiz_and_funnel_tables_name_their_columns_for_people(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path], size: str
) -> None:
    """Column keys (``ci_low``, ``drop_off_rate``, ``share_correct``) were shown as they
    are; the scores' interval and spread had no definition on the page."""
    page = sign_in(new_page, app, size)
    go(page, "Overview", "demo")
    wide = size == "wide"  # a phone's grid draws only the columns in view
    funnel = column_headers(page, "Step")
    assert not wide or {"Drop-off share", "Median time"} <= set(funnel), funnel
    go(page, "Questionnaires", "demo")
    expect(page.get_by_text("mean score with its 95 % confidence interval", exact=False)
           ).to_be_visible()
    scores = column_headers(page, "Instrument")
    assert not wide or {"Mean", "95 % low", "95 % high", "Std. dev."} <= set(scores), scores
    quiz = column_headers(page, "Quiz question")
    pairs = column_headers(page, "Measure")
    assert not wide or "Share correct" in quiz, quiz
    for headers in (funnel, scores, quiz, pairs):
        assert not [h for h in headers if "_" in h], headers
    page.get_by_role("heading", name="Instrument scores").scroll_into_view_if_needed()
    screenshot(page, f"up-questionnaires-tables-{size}")


@pytest.mark.parametrize("size", list(SIZES))
def test_experiment_charts_keep_their_text_inside_on_a_phone(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path], size: str
) -> None:
    """The forest plot's axis title ran off a 360 px screen, and its "too small to act
    on" label ran over the dashed line at 0."""
    page = sign_in(new_page, app, size)
    go(page, "Experiments", "demo")
    expect_charts(page, 2)
    assert chart_text_cut_off(page) == []
    titles = page.locator("[data-testid=stPlotlyChart] .g-xtitle")
    expect(titles.first).to_contain_text("too small to act on")
    titles.first.scroll_into_view_if_needed()
    screenshot(page, f"up-experiments-forest-{size}")


# Emoji code points: drawn as empty boxes where the machine has no emoji font.
EMOJI = re.compile("[\U0001F300-\U0001FAFF\u2600-\u27BF]")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_childs_survey_draws_its_faces_with_icons_not_emoji(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path], size: str
) -> None:
    """The faces of the yes/maybe/no and five-face questions were emoji, and Debian's
    Chromium drew some of them as empty boxes; Material icons come with Streamlit."""
    width, height = SIZES[size]
    page = new_page(app, "?study=demo", width=width, height=height)
    page.get_by_text("A child, with a parent or guardian here").click()
    page.get_by_text("I am the child's parent or guardian", exact=False).click()
    consent(page)
    faces_seen = 0
    for _ in range(3):  # the child's pre-play pages: about you, maths, before you play
        drawn(page)
        options = page.locator("[data-testid=stRadio] label[data-testid=stRadioOption]")
        expect(options.first).to_be_visible()
        for text in options.all_inner_texts():
            assert not EMOJI.search(text), text
        # a Markdown icon: its name, drawn as one glyph by the Material Symbols font
        icons = page.locator("[data-testid=stRadio] span[role=img][aria-label^=sentiment]")
        faces_seen += icons.count()
        for icon in icons.all()[:5]:
            width = (icon.bounding_box() or {}).get("width", 0)
            assert 8 < width < 40, width  # a face, not the icon's name spelt out
        screenshot(page, f"up-child-survey-{faces_seen}-{size}")
        submit(page, survey_caption(page), lambda: answer_page(page, None))
    # two yes/maybe/no questions (6 faces), three five-face questions on "Maths" (15)
    # and the expectation's five faces
    assert faces_seen == 6 + 15 + 5
