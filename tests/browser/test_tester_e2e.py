"""A tester's whole way through the real app in Debian's Chromium, then the database.

The tester opens a study link, consents, answers the pre-play survey, plays a whole game
against Easy with real clicks on the board (wrong clicks included), answers the post-play
survey and gets a completion code. A second test reloads mid-game and carries on.
Screenshots of each step go to artifacts/screenshots/.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from sqlalchemy import select
from sqlalchemy.engine import Engine

from playtest import services
from playtest.storage import repository as repo
from playtest.storage.db import make_engine, upgrade
from playtest.storage.models import EventRow, ResponseRow
from playtest.study_config import StudyConfig

pytestmark = pytest.mark.browser

APP = "playtest/app.py"
BOARD = ".st-key-board-"  # the board's key is board-<game id>
HOSTILE = "<b>bold</b> [link](http://x.example) ‮"


@pytest.fixture(scope="module")
def app_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Engine]:
    url = f"sqlite:///{tmp_path_factory.mktemp('e2e') / 'playtest.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    config = StudyConfig(
        seats=["human", "ai:easy"],
        ai_think_ms=0,
        highlight_options=True,
        games_per_tester=1,
        allow_more_games=False,
        audience="adults",
    )
    services.create_study(engine, title="E2E study", config=config, study_id="e2e")
    return url, engine


@pytest.fixture(scope="module")
def app(streamlit_app: Callable[..., Any], app_db: tuple[str, Engine]) -> Any:
    return streamlit_app(APP, {"DATABASE_URL": app_db[0]})


def _settle(page: Any) -> None:
    page.locator(
        "[data-testid=stApp][data-test-script-state=notRunning]"
        "[data-test-connection-state=CONNECTED]"
    ).wait_for(timeout=30_000)


# The app's last run is over and everything it drew is on screen. Streamlit draws an
# element whose code the browser has not loaded yet (the first radio group a new browser
# meets, a game's board) as a grey skeleton box until the code is there, for seconds on a
# busy machine; clicks meant for it hit nothing.
_DRAWN = (
    "const app = document.querySelector('[data-testid=stApp]');"
    " const drawn = !!app && app.dataset.testScriptState === 'notRunning'"
    " && app.dataset.testConnectionState === 'CONNECTED'"
    " && !document.querySelector('[data-testid=stSkeleton]');"
)


def _drawn(page: Any) -> None:
    page.wait_for_function(f"() => {{ {_DRAWN} return drawn; }}", timeout=30_000)


def _consent(page: Any) -> None:
    page.get_by_text("I have read the above and I agree to take part.").click()
    page.get_by_role("button", name="I agree").click()
    page.wait_for_url(re.compile(r".*\?p=.*"), timeout=30_000)
    _settle(page)


def _answer_page(page: Any, free_text: str | None) -> None:
    _drawn(page)  # a question still drawn as a skeleton cannot be answered
    for group in page.locator("[data-testid=stRadio]").all():
        option = group.locator("label[data-testid=stRadioOption]").first
        option.click()
        expect(option.locator("input")).to_be_checked()
    if free_text is not None:
        for area in page.locator("textarea").all():
            area.fill(free_text)
            area.blur()  # Streamlit takes a text area's value when it loses focus
            expect(area).to_have_value(free_text)


def _survey_caption(page: Any) -> str:
    """The survey page's "Page n of m" (the first caption of its form)."""
    return str(page.locator("[data-testid=stForm] [data-testid=stCaptionContainer]")
               .first.inner_text())


def _submit(page: Any, caption: str, answer: Callable[[], None]) -> None:
    """Answer the page, press Continue once and wait for the app's answer to the press:
    the next page of the survey, the next stage's page, or a question marked in the form.

    Only the state after the app's last run counts. While a press's ``st.rerun`` chain
    goes on, the form of the page before stays on screen (Streamlit keeps what the last
    run drew until the next one replaces it), so "the form is still there" or "a problem
    is shown" are read only once the run is over, and a new page only by its caption.
    """
    answer()
    page.get_by_role("button", name="Continue", exact=True).click()
    page.wait_for_function(
        "caption => {" + _DRAWN +
        " if (!drawn) return false;"
        " const form = document.querySelector('[data-testid=stForm]');"
        " if (!form) return true;"
        " if (form.querySelector('[data-testid=stAlert]')) return true;"
        " const c = form.querySelector('[data-testid=stCaptionContainer]');"
        " return !c || c.innerText !== caption; }",
        arg=caption, timeout=30_000)


