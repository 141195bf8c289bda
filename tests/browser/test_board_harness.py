"""The board component in real Chromium, through benchmarks/board_harness_app.py."""

from __future__ import annotations

import re
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest

from playtest.board import sounds
from playtest.games.vapoosh.component import (
    BOARD_JS_FILE,
    COMPONENT_NAME,
    FRONT_END_FILES,
    STATIC_DIR,
)
from playtest.games.vapoosh.view import default_label

pytestmark = pytest.mark.browser

HARNESS = "benchmarks/board_harness_app.py"
TILES = ".st-key-board button.tile"
LOG = ".st-key-harness_log [data-testid=stText]"


@pytest.fixture(scope="module")
def harness(streamlit_app: Callable[..., Any]) -> Any:
    return streamlit_app(HARNESS)


def _open(new_page: Callable[..., Any], harness: Any, query: str = "", **kw: Any) -> Any:
    page = new_page(harness, f"?{query}" if query else "", **kw)
    page.locator(TILES).nth(143).wait_for()
    return page


def _wait_events(page: Any, n: int) -> str:
    """Wait until the harness has recorded n events; return its log line."""
    line = page.locator(LOG).filter(has_text=re.compile(rf"^events={n} "))
    line.wait_for()
    text: str = line.inner_text()
    return text


def _roll(page: Any) -> list[int]:
    before = int(re.search(r"events=(\d+)", page.locator(LOG).first.inner_text()).group(1))  # type: ignore[union-attr]
    page.get_by_role("button", name="Roll the dice").click()
    _wait_events(page, before + 1)
    page.locator(".st-key-board .die").nth(3).wait_for()  # the board has the new dice
    opts = page.locator(LOG).filter(has_text="options=[").inner_text()
    return [int(x) for x in re.findall(r"\d+", opts)]


def test_board_shows_144_numbered_tiles_with_headers(
    new_page: Callable[..., Any], harness: Any, screenshot: Callable[..., Any]
) -> None:
    page = _open(new_page, harness)
    tiles = page.locator(TILES)
    assert tiles.count() == 144
    numbers = tiles.all_inner_texts()
    assert numbers == [str(c * r) for r in range(1, 13) for c in range(1, 13)]
    assert page.locator(".st-key-board [role=columnheader]").all_inner_texts() == [
        str(i) for i in range(1, 13)
    ]
    assert page.locator(".st-key-board [role=rowheader]").all_inner_texts() == [
        str(i) for i in range(1, 13)
    ]
    # accessible names say column, row, number and owner (harness starts with these)
    assert tiles.nth(87).get_attribute("aria-label") == "column 4, row 8, 32, empty"
    assert tiles.nth(26).get_attribute("aria-label") == (
        "column 3, row 3, 9, player 2, orange square"
    )
    assert "brown counter" in (tiles.nth(7 * 12 + 8).get_attribute("aria-label") or "")
    # the browser builds the same default names as Python's board_view for empty tiles
    labels = tiles.evaluate_all("els => els.map(e => [e.className, e.getAttribute('aria-label')])")
    for i, (cls, label) in enumerate(labels):
        if "o0" in cls.split() and not any(k.startswith("g-") for k in cls.split()):
            assert label == default_label(i % 12 + 1, i // 12 + 1)
    # perfect squares glow; 40 does not
    assert "sq" in (tiles.nth(6 * 12 + 6).get_attribute("class") or "")  # 7 x 7
    assert "sq" not in (tiles.nth(7 * 12 + 4).get_attribute("class") or "")  # 5 x 8
    # the harness starts with a captured and a computer-placed tile: distinct marks
    assert "g-captured" in (tiles.nth(3 * 12 + 10).get_attribute("class") or "").split()
    assert "g-computer" in (tiles.nth(9 * 12 + 9).get_attribute("class") or "").split()
    assert "g-placed" in (tiles.nth(3 * 12 + 3).get_attribute("class") or "").split()
    assert (tiles.nth(9 * 12 + 9).get_attribute("aria-label") or "").endswith("the computer's move")
    # one tab stop in the grid
    assert page.locator(f"{TILES}[tabindex='0']").count() == 1
    assert page.locator(".st-key-board [role=status][aria-live=polite]").count() == 1
    screenshot(page, "board-desktop")


def test_board_is_drawn_from_the_packaged_module(
    new_page: Callable[..., Any], harness: Any
) -> None:
    page = _open(new_page, harness)
    base = f"{harness.url}/_stcore/bidi-components/{COMPONENT_NAME}"
    loaded = page.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name)")
    for name in FRONT_END_FILES:
        # the browser fetched the board's code, markup, style and cues from the asset route
        assert f"{base}/{name}" in loaded, name
        # ... and the route serves the real file (the page has no other copy of it)
        with urllib.request.urlopen(f"{base}/{name}", timeout=10) as resp:
            assert resp.status == 200
            if name == BOARD_JS_FILE:
                assert "javascript" in resp.headers["Content-Type"]
            assert resp.read().decode() == (STATIC_DIR / name).read_text(encoding="utf-8")
    # the markup and style came from that module: styled tiles, one <style> in the board
    assert page.locator(".st-key-board style").count() == 1
    assert page.locator(TILES).first.evaluate("(b) => getComputedStyle(b).cursor") == "pointer"
    page.locator(TILES).nth(30).click()  # and its event wiring works
    assert "click index=30" in _wait_events(page, 1)


