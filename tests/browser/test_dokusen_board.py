"""The Dokusen board in Chromium: whole stages at 1280x800 (mouse, and the keyboard) and
360x740 (a phone, taps: a whole stage, then the next stage's last two placements, the
harness starting from the actions before them), through the board harness
(benchmarks/board_harness_app.py: the board shell with Dokusen's renderer on the one game
session).

The test keeps its own game (a game session of the same seed, recording instead of
storing: the computer colours and meteors are the harness's), chooses each placement,
performs it by clicking the square, and after every round reads the board back from the
DOM: every square's owner, the counts, the round, must equal the engine's. Wrong clicks
(an own square) must show the catalog's message and reach Python with the engine's
refusal reason (the harness logs every stored click's props to a file of the test's).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from harness_flow import ClickLogs, wait_read

from engine.dokusen import DokusenState
from engine.dokusen.ai import greedy_action
from playtest.demo import EventRecorder
from playtest.demo_play import click_path
from playtest.games.dokusen.catalog import load_catalog
from playtest.games.dokusen.view import message_say
from playtest.games.registry import game_plugin
from playtest.session import GameSession, Play

pytestmark = pytest.mark.browser

APP = "benchmarks/board_harness_app.py"
SEED = 7
#: The step of the growth's animation (speed 3, fast) unless a test asks for another.
FAST = 3
CATALOG = load_catalog()
READ_DOM = """root => {
  const owners = {};
  for (const b of root.querySelectorAll('.sq')) owners[b.dataset.i] = +b.dataset.owner;
  const counts = {};
  for (const c of root.querySelectorAll('[data-testid^=dokusen-count-]'))
    counts[c.dataset.testid.replace('dokusen-count-', '')] = +c.textContent;
  const msg = root.querySelector('[data-testid=dokusen-message]');
  const over = root.querySelector('[data-testid=dokusen-over]');
  return {owners, counts, token: root.dataset.token, phase: root.dataset.phase,
          animating: root.dataset.animating, message: msg.textContent, key: msg.dataset.key,
          round: root.querySelector('[data-testid=dokusen-round]').textContent,
          over: over.hidden ? null : over.querySelector('.db-over-title').textContent,
          whys: [...root.querySelectorAll('.sq .why')].filter(w => w.textContent).length,
          targets: root.querySelectorAll('.sq.target').length,
          impact: root.querySelectorAll('.sq.impact').length};
}"""


class Board:
    """Drives the harness page: clicks, taps or keys squares, waits, reads the DOM."""

    def __init__(self, page: Any, log: Path, *, touch: bool = False) -> None:
        self.page = page
        self.log = log
        self.touch = touch
        self.root = page.locator("[data-testid=dokusen-board]")
        self.root.wait_for(timeout=30_000)

    def dom(self) -> dict[str, Any]:
        out: dict[str, Any] = self.root.evaluate(READ_DOM)
        return out

    def press(self, r: int, c: int) -> None:
        target = self.page.locator(f".sq[data-r='{r}'][data-c='{c}']")
        if self.touch:
            target.tap()
        else:
            target.click()

    def clicks_logged(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line)["props"] for line in self.log.read_text().splitlines()]

    def wait(self, until: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        """The board as read, once ``until`` holds (the page looks for changes itself)."""
        return wait_read(self.root, READ_DOM, until, what)

    def wait_logged(self, n: int) -> None:
        deadline = time.monotonic() + 30
        while len(self.clicks_logged()) < n:
            if time.monotonic() > deadline:
                raise AssertionError(f"Python did not receive click {n}")
            self.page.wait_for_timeout(40)

    def shows(self, state: DokusenState) -> dict[str, Any]:
        """Wait until the board shows ``state`` (same position token, animation over)."""
        token = f":{len(state.history)}"
        d = self.wait(lambda d: d["token"] == token and d["animating"] == "0", f"position {token}")
        want = {str(i): o for i, o in enumerate(state.cells) if o != -2}
        assert d["owners"] == want
        counts = state.counts()
        assert d["counts"] == {k: v for k, v in counts.items() if k != "total"}
        limit = state.stage.max_rounds
        shown = limit <= 30 or state.round > limit - 10  # a far-off default limit is not said
        assert d["round"] == (f"Round {state.round} of {limit}" if shown
                              else f"Round {state.round}"), d["round"]
        return d


class Mine:
    """The test's own game of ``stage``: what the harness plays (the same plug-in, seats,
    seed and session), its records kept in a list."""

    def __init__(self, stage: str, actions: list[list[Any]] | None = None) -> None:
        plugin = game_plugin("dokusen")
        self.play = Play.replayed(plugin, game_id="harness", participant_id="harness",
                                  seats=("human",), seed=SEED, rules=stage,
                                  actions=actions or [], finished=False)
        records: list[dict[str, Any]] = []
        self.session = GameSession(plugin, self.play, EventRecorder(
            records, "harness", "harness", [0.0], [0], "harness"), settings={"speed": FAST})
        self.session.start()
        self.events: list[Any] = []

    @property
    def state(self) -> DokusenState:
        state: DokusenState = self.play.state
        return state

    def place(self, action: int) -> None:
        """The tester's placement, then what the computer colours and chance do."""
        path = click_path(self.play.state, action)
        assert path is not None and len(path) == 1
        self.session.click(path[0])
        self.events = [e for step in self.session.fresh for e in step.events]


