"""The game as a child plays it (issue 10, items 1-6), in Debian's Chromium at 1280×800
and on a 360×740 touch phone. Screenshots go to artifacts/screenshots/play-ux-*.png.

The tests that look at a game's end play its last turns only: the tester's game is
started as the app starts one and played by the engine, stored as the app stores it, to
a few of the tester's turns before its end; the page resumes it. A whole game in the
browser is test_tester_e2e.py's.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine
from study_flow import labels_cut, new_player_at_play, rules_open_and_close, stored_events

from playtest import services
from playtest.demo import EventRecorder
from playtest.demo_play import click_paths
from playtest.games.registry import game_plugin
from playtest.games.vapoosh.cues import STICKY_KEYS
from playtest.games.vapoosh.plugin import dice_for
from playtest.messages import SPEEDS
from playtest.session import GameSession, Next, Play
from playtest.session.store import open_session
from playtest.storage import repository as repo
from playtest.storage.db import make_engine, upgrade
from playtest.storage.events import EventLogger
from playtest.storage.models import EventRow
from playtest.study_config import StudyConfig

pytestmark = pytest.mark.browser

APP = "playtest/app.py"
WIDE = {"width": 1280, "height": 800}
TABLET = {"width": 1000, "height": 760}  # the side column is at its narrowest here
PHONE = {"width": 360, "height": 740, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}


@pytest.fixture(scope="module")
def app_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Engine]:
    url = f"sqlite:///{tmp_path_factory.mktemp('ux') / 'playtest.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    common: dict[str, Any] = {"games_per_tester": 1, "allow_more_games": True,
                              "audience": "adults", "speed": 3}
    services.create_study(engine, title="UX think", study_id="ux-think", config=StudyConfig(
        seats=["human", "ai:easy"], ai_think_ms=1200, highlight_options=True, **common))
    services.create_study(engine, title="UX fast", study_id="ux-fast", config=StudyConfig(
        seats=["human", "ai:easy"], ai_think_ms=0, highlight_options=True, **common))
    return url, engine


@pytest.fixture(scope="module")
def app(streamlit_app: Callable[..., Any], app_db: tuple[str, Engine]) -> Any:
    return streamlit_app(APP, {"DATABASE_URL": app_db[0]})


def _events(engine: Engine, code: str, kind: str) -> list[dict[str, Any]]:
    table = EventRow.__table__  # type: ignore[attr-defined]
    with engine.connect() as conn:
        rows = conn.execute(select(table.c.props).where(table.c.participant_id == code)
                            .where(table.c.type == kind).order_by(table.c.event_id)).all()
    return [r.props for r in rows]


def _settle(page: Any) -> None:
    page.locator("[data-testid=stApp][data-test-script-state=notRunning]"
                 "[data-test-connection-state=CONNECTED]").wait_for(timeout=30_000)


def _open(new_page: Callable[..., Any], app: Any, code: str, size: dict[str, Any]) -> Any:
    page = new_page(app, f"?p={code}", **size)
    page.locator(".vb[data-token][data-phase]").wait_for(timeout=30_000)
    _settle(page)
    return page


def _vb(page: Any) -> Any:
    return page.locator(".vb")


def _shell(page: Any) -> Any:
    """The board shell around the board: it keeps the last sound it played."""
    return page.locator("[data-testid=board-shell]")


def _mark(page: Any) -> tuple[str, str]:
    return (_vb(page).get_attribute("data-token") or "",
            _shell(page).get_attribute("data-last-sound") or "")


def _wait_change(page: Any, before: tuple[str, str]) -> None:
    page.wait_for_function(
        "([el, sh, t, s]) => (el.dataset.token ?? '') !== t || "
        "(sh.dataset.lastSound ?? '') !== s",
        arg=[_vb(page).element_handle(), _shell(page).element_handle(), before[0], before[1]],
        timeout=30_000, polling=100)
    _settle(page)


def _options(page: Any) -> list[int]:
    return [int(i) for i in page.eval_on_selector_all(
        ".vb-grid button.tile.hl", "els => els.map(e => e.dataset.index)")]


def _box(locator: Any) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None
    return dict(box)


def _in_view(box: dict[str, float], size: dict[str, Any]) -> bool:
    return (box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5
            and box["y"] + box["height"] <= size["height"] + 0.5)


# -- 1. the computer's roll, then its move ------------------------------------------------


def test_the_computer_shows_its_roll_then_places_with_a_glow_and_one_line(
    new_page: Callable[..., Any], app: Any, app_db: tuple[str, Engine],
    screenshot: Callable[[Any, str], Path],
) -> None:
    engine = app_db[1]
    code = new_player_at_play(engine, "ux-think")
    page = _open(new_page, app, code, WIDE)
    seen = 0
    roll = page.get_by_role("button", name="Roll the dice")
    over = page.locator(".vb[data-phase=over]")
    for _ in range(8):
        if seen == 2 or over.count():
            break
        mark = _mark(page)
        roll.click()
        # Any roll the dice give: options to place, a blocked roll (the computer's turn
        # follows) or four sixes (the game is over).
        _wait_change(page, mark)
        if over.count():
            break
        for index in _options(page):
            mark = _mark(page)
            page.locator(f".vb-grid button.tile[data-index='{index}']").click()
            _wait_change(page, mark)
            if not page.locator(".vb-grid button.tile.hl").count():
                break
        # the computer's roll comes first, on screen with its dice and nothing placed yet
        computer_rolled = page.locator(".vb-dice-by", has_text="The computer rolled:")
        computer_rolled.or_(roll).or_(over).first.wait_for(timeout=30_000)
        if not computer_rolled.count():
            continue  # a square roll (the tester's extra go) or the end of the game
        turn = seen
        rolled = [int(v) for v in page.eval_on_selector_all(
            ".vb-dicebar .die", "els => els.map(e => e.dataset.value)")]
        assert len(rolled) == 4
        p, g = rolled[0] + rolled[1], rolled[2] + rolled[3]
        if turn == 0:
            screenshot(page, "play-ux-1-computer-rolled-1280")
        # then its counter, with a glow and the one line naming the same dice
        line = f"The computer rolled {p} and {g}: {p} × {g} = {p * g}."
        msg = page.locator(".vb-msg", has_text=line)
        # The move, its glow and its line come in one render; a blocked roll, an extra go
        # or the computer's win say something else, and the tester's turn (or the end)
        # follows.
        msg.or_(roll).or_(over).first.wait_for(timeout=30_000)
        if not msg.count():
            continue
        seen += 1
        glowing = page.locator(".vb-grid button.tile.g-computer")
        assert glowing.count() >= 1
        assert int(glowing.first.inner_text()) == p * g
        assert page.locator(".vb-dice-by").inner_text() == "The computer rolled:"
        if turn == 0:
            screenshot(page, "play-ux-1-computer-moved-1280")
        # the log holds exactly what was shown: the roll and the message text
        rolls = [r for r in _events(engine, code, "roll") if r["seat"] == 2]
        assert rolls[-1]["dice"] == rolled
        shown = _events(engine, code, "message")
        assert any(m["text"] == line and m["key"] == "computer_moved" for m in shown)
        roll.or_(over).first.wait_for(timeout=30_000)
    assert seen >= 1


# -- 2 and 5. a game's last turns: the board fits, messages do not move it, the winner stays


def _computer_turn_shown(page: Any, engine: Engine, code: str, rolls_before: int) -> int:
    """When the computer has rolled since ``rolls_before`` (its roll events), its turn is
    on the board before the tester's next input: the message names the computer (see
    below) and, in
    a game that goes on, the tile it placed glows as the computer's (or as a capture, which
    outranks it). Returns its rolls."""
    rolls = _computer_rolls(engine, code)
    if rolls == rolls_before:
        return rolls  # the tester's extra go (a square roll): the computer did not play
    message = page.locator(".vb-msg").inner_text()
    # The message names the computer's move, unless the tester's own news of this turn
    # stays (a capture, an extra go: the board does not hide it behind the computer's
    # moves), and a computer's capture is said even then (cues.cue_to_show).
    events = stored_events(engine, code)
    mine = max(i for i, (kind, p) in enumerate(events)
               if kind in ("click", "roll") and p.get("seat") == 1)
    took = [kind for kind, p in events[mine:]
            if kind in ("capture", "surround_capture") and p.get("seat") == 2]
    shown = [p["key"] for kind, p in events if kind == "message"]
    assert "computer" in message.lower() or (not took and shown[-1] in STICKY_KEYS), message
    placed = [p for kind in ("place", "brown") for p in _events(engine, code, kind)
              if p["seat"] == 2]
    if placed and _vb(page).get_attribute("data-phase") != "over":
        glowing = page.locator(".vb-grid button.tile:is(.g-computer, .g-captured)")
        assert glowing.count() >= 1, message
    return rolls


#: The seed of a game started near its end (a game of 14 of the tester's turns).
SEED = 2


def _tester_turn(session: GameSession) -> None:
    """The engine plays one of the tester's turns as the test's clicks would: a roll, then
    the highlighted tile of the lowest number while the roll places more."""
    assert session.draw()
    while session.next() is Next.TESTER:
        paths = click_paths(session.play.state)
        action = min(paths, key=lambda a: [int(t) if t.isdigit() else 1_000
                                           for t in paths[a]])
        for target in paths[action]:
            session.click(target)


def _near_the_end(engine: Engine, code: str, turns_left: int) -> None:
    """The tester's game (seed :data:`SEED`), stored as the app stores it and played by
    the engine to ``turns_left`` of the tester's turns before the end a dry run of the
    same game reaches; the page then resumes it."""
    tester = services.load_tester(engine, code)
    assert tester is not None
    plugin = game_plugin(tester.config.game)
    seats = list(tester.effective.seats)
    dry = GameSession(plugin, Play.new(plugin, game_id="dry", participant_id=code,
                                       seats=seats, seed=SEED, rules=tester.effective.rules),
                      EventRecorder([], code, "dry", [0.0], [0], "dry"))
    dry.start()
    turns = 0
    while not dry.play.over:
        _tester_turn(dry)
        turns += 1
        assert turns < 200
    session = open_session(engine, EventLogger(engine), tester,
                           repo.start_session(engine, code), seed=SEED)
    assert session.play.rules == dry.play.rules
    for _ in range(turns - turns_left):
        _tester_turn(session)
    assert not session.play.over


def _computer_rolls(engine: Engine, code: str) -> int:
    return len([r for r in _events(engine, code, "roll") if r["seat"] == 2])


def _play_wide_game(page: Any, engine: Engine, code: str) -> list[float]:
    """Play to the end with the mouse, opening the Rules once; the board's top after each
    answer. After each of the tester's turns the computer's is on the board."""
    tops: list[float] = []
    computer_rolls = _computer_rolls(engine, code)  # before the page: none of its news
    for turn in range(200):
        if _vb(page).get_attribute("data-phase") == "over":
            break
        computer_rolls = _computer_turn_shown(page, engine, code, computer_rolls)
        if turn == 1:
            rules_open_and_close(page)
        mark = _mark(page)
        page.get_by_role("button", name="Roll the dice").click()
        _wait_change(page, mark)
        tops.append(_box(page.locator(".vb-grid"))["y"])
        assert _chips_covering_options(page) == []
        for index in _options(page):
            mark = _mark(page)
            page.locator(f".vb-grid button.tile[data-index='{index}']").click()
            _wait_change(page, mark)
            tops.append(_box(page.locator(".vb-grid"))["y"])
            if not page.locator(".vb-grid button.tile.hl").count():
                break
        if _vb(page).get_attribute("data-phase") == "place" and \
                page.locator(".vb-grid button.vb-brown").count():
            # Three sixes and only the tester's own tiles: only a brown counter fits.
            mark = _mark(page)
            page.locator(".vb-grid button.vb-brown").first.click()
            _wait_change(page, mark)
            tops.append(_box(page.locator(".vb-grid"))["y"])
    _computer_turn_shown(page, engine, code, computer_rolls)
    return tops


def test_at_1280_the_board_and_controls_fit_and_the_winner_stays(
    new_page: Callable[..., Any], app: Any, app_db: tuple[str, Engine],
    screenshot: Callable[[Any, str], Path],
) -> None:
    engine = app_db[1]
    code = new_player_at_play(engine, "ux-fast")
    _near_the_end(engine, code, 3)
    page = _open(new_page, app, code, WIDE)
    screenshot(page, "play-ux-5-board-1280")
    # the whole board and its controls are in the window, the controls beside the board
    board = _box(page.locator(".vb-board"))
    assert _in_view(board, WIDE)
    for key in ("rules_button", "speed", "restart", "menu_button"):
        control = _box(page.locator(f".st-key-{key}"))
        assert _in_view(control, WIDE), key
        assert control["x"] >= board["x"] + board["width"], f"{key} is beside the board"
    top = _box(page.locator(".vb-grid"))["y"]
    tops = _play_wide_game(page, engine, code)
    # no message moved the board under the pointer
    assert tops and all(abs(t - top) < 0.5 for t in tops)
    assert _vb(page).get_attribute("data-phase") == "over"
    message = page.locator(".vb-msg").inner_text()
    assert re.search(r"\bwins?\b|draw", message), message  # four sixes: "wins straight away"
    # the result stays however long the tester looks at it: here for longer than the
    # study's message time (3 s at "fast"), which cleared it before
    page.wait_for_timeout(SPEEDS[3].message_ms + 1500)
    assert page.locator(".vb-msg").inner_text() == message
    winner = page.locator(".vb-turn-text").inner_text()
    assert winner in ("You won!", "The computer won!", "It's a draw")
    if "won" in winner and "VAPOOSH" not in message:
        assert page.locator(".vb-grid button.tile.g-win").count() == 4
    # ... and the way on is in view, without scrolling
    for name in ("Continue to the last questions", "Play another game"):
        assert _in_view(_box(page.get_by_role("button", name=name)), WIDE), name
    assert labels_cut(page, "[data-testid=stMain]") == []
    screenshot(page, "play-ux-2-winner-1280")


@pytest.mark.parametrize("size", [TABLET, PHONE], ids=["1000", "360"])
def test_on_smaller_screens_the_result_and_the_way_on_are_in_view(
    new_page: Callable[..., Any], app: Any, app_db: tuple[str, Engine],
    screenshot: Callable[[Any, str], Path], size: dict[str, Any],
) -> None:
    engine = app_db[1]
    code = new_player_at_play(engine, "ux-fast")
    _near_the_end(engine, code, 2)
    page = _open(new_page, app, code, size)
    _play_wide_game(page, engine, code)  # mouse clicks: no magnifier, a quick game
    assert _vb(page).get_attribute("data-phase") == "over"
    page.evaluate("window.scrollTo(0, 0)")
    assert _in_view(_box(page.locator(".vb-msg")), size)
    message = page.locator(".vb-msg").inner_text()
    assert re.search(r"\bwins?\b|draw", message), message  # the result and its reason
    for name in ("Continue to the last questions", "Play another game"):
        assert _in_view(_box(page.get_by_role("button", name=name)), size), name
    assert labels_cut(page, "[data-testid=stMain]") == []
    screenshot(page, f"play-ux-2-winner-{size['width']}")


# -- 5. on a phone: a tap lands on the tile the child meant ----------------------------------


def _tap(page: Any, box: dict[str, float], rng: random.Random) -> tuple[float, float]:
    x = box["x"] + box["width"] / 2 + rng.uniform(-6, 6)
    y = box["y"] + box["height"] / 2 + rng.uniform(-6, 6)
    page.touchscreen.tap(x, y)
    return x, y


def test_on_a_phone_every_jittered_tap_lands_on_the_intended_tile(
    new_page: Callable[..., Any], app: Any, app_db: tuple[str, Engine],
    screenshot: Callable[[Any, str], Path],
) -> None:
    engine = app_db[1]
    code = new_player_at_play(engine, "ux-fast")
    page = _open(new_page, app, code, PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    rng = random.Random(20261124)
    intended: list[tuple[int, int]] = []
    tops: list[float] = []
    top = _box(page.locator(".vb-grid"))["y"]
    shot = False
    for _ in range(24):
        if len(intended) >= 6:
            break
        if _vb(page).get_attribute("data-phase") == "over":
            # four sixes can end a game in its first turns: the taps go on in the next
            page.get_by_role("button", name="Play another game").tap()
            page.locator(".vb[data-token][data-phase=roll]").first.wait_for(timeout=30_000)
            _settle(page)
            page.evaluate("window.scrollTo(0, 0)")
            continue
        mark = _mark(page)
        page.get_by_role("button", name="Roll the dice").tap()
        _wait_change(page, mark)
        tops.append(_box(page.locator(".vb-grid"))["y"])
        assert _chips_covering_options(page) == []
        for index in _options(page):
            tile = page.locator(f".vb-grid button.tile[data-index='{index}']")
            small = _box(tile)
            assert small["width"] < 40  # too small to hit for sure: the magnifier opens
            _tap(page, small, rng)
            page.locator(".vb[data-zoom]").wait_for()
            zoomed = page.locator(f".vb-zoom button.tile[data-index='{index}']")
            big = _box(zoomed)
            assert big["width"] >= 44 and big["height"] >= 44
            if not shot:
                screenshot(page, "play-ux-5-phone-magnifier-360")
                shot = True
            mark = _mark(page)
            _tap(page, big, rng)
            intended.append((index % 12 + 1, index // 12 + 1))
            _wait_change(page, mark)
            tops.append(_box(page.locator(".vb-grid"))["y"])
            if not page.locator(".vb-grid button.tile.hl").count():
                break
    clicks = [(c["c"], c["r"]) for c in _events(engine, code, "click")]
    assert len(intended) >= 6
    assert clicks == intended  # every tap landed where the child meant, none elsewhere
    assert all(abs(t - top) < 0.5 for t in tops)  # messages never moved the board
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "play-ux-5-phone-360")


# -- 4. dialogs where people look, labels whole -----------------------------------------------


# -- 6. the brown counter on the board, next to its tiles ----------------------------------


def _chips_covering_options(page: Any) -> list[tuple[str, str]]:
    """(chip's tile, covered tile) for every Brown chip lying over another option tile.

    A tap on a covered option would put a brown counter on the chip's tile instead
    (seen at 360 px: the chip of tile 142 lay over option 131).
    """
    # the board lives in a shadow root: a locator reaches it, document.querySelector does not
    return page.locator(".vb-grid").evaluate("""(grid) => {
      const hit = [];
      for (const chip of grid.querySelectorAll('button.vb-brown')) {
        const a = chip.getBoundingClientRect();
        for (const t of grid.querySelectorAll('button.tile.hl')) {
          if (t.dataset.index === chip.dataset.index) continue;
          const b = t.getBoundingClientRect();
          if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
            hit.push([chip.dataset.index, t.dataset.index]);
        }
      }
      return hit;
    }""")


@pytest.mark.parametrize("size", [WIDE, PHONE], ids=["1280", "360"])
def test_the_brown_counter_choice_sits_beside_the_tiles_it_concerns(
    new_page: Callable[..., Any], app: Any, app_db: tuple[str, Engine],
    screenshot: Callable[[Any, str], Path], size: dict[str, Any],
) -> None:
    engine = app_db[1]
    code = new_player_at_play(engine, "ux-fast")
    tester = services.load_tester(engine, code)
    assert tester is not None
    seed = next(s for s in range(100_000) if sorted(dice_for(s, 0)).count(6) == 3)
    open_session(engine, EventLogger(engine), tester, repo.start_session(engine, code),
                 seed=seed)
    page = _open(new_page, app, code, size)
    phone = size is PHONE
    mark = _mark(page)
    roll = page.get_by_role("button", name="Roll the dice")
    roll.tap() if phone else roll.click()
    _wait_change(page, mark)
    chips = page.locator(".vb-grid button.vb-brown")
    assert chips.count() == 2
    for i in range(2):
        chip = chips.nth(i)
        index = chip.get_attribute("data-index")
        tile = _box(page.locator(f".vb-grid button.tile[data-index='{index}']"))
        box = _box(chip)
        # right above or below its tile, touching it, and inside the window
        assert box["x"] <= tile["x"] + tile["width"] and tile["x"] <= box["x"] + box["width"]
        above = tile["y"] - box["height"] <= box["y"] <= tile["y"] + 2
        below = tile["y"] + tile["height"] - 2 <= box["y"] <= tile["y"] + tile["height"]
        assert above or below
        assert _in_view(box, size)
    assert _chips_covering_options(page) == []
    name = str(size["width"])
    screenshot(page, f"play-ux-6-brown-choice-{name}")
    index = chips.first.get_attribute("data-index")
    if phone:
        # through the magnifier: the tile there has its own Brown button beside it
        tile = page.locator(f".vb-grid button.tile[data-index='{index}']")
        _tap(page, _box(tile), random.Random(7))
        page.locator(".vb[data-zoom]").wait_for()
        chip = page.locator(f".vb-zoom button.vb-brown[data-index='{index}']")
        zoomed = _box(page.locator(f".vb-zoom button.tile[data-index='{index}']"))
        box = _box(chip)
        middle = zoomed["y"] + zoomed["height"] / 2  # beside the tile, clear of a tap's ±6 px
        assert box["y"] + box["height"] <= middle - 12 or box["y"] >= middle + 12
        screenshot(page, "play-ux-6-brown-magnifier-360")
        mark = _mark(page)
        chip.tap()
    else:
        mark = _mark(page)
        chips.first.click()
    _wait_change(page, mark)
    page.locator(f".vb-grid button.tile.o5[data-index='{index}']").wait_for()
    click = _events(engine, code, "click")[-1]
    assert click["ok"] is True and click["brown"] is True
