"""What only a browser shows of the designer's pages, on one server for the module: icons
drawn from Streamlit's own font, the Replay slider moved by keys with the board following,
every game's Replay board drawn and fitting the screen, Plotly drawing the kept heatmaps
and two charts side by side, chart text inside a phone's screen, a child's faces drawn as
icons, and the design plan's downloads.

What the pages say is checked in AppTest (tests/app): test_designer_page_contents.py,
test_designer_pages.py, test_designer_pages_every_game.py, test_designer_replay_page.py,
test_designer_studies_page.py, test_designer_empty_and_filled_pages.py,
test_balance_every_game.py, test_turns_demo_studies.py, test_vasco_designer_plan.py,
test_game_demo_experiments.py. Screenshots of every page: ``python -m
benchmarks.screenshots``.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from designer_flow import SIZES, chart_text_cut_off, expect_charts, go, pick, settle, sign_in
from playwright.sync_api import expect
from study_flow import AppDatabase, answer_page, consent, drawn, submit, survey_caption

from playtest import demo
from playtest.games.registry import game_plugin, games
from playtest.replay import game_label, game_outcome, games_of, replay_positions
from playtest.replay_board import position_view
from playtest.storage import repository as repo
from playtest.study_snapshot import refresh
from tests.app.games_of_every_kind import mixed_games

pytestmark = pytest.mark.browser

KNOWN: dict[str, Any] = {}  # filled by the module's database fixture
#: The Replay page's board: the board shell (one per game) in its keyed container.
REPLAY_SHELL = "[class*=st-key-replay_board-] [data-testid=board-shell]"


def _study_of(game: str) -> str:
    return demo.DEMO_STUDY_ID if game == games()[0].name else f"{demo.DEMO_STUDY_ID}-{game}"


def _drawn(game: str, state: Any) -> tuple[str, int]:
    """The board's drawn elements on the Replay page (the board shell with the game's
    renderer, as the tester saw it) and how many ``state`` has."""
    if game == "vapoosh":  # 12 × 12 tiles
        return f"{REPLAY_SHELL} [data-testid=vapoosh-board] button.tile", 144
    if game == "morris":  # the 24 points of the three squares
        return f"{REPLAY_SHELL} svg g.pt", 24
    if game == "vasco":  # one triangle per tile laid
        return f"{REPLAY_SHELL} svg g.vt", len(state.tiles)
    if game == "dokusen":  # one square per square of the stage's board
        return (f"{REPLAY_SHELL} button.sq",
                sum(1 for square in state.game.grid.is_square if square))
    raise AssertionError(f"a new game: say what its Replay board draws ({game})")


@pytest.fixture(scope="module", autouse=True)
def filled(app_db: AppDatabase) -> None:
    """The module's database: Vapoosh!'s demo study with its results kept (as ``playtest
    up`` leaves it), a study of games ended every way ("mixed"), and each other game's
    demo study with 3 testers."""
    engine = app_db.engine
    study = demo.ensure_demo_study(engine)
    demo.generate(engine, 12, seed=3, workers=1)
    KNOWN["app_tester"] = mixed_games(engine).app_tester
    KNOWN["engine"] = engine
    refresh(engine, study.study_id)  # as `playtest up` and `playtest demo` do
    expected: dict[str, tuple[str, int]] = {}
    for other in demo.ensure_game_demo_studies(engine):
        demo.generate(engine, 3, seed=5, study=other, workers=1)
    for plugin in games():
        # what the Replay page opens on: the first tester's first game, at its last step
        first = repo.list_participant_ids(engine, _study_of(plugin.name))[0]
        game = games_of(engine, first)[0]
        rules = game_plugin(game.game).make_game(game.rules, len(game.seats))
        state: Any = rules.new_initial_state()
        for action in game.actions:
            state.apply_action(rules.action_from_json(action))
        expected[game.game] = _drawn(game.game, state)
    KNOWN["boards"] = expected


def _owned_at(code: str, outcome: str, step: int) -> int:
    """How many tiles the Replay board shows owned at ``step`` (1-based) of the tester's
    game that ended as ``outcome``: from the view Python makes of that position."""
    engine = KNOWN["engine"]
    game = next(g for g in games_of(engine, code) if outcome in game_outcome(g))
    view = position_view(game, replay_positions(engine, game)[step - 1].index)
    return sum(1 for owner in view["owners"] if owner != ".")


def test_every_sidebar_link_has_an_icon_from_streamlits_own_font(
    new_page: Callable[..., Any], app_server: Any,
) -> None:
    """Emoji icons drew as empty boxes in a browser without an emoji font (Debian's
    Chromium); Material icons come with Streamlit, so every machine draws them."""
    page = sign_in(new_page, app_server)
    links = page.locator("[data-testid=stSidebarNavLink]")
    expect(links.first).to_be_visible()
    assert links.count() >= 9  # Start and the designer's eight pages
    for link in links.all():
        expect(link.locator("[data-testid=stIconMaterial]")).to_have_count(1)
        expect(link.locator("[data-testid=stIconEmoji]")).to_have_count(0)


def test_replay_keys_move_the_slider_and_the_board_follows(
    new_page: Callable[..., Any], app_server: Any,
) -> None:
    """The slider answers Home and the arrow keys; the step caption and the board
    component's own line follow it. (Labels and captions: tests/app/
    test_designer_replay_page.py.)"""
    page = sign_in(new_page, app_server)
    go(page, "Replay", "mixed")
    tester = page.get_by_role("combobox", name="Tester")
    # The Game box is drawn anew for the chosen tester (its options change): wait until
    # it shows this tester's first game, so the list opened next is this tester's. A run
    # still under way when the choice was made can draw the page again with the first
    # tester (CI run 34): then the choice is made again.
    first_game = game_label(games_of(KNOWN["engine"], KNOWN["app_tester"])[0])
    for _ in range(3):
        tester.click()
        page.keyboard.type(KNOWN["app_tester"])
        page.keyboard.press("Enter")
        settle(page)
        try:
            expect(page.get_by_role("combobox", name="Game")).to_have_value(
                first_game, timeout=30_000)
            break
        except AssertionError:
            page.keyboard.press("Escape")
    expect(tester).to_have_value(KNOWN["app_tester"])
    expect(page.get_by_role("combobox", name="Game")).to_have_value(first_game)
    pick(page, "Game", "restarted", count=3)
    expect(page.get_by_text("This game: restarted (abandoned, does not count).")).to_be_visible()
    shown = page.get_by_test_id("stSliderThumbValue")
    caption = page.get_by_test_id("stCaptionContainer").get_by_text(
        re.compile(r"^Step \d+ of \d+: "))
    owned = page.locator(f"{REPLAY_SHELL} button.tile:not(.o0)")
    # The previous game's slider can linger for a moment while the page redraws.
    expect(shown).to_have_count(1)
    total = int(shown.inner_text())  # the slider starts on the last step
    expect(caption).to_have_text(re.compile(rf"^Step {total} of {total}: "))
    page.get_by_role("slider").focus()
    page.keyboard.press("Home")
    settle(page)
    expect(shown).to_have_text("1")
    expect(caption).to_have_text(re.compile(rf"^Step 1 of {total}: seat 1 \(tester\) rolled"))
    page.keyboard.press("ArrowRight")
    settle(page)
    expect(shown).to_have_text("2")
    expect(caption).to_have_text(re.compile(rf"^Step 2 of {total}: "))
    # the board follows: it shows the tiles owned at each step, as Python replays them
    expect(owned).to_have_count(_owned_at(KNOWN["app_tester"], "restarted", 2))
    page.keyboard.press("End")
    settle(page)
    expect(shown).to_have_text(str(total))
    expect(owned).to_have_count(_owned_at(KNOWN["app_tester"], "restarted", total))


def test_replay_draws_each_game_s_board_on_screen(
    new_page: Callable[..., Any], app_server: Any,
) -> None:
    """Each game's Replay board is a drawn SVG (or the game's own board component) with
    the expected number of points / tiles / squares, no text or code block (``<pre>``),
    and it fits the screen: on a 360×740 phone, then the same page at 1280×800."""
    page = sign_in(new_page, app_server, "phone")
    for size in ("phone", "wide"):
        width, height = SIZES[size]
        page.set_viewport_size({"width": width, "height": height})
        for plugin in games():
            selector, count = KNOWN["boards"][plugin.name]
            assert count > 0, plugin.name
            go(page, "Replay", _study_of(plugin.name))
            settle(page)
            drawn_ = page.locator(selector)
            expect(drawn_).to_have_count(count, timeout=60_000)
            main = page.locator("[data-testid=stMain]")
            expect(main.locator("pre")).to_have_count(0)
            expect(main.locator("[data-testid=stCode]")).to_have_count(0)
            board = drawn_.first.locator("xpath=ancestor::*[@data-testid='board-shell'][1]")
            board.scroll_into_view_if_needed()
            box = board.bounding_box()
            assert box is not None, plugin.name
            assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (size, plugin.name,
                                                                              box)
            assert box["height"] <= height, (size, plugin.name, box)


def test_kept_boards_are_drawn_and_the_wrong_click_charts_sit_side_by_side(
    new_page: Callable[..., Any], app_server: Any,
) -> None:
    """A kept figure holds its arrays as Plotly typed arrays (base64): Plotly must draw
    the 12×12 boards from them; at 1280 the two wrong-click charts sit side by side."""
    page = sign_in(new_page, app_server)
    go(page, "Confusion", demo.DEMO_STUDY_ID)
    expect(page.get_by_role("heading", name="Hardest multiplication facts")).to_be_visible()
    expect_charts(page, 5)  # by class, by rule reason, the two boards, the facts
    board = page.locator("[data-testid=stPlotlyChart]").nth(2)
    board.scroll_into_view_if_needed()
    expect(board.locator(".heatmaplayer image, .heatmaplayer .hm").first).to_be_attached()
    boxes = [chart.bounding_box() for chart in
             page.locator("[data-testid=stPlotlyChart]").all()[:2]]
    assert boxes[0] and boxes[1]
    assert abs(boxes[0]["y"] - boxes[1]["y"]) < 5 and boxes[0]["x"] < boxes[1]["x"]


def test_experiment_charts_keep_their_text_inside_on_a_phone(
    new_page: Callable[..., Any], app_server: Any,
) -> None:
    """The forest plot's axis title ran off a 360 px screen, and its "too small to act
    on" label ran over the dashed line at 0."""
    page = sign_in(new_page, app_server, "phone")
    go(page, "Experiments", demo.DEMO_STUDY_ID)
    expect_charts(page, 2)
    assert chart_text_cut_off(page) == []
    titles = page.locator("[data-testid=stPlotlyChart] .g-xtitle")
    expect(titles.first).to_contain_text("too small to act on")