def page_of(harness: ClickLogs, log: Path, stage: str, speed: int = FAST,
            actions: list[list[Any]] | None = None) -> str:
    """The harness's page of ``stage``; with ``actions``, from the position they lead to."""
    later = f"&actions={json.dumps(actions, separators=(',', ':'))}" if actions else ""
    return harness.path(log, f"?game=dokusen&seats=human&rules={stage}&speed={speed}{later}")


def last_placements(stage: str, choose: Callable[[DokusenState], int], left: int
                    ) -> list[list[Any]]:
    """The actions of ``stage`` played by ``choose`` up to ``left`` of the tester's
    placements before its end (a dry run of the harness's game)."""
    mine = Mine(stage)
    before: list[list[Any]] = []  # the actions before each placement
    while not mine.state.is_terminal():
        before.append(list(mine.play.actions))
        mine.place(choose(mine.state))
    return before[-left] if len(before) >= left else []


def play_stage(board: Board, stage: str, choose: Callable[[DokusenState], int],
               actions: list[list[Any]] | None = None) -> DokusenState:
    """Play ``stage`` to its end (from the position ``actions`` lead to), the board read
    back after every placement."""
    mine = Mine(stage, actions)
    board.shows(mine.state)
    while not mine.state.is_terminal():
        action = choose(mine.state)
        board.press(*mine.state.game.grid.coord(action))
        mine.place(action)
        board.shows(mine.state)
    return mine.state


@pytest.fixture(scope="module")
def harness(streamlit_app: Any, tmp_path_factory: pytest.TempPathFactory) -> ClickLogs:
    """The module's harness server; each test logs its clicks to a file of its own."""
    folder = tmp_path_factory.mktemp("dokusen-clicks")
    return ClickLogs(streamlit_app(APP, {"BOARD_HARNESS_LOG_DIR": str(folder)}), folder)


def test_whole_stage_with_the_mouse_wrong_clicks_and_the_end_screen(
    harness: ClickLogs, new_page: Any, screenshot: Any
) -> None:
    log = harness.new_log()
    page = new_page(harness.server, page_of(harness, log, "S4"), width=1280, height=800)
    board = Board(page, log)
    mine = Mine("S4")
    state = mine.state
    d = board.shows(state)
    assert d["key"] == "your_turn" and d["targets"] == 35  # black and orange squares
    # an orange square is legal; the user's own square is refused (after one round)
    board.press(0, 2)
    mine.place(state.game.index(0, 2))
    state = mine.state  # the position after it (a new value)
    d = board.shows(state)
    assert d["key"] == "grew_against_you"  # the fresh tile turned orange
    screenshot(page, "dokusen_s4_round1_1280")
    board.press(0, 1)  # blue after the growth: the user's own square
    board.wait_logged(2)
    assert board.clicks_logged()[1]["reason"] == "own_square"
    assert board.clicks_logged()[1]["ok"] is False and board.clicks_logged()[1]["at"] == [0, 1]
    board.wait(lambda d: d["key"] == "refused_own_square", "the refusal message")
    assert board.dom()["message"] == CATALOG.render("refused_own_square").text
    # the "Why?" view shows the neighbour counts on the squares
    page.locator("[data-testid=dokusen-why]").click()
    board.wait(lambda d: d["whys"] > 10, "neighbour counts")
    screenshot(page, "dokusen_s4_why_1280")
    page.locator("[data-testid=dokusen-why]").click()
    board.wait(lambda d: d["whys"] == 0, "counts hidden")
    # play on greedily to the end; the DOM follows the engine round after round
    while not state.is_terminal():
        action = greedy_action(state)
        board.press(*state.game.grid.coord(action))
        mine.place(action)
        state = mine.state  # the position after it (a new value)
        board.shows(state)
    d = board.dom()
    assert state.outcome is not None
    # the end title in the course's words (GameResult.title, shown by the shell's
    # playtest.board.page.end_title)
    assert d["over"] == ("Stage won!" if state.outcome.won else "Stage lost")
    assert d["key"] == ("stage_won" if state.outcome.won else "stage_lost")
    screenshot(page, "dokusen_s4_end_1280")
    logged = board.clicks_logged()
    tester_moves = sum(1 for a in mine.play.actions if a[0] == "place")
    assert sum(p["ok"] for p in logged) == tester_moves


