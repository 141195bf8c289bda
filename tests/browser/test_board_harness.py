"""Vapoosh!'s board in real Chromium, through the board harness
(benchmarks/board_harness_app.py: the board shell, ``playtest/board/static/shell.js``, with
Vapoosh's renderer, ``playtest/games/vapoosh/static/render.js``, on the one game session).

The harness plays a real game of the seed it is given (the dice are the seed's draws, the
computer moves at once): a test keeps its own game of the same seed (:class:`Mine`, a game
session recording instead of storing) to know the dice, the options and the computer's
replies, and compares the board in the browser with the view Python makes of it. Every
input that reached Python is the harness's first text line (``inputs=N actions=M
last=<kind> target=… via=… nonce=…``), what the gate dropped its second.
"""

from __future__ import annotations

import re
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest

from playtest.board.component import PROJECT_NAME, SHELL
from playtest.board.component import STATIC_DIR as SHELL_DIR
from playtest.board.protocol import position_token
from playtest.board.sounds import cue_notes
from playtest.demo import EventRecorder
from playtest.games.registry import game_plugin
from playtest.games.vapoosh.view import default_label
from playtest.session import GameSession, Play

pytestmark = pytest.mark.browser

HARNESS = "benchmarks/board_harness_app.py"
SEED = 7
#: The harness's game: Vapoosh! of seed SEED (its default rules, the computer at easy).
GAME = f"?game=vapoosh&seed={SEED}&seats=human,ai:easy"
BOARD = ".st-key-board [data-testid=vapoosh-board]"
TILES = f"{BOARD} button.tile"
SHELL_ROOT = ".st-key-board [data-testid=board-shell]"
MESSAGE = f"{BOARD} [data-role=message]"
LOG = ".st-key-harness_log [data-testid=stText]"
ROLL = "Roll the dice"


class Mine:
    """The test's own game: what the harness plays (the same plug-in, seats, seed, rules
    and settings), its records kept in a list."""

    def __init__(self, seats: tuple[str, ...] = ("human", "ai:easy"), *,
                 highlight: bool = False) -> None:
        self.plugin = game_plugin("vapoosh")
        self.play = Play.new(self.plugin, game_id="harness", participant_id="harness",
                             seats=seats, seed=SEED, rules=self.plugin.default_rules)
        records: list[dict[str, Any]] = []
        self.session = GameSession(
            self.plugin, self.play,
            EventRecorder(records, "harness", "harness", [0.0], [0], "harness"),
            settings={"highlight_options": highlight, "show_computer_dice": True,
                      "speed": 2})
        self.session.start()

    @property
    def token(self) -> str:
        return position_token(self.play.game_id, len(self.play.actions))

    def roll(self) -> list[int]:
        """The tester's roll: the options' tile indexes."""
        assert self.session.draw()
        return [(r - 1) * 12 + (c - 1) for c, r in self.play.state.options]

    def click(self, index: int) -> None:
        self.session.click(f"{index % 12 + 1},{index // 12 + 1}")

    def view(self) -> dict[str, Any]:
        assert self.plugin.view is not None
        return self.plugin.view(self.session.moment(
            interactive=self.session.tester_to_act, extra={"zoom": True}))


@pytest.fixture(scope="module")
def harness(streamlit_app: Callable[..., Any]) -> Any:
    """The module's harness server (each test's state is its page's query)."""
    return streamlit_app(HARNESS)


def _open(new_page: Callable[..., Any], harness: Any, query: str = "", **kw: Any) -> Any:
    page = new_page(harness, GAME + (f"&{query}" if query else ""), **kw)
    page.locator(TILES).nth(143).wait_for()
    return page


def _inputs(page: Any, n: int) -> str:
    """Wait until n inputs have reached Python; return the harness's line about them."""
    line = page.locator(LOG).filter(has_text=re.compile(rf"^inputs={n} "))
    line.wait_for()
    text: str = line.inner_text()
    return text


def _shows(page: Any, mine: Mine) -> None:
    """Wait until the board shows the position of the test's own game."""
    page.locator(f"{SHELL_ROOT}[data-token='{mine.token}']").wait_for()