# Emoji code points: drawn as empty boxes where the machine has no emoji font.
EMOJI = re.compile("[\U0001F300-\U0001FAFF\u2600-\u27BF]")


def test_a_childs_survey_draws_its_faces_with_icons_not_emoji(
    open_study: Callable[..., Any], app_server: Any,
) -> None:
    """The faces of the yes/maybe/no and five-face questions were emoji, and Debian's
    Chromium drew some of them as empty boxes; Material icons come with Streamlit. On a
    phone, as a child's family would hold it."""
    page = open_study(app_server, demo.DEMO_STUDY_ID, "phone")
    page.get_by_text("A child, with a parent or guardian here").click()
    page.get_by_text("I am the child's parent or guardian", exact=False).click()
    consent(page)
    # the child's pre-play pages: about you (two yes/maybe/no questions: 6 faces), maths
    # (three five-face questions: 15), before you play (the expectation's five faces)
    for faces in (6, 15, 5):
        drawn(page)
        options = page.locator("[data-testid=stRadio] label[data-testid=stRadioOption]")
        expect(options.first).to_be_visible()
        # a Markdown icon: its name, drawn as one glyph by the Material Symbols font
        icons = page.locator("[data-testid=stRadio] span[role=img][aria-label^=sentiment]")
        expect(icons).to_have_count(faces)
        for text in options.all_inner_texts():
            assert not EMOJI.search(text), text
        page.evaluate("document.fonts.ready.then(() => true)")  # the icon font is in
        for icon in icons.all()[:5]:
            width = (icon.bounding_box() or {}).get("width", 0)
            assert 8 < width < 40, width  # a face, not the icon's name spelt out
        submit(page, survey_caption(page), lambda: answer_page(page, None))


