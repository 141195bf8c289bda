"""What a designer sees on the pages issue 10 (items 7, 9, 11, 12) changed, in Chromium at
1280×800 and on a 360×740 phone, with a screenshot of each (artifacts/screenshots/h4-*).

Also the tester's side of item 7: after "An adult" at consent the pre-play survey offers
no child's answers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from designer_flow import APP, PASSWORD, SIZES, expect_charts, go, settle, sign_in
from playwright.sync_api import expect

from playtest import auth, demo, services
from playtest.storage.db import make_engine, upgrade
from playtest.study_config import StudyConfig
from tests.app.games_of_every_kind import mixed_games

pytestmark = pytest.mark.browser

KNOWN: dict[str, str] = {}  # filled by the app fixture


@pytest.fixture(scope="module")
def app(streamlit_app: Callable[..., Any], tmp_path_factory: pytest.TempPathFactory) -> Any:
    url = f"sqlite:///{tmp_path_factory.mktemp('h4-designer') / 'playtest.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    demo.generate(engine, 30, seed=5, workers=1)
    KNOWN["app_tester"] = mixed_games(engine).app_tester
    services.create_study(engine, title="Nobody yet", study_id="empty", config=StudyConfig())
    engine.dispose()
    return streamlit_app(APP, {"DATABASE_URL": url, auth.ENV_VAR: auth.hash_password(PASSWORD)})


def _charts(page: Any) -> int:
    return page.locator("[data-testid=stPlotlyChart]").count()


def test_every_sidebar_link_has_an_icon_from_streamlits_own_font(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    """Emoji icons drew as empty boxes in a browser without an emoji font (Debian's
    Chromium); Material icons come with Streamlit, so every machine draws them."""
    page = sign_in(new_page, app)
    links = page.locator("[data-testid=stSidebarNavLink]")
    expect(links.first).to_be_visible()
    assert links.count() >= 9  # Start and the designer's eight pages
    for link in links.all():
        expect(link.locator("[data-testid=stIconMaterial]")).to_have_count(1)
        expect(link.locator("[data-testid=stIconEmoji]")).to_have_count(0)
    screenshot(page, "designer-sidebar-icons")


@pytest.mark.parametrize("size", list(SIZES))
def test_studies_page_counts_games_and_shows_the_new_link(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path], size: str
) -> None:
    page = sign_in(new_page, app, size)
    go(page, "Studies")
    page.get_by_text("Mixed · mixed").click()
    mixed = page.locator("[data-testid=stExpander]").filter(has_text="Mixed · mixed")
    games = mixed.locator("[data-testid=stMetric]").filter(has_text="Games played out / started")
    expect(games.first).to_be_visible()
    value = games.first.locator("[data-testid=stMetricValue]").inner_text()
    played_out, started = (int(n) for n in value.split(" / "))
    assert started > played_out > 3
    expect(page.get_by_text(re.compile(r"games started by 6 testers: .* 1 restarted, "
                                       r"1 left unfinished, 1 in progress"))).to_be_visible()
    screenshot(page, f"h4-studies-counts-{size}")
    page.get_by_label("Title").last.fill(f"Made on a {size} screen")
    page.get_by_role("button", name="Create study").click()
    settle(page)
    expect(page.get_by_text(re.compile(r"Created study \w+"))).to_be_visible()
    link = page.locator("[data-testid=stCode]").last.inner_text().strip()
    assert re.fullmatch(r"http://[^/]+/\?study=\w+", link), link
    screenshot(page, f"h4-studies-created-{size}")


@pytest.mark.parametrize("size", list(SIZES))
def test_overview_questionnaires_and_balance(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path], size: str
) -> None:
    page = sign_in(new_page, app, size)
    go(page, "Overview", "demo")
    expect(page.get_by_text("Games beyond the study's games per tester are optional",
                            exact=False)).to_be_visible()
    expect_charts(page, 1)
    expect(page.locator("[data-testid=stPlotlyChart]").get_by_text("game 2 (optional)")
           ).to_be_visible()
    page.get_by_role("heading", name="Overview").scroll_into_view_if_needed()
    screenshot(page, f"h4-overview-{size}")
    page.locator("[data-testid=stDataFrame]").first.scroll_into_view_if_needed()
    screenshot(page, f"h4-overview-table-{size}")
    go(page, "Questionnaires", "demo")
    heading = page.get_by_role("heading", name="Expectation (pre) against experience (post)")
    heading.scroll_into_view_if_needed()
    expect(page.get_by_text("One pair per tester who answered both")).to_be_visible()
    screenshot(page, f"h4-questionnaires-{size}")
    go(page, "Balance", "demo")
    page.get_by_label("Games").fill("200")
    page.get_by_role("button", name="Simulate").click()
    settle(page)
    expect(page.get_by_role("heading", name="Who wins")).to_be_visible(timeout=120_000)
    expect_charts(page, 3)
    assert page.locator("[data-testid=stDataFrame]").count() >= 3
    page.get_by_role("heading", name="Who wins").scroll_into_view_if_needed()
    screenshot(page, f"h4-balance-{size}")
    for part in ("How often each rule is felt", "How long games are"):
        page.get_by_role("heading", name=part).scroll_into_view_if_needed()
        screenshot(page, f"h4-balance-{part.split()[-2]}-{size}")


@pytest.mark.parametrize("size", list(SIZES))
def test_replay_labels_games_and_numbers_steps_like_the_slider(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path], size: str
) -> None:
    page = sign_in(new_page, app, size)
    go(page, "Replay", "mixed")
    tester = page.get_by_role("combobox", name="Tester")
    tester.click()
    page.keyboard.type(KNOWN["app_tester"])
    page.keyboard.press("Enter")
    settle(page)
    expect(tester).to_have_value(KNOWN["app_tester"])
    page.get_by_role("combobox", name="Game").click()
    expect(page.get_by_role("option")).to_have_count(3)
    options = [o.inner_text() for o in page.get_by_role("option").all()]
    assert any("restarted (abandoned" in o for o in options), options
    assert any("left unfinished (abandoned" in o for o in options), options
    assert any("played out: seat" in o for o in options), options
    page.get_by_role("option").filter(has_text="restarted").click()
    settle(page)
    expect(page.get_by_text("This game: restarted (abandoned, does not count).")).to_be_visible()
    shown = page.get_by_test_id("stSliderThumbValue")
    caption = page.get_by_test_id("stCaptionContainer").get_by_text(
        re.compile(r"^Step \d+ of \d+: "))
    board_line = page.get_by_test_id("vapoosh-board").get_by_text(
        re.compile(r"^Step \d+ of \d+: "))
    # The previous game's slider can linger for a moment while the page redraws.
    expect(shown).to_have_count(1)
    total = int(shown.inner_text())  # the slider starts on the last step
    expect(caption).to_have_text(re.compile(rf"^Step {total} of {total}: "))
    page.get_by_role("slider").focus()
    page.keyboard.press("Home")
    settle(page)
    expect(shown).to_have_text("1")
    expect(caption).to_have_text(re.compile(rf"^Step 1 of {total}: seat 1 \(tester\) rolled"))
    page.keyboard.press("ArrowRight")
    settle(page)
    expect(shown).to_have_text("2")
    expect(caption).to_have_text(re.compile(rf"^Step 2 of {total}: "))
    expect(board_line).to_have_text(re.compile(rf"^Step 2 of {total}: "))
    screenshot(page, f"h4-replay-{size}")


@pytest.mark.parametrize("size", list(SIZES))
def test_an_empty_study_says_no_data_yet_on_every_page(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path], size: str
) -> None:
    page = sign_in(new_page, app, size)
    for name in ("Overview", "Confusion", "Questionnaires", "Experiments", "Replay",
                 "Design plan"):
        go(page, name, "empty")
        title = "UX design plan" if name == "Design plan" else name
        expect(page.locator("h1").filter(has_text=title.replace("Confusion",
                                                               "Confusion points")).first
               ).to_be_visible()
        assert _charts(page) == 0, name
        if name != "Experiments":  # the empty study has no experiments: it says so
            expect(page.get_by_text("No data yet", exact=False).first).to_be_visible()
        else:
            expect(page.get_by_text("This study has no experiments.")).to_be_visible()
        if name in ("Overview", "Confusion"):
            screenshot(page, f"h4-empty-{name.lower()}-{size}")


@pytest.mark.parametrize("size", list(SIZES))
def test_after_an_adult_at_consent_the_survey_asks_no_child_questions(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path], size: str
) -> None:
    width, height = SIZES[size]
    page = new_page(app, "?study=demo", width=width, height=height)
    page.get_by_text("An adult (18 or over)").click()
    page.get_by_text("I have read the above and I agree to take part.").click()
    page.get_by_role("button", name="I agree").click()
    page.wait_for_url(re.compile(r".*\?p=.*"), timeout=30_000)
    settle(page)
    expect(page.get_by_text("How old are you?")).to_be_visible()
    body = page.locator("[data-testid=stMain]").inner_text()
    for child_answer in ("A child player", "under 6", "I am…", "A parent or carer"):
        assert child_answer not in body, child_answer
    assert "18–24" in body
    screenshot(page, f"h4-consent-adult-pre-survey-{size}")
    assert json.dumps(SIZES)  # both sizes ran through the same checks