def _fill_survey(
    page: Any, shoot: Callable[[Any, str], Path], name: str, free_text: str | None = None
) -> int:
    """Answer every page of the survey on screen (first option of every radio group).

    A page the app does not accept (a question marked in the form) fails the test: every
    question the helper can answer was answered, so the app lost an answer.
    """
    pages = 0
    button = page.get_by_role("button", name="Continue", exact=True)
    button.wait_for(timeout=30_000)
    _drawn(page)
    while button.count():
        shoot(page, f"{name}-page-{pages + 1}")
        _submit(page, _survey_caption(page), lambda: _answer_page(page, free_text))
        problems = page.locator("[data-testid=stForm] [data-testid=stAlert]")
        if problems.count():
            raise AssertionError(
                f"survey page {pages + 1} was not accepted: {page.inner_text('body')[:800]}"
            )
        pages += 1
    return pages


def _board(page: Any) -> Any:
    return page.locator(f"[class*='{BOARD[1:]}'] .vb")


def _wait_board(page: Any) -> None:
    """Wait until the board shows a game: its markup exists before its script has drawn
    the first view, and a roll clicked then would be read against no view at all."""
    page.locator(f"[class*='{BOARD[1:]}'] .vb[data-token][data-phase]").wait_for(
        timeout=30_000)
    _settle(page)


def _phase(page: Any) -> str:
    return str(_board(page).get_attribute("data-phase"))


def _marks(page: Any) -> tuple[str, str]:
    """What changes on screen after an input: the view token (a game step) or the last
    sound cue (every answered input, wrong clicks included)."""
    board = _board(page)
    # A board that has played no sound yet has no data-last-sound: "" stands for it on
    # both sides of the comparison in _wait_change (str(None) would never equal it).
    return (board.get_attribute("data-token") or "",
            board.get_attribute("data-last-sound") or "")


def _wait_change(page: Any, before: tuple[str, str]) -> None:
    """Wait until the board answered the last input."""
    handle = _board(page).element_handle()
    page.wait_for_function(
        "([el, t, s]) => (el.dataset.token ?? '') !== t || (el.dataset.lastSound ?? '') !== s",
        arg=[handle, before[0], before[1]], timeout=30_000)
    _settle(page)


def _tiles(page: Any) -> Any:
    return _board(page).locator("button.tile")


