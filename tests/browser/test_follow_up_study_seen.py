"""From the Confusion page's top rule confusion to a running follow-up study in at most
three clicks, in Chromium (issue 26, "Done when"): one game at 1280×800, another on a
360×740 phone. The new study's tester link is shown, on the server's own address; opened
by a new tester it shows the consent page.

What the page does for each of the four games (the follow-up made from the top rule
confusion, its link and version shown, one study however often it is pressed) is checked
in AppTest: tests/app/test_follow_up_study.py. Here are the clicks a browser makes (a
section open or closed as drawn) at each size.

One Streamlit server for the module, on one SQLite file holding the two games' demo
studies filled with simulated testers; each test starts the follow-up of its own game's
study.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from designer_flow import APP, PASSWORD, go, settle, sign_in
from playwright.sync_api import expect

from analytics.confusion import confusion_points
from analytics.follow_ups import proposed_follow_ups
from playtest import auth, demo, services
from playtest.games.registry import game_names
from playtest.storage import repository as repo
from playtest.storage.db import make_engine
from playtest.study_data import load_bundle
from tests.demo_studies import fill_demo_study

pytestmark = pytest.mark.browser

#: A game at each size (every game's follow-up is AppTest's: see the module's doc).
CASES = [("vapoosh", "wide"), ("morris", "phone")]
MOST_CLICKS = 3


@dataclass(frozen=True)
class TopRule:
    """A game's demo study and its top rule confusion's follow-up (key, expander label)."""

    study_id: str
    key: str
    label: str


@dataclass(frozen=True)
class Lab:
    url: str
    app: Any
    top: dict[str, TopRule]


@pytest.fixture(scope="module")
def lab(streamlit_app: Callable[..., Any], tmp_path_factory: pytest.TempPathFactory) -> Lab:
    database = tmp_path_factory.mktemp("follow-up") / "playtest.sqlite"
    url = f"sqlite:///{database}"
    top: dict[str, TopRule] = {}
    for game, _size in CASES:
        study_id = fill_demo_study(database, game, testers=10, seed=3)
        engine = make_engine(url)
        data = load_bundle(engine, study_id).data
        engine.dispose()
        rule = next(p.id for p in confusion_points(data) if p.id.startswith("rule:"))
        proposal = next(p for p in proposed_follow_ups(data) if p.point == rule)
        top[game] = TopRule(study_id, proposal.plan.key,
                            f"{proposal.label}: {proposal.remedy.title}")
    app = streamlit_app(APP, {"DATABASE_URL": url, auth.ENV_VAR: auth.hash_password(PASSWORD)})
    return Lab(url, app, top)


def _follow_ups(lab: Lab, study_id: str) -> list[repo.Study]:
    engine = make_engine(lab.url)
    try:
        study = repo.get_study(engine, study_id)
        assert study is not None
        return [s for s in services.study_family(engine, study) if s.study_id != study_id]
    finally:
        engine.dispose()


@pytest.mark.parametrize(("game", "size"), CASES)
def test_a_follow_up_study_in_three_clicks_and_its_link_opens_consent(
    new_page: Callable[..., Any], lab: Lab, screenshot: Callable[[Any, str], Path],
    game: str, size: str,
) -> None:
    top = lab.top[game]
    page = sign_in(new_page, lab.app, size)
    go(page, "Confusion", top.study_id)
    expect(page.get_by_role("heading", name="Follow-up experiments")).to_be_visible(
        timeout=90_000)

    clicks = 0
    start = page.locator(f".st-key-fu-start-{top.key} button")
    # The first point's section is open, another's is opened: read from the section's
    # own open state once the page is drawn (a visibility check while the page was
    # still drawing took the open section for a closed one, and the click closed it).
    section = page.locator("[data-testid=stExpander] details").filter(
        has=page.locator("summary", has_text=top.label)).first
    section.wait_for(timeout=60_000)
    settle(page)
    if section.get_attribute("open") is None:
        section.locator("summary").click()
        clicks += 1
    expect(start).to_have_text("Start a follow-up study")
    start.click()
    clicks += 1
    settle(page)
    link = page.locator("[data-testid=stCode]").filter(has_text=re.compile(r"\?study="))
    expect(link).to_be_visible(timeout=60_000)
    assert clicks <= MOST_CLICKS

    (made,) = _follow_ups(lab, top.study_id)
    assert made.open and services.family_version(made) == 2
    assert [e["key"] for e in made.experiment_records][-1] == top.key
    shown = link.inner_text().strip()
    assert shown.endswith(f"/?study={made.study_id}"), shown
    assert shown.startswith(lab.app.url), shown
    expect(page.get_by_text(re.compile(
        rf"^Version 2 of family {re.escape(top.study_id)}\. Share this link"))).to_be_visible()
    link.scroll_into_view_if_needed()
    screenshot(page, f"follow-up-started-{game}-{size}")

    start.click()  # pressed again: still one follow-up study
    settle(page)
    expect(page.get_by_text(re.compile("was started already"))).to_be_visible()
    assert [s.study_id for s in _follow_ups(lab, top.study_id)] == [made.study_id]

    tester = new_page(lab.app, f"?study={made.study_id}", width=page.viewport_size["width"],
                      height=page.viewport_size["height"])
    expect(tester.get_by_role("button", name="I agree")).to_be_visible()
    expect(tester.get_by_text("I have read the above and I agree to take part.")) \
        .to_be_visible()
    screenshot(tester, f"follow-up-consent-{game}-{size}")


def test_cases_are_two_games_at_both_sizes() -> None:
    assert len({g for g, _ in CASES}) == 2 and {g for g, _ in CASES} <= set(game_names())
    assert sorted(s for _, s in CASES) == ["phone", "wide"]
    assert demo.DEMO_GAME in {g for g, _ in CASES}