def _roll(page: Any, mine: Mine, inputs: int, *, tap: bool = False) -> list[int]:
    """Press Roll (the ``inputs``-th input); wait for the rolled board; the options."""
    button = page.get_by_role("button", name=ROLL)
    button.tap() if tap else button.click()
    _inputs(page, inputs)
    options = mine.roll()
    _shows(page, mine)
    page.locator(f"{BOARD} .die").nth(3).wait_for()
    return options


def test_board_shows_144_numbered_tiles_with_headers(
    new_page: Callable[..., Any], harness: Any, screenshot: Callable[..., Any]
) -> None:
    """The grid, its headers and each tile's accessible name and marks equal Python's
    view of the same game (after a roll, the tester's counter and the computer's reply:
    the harness now plays a real game, so no tile starts captured; the glow a tile shows
    is whatever the view says)."""
    page = _open(new_page, harness)
    tiles = page.locator(TILES)
    assert tiles.count() == 144
    numbers = tiles.all_inner_texts()
    assert numbers == [str(c * r) for r in range(1, 13) for c in range(1, 13)]
    assert page.locator(f"{BOARD} [role=columnheader]").all_inner_texts() == [
        str(i) for i in range(1, 13)
    ]
    assert page.locator(f"{BOARD} [role=rowheader]").all_inner_texts() == [
        str(i) for i in range(1, 13)
    ]
    mine = Mine()
    options = _roll(page, mine, 1)
    tiles.nth(options[0]).click()
    _inputs(page, 2)
    mine.click(options[0])
    _shows(page, mine)
    view = mine.view()
    assert view["glow"], "the computer's reply marks its tile"
    # every tile's name and marks are the view's (empty tiles: the default name)
    shown = tiles.evaluate_all(
        "els => els.map(e => [e.className.split(' '), e.getAttribute('aria-label')])")
    for i, (classes, label) in enumerate(shown):
        c, r = i % 12 + 1, i // 12 + 1
        assert label == view["labels"].get(str(i), default_label(c, r)), i
        marks = {k for k in classes if re.fullmatch(r"o\d|g-.+|sq", k)}
        want = {f"o{'.1234B'.index(view['owners'][i])}"}
        want |= {f"g-{view['glow'][str(i)]}"} if str(i) in view["glow"] else set()
        want |= {"sq"} if int((c * r) ** 0.5) ** 2 == c * r else set()
        assert marks == want, (i, classes)
    # names say column, row, number and owner; the computer's move is marked
    assert tiles.nth(options[0]).get_attribute("aria-label") == (
        f"column {options[0] % 12 + 1}, row {options[0] // 12 + 1}, "
        f"{(options[0] % 12 + 1) * (options[0] // 12 + 1)}, yours, blue circle")
    computer = int(next(iter(view["glow"])))
    assert view["glow"][str(computer)] == "computer"
    label = tiles.nth(computer).get_attribute("aria-label") or ""
    assert "orange square" in label and label.endswith("the computer's move")
    # perfect squares glow; 40 does not
    assert "sq" in (tiles.nth(6 * 12 + 6).get_attribute("class") or "")  # 7 x 7
    assert "sq" not in (tiles.nth(7 * 12 + 4).get_attribute("class") or "")  # 5 x 8
    # one tab stop in the grid; one live region for the board's messages
    assert page.locator(f"{TILES}[tabindex='0']").count() == 1
    assert page.locator(f"{SHELL_ROOT} [role=status][aria-live=polite]").count() == 1
    screenshot(page, "board-desktop")


def test_board_is_drawn_from_the_packaged_module(
    new_page: Callable[..., Any], harness: Any
) -> None:
    """The shell's code and style and Vapoosh's renderer, markup and style are fetched
    from their asset routes, which serve the packaged files themselves (the sound cues
    now come with the view's data: no cue file is fetched)."""
    page = _open(new_page, harness)
    plugin = game_plugin("vapoosh")
    assert plugin.board is not None
    loaded = page.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name)")
    files = [(SHELL, SHELL_DIR, name) for name in ("shell.js", "shell.css")] + [
        ("vapoosh", plugin.board.static_dir, name)
        for name in (plugin.board.script, "board.css", "board.html")]
    for component, folder, name in files:
        url = f"{harness.url}/_stcore/bidi-components/{PROJECT_NAME}.{component}/{name}"
        # the browser fetched it from the asset route ...
        assert url in loaded, (url, loaded)
        # ... and the route serves the real file (the page has no other copy of it)
        with urllib.request.urlopen(url, timeout=10) as resp:
            assert resp.status == 200
            if name.endswith(".js"):
                assert "javascript" in resp.headers["Content-Type"]
            assert resp.read().decode() == (folder / name).read_text(encoding="utf-8")
    # the renderer's style is the one <style> the shell puts in the board: styled tiles
    assert page.locator(f"{SHELL_ROOT} style").count() == 1
    assert page.locator(TILES).first.evaluate("(b) => getComputedStyle(b).cursor") == "pointer"
    page.locator(TILES).nth(30).click()  # and its event wiring works
    assert "last=click target=7,3 " in _inputs(page, 1)