def test_the_design_plan_downloads_as_markdown_html_and_json(
    new_page: Callable[..., Any], app_server: Any, app_db: AppDatabase,
) -> None:
    page = sign_in(new_page, app_server)
    go(page, "Design plan", demo.DEMO_STUDY_ID)
    # The HTML (~5 MB) is made only when asked for.
    assert page.get_by_role("button", name="Download plan (HTML with charts)").count() == 0
    page.get_by_role("button", name="Prepare the plan as HTML with charts").click()
    # Drawing every chart into the page is the slow part (a minute on a busy machine): its
    # button comes when it is done (a settled page may be the run before the click's).
    page.get_by_role("button", name="Download plan (HTML with charts)").wait_for(
        timeout=120_000)
    settle(page)
    files: dict[str, str] = {}
    for label, suffix in (("Markdown", ".md"), ("HTML with charts", ".html"), ("JSON", ".json")):
        with page.expect_download(timeout=60_000) as pending:
            page.get_by_role("button", name=f"Download plan ({label})").click()
        download = pending.value
        assert download.suggested_filename == f"plan-{demo.DEMO_STUDY_ID}{suffix}"
        files[suffix] = Path(download.path()).read_text(encoding="utf-8")
    plan = json.loads(files[".json"])
    testers = len(repo.list_participants(app_db.engine, demo.DEMO_STUDY_ID))
    assert plan["participants"] == testers and plan["confusion_points"]
    assert files[".md"].startswith(f"# UX design plan: study {demo.DEMO_STUDY_ID}")
    first_point = plan["confusion_points"][0]["label"]
    assert first_point in html.unescape(files[".html"]) and "Plotly.newPlot" in files[".html"]
