"""A tester's way through a study in the real app, shared by the end-to-end browser tests.

Import it by name (``from study_flow import consent, fill_survey``): pytest puts this
folder on ``sys.path`` for the tests in it (tests/ has no ``__init__.py``), as
tests/reliability/ does with faults_support.py.

- ``AppDatabase``, ``app_database``: a module's fresh migrated SQLite file (the
  ``app_db`` fixture of conftest.py); ``new_study``: a new study in it, one per test.
- ``study_db``: a fresh SQLite database, migrated, holding one study.
- ``settle``, ``drawn``: wait for the app's run to be over (and, for ``drawn``, for
  nothing on screen to be a grey skeleton still).
- ``consent``, ``fill_survey``, ``finish_study``: the pages around the game.
- ``new_player_at_play``: a tester straight at the game, for a page opened at ``?p=<code>``.
- ``morris_board_on_screen``: the Bricks & Walls board whole on the screen.
- ``labels_cut``: the buttons of a part of the page whose label is cut or that stick out.
- ``stored_game``, ``stored_events``, ``wait_stored``, ``wait_for_tester``,
  ``assert_completed``: what the database holds of the tester, read while the test
  clicks (each move is chosen from the game as stored).
"""

from __future__ import annotations

import contextlib
import itertools
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from sqlalchemy import select
from sqlalchemy.engine import Engine

from engine.core import GameRecord
from playtest import services
from playtest.storage import repository as repo
from playtest.storage.db import make_engine, upgrade
from playtest.storage.models import EventRow, SessionRow
from playtest.study_config import StudyConfig

APP = "playtest/app.py"
Shoot = Callable[[Any, str], Path]
# The pages a tester who finished the study saw, in order, as the page events log them.
STUDY_PAGES = ["consent", "pre_survey", "play", "post_survey", "done"]


@dataclass(frozen=True)
class AppDatabase:
    """A test module's SQLite file: its URL, path and an engine on it."""

    url: str
    path: Path
    engine: Engine


@contextlib.contextmanager
def app_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppDatabase]:
    """A new SQLite file at the newest schema, no study yet; its engine disposed after."""
    path = tmp_path_factory.mktemp("app-db") / "playtest.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    try:
        yield AppDatabase(f"sqlite:///{path}", path, engine)
    finally:
        engine.dispose()


_STUDY_NUMBERS = itertools.count(1)


def new_study(database: AppDatabase, *, title: str = "A browser test's study",
              **settings: Any) -> str:
    """A new study of ``settings`` (:class:`StudyConfig`'s fields) in ``database``, under
    an id no other test of the session uses; its id (the link is ``?study=<id>``)."""
    study_id = f"t{next(_STUDY_NUMBERS)}"
    services.create_study(database.engine, title=title, config=StudyConfig(**settings),
                          study_id=study_id)
    return study_id


def study_db(
    tmp_path_factory: pytest.TempPathFactory, folder: str, *,
    study_id: str, title: str, config: StudyConfig,
) -> tuple[str, Engine]:
    """A new SQLite file (in a temporary ``folder``) at the newest schema, with one study."""
    url = f"sqlite:///{tmp_path_factory.mktemp(folder) / 'playtest.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    services.create_study(engine, title=title, config=config, study_id=study_id)
    return url, engine


def one_game_study_db(
    tmp_path_factory: pytest.TempPathFactory, game: str, *,
    study_id: str, title: str, **settings: Any,
) -> tuple[str, Engine]:
    """:func:`study_db` with a study of ``game`` where each tester plays one game (no
    more offered), for adults; ``settings`` are the study's other settings."""
    config = StudyConfig(game=game, games_per_tester=1, allow_more_games=False,
                         audience="adults", **settings)
    return study_db(tmp_path_factory, f"{game}-e2e", study_id=study_id, title=title,
                    config=config)


def settle(page: Any) -> None:
    """Wait until the app's current run is over and the browser is connected."""
    page.locator(
        "[data-testid=stApp][data-test-script-state=notRunning]"
        "[data-test-connection-state=CONNECTED]"
    ).wait_for(timeout=30_000)


# The app's last run is over and everything it drew is on screen. Streamlit draws an
# element whose code the browser has not loaded yet (the first radio group a new browser
# meets, a game's board) as a grey skeleton box until the code is there, for seconds on a
# busy machine; clicks meant for it hit nothing.
DRAWN = (
    "const app = document.querySelector('[data-testid=stApp]');"
    " const drawn = !!app && app.dataset.testScriptState === 'notRunning'"
    " && app.dataset.testConnectionState === 'CONNECTED'"
    " && !document.querySelector('[data-testid=stSkeleton]');"
)


