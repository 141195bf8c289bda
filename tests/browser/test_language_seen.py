"""A German study seen in Debian's Chromium at 1280×800 and 360×740: its consent page
and its board (Bricks & Walls, whose own words are translated) show no English button
label or board word, and no German label is cut (German words are longer). One server
for the module."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from study_flow import AppDatabase, drawn, labels_cut, new_player_at_play, new_study, settle

from playtest.games.registry import game_names

pytestmark = pytest.mark.browser

GAME = "morris"
SIZES = {"desktop": (1280, 800), "phone": (360, 740)}
ENGLISH_BUTTONS = ("I agree", "Rules", "Restart game", "Back to menu", "Sound on",
                   "Sound off", "Continue", "Next game")
ENGLISH_BOARD = ("Your turn", "to play", "Bricks left", "Placements left", "computer",
                 "Sound on", "put a brick")


@pytest.fixture(scope="module")
def german_study(app_db: AppDatabase) -> str:
    return new_study(app_db, title="Sprachtest", game=GAME, language="de",
                     audience="adults", ai_think_ms=0)


#: English that a board's renderer once said to a screen reader (its own words).
ENGLISH_READ_OUT = re.compile(r"\b(row|column|board|empty|yours|brick|Zoom in|dice?|placed)\b")


def aria_labels(page: Any) -> list[str]:
    """Every screen-reader label inside the board."""
    labels: list[str] = page.locator("[data-testid=board-shell] [aria-label]").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))")
    return labels


def buttons(page: Any) -> list[str]:
    """The label of every visible button of the page (its last line: a button with an
    icon says the icon's name first)."""
    return [t.strip().splitlines()[-1] for t in page.eval_on_selector_all(
        "button", "els => els.filter(b => b.offsetParent !== null).map(b => b.innerText)")
        if t.strip()]


@pytest.mark.parametrize("size", SIZES)
def test_the_consent_page_and_the_board_are_german(
        size: str, app_server: Any, app_db: AppDatabase, german_study: str,
        new_page: Callable[..., Any], screenshot: Callable[[Any, str], Path]) -> None:
    width, height = SIZES[size]
    page = new_page(app_server, f"?study={german_study}", width=width, height=height)
    page.get_by_text("Spieltest: Steine & Mauern").first.wait_for(timeout=30_000)
    page.get_by_role("button", name="Ich stimme zu").wait_for(timeout=30_000)
    drawn(page)  # every element of the run on screen before its buttons are listed
    screenshot(page, f"language-de-consent-{size}")
    shown = buttons(page)
    assert "Ich stimme zu" in shown
    assert not [b for b in shown if b in ENGLISH_BUTTONS]
    assert labels_cut(page, "[data-testid=stMain]") == []
    page.get_by_text("Ich habe den Text oben gelesen").click()
    page.get_by_role("button", name="Ich stimme zu").click()
    page.wait_for_url(re.compile(r".*\?p=.*"), timeout=30_000)
    settle(page)
    page.get_by_text("Vor dem Spiel").first.wait_for(timeout=30_000)
    # the survey's page is drawn in one run, its button last: CI once listed the buttons
    # while only the consent's was still there
    page.get_by_role("button", name="Weiter").wait_for(timeout=30_000)
    drawn(page)
    screenshot(page, f"language-de-survey-{size}")
    assert "Weiter" in buttons(page)

    code = new_player_at_play(app_db.engine, german_study)
    board = new_page(app_server, f"?p={code}", width=width, height=height)
    board.locator("[data-testid=morris-board]").wait_for(timeout=30_000)
    settle(board)
    screenshot(board, f"language-de-board-{size}")
    assert not [label for label in aria_labels(board) if ENGLISH_READ_OUT.search(label)]
    shown = buttons(board)
    assert {"Regeln", "Neu starten", "Zum Menü"} <= set(shown), shown
    assert not [b for b in shown if b in ENGLISH_BUTTONS]
    words = board.locator("[data-testid=board-shell]").inner_text()
    assert "Du bist dran" in words or "am Zug" in words, words
    assert not [w for w in ENGLISH_BOARD if w in words], words
    assert labels_cut(board, "[data-testid=stMain]") == []

    board.get_by_role("button", name="Zum Menü").click()
    dialog = board.locator("[role=dialog]")
    dialog.get_by_text("Das Spiel ist angehalten.").wait_for(timeout=30_000)
    settle(board)
    screenshot(board, f"language-de-menu-{size}")
    assert "Menü" in dialog.inner_text()
    assert "Aufhören und die letzten Fragen beantworten" in buttons(board)
    assert labels_cut(board, "[role=dialog]") == []


@pytest.mark.parametrize("game", [g for g in game_names() if g != GAME])
def test_every_other_games_board_is_german_on_a_phone(
        game: str, app_server: Any, app_db: AppDatabase, new_page: Callable[..., Any],
        screenshot: Callable[[Any, str], Path]) -> None:
    """The other games' boards at 360×740: the page's buttons and the board shell's
    message and turn line in German."""
    study_id = new_study(app_db, title="Sprachtest", game=game, language="de",
                         audience="adults", ai_think_ms=0)
    code = new_player_at_play(app_db.engine, study_id)
    board = new_page(app_server, f"?p={code}", width=360, height=740)
    board.locator("[data-testid=board-shell]").wait_for(timeout=30_000)
    settle(board)
    screenshot(board, f"language-de-board-{game}-phone")
    shown = buttons(board)
    assert {"Regeln", "Zum Menü"} <= set(shown), shown
    assert not [b for b in shown if b in ENGLISH_BUTTONS]
    words = board.locator("[data-testid=board-shell]").inner_text()
    assert not [w for w in ("Your turn", "Sound on", "Roll the dice", "Game over",
                            "Project-Id-Version") if w in words], words
    assert labels_cut(board, "[data-testid=stMain]") == []
    read_out = aria_labels(board)  # what a screen reader says of the board: German too
    assert read_out and not [label for label in read_out if ENGLISH_READ_OUT.search(label)], \
        read_out