def _play_turn(page: Any, wrong_clicks: list[int]) -> None:
    """Roll, click a far-away wrong tile now and then, then an option."""
    token = _marks(page)
    page.get_by_role("button", name="Roll the dice").click()
    _wait_change(page, token)
    if _phase(page) != "place":
        return
    tiles = _tiles(page)
    options = [i for i in range(144) if "hl" in (tiles.nth(i).get_attribute("class") or "")]
    assert options, "the study highlights options, so a rolled option must be marked"
    if len(wrong_clicks) < 3:
        far = next(
            i
            for i in range(144)
            if all(abs(i % 12 - o % 12) > 1 or abs(i // 12 - o // 12) > 1 for o in options)
        )
        token = _marks(page)
        tiles.nth(far).click()
        _wait_change(page, token)
        wrong_clicks.append(far)
    for index in options:
        token = _marks(page)
        tiles.nth(index).click()
        _wait_change(page, token)
        if _phase(page) != "place" or not any(
            "hl" in (tiles.nth(i).get_attribute("class") or "") for i in options
        ):
            return
        # The other option: the one clicked was forbidden by the rules (a wrong click too).
        wrong_clicks.append(index)


def _events(engine: Engine, participant_id: str) -> list[tuple[str, dict[str, Any]]]:
    table = EventRow.__table__  # type: ignore[attr-defined]
    with engine.connect() as conn:
        rows = conn.execute(
            select(table.c.type, table.c.props, table.c.session_id, table.c.seq)
            .where(table.c.participant_id == participant_id)
            .order_by(table.c.session_id, table.c.seq)
        ).all()
    return [(r.type, r.props) for r in rows]


def test_a_tester_goes_from_study_link_to_completion_code(
    new_page: Callable[..., Any],
    app: Any,
    app_db: tuple[str, Engine],
    screenshot: Callable[[Any, str], Path],
) -> None:
    _url, engine = app_db
    page = new_page(app, "?study=e2e", width=1000, height=1300)
    screenshot(page, "e2e-01-consent")
    _consent(page)
    code = page.url.split("p=")[1].split("&")[0]
    assert repo.get_participant(engine, code) is not None
    pre_pages = _fill_survey(page, screenshot, "e2e-02-pre-survey")
    assert pre_pages >= 3
    _wait_board(page)
    screenshot(page, "e2e-03-board")
    wrong: list[int] = []
    turns = 0
    while _phase(page) != "over" and turns < 200:
        _play_turn(page, wrong)
        turns += 1
    assert _phase(page) == "over"
    screenshot(page, "e2e-04-game-over")
    page.get_by_role("button", name="Continue to the last questions").click()
    _settle(page)
    post_pages = _fill_survey(page, screenshot, "e2e-05-post-survey", free_text=HOSTILE)
    assert post_pages >= 3
    page.get_by_text("Your completion code is:").wait_for()
    screenshot(page, "e2e-06-done")
    shown_code = page.locator("[data-testid=stCode]").first.inner_text().strip()

    # Everything the tester did is in the database, once.
    participant = repo.get_participant(engine, code)
    assert participant is not None and participant.stage == "done"
    assert participant.completion_code == shown_code
    events = _events(engine, code)
    pages = [p["page"] for t, p in events if t == "page"]
    assert pages == ["consent", "pre_survey", "play", "post_survey", "done"]
    clicks = [p for t, p in events if t == "click"]
    assert [p for p in clicks if not p["ok"]], "the wrong clicks were logged"
    assert len([p for p in clicks if not p["ok"]]) == len(wrong)
    assert all(
        p["wrong_kind"] in ("rule", "near_miss", "arithmetic", "same_product")
        for p in clicks
        if not p["ok"]
    )
    human_placements = [p for t, p in events if t in ("place", "brown") and p["seat"] == 1]
    assert len([p for p in clicks if p["ok"]]) == len(human_placements)
    assert [t for t, _ in events].count("game_start") == 1
    assert [t for t, _ in events].count("game_end") == 1
    with engine.connect() as conn:
        table = ResponseRow.__table__  # type: ignore[attr-defined]
        answers = {
            (r.phase, r.item): r.value
            for r in conn.execute(
                select(table.c.phase, table.c.item, table.c.value).where(
                    table.c.participant_id == code
                )
            )
        }
    assert ("pre", "demo.age_band") in answers  # the adults' form: consent said who plays
    assert ("pre", "demo.role") not in answers
    assert ("post", "quiz.square_roll") in answers
    assert answers[("post", "open.confused")] == HOSTILE


def test_a_reload_mid_game_carries_on_where_it_was(
    new_page: Callable[..., Any],
    app: Any,
    app_db: tuple[str, Engine],
    screenshot: Callable[[Any, str], Path],
) -> None:
    _url, engine = app_db
    page = new_page(app, "?study=e2e", width=1000, height=1300)
    _consent(page)
    code = page.url.split("p=")[1].split("&")[0]
    _fill_survey(page, screenshot, "e2e-resume-pre")
    _wait_board(page)
    wrong: list[int] = [0, 0, 0]  # no wrong clicks in this test
    for _ in range(3):
        if _phase(page) == "over":
            break
        _play_turn(page, wrong)
    before = [_tiles(page).nth(i).get_attribute("class") for i in range(144)]
    record = repo.latest_unfinished_game(engine, code)
    page.reload()
    _settle(page)
    _wait_board(page)
    screenshot(page, "e2e-resume-after-reload")
    after = [_tiles(page).nth(i).get_attribute("class") for i in range(144)]
    strip = re.compile(r" g-\w+")  # the glow of the last move is not part of the position
    assert [strip.sub("", c or "") for c in after] == [strip.sub("", c or "") for c in before]
    if record is not None:
        again = repo.latest_unfinished_game(engine, code)
        assert again is not None and again.game_id == record.game_id
        assert len(again.actions) == len(record.actions)
        if _phase(page) != "over":
            _play_turn(page, wrong)
            later = repo.load_game(engine, record.game_id)
            assert later is not None and len(later.actions) > len(record.actions)