# How often a wait that runs in the page looks again, in ms. Playwright's default looks
# on every animation frame, which keeps the renderer drawing frames 60 times a second
# for the whole wait; ten looks a second cost a small part of that CPU.
POLL_MS = 100


def drawn(page: Any) -> None:
    """Wait until the run is over and no element is a skeleton any more."""
    page.wait_for_function(f"() => {{ {DRAWN} return drawn; }}", timeout=30_000,
                           polling=POLL_MS)


def consent(page: Any) -> None:
    """Tick the consent box, press "I agree" and wait for the tester's own address."""
    page.get_by_text("I have read the above and I agree to take part.").click()
    page.get_by_role("button", name="I agree").click()
    page.wait_for_url(re.compile(r".*\?p=.*"), timeout=30_000)
    settle(page)


def participant_code(page: Any) -> str:
    """The tester's pseudonymous code, from the page's address (``?p=<code>``)."""
    return str(page.url.split("p=")[1].split("&")[0])


def answer_page(page: Any, free_text: str | None) -> None:
    """Choose the first option of every radio group, and type ``free_text`` into every
    text area (none typed when it is None)."""
    drawn(page)  # a question still drawn as a skeleton cannot be answered
    for group in page.locator("[data-testid=stRadio]").all():
        option = group.locator("label[data-testid=stRadioOption]").first
        option.click()
        expect(option.locator("input")).to_be_checked()
    if free_text is not None:
        for area in page.locator("textarea").all():
            area.fill(free_text)
            area.blur()  # Streamlit takes a text area's value when it loses focus
            expect(area).to_have_value(free_text)


def survey_caption(page: Any) -> str:
    """The survey page's "Page n of m" (the first caption of its form)."""
    return str(page.locator("[data-testid=stForm] [data-testid=stCaptionContainer]")
               .first.inner_text())


def submit(page: Any, caption: str, answer: Callable[[], None]) -> None:
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
        "caption => {" + DRAWN +
        " if (!drawn) return false;"
        " const form = document.querySelector('[data-testid=stForm]');"
        " if (!form) return true;"
        " if (form.querySelector('[data-testid=stAlert]')) return true;"
        " const c = form.querySelector('[data-testid=stCaptionContainer]');"
        " return !c || c.innerText !== caption; }",
        arg=caption, timeout=30_000, polling=POLL_MS)


def fill_survey(page: Any, shoot: Shoot, name: str, free_text: str | None = None) -> int:
    """Answer every page of the survey on screen (first option of every radio group);
    the number of pages answered.

    A page the app does not accept (a question marked in the form) fails the test: every
    question the helper can answer was answered, so the app lost an answer.
    """
    pages = 0
    button = page.get_by_role("button", name="Continue", exact=True)
    button.wait_for(timeout=30_000)
    drawn(page)
    while button.count():
        shoot(page, f"{name}-page-{pages + 1}")
        submit(page, survey_caption(page), lambda: answer_page(page, free_text))
        problems = page.locator("[data-testid=stForm] [data-testid=stAlert]")
        if problems.count():
            raise AssertionError(
                f"survey page {pages + 1} was not accepted: {page.inner_text('body')[:800]}"
            )
        pages += 1
    return pages


def finish_study(
    page: Any, shoot: Shoot, name: str, *, first_shot: int, free_text: str | None,
) -> tuple[int, str]:
    """After the game: "Continue to the last questions", the post-play survey, the
    completion code. Screenshots ``<name>-<nn>-game-over``, ``-post-survey``, ``-done``
    numbered from ``first_shot``; the post-survey's page count and the code shown.
    """
    button = page.get_by_role("button", name="Continue to the last questions")
    button.wait_for(timeout=30_000)
    shoot(page, f"{name}-{first_shot:02d}-game-over")
    button.click()
    settle(page)
    pages = fill_survey(page, shoot, f"{name}-{first_shot + 1:02d}-post-survey",
                        free_text=free_text)
    page.get_by_text("Your completion code is:").wait_for(timeout=30_000)
    shoot(page, f"{name}-{first_shot + 2:02d}-done")
    return pages, str(page.locator("[data-testid=stCode]").first.inner_text().strip())