def test_click_reaches_python_with_a_fresh_nonce_each_time(
    new_page: Callable[..., Any], harness: Any
) -> None:
    page = _open(new_page, harness, "seats=human,human")
    mine = Mine(("human", "human"))
    options = _roll(page, mine, 1)
    target = options[0]
    c, r = target % 12 + 1, target // 12 + 1
    page.locator(TILES).nth(target).click()
    first = _inputs(page, 2)
    assert f"last=click target={c},{r} " in first and "via=mouse" in first
    # Python placed it: the counter is drawn as player 1's shape, marked as just placed,
    # and the answer is announced in the live region
    mine.click(target)
    _shows(page, mine)
    page.locator(f"{TILES}.o1.g-placed[data-index='{target}']").wait_for()
    page.locator(f"{MESSAGE}[role=status]", has_text=f"Well done! {c * r} is yours.").wait_for()
    page.locator(TILES).nth(5).click()  # Orange's roll is due: Python gets it, stores nothing
    second = _inputs(page, 3)
    assert "last=click target=6,1 " in second
    nonce = re.compile(r"nonce=([0-9a-f-]{16,})")
    assert nonce.search(first).group(1) != nonce.search(second).group(1)  # type: ignore[union-attr]
    assert f"actions={len(mine.play.actions)} " in second


class LosesOne:
    """Routes a page's Streamlit WebSocket through the test: once :meth:`arm` is called,
    the next message from the page to the server is lost on the way (as a trigger can be,
    by a dropped connection or a rerun that swallowed it); every other goes through."""

    def __init__(self) -> None:
        self.armed = False
        self.lost = 0

    def route(self, page: Any) -> None:
        def handler(ws: Any) -> None:
            server = ws.connect_to_server()

            def from_page(message: str | bytes) -> None:
                if self.armed:
                    self.armed, self.lost = False, self.lost + 1
                    return
                server.send(message)

            ws.on_message(from_page)

        page.route_web_socket(re.compile(r"/_stcore/stream"), handler)

    def arm(self) -> None:
        self.armed = True


def test_an_input_lost_on_the_way_is_sent_again_and_counted_once(
    new_page: Callable[..., Any], harness: Any
) -> None:
    wire = LosesOne()
    page = new_page(harness, GAME + "&seats=human,human", before=wire.route)
    page.locator(TILES).nth(143).wait_for()
    mine = Mine(("human", "human"))
    wire.arm()
    page.get_by_role("button", name=ROLL).click()
    # the roll's trigger never reached Python; the shell sends it again by itself, and
    # Python takes it once
    line = _inputs(page, 1)
    assert wire.lost == 1 and "last=draw " in line
    assert page.locator(SHELL_ROOT).get_attribute("data-resent") == "1"
    options = mine.roll()
    _shows(page, mine)
    assert f"actions={len(mine.play.actions)} " in line
    # a lost move: placed once, after the shell's second try
    wire.arm()
    page.locator(TILES).nth(options[0]).click()
    line = _inputs(page, 2)
    assert wire.lost == 2 and "last=click " in line
    mine.click(options[0])
    _shows(page, mine)
    assert f"actions={len(mine.play.actions)} " in line


