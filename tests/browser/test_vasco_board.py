"""Vasco's board in real Chromium (benchmarks/board_harness_app.py: the board shell with
Vasco's renderer, you against the computer at medium): candidates, previews, forced tiles
with why, the counter, the end. Each test's clicks, as stored, go to a file of its own
(tests/browser/harness_flow.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from harness_flow import ClickLogs

pytestmark = pytest.mark.browser

APP = "benchmarks/board_harness_app.py"
GAME = "?game=vasco&seats=human,ai:medium&seed=1"
BOARD = ".st-key-board [data-testid=vasco-board]"
CELLS = f"{BOARD} polygon.vc"
PREVIEWS = f"{BOARD} button.vb-preview"
TILES = f"{BOARD} g.vt[data-cell]"
#: The harness's first text line: inputs that reached Python and actions stored.
LOG_CSS = ".st-key-harness_log [data-testid=stText]"  # the first: document.querySelector
LOG = f"{LOG_CSS} >> nth=0"


@pytest.fixture(scope="module")
def app(streamlit_app: Callable[..., Any], tmp_path_factory: pytest.TempPathFactory
        ) -> ClickLogs:
    folder = tmp_path_factory.mktemp("vasco-clicks")
    return ClickLogs(streamlit_app(APP, {"BOARD_HARNESS_LOG_DIR": str(folder)}), folder)


def _open(new_page: Callable[..., Any], app: ClickLogs, query: str = "", **kw: Any) -> Any:
    log = app.new_log()
    page = new_page(app.server, app.path(log, GAME + (f"&{query}" if query else "")), **kw)
    page.locator(CELLS).first.wait_for()
    page.click_log = log
    return page


def _clicks(page: Any) -> list[str]:
    """The clicks stored so far, as "<target> ok" or "<target> refused <reason>"."""
    log: Path = page.click_log
    lines = log.read_text().splitlines() if log.exists() else []
    props = [json.loads(line)["props"] for line in lines]
    return [f"{p['target']} ok" if p["ok"] else f"{p['target']} refused {p.get('reason')}"
            for p in props]


def _replied(page: Any, actions: int) -> None:
    """Wait until the harness has stored ``actions`` actions (the computer's reply too)."""
    page.locator(LOG).filter(has_text=re.compile(rf"actions=([{actions}-9]|\d\d+) ")
                             ).wait_for()


def _tile_count(page: Any) -> int:
    return int(page.locator(f"{BOARD} .vb-tiles g.vt").count())


def _autos_shown(page: Any) -> None:
    """Wait until every forced tile of the last move has been animated in and the
    computer's move has been played out (the board ignores input until then)."""
    page.locator(f"{BOARD} g.vt-hidden").first.wait_for(state="detached")
    page.locator(f"{BOARD}:not([data-playing='1'])").wait_for()


#: Records, on every change of the board, a moment when the end line was on screen while
#: the computer's move was still being played out (or a "Forced tile" message showed).
WATCH_END = """(vb) => {
  window.__endTooSoon = [];
  new MutationObserver(() => {
    const end = vb.querySelector('[data-role=result]');
    const msg = vb.querySelector('[data-role=message]').textContent;
    const shown = end && !end.hidden && end.textContent.trim();
    if (shown && (vb.dataset.playing === '1' || msg.includes('Forced tile')))
      window.__endTooSoon.push(msg);
  }).observe(vb, {subtree: true, childList: true, attributes: true, characterData: true});
}"""


def _choose_first_cell(page: Any, touch: bool = False) -> None:
    """Click (or tap) the first candidate cell and wait until the board shows it chosen,
    with its previews (those of this choice, not a previous board's)."""
    cell = page.locator(CELLS).first
    cell.tap() if touch else cell.click()
    page.locator(f"{BOARD} polygon.vc-selected").wait_for()
    page.locator(PREVIEWS).first.wait_for()


def _pick_first_tile(page: Any, touch: bool = False) -> None:
    """Click (or tap) the first preview of the chosen cell; wait for the reply."""
    before = page.locator(LOG).inner_text()
    preview = page.locator(PREVIEWS).first
    preview.tap() if touch else preview.click()
    page.wait_for_function(
        "([sel, old]) => { const e = document.querySelector(sel); return e && e.innerText !== old; }",
        arg=[LOG_CSS, before], polling=100,
    )
    _autos_shown(page)


def _play_first(page: Any, touch: bool = False) -> None:
    """Choose the first candidate cell, then its first preview; wait for the reply.

    The cell is chosen once per move: a second tap on the chosen cell is a new choice the
    board answers with a new drawing, so a tap on the old previews could land on buttons
    being replaced (the phone test failed so under load)."""
    _choose_first_cell(page, touch)
    _pick_first_tile(page, touch)


def test_first_move_previews_and_the_computer_reply(
    new_page: Callable[..., Any], app: ClickLogs, screenshot: Callable[..., Any]
) -> None:
    page = _open(new_page, app, width=1280, height=800)
    assert page.locator(CELLS).count() == 1  # the first tile goes on 0,0
    assert page.locator(f"{BOARD} [data-role=counter]").inner_text() == "54 of 54 tiles left"
    page.locator(CELLS).first.click()
    page.locator(PREVIEWS).nth(5).wait_for()
    assert page.locator(PREVIEWS).count() == 6
    screenshot(page, "vasco-previews-1280")
    page.locator(PREVIEWS).first.click()
    _replied(page, 2)  # the tester's tile and the computer's
    # the computer's tile is named and outlined, its turn said, before input is taken
    playing = page.locator(f"{BOARD}[data-playing='1'][data-announced]")
    playing.wait_for()
    cell = playing.get_attribute("data-announced")
    assert "The computer placed a tile" in page.locator(f"{BOARD} [data-role=message]").inner_text()
    assert page.locator(f"{BOARD} [data-role=turn]").inner_text() == "The computer is playing"
    placed = page.locator(f"{BOARD} g.vt-computer-move[data-cell='{cell}']")
    assert placed.get_attribute("data-origin") == "computer"
    screenshot(page, "vasco-computer-move-1280")
    page.locator(CELLS).first.dispatch_event("click")  # too soon: ignored, not sent
    assert page.locator(f"{BOARD}[data-ignored='1']").count() == 1
    _autos_shown(page)
    assert page.locator(f"{BOARD} polygon.vc-selected").count() == 0
    assert not [c for c in _clicks(page) if not re.match(r"(0,0|[ox*]{3}) ok", c)]
    # every tile says who put it there, with a legend in words
    origins = page.locator(TILES).evaluate_all("gs => gs.map(g => g.dataset.origin)")
    assert origins.count("tester") == 1 and origins.count("computer") == 1
    assert set(origins) <= {"tester", "computer", "forced"}
    assert page.locator(f"{BOARD} .vb-tiles .vo-mark").count() == len(origins)
    # (the catalog's words: legend_tester, legend_computer, legend_forced)
    assert page.locator(f"{BOARD} .vb-origins").inner_text().split("\n") == [
        "● Your tiles", "■ The computer's", "◆ Forced: slid in by itself"]
    # (legend_red, legend_blue, legend_both; zoom_fit)
    lines = page.locator(f"{BOARD} .vb-legend:not(.vb-origins) span")
    assert lines.evaluate_all("ss => ss.map(s => s.textContent)") == [
        "Red: solid wide line", "Blue: dashed line", "Purple: both"]
    assert page.locator(f"{BOARD} [data-zoom=fit]").inner_text() == "Fit"
    log = "\n".join(_clicks(page))
    assert "0,0 ok" in log and re.search(r"^[ox*]{3} ok", log, re.M)
    assert _tile_count(page) >= 2
    counter = page.locator(f"{BOARD} [data-role=counter]").inner_text()
    left = int(counter.split()[0])
    assert left == 54 - _tile_count(page)
    assert page.locator(CELLS).count() > 5
    screenshot(page, "vasco-after-reply-1280")


def test_keyboard_selects_a_cell_and_a_tile(new_page: Callable[..., Any], app: ClickLogs) -> None:
    page = _open(new_page, app, width=1280, height=800)
    page.locator(CELLS).first.focus()
    page.keyboard.press("Enter")
    page.locator(PREVIEWS).first.wait_for()
    page.locator(PREVIEWS).nth(2).focus()
    page.keyboard.press("Enter")
    _replied(page, 2)
    assert "0,0 ok" in _clicks(page)


def test_a_whole_short_game_on_a_phone(
    new_page: Callable[..., Any], app: ClickLogs, screenshot: Callable[..., Any]
) -> None:
    page = _open(new_page, app, 'rules={"base":"standard","pool":12}', width=360, height=740, has_touch=True, is_mobile=True)
    result = page.locator(f"{BOARD} [data-role=result]")
    page.locator(BOARD).evaluate(WATCH_END)
    _play_first(page, touch=True)
    _choose_first_cell(page, touch=True)
    screenshot(page, "vasco-picker-phone")
    _pick_first_tile(page, touch=True)
    for _ in range(12):
        if result.inner_text().strip():
            break
        _play_first(page, touch=True)
    text = result.inner_text()
    # the title says who won, the text why, once (the loop's text no longer says "wins")
    assert re.search(r"won|wins|draw", text), text
    assert len(re.findall(r"\bwin|\bwon", text, re.I)) <= 2, text
    assert page.evaluate("window.__endTooSoon") == []  # no result before the forced tiles
    assert page.locator(f"{BOARD} g.vt-win").count() >= 1  # the loop or the longest paths
    assert page.locator(CELLS).count() == 0  # nothing to click after the end
    screenshot(page, "vasco-game-over-phone")