def stored_game(engine: Engine, code: str) -> tuple[repo.GameRecord, Any]:
    """The tester's one game as stored, and its engine state replayed from the record."""
    (record,) = repo.list_games(engine, code)
    state = GameRecord(record.game, record.rules, len(record.seats), record.actions).replay()
    return record, state


def stored_events(engine: Engine, code: str) -> list[tuple[str, dict[str, Any]]]:
    """The tester's events as (type, props), in the order they were logged: session by
    session in the order the sessions started (a game stored before the page opened it
    comes first), each session's in its order."""
    table = EventRow.__table__  # type: ignore[attr-defined]
    sessions = SessionRow.__table__  # type: ignore[attr-defined]
    with engine.connect() as conn:
        rows = conn.execute(select(table.c.type, table.c.props)
                            .join(sessions, sessions.c.session_id == table.c.session_id)
                            .where(table.c.participant_id == code)
                            .order_by(sessions.c.started_at_ms, table.c.session_id,
                                      table.c.seq)).all()
    return [(r.type, r.props) for r in rows]


def stored_count(engine: Engine, code: str) -> int:
    """How many actions the tester's one game holds (read without replaying it)."""
    (record,) = repo.list_games(engine, code)
    return len(record.actions)


def wait_stored(engine: Engine, code: str, more_than: int, what: str = "action") -> None:
    """Poll the database (ten times a second) until the tester's game holds more than
    ``more_than`` actions."""
    deadline = time.monotonic() + 30
    while stored_count(engine, code) <= more_than:
        if time.monotonic() > deadline:
            raise AssertionError(f"the click's {what} was not stored")
        time.sleep(0.1)


SHELL = "[data-testid=board-shell]"


def board_token(page: Any) -> str:
    """The token of the position the board shows (the board shell's ``data-token``)."""
    return page.locator(SHELL).first.get_attribute("data-token") or ""


def wait_redrawn(page: Any, token: str) -> None:
    """Wait until the board shows another position than ``token``'s, one that takes an
    input (or the end). On a busy machine a run has stored an input before the board has
    its new data; a click on the old position carries the old token, which the app
    refuses as stale; and a position on the way (the computer's move still being shown,
    the board idle) takes no click either."""
    page.locator(f'{SHELL}:not([data-token="{token}"]):is(:not(.sh-idle), .sh-over)'
                 ).first.wait_for(timeout=60_000)


def wait_for_tester(engine: Engine, code: str) -> tuple[repo.GameRecord, Any]:
    """Poll the stored game until the tester (seat 0) is to move or the game is over:
    the computer answers in the run the tester's click started. The database is read ten
    times a second; the game is replayed only when it holds another number of actions."""
    record, state = stored_game(engine, code)
    deadline = time.monotonic() + 30
    while state.current_player() != 0 and not state.is_terminal():
        assert time.monotonic() < deadline, "the computer did not answer"
        time.sleep(0.1)
        if stored_count(engine, code) != len(record.actions):
            record, state = stored_game(engine, code)
    return record, state


def assert_completed(
    engine: Engine, code: str, shown: str, game: str,
) -> tuple[repo.GameRecord, Any, list[tuple[str, dict[str, Any]]]]:
    """The tester finished: stage ``done`` with the code the page showed, one finished
    ``game`` that replays to its end, every page of the study seen once in order, and a
    ``game_end`` event carrying the stored record. Returns the record, its final state
    and the tester's events for the game's own checks."""
    participant = repo.get_participant(engine, code)
    assert participant is not None and participant.stage == "done"
    assert participant.completion_code == shown
    record, state = stored_game(engine, code)
    assert record.game == game and record.finished and state.is_terminal()
    events = stored_events(engine, code)
    assert [p["page"] for t, p in events if t == "page"] == STUDY_PAGES
    (end,) = [p for t, p in events if t == "game_end"]
    assert end["record"] == [list(a) for a in record.actions]
    return record, state, events


def labels_cut(page: Any, scope: str) -> list[str]:
    """Buttons under ``scope`` whose label is cut (wider than the button shows) or that
    stick out of their column, dialog or page."""
    cut: list[str] = page.eval_on_selector_all(
        f"{scope} button[data-testid^=stBaseButton]",
        """els => els.filter(b => b.offsetParent !== null).flatMap(b => {
             const inner = [b, ...b.querySelectorAll('p, span, div')];
             const cut = inner.some(e => e.scrollWidth > e.clientWidth + 1);
             const box = b.closest('[data-testid=stColumn], [role=dialog], [data-testid=stMain]');
             const r = b.getBoundingClientRect(), o = box.getBoundingClientRect();
             const out = r.left < o.left - 1 || r.right > o.right + 1;
             return cut || out ? [b.innerText] : [];
           })""")
    return cut