def test_roll_button_shows_four_dice_and_hides_until_next_turn(
    new_page: Callable[..., Any], harness: Any
) -> None:
    """The dice are the seed's draw and the options the engine's. (The sums beside the
    dice, "pink 7, green 5", are drawn only when a view asks, and no game's view asks:
    the test checks they are not shown.)"""
    page = _open(new_page, harness)
    roll = page.get_by_role("button", name=ROLL)
    assert roll.is_visible()
    mine = Mine()
    options = _roll(page, mine, 1)
    dice = page.locator(f"{BOARD} .die")
    assert dice.count() == 4
    labels = [dice.nth(i).get_attribute("aria-label") or "" for i in range(4)]
    assert [lab.split()[0] for lab in labels] == ["pink", "pink", "green", "green"]
    values = [int(lab.split()[-1]) for lab in labels]
    assert tuple(values) == mine.play.state.dice
    p, g = values[0] + values[1], values[2] + values[3]
    assert sorted(options) == sorted({(g - 1) * 12 + (p - 1), (p - 1) * 12 + (g - 1)})
    assert page.locator(f"{BOARD} .vb-sums").inner_text() == ""
    assert page.locator(f"{BOARD} .vb-dice-by").inner_text() == "You rolled:"
    page.locator(f"{BOARD} button.vb-roll").wait_for(state="hidden")
    # the tester places; the computer rolls and places; the tester's next turn: Roll again
    page.locator(TILES).nth(options[0]).click()
    _inputs(page, 2)
    mine.click(options[0])
    _shows(page, mine)
    page.locator(f"{BOARD} button.vb-roll").wait_for(state="visible")
    assert page.locator(f"{BOARD} .vb-dice-by").inner_text() == "The computer rolled:"


def test_keyboard_arrows_move_one_tab_stop_and_enter_clicks(
    new_page: Callable[..., Any], harness: Any
) -> None:
    """Arrow keys are the shell's (every game's board): one tab stop moves between tiles;
    Enter and Space press the focused tile, sent as a keyboard input."""
    page = _open(new_page, harness)
    _roll(page, Mine(), 1)
    page.locator(TILES).nth(0).focus()
    for key in ("ArrowRight", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowDown"):
        page.keyboard.press(key)
    # (2, 3) after right, right, down, left, down from (1, 1): index (3-1)*12 + (2-1) = 25
    assert page.locator(TILES).nth(25).evaluate("e => e.getRootNode().activeElement === e")
    assert page.locator(f"{TILES}[tabindex='0']").count() == 1
    assert page.locator(TILES).nth(25).get_attribute("tabindex") == "0"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    line = _inputs(page, 2)
    assert "last=click target=2,2 " in line and "via=keyboard" in line
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    line = _inputs(page, 3)
    assert "last=click target=3,2 " in line and "via=keyboard" in line


def test_options_are_highlighted_only_when_the_view_asks(
    new_page: Callable[..., Any], harness: Any, screenshot: Callable[..., Any]
) -> None:
    plain = _open(new_page, harness)
    _roll(plain, Mine(), 1)
    assert plain.locator(f"{TILES}.hl").count() == 0

    lit = _open(new_page, harness, "highlight=1")
    options = _roll(lit, Mine(highlight=True), 1)
    lit.locator(f"{TILES}.hl").first.wait_for()
    shown = [
        int(x)
        for x in lit.locator(f"{TILES}.hl").evaluate_all("els => els.map(e => e.dataset.index)")
    ]
    assert sorted(shown) == sorted(options)
    assert "a rolled option" in (
        lit.locator(TILES).nth(options[0]).get_attribute("aria-label") or ""
    )
    screenshot(lit, "board-highlighted-options")


def test_phone_width_has_no_horizontal_scroll_and_taps_work(
    new_page: Callable[..., Any], harness: Any, screenshot: Callable[..., Any]
) -> None:
    """At 360 px a tap on a small tile opens the magnifier (the renderer's, since the
    shell); the tap on the tile there is the click, sent as a touch."""
    page = _open(new_page, harness, width=360, height=780, is_mobile=True, has_touch=True,
                 device_scale_factor=2)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    mine = Mine()
    options = _roll(page, mine, 1, tap=True)
    box = page.locator(TILES).nth(143).bounding_box()
    assert box is not None and box["x"] + box["width"] <= 360
    assert box["width"] >= 18  # still a tappable tile, not crushed
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "board-phone-360-dice")
    target = options[0]
    page.locator(TILES).nth(target).tap()
    zoomed = page.locator(f"{BOARD} .vb-zoom button.tile[data-index='{target}']")
    zoomed.wait_for()
    assert page.locator(BOARD).get_attribute("data-zoom") == str(target)
    assert page.locator(LOG).first.inner_text().startswith("inputs=1 ")  # not a click yet
    zoomed.tap()
    tapped = _inputs(page, 2)
    assert f"last=click target={target % 12 + 1},{target // 12 + 1} " in tapped
    assert "via=touch" in tapped
    mine.click(target)
    _shows(page, mine)
    page.locator(f"{TILES}.o1[data-index='{target}']").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "board-phone-360")


