"""Every game's controls beside the board, in Debian's Chromium on a 360×740 touch phone
(and the first game at 1280×800) (issue 23: "Every game gets what Vapoosh has: a Rules
overlay that teaches the goal with pictures of the game's own board, Speed, Restart,
Menu, a pause while a dialog is open").

For each registered game (and the first game also at 1280 and at 1000 px wide, where the
column beside the board is narrowest; the other games' Rules at 1280 are seen in their
whole games, see CASES), a tester at play opens **Rules**, **Back to menu** and
**Restart game** in turn: no button label is cut; each opens as a dialog in view (its top in the upper half of
the screen, nothing cut off at the sides); the Rules dialog shows at least one picture of
the game's own board drawn by the game's renderer (the board shell in picture mode, as
wide as the dialog at most, with no turn line: it is a position, not a game being played);
while a dialog is open the board takes no input (the shell
is idle); closing it gives the board back, and ``rules_open`` / ``rules_close`` are
logged. "No, keep playing" keeps the game (no ``game_end``).

What the dialogs say is checked in AppTest (tests/app); this is what only a browser
shows: where they open, the pictures drawn, the board paused.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from study_flow import (
    APP,
    AppDatabase,
    labels_cut,
    new_player_at_play,
    new_study,
    settle,
    stored_events,
)

from analytics.data import UNNAMED_GAME
from playtest.games.registry import game_names

pytestmark = pytest.mark.browser

SHELL = "[data-testid=board-shell]"
SIZES = {"1280": {"width": 1280, "height": 800},
         "1000": {"width": 1000, "height": 760},  # the side column at its narrowest
         "360": {"width": 360, "height": 740, "is_mobile": True, "has_touch": True}}
#: Every game on the phone; the first game also at 1280 and where the column beside the
#: board is at its narrowest. (The other games' Rules dialog at 1280x800, with the page's
#: labels, is checked in their whole games: study_flow.rules_open_and_close in
#: test_morris_tester_e2e.py, test_vasco_tester_e2e.py and, for Dokusen,
#: test_dokusen_stages_e2e.py's 1280 test; Menu and Restart are the board shell's, the
#: same dialogs for every game.)
CASES = [(game, "360") for game in sorted(game_names())] + [
    (UNNAMED_GAME, "1280"), (UNNAMED_GAME, "1000")]


@pytest.fixture(scope="module")
def studies(app_db: AppDatabase) -> dict[str, str]:
    """Per game a study of it: one game per tester, no surveys, the computer at once."""
    return {game: new_study(app_db, title=f"{game} dialogs", game=game, games_per_tester=1,
                            allow_more_games=False, audience="adults", pre_survey=None,
                            post_survey=None, ai_think_ms=0)
            for game in sorted(game_names())}


def _in_view(box: dict[str, float] | None, width: int) -> bool:
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5


@pytest.mark.parametrize(("game", "size"), CASES)
def test_rules_menu_and_restart_open_in_view_and_pause_the_board(
    streamlit_app: Callable[..., Any], new_page: Callable[..., Any], app_db: AppDatabase,
    studies: dict[str, str], screenshot: Callable[[Any, str], Path], game: str, size: str,
) -> None:
    code = new_player_at_play(app_db.engine, studies[game])
    view = SIZES[size]
    page = new_page(streamlit_app(APP, {"DATABASE_URL": app_db.url}), f"?p={code}", **view)
    board = page.locator(f"{SHELL}:not(.sh-picture)")
    board.wait_for(timeout=30_000)
    settle(page)
    assert labels_cut(page, "[data-testid=stMain]") == []
    for button, title, close in (("Rules", "How to play", "Back to the game"),
                                 ("Back to menu", "Menu", "Back to the game"),
                                 ("Restart game", "Start a new game?", "No, keep playing")):
        page.get_by_role("button", name=button).click()
        dialog = page.get_by_role("dialog")
        dialog.wait_for()
        settle(page)
        assert title in dialog.inner_text()
        box = dialog.bounding_box()
        assert _in_view(box, view["width"]), (button, box)
        assert box is not None and 0 <= box["y"] < view["height"] / 2, (button, box)
        assert labels_cut(page, "[role=dialog]") == []
        # the game waits while the tester reads: its board takes no input
        page.locator(f"{SHELL}.sh-idle:not(.sh-picture)").wait_for(timeout=30_000)
        if button == "Rules":
            # the pictures are the game's own board, drawn by its renderer
            picture = dialog.locator(f"{SHELL}.sh-picture").first
            picture.wait_for(timeout=30_000)
            assert _in_view(picture.bounding_box(), view["width"])
            # a picture shows a position: no turn line ("The computer is playing" was
            # seen over Vasco's)
            turns = dialog.locator(f"{SHELL}.sh-picture [data-role=turn]")
            assert [t for t in turns.all_inner_texts() if t.strip()] == []
            screenshot(page, f"dialogs-{game}-rules-{size}")
        dialog.get_by_role("button", name=close).click()
        dialog.wait_for(state="detached")
        settle(page)
    kinds = [kind for kind, _ in stored_events(app_db.engine, code)]
    assert kinds.count("rules_open") == 1 and kinds.count("rules_close") == 1
    assert kinds.index("rules_open") < kinds.index("rules_close")
    assert "game_end" not in kinds  # "No, keep playing" kept the game
    # the board takes input again (a one-seat game, or the tester moves first)
    page.locator(f"{SHELL}:not(.sh-idle):not(.sh-picture)").wait_for(timeout=30_000)