def new_player_at_play(engine: Engine, study_id: str) -> str:
    """A new adult tester of ``study_id`` who consented and is at play (the surveys
    before it passed): their code, for a page opened at ``?p=<code>``."""
    study = repo.get_study(engine, study_id)
    assert study is not None
    code = services.consent(engine, study, {"child": False}).participant_id
    repo.advance_stage(engine, code, "consent", "pre_survey")
    repo.advance_stage(engine, code, "pre_survey", "play")
    return code


def rules_open_and_close(page: Any) -> None:
    """Open the Rules dialog beside the board, see it teach (its title and a picture of
    the game's own board), close it and wait until the board takes input again: the
    whole-game tests do this once mid-game (issue 23: "the Rules overlay opens and
    closes"). On the way, what a browser shows at the page's size: no button label of
    the page or the dialog is cut, the dialog opens in view (nothing off the sides, its
    top in the upper half), the board is idle while it is open, and the picture is in
    view with no turn line (a position, not a game being played). Every game's dialogs
    at the sizes no whole game is played at: test_every_game_dialogs_seen.py."""
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    assert labels_cut(page, "[data-testid=stMain]") == []
    page.get_by_role("button", name="Rules").click()
    dialog = page.get_by_role("dialog")
    dialog.wait_for()
    assert "How to play" in dialog.inner_text()
    picture = dialog.locator("[data-testid=board-shell].sh-picture").first
    picture.wait_for(timeout=30_000)
    # the game waits while the tester reads: its board takes no input
    page.locator("[data-testid=board-shell].sh-idle:not(.sh-picture)").wait_for(
        timeout=30_000)
    settle(page)
    box = dialog.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box
    assert 0 <= box["y"] < height / 2, box
    assert labels_cut(page, "[role=dialog]") == []
    shown = picture.bounding_box()
    assert shown is not None and shown["x"] >= 0 and shown["x"] + shown["width"] <= width + 0.5
    turns = dialog.locator("[data-testid=board-shell].sh-picture [data-role=turn]")
    assert [t for t in turns.all_inner_texts() if t.strip()] == []
    dialog.get_by_role("button", name="Back to the game").click()
    dialog.wait_for(state="detached")
    settle(page)
    page.locator("[data-testid=board-shell]:not(.sh-idle):not(.sh-picture)").wait_for(
        timeout=30_000)


def morris_board_on_screen(page: Any) -> None:
    """Bricks & Walls: every point of the board and the message above it are on the
    page's screen, as the page is scrolled now (the board once stuck out at the bottom of
    1280x800 as a game started)."""
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    points = page.locator("[data-testid=morris-board] .pt")
    expect(points).to_have_count(24)
    drawn(page)
    message = page.locator("[data-testid=morris-board] .mb-msg")
    expect(message).to_be_visible()
    boxes = [point.bounding_box() for point in points.all()]
    assert all(box is not None for box in boxes)
    below = [b for b in boxes if b and b["y"] + b["height"] > height]
    beside = [b for b in boxes if b and (b["x"] < 0 or b["x"] + b["width"] > width)]
    assert below == [] and beside == [], (below, beside)
    top = message.bounding_box()
    assert top is not None and top["y"] >= 0  # the message above it is on screen too


def vasco_computer_announced(page: Any, record: repo.GameRecord, stored: int) -> None:
    """Vasco: when the computer answered the tester's tile (the record holds two more
    actions than ``stored``), the board announced its tile (``data-announced``, set while
    the board holds input back and shows the computer's words) and marks that tile as the
    computer's, once the answer has been played out."""
    if len(record.actions) < stored + 2:
        return  # the tester's tile ended the game
    _kind, (r, c), _tiles = record.actions[-1]
    board = "[data-testid=vasco-board]"
    page.locator(f'{board}[data-announced="{r},{c}"]:not([data-playing="1"])').wait_for(
        timeout=30_000)
    mark = page.locator(f'{board} .vt[data-cell="{r},{c}"][data-origin=computer]')
    assert mark.count() == 1, f"the computer's tile {r},{c} is not marked as its own"