def test_not_interactive_board_ignores_clicks_and_hides_roll(
    new_page: Callable[..., Any], harness: Any
) -> None:
    """``interactive=0`` is the play page's pause (a dialog open): the board takes no input
    but the sound button (the shell's) still works."""
    page = _open(new_page, harness, "interactive=0")
    assert page.locator(f"{BOARD} button.vb-roll").is_hidden()
    assert page.locator(TILES).nth(30).get_attribute("aria-disabled") == "true"
    page.locator(TILES).nth(30).click(force=True)  # aria-disabled: Playwright would wait
    page.locator(TILES).nth(31).click(force=True)
    # a later mute input does reach Python, so the two clicks before it were dropped
    page.get_by_role("button", name=re.compile("Sound is on")).click()
    line = _inputs(page, 1)
    assert "last=mute " in line and "value=True" in line
    # the browser itself ignored them: none reached the server-side gate
    assert "'not_interactive': 0" in page.locator(LOG).filter(has_text="dropped=").inner_text()


#: Counts the sound voices the page starts (every WebAudio oscillator or noise buffer).
COUNT_VOICES = """
window.__voices = 0;
for (const kind of [AudioScheduledSourceNode, AudioBufferSourceNode]) {
  if (!Object.prototype.hasOwnProperty.call(kind.prototype, "start")) continue;
  const start = kind.prototype.start;
  kind.prototype.start = function (...args) {
    window.__voices += 1;
    return start.apply(this, args);
  };
}
"""


def test_sound_cue_plays_once_per_event_and_mute_silences_it(
    new_page: Callable[..., Any], harness: Any
) -> None:
    """The shell plays every game's cues (from the notes the message carries): each new
    message's cue once, all its voices started by WebAudio, none again on a rerun that
    says nothing new; muted, none."""
    page = _open(new_page, harness)
    page.add_init_script(COUNT_VOICES)
    page.reload()
    page.locator(TILES).nth(143).wait_for()
    shell = page.locator(SHELL_ROOT)
    mine = Mine()
    options = _roll(page, mine, 1)
    roll_cue = mine.play.shown[0].sound
    assert roll_cue is not None
    page.locator(f"{SHELL_ROOT}[data-last-sound^='{roll_cue}:']").wait_for()
    notes = cue_notes(roll_cue)
    assert notes is not None
    assert shell.get_attribute("data-sound-voices") == str(len(notes))
    assert page.evaluate("window.__voices") == len(notes)
    page.locator(TILES).nth(options[0]).click()
    _inputs(page, 2)
    mine.click(options[0])
    _shows(page, mine)
    place_cue = mine.play.shown[0].sound
    assert place_cue is not None
    page.locator(f"{SHELL_ROOT}[data-last-sound^='{place_cue}:']").wait_for()
    place_notes = cue_notes(place_cue)
    assert place_notes is not None
    assert page.evaluate("window.__voices") == len(notes) + len(place_notes)
    played = shell.get_attribute("data-last-sound")
    # muting reruns the board with the same message: its cue does not play again
    page.get_by_role("button", name=re.compile("Sound is on")).click()
    _inputs(page, 3)
    page.get_by_role("button", name=re.compile("Sound is off")).wait_for()
    # muted, the next event's cue is silent
    mine.roll()
    page.get_by_role("button", name=ROLL).click()
    _inputs(page, 4)
    _shows(page, mine)
    page.locator(f"{BOARD} button.vb-roll").wait_for(state="hidden")
    assert page.locator(MESSAGE).inner_text() == mine.play.shown[0].text
    assert shell.get_attribute("data-last-sound") == played
    assert page.evaluate("window.__voices") == len(notes) + len(place_notes)