def test_click_reaches_python_with_a_fresh_nonce_each_time(
    new_page: Callable[..., Any], harness: Any
) -> None:
    page = _open(new_page, harness)
    _roll(page)
    page.locator(TILES).nth(88).click()
    first = _wait_events(page, 2)
    assert "click index=88 c=5 r=8" in first and "via=mouse" in first
    # the placed counter is drawn as player 1's shape, marked as just placed, and the
    # answer is announced in the live region
    page.locator(f"{TILES}.o1.g-placed[data-index='88']").wait_for()
    page.locator(".st-key-board [role=status]", has_text="Well done! 40 is yours.").wait_for()
    page.locator(TILES).nth(5).click()
    second = _wait_events(page, 3)
    assert "click index=5 c=6 r=1" in second
    nonce = re.compile(r"nonce=([0-9a-f-]{16,})")
    assert nonce.search(first).group(1) != nonce.search(second).group(1)  # type: ignore[union-attr]


def test_roll_button_shows_four_dice_and_hides_until_next_turn(
    new_page: Callable[..., Any], harness: Any
) -> None:
    page = _open(new_page, harness, "sums=1")
    roll = page.get_by_role("button", name="Roll the dice")
    assert roll.is_visible()
    options = _roll(page)
    dice = page.locator(".st-key-board .die")
    assert dice.count() == 4
    labels = [dice.nth(i).get_attribute("aria-label") or "" for i in range(4)]
    assert [lab.split()[0] for lab in labels] == ["pink", "pink", "green", "green"]
    values = [int(lab.split()[-1]) for lab in labels]
    p, g = values[0] + values[1], values[2] + values[3]
    assert sorted(options) == sorted({(g - 1) * 12 + (p - 1), (p - 1) * 12 + (g - 1)})
    assert page.locator(".st-key-board .vb-sums").inner_text() == f"pink {p}, green {g}"
    assert "rolled" in page.locator(".st-key-board .vb-dice-by").inner_text()
    expect_hidden = page.locator(".st-key-board button.vb-roll")
    expect_hidden.wait_for(state="hidden")


def test_keyboard_arrows_move_one_tab_stop_and_enter_clicks(
    new_page: Callable[..., Any], harness: Any
) -> None:
    page = _open(new_page, harness)
    _roll(page)
    page.locator(TILES).nth(0).focus()
    for key in ("ArrowRight", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowDown"):
        page.keyboard.press(key)
    # (2, 3) after right, right, down, left, down from (1, 1): index (3-1)*12 + (2-1) = 25
    assert page.locator(TILES).nth(25).evaluate("e => e.getRootNode().activeElement === e")
    assert page.locator(f"{TILES}[tabindex='0']").count() == 1
    assert page.locator(TILES).nth(25).get_attribute("tabindex") == "0"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    line = _wait_events(page, 2)
    assert "click index=13 c=2 r=2" in line and "via=keyboard" in line
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    assert "click index=14 " in _wait_events(page, 3)


def test_options_are_highlighted_only_when_the_view_asks(
    new_page: Callable[..., Any], harness: Any, screenshot: Callable[..., Any]
) -> None:
    plain = _open(new_page, harness)
    _roll(plain)
    assert plain.locator(f"{TILES}.hl").count() == 0

    lit = _open(new_page, harness, "highlight=1")
    options = _roll(lit)
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
    page = _open(
        new_page,
        harness,
        "seats=human,computer&sums=1",
        width=360,
        height=780,
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.get_by_role("button", name="Roll the dice").tap()
    _wait_events(page, 1)
    page.locator(".st-key-board .die").nth(3).wait_for()
    box = page.locator(TILES).nth(143).bounding_box()
    assert box is not None and box["x"] + box["width"] <= 360
    assert box["width"] >= 18  # still a tappable tile, not crushed
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "board-phone-360-dice")
    page.locator(TILES).nth(60).tap()
    tapped = _wait_events(page, 2)
    assert "click index=60 " in tapped and "via=touch" in tapped
    page.locator(f"{TILES}.o1[data-index='60']").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "board-phone-360")


def test_not_interactive_board_ignores_clicks_and_hides_roll(
    new_page: Callable[..., Any], harness: Any
) -> None:
    page = _open(new_page, harness, "interactive=0")
    assert page.locator(".st-key-board button.vb-roll").is_hidden()
    assert page.locator(TILES).nth(30).get_attribute("aria-disabled") == "true"
    page.locator(TILES).nth(30).click(force=True)  # aria-disabled: Playwright would wait
    page.locator(TILES).nth(31).click(force=True)
    # a later mute event does reach Python, so the two clicks before it were dropped
    page.get_by_role("button", name=re.compile("Sound is on")).click()
    line = _wait_events(page, 1)
    assert "mute muted=True" in line
    # the browser itself ignored them: none reached the server-side check
    assert "'not_interactive': 0" in page.locator(LOG).filter(has_text="dropped=").inner_text()


def test_sound_cue_plays_once_per_event_and_mute_silences_it(
    new_page: Callable[..., Any], harness: Any
) -> None:
    page = _open(new_page, harness, "free=1")
    vb = page.locator(".st-key-board .vb")
    page.locator(TILES).nth(40).click()
    _wait_events(page, 1)
    page.locator(".st-key-board .vb[data-last-sound^='place:']").wait_for()
    played = vb.get_attribute("data-last-sound")
    # the cue's notes came with the view and WebAudio scheduled each of them
    assert vb.get_attribute("data-sound-voices") == str(len(sounds.cue_spec()["place"]))
    page.get_by_role("button", name=re.compile("Sound is on")).click()
    _wait_events(page, 2)
    page.get_by_role("button", name=re.compile("Sound is off")).wait_for()
    page.locator(TILES).nth(41).click()
    _wait_events(page, 3)
    assert vb.get_attribute("data-last-sound") == played