def test_phone_taps_a_stage_with_void_squares_and_an_active_rival(
    harness: ClickLogs, new_page: Any, screenshot: Any
) -> None:
    log = harness.new_log()
    page = new_page(harness.server, page_of(harness, log, "S3"), width=360, height=740,
                    has_touch=True, is_mobile=True)
    board = Board(page, log, touch=True)
    # the board fits the phone's width: no square off screen
    box = page.locator(".db-grid").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    screenshot(page, "dokusen_s3_start_360")
    state = play_stage(board, "S3", greedy_action)
    screenshot(page, "dokusen_s3_end_360")
    assert state.outcome is not None
    # the next stage (won) or the same again, on a page of its own (the way on between
    # games is the play page's, tests/browser/test_dokusen_stages_e2e.py): its last two
    # placements (the whole stage with the mouse is the test above's)
    stage = "S4" if state.outcome.won else "S3"
    later = last_placements(stage, greedy_action, 2)
    page.goto(f"{harness.server.url}/" + page_of(harness, log, stage, actions=later))
    board = Board(page, log, touch=True)
    rival = play_stage(board, stage, greedy_action, later)
    assert rival.is_terminal()
    assert all(p["ok"] for p in board.clicks_logged())


def test_active_rival_and_animation(
    harness: ClickLogs, new_page: Any, screenshot: Any
) -> None:
    """S5: orange (random) answers each placement; growth is animated square by square."""
    log = harness.new_log()
    page = new_page(harness.server, page_of(harness, log, "S5", speed=1),
                    width=1280, height=800)
    board = Board(page, log)
    mine = Mine("S5")
    state = mine.state
    board.shows(state)
    board.press(2, 2)
    mine.place(state.game.index(2, 2))
    state = mine.state  # the position after it (a new value)
    token = f":{len(state.history)}"
    mid = board.wait(lambda d: d["token"] == token and d["animating"] == "1", "the animation")
    assert mid["targets"] == 0  # no input while the round is replayed
    screenshot(page, "dokusen_s5_animating_1280")
    shown = board.shows(state)
    # Orange's square of the round is said and ringed once the round is replayed
    placed = [list(e.tiles[0]) for e in mine.events if e.kind == "place" and e.seat != 1]
    assert len(placed) == 1
    said = message_say(state, mine.events)
    assert said.key == "rival_placed" and shown["key"] == "rival_placed"
    assert shown["message"] == CATALOG.render("rival_placed", **said.values).text
    ringed = page.locator("[data-testid=dokusen-board] .sq.rival-last")
    assert ringed.count() == 1
    assert [int(ringed.get_attribute("data-r") or -1),
            int(ringed.get_attribute("data-c") or -1)] == placed[0]
    screenshot(page, "dokusen_s5_orange_ringed_1280")


def test_keyboard_places_with_arrows_and_enter(
    harness: ClickLogs, new_page: Any
) -> None:
    log = harness.new_log()
    page = new_page(harness.server, page_of(harness, log, "S1"), width=1280, height=800)
    board = Board(page, log)
    mine = Mine("S1")
    state = mine.state
    board.shows(state)
    page.locator(".sq[data-r='0'][data-c='0']").focus()
    for key in ("ArrowRight", "ArrowRight", "ArrowDown"):
        page.keyboard.press(key)
    page.keyboard.press("Enter")
    board.wait_logged(1)
    assert board.clicks_logged()[0]["at"] == [1, 2]
    mine.place(state.game.index(1, 2))
    state = mine.state  # the position after it (a new value)
    board.shows(state)


def test_a_meteor_shows_its_impact_area(
    harness: ClickLogs, new_page: Any, screenshot: Any
) -> None:
    """S7: the scheduled meteor (end of round 4) flashes its plus-shaped area, then the
    struck squares are black and the board equals the engine's."""
    log = harness.new_log()
    page = new_page(harness.server, page_of(harness, log, "S7"), width=1280, height=800)
    board = Board(page, log)
    mine = Mine("S7")
    state = mine.state
    board.shows(state)
    while True:
        action = greedy_action(state)
        board.press(*state.game.grid.coord(action))
        mine.place(action)
        state = mine.state  # the position after it (a new value)
        meteors = [e for e in mine.events if e.kind == "meteor"]
        if meteors:
            struck = len(meteors[0].tiles)
            board.wait(lambda d, n=struck: d["impact"] == n, "the meteor's impact area")
            screenshot(page, "dokusen_s7_meteor_1280")
            board.shows(state)
            assert meteors[0].data["round"] == 4
            break
        assert not state.is_terminal(), "the stage ended before its meteor"
        board.shows(state)
