"""Screenshots of every tester and designer page of every game, for people to look at
(the tests do not take them: they check what a browser shows, AppTest what pages say).

    python -m benchmarks.screenshots --out shots/            # 1280×800 and 360×740
    python -m benchmarks.screenshots --out shots/ --size wide --testers 8

It makes a throwaway SQLite database with each game's demo study filled by simulated
testers (``playtest demo``, results kept as ``playtest up`` leaves them), starts
``streamlit run playtest/app.py`` on it (benchmarks/devserver.py) and drives Debian's
Chromium through Playwright. Per size and game it writes ``<out>/<size>/<game>/``:

- ``tester-01-consent.png``, the adult's ``tester-02-pre-<n>.png`` survey pages,
  ``tester-03-play.png``, ``tester-04-post-<n>.png``, ``tester-05-done.png``, and the
  child's ``tester-child-pre-<n>.png`` pages;
- ``designer-<page>.png`` for Studies, Overview, Confusion, Questionnaires, Experiments,
  Learning, Replay, Balance (after simulating a few games) and the Design plan.

A survey page with a times-table fluency probe (the first game's demo forms carry one) is
shot before Start, then every question is answered with the keyboard until the pad sends
its answers.

Full-page shots; exits 2 with one line when Chromium or the app cannot start.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from benchmarks.devserver import CHROMIUM, CHROMIUM_ARGS, StreamlitServer, start_streamlit

SIZES = {"wide": (1280, 800), "phone": (360, 740)}
DESIGNER_PAGES = ["Studies", "Overview", "Confusion", "Questionnaires", "Experiments",
                  "Did it work?", "Learning", "Replay", "Balance", "Design plan"]
PASSWORD = "screenshots only, a throwaway database"
RUN_OVER = ("[data-testid=stApp][data-test-script-state=notRunning]"
            "[data-test-connection-state=CONNECTED]")
TIMEOUT_MS = 120_000


def settle(page: Any) -> None:
    """Wait until the app's run is over and nothing is a grey skeleton any more."""
    page.locator(RUN_OVER).wait_for(timeout=TIMEOUT_MS)
    page.wait_for_function("() => !document.querySelector('[data-testid=stSkeleton]')",
                           timeout=TIMEOUT_MS)


def shoot(page: Any, path: Path) -> Path:
    """The whole page: Streamlit scrolls inside its main block, so the window is made as
    tall as that block's content for the shot, then given its size back."""
    settle(page)
    path.parent.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    tall = page.evaluate("() => { const m = document.querySelector('[data-testid=stMain]');"
                         " return m ? m.scrollHeight : 0; }")
    if tall > size["height"]:
        page.set_viewport_size({"width": size["width"], "height": min(int(tall), 20_000)})
        settle(page)
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(size)
    return path


def fill_database(url: str, testers: int) -> dict[str, str]:
    """Each game's demo study, filled; ``{game: study id}``."""
    from analytics.confusion import confusion_points
    from playtest import demo
    from playtest.follow_ups import start_proposed
    from playtest.games.registry import games
    from playtest.storage.db import make_engine, upgrade
    from playtest.study_config import StudyConfigError
    from playtest.study_data import load_bundle
    from playtest.study_snapshot import refresh

    engine = make_engine(url)
    upgrade(engine)
    studies = [demo.ensure_demo_study(engine), *demo.ensure_game_demo_studies(engine)]
    for study in studies:
        demo.generate(engine, testers, seed=1, study=study, workers=1)
        refresh(engine, study.study_id)
        # version 2 of the study, following up its top rule confusion as the Confusion
        # page proposes, played by testers of its own: the Did it work? page has a family
        point = next((p.id for p in confusion_points(load_bundle(engine, study.study_id).data)
                      if p.id.startswith("rule:")), None)
        try:
            started = None if point is None else start_proposed(engine, study.study_id, point)
        except StudyConfigError:
            started = None  # no remedy fits: the page says how to start one
        if started is not None:
            demo.generate(engine, testers, seed=2, study=started.study, workers=1)
    engine.dispose()
    by_game = {study.game: study.study_id for study in studies}
    return {plugin.name: by_game[plugin.name] for plugin in games()}


def _sidebar(page: Any) -> Any:
    if not page.locator("[data-testid=stSidebarNav]").is_visible():
        page.locator("[data-testid=stExpandSidebarButton]").click()
        page.locator("[data-testid=stSidebarNav]").wait_for()
    return page.locator("[data-testid=stSidebar]")


def designer_pages(page: Any, server: StreamlitServer, study: str, folder: Path) -> Iterator[Path]:
    """Sign in, choose ``study``, then every designer page."""
    page.goto(server.url)
    settle(page)
    page.get_by_label("Designer password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_text("Signed in as the designer.").wait_for(timeout=TIMEOUT_MS)
    for name in DESIGNER_PAGES:
        _sidebar(page).locator("[data-testid=stSidebarNav]").get_by_text(
            name, exact=True).click()
        settle(page)
        chosen = _sidebar(page).locator("[data-testid=stSelectbox]").first.get_by_role(
            "combobox")
        if name != "Studies" and not chosen.input_value().endswith(f"({study})"):
            chosen.click()
            page.keyboard.type(f"({study})")
            page.get_by_role("option", name=re.compile(rf"\({re.escape(study)}\)$")).click()
            settle(page)
        if page.viewport_size["width"] < 640 and page.locator(
                "[data-testid=stSidebarNav]").is_visible():
            page.locator("[data-testid=stSidebarCollapseButton] button").click()
            page.locator("[data-testid=stSidebarNav]").wait_for(state="hidden")
        if name == "Balance":
            page.get_by_role("spinbutton", name="Games").fill("20")
            page.get_by_role("spinbutton", name="Games").press("Tab")
            page.get_by_role("button", name="Simulate").click()
            page.get_by_role("heading", name="How long games are").wait_for(timeout=TIMEOUT_MS)
        slug = name.lower().replace(" ", "-").rstrip("?")
        yield shoot(page, folder / f"designer-{slug}.png")


def _answer_and_continue(page: Any) -> None:
    for group in page.locator("[data-testid=stRadio]").all():
        group.locator("label[data-testid=stRadioOption]").first.click()
    for area in page.locator("textarea").all():
        area.fill("A screenshot's answer.")
        area.blur()
    caption = page.locator("[data-testid=stForm] [data-testid=stCaptionContainer]").first
    before = caption.inner_text() if caption.count() else ""
    page.get_by_role("button", name="Continue", exact=True).click()
    page.wait_for_function(
        "before => { const f = document.querySelector('[data-testid=stForm]');"
        " const c = f && f.querySelector('[data-testid=stCaptionContainer]');"
        " return !f || !c || c.innerText !== before; }", arg=before, timeout=TIMEOUT_MS)
    settle(page)


def _probe(page: Any) -> None:
    """Start the fluency probe, then answer each question right (digits and Enter, as on
    a laptop) until the pad has sent its answers and the survey's next page is drawn."""
    page.locator(".fp-start").click()
    question = page.locator(".fp-q")
    while question.count() and question.is_visible():
        before = question.inner_text().strip()
        found = re.match(r"^(\d+) × (\d+) =$", before)
        if found is None:
            break  # between questions: drawn again below
        page.keyboard.type(str(int(found.group(1)) * int(found.group(2))))
        page.keyboard.press("Enter")
        page.wait_for_function(
            "before => { const q = document.querySelector('.fp-q');"
            " return !q || q.innerText.trim() !== before; }", arg=before, timeout=TIMEOUT_MS)
    page.locator(".fp-start").wait_for(state="detached", timeout=TIMEOUT_MS)
    settle(page)


def _survey(page: Any, folder: Path, prefix: str) -> Iterator[Path]:
    button = page.get_by_role("button", name="Continue", exact=True)
    probe = page.locator(".fp-start")
    number = 0
    while button.count() or probe.count():
        number += 1
        yield shoot(page, folder / f"{prefix}-{number}.png")
        if probe.count():
            _probe(page)
        else:
            _answer_and_continue(page)


def _consent(page: Any, child: bool) -> None:
    who = page.get_by_text("A child, with a parent or guardian here" if child
                           else "An adult (18 or over)")
    if who.count():
        who.click()
        if child:
            page.get_by_text("I am the child's parent or guardian", exact=False).click()
    page.get_by_text("I have read the above and I agree to take part.").click()
    page.get_by_role("button", name="I agree").click()
    page.wait_for_url(re.compile(r".*\?p=.*"), timeout=TIMEOUT_MS)
    settle(page)


def tester_pages(browser: Any, server: StreamlitServer, url: str, study: str, size: str,
                 folder: Path) -> Iterator[Path]:
    """An adult through consent, the pre-play survey, the play page, the post-play survey
    (the stage moved on as the play page does when the games are done) and the
    completion page; a child through consent and the children's pre-play survey."""
    from playtest.storage import repository as repo
    from playtest.storage.db import make_engine

    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{server.url}/?study={study}")
    yield shoot(page, folder / "tester-01-consent.png")
    _consent(page, child=False)
    # the next page drawn: a survey's first question (or its probe), else the board
    page.get_by_role("button", name="Continue", exact=True).or_(
        page.locator(".fp-start")).or_(page.locator("[data-testid=board-shell]")).first.wait_for(
        timeout=TIMEOUT_MS)
    yield from _survey(page, folder, "tester-02-pre")
    page.locator("[data-testid=board-shell]").first.wait_for(timeout=TIMEOUT_MS)
    settle(page)
    yield shoot(page, folder / "tester-03-play.png")
    code = page.url.split("p=", 1)[1].split("&")[0]
    engine = make_engine(url)
    repo.advance_stage(engine, code, "play", "post_survey")
    engine.dispose()
    page.goto(f"{server.url}/?p={code}")
    settle(page)
    yield from _survey(page, folder, "tester-04-post")
    yield shoot(page, folder / "tester-05-done.png")
    context.close()
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{server.url}/?study={study}")
    settle(page)
    if page.get_by_text("A child, with a parent or guardian here").count():
        _consent(page, child=True)
        yield from _survey(page, folder, "tester-child-pre")
    context.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.screenshots",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for the PNG files")
    parser.add_argument("--size", choices=[*SIZES, "both"], default="both")
    parser.add_argument("--testers", type=int, default=12,
                        help="simulated testers per game's demo study (default 12)")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args(argv)
    if not CHROMIUM.is_file():
        print(f"screenshots: error: no Chromium at {CHROMIUM} (apt-get install chromium)",
              file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    from playtest import auth

    sizes = list(SIZES) if args.size == "both" else [args.size]
    written = 0
    with tempfile.TemporaryDirectory(prefix="screenshots-") as work:
        url = f"sqlite:///{Path(work) / 'playtest.sqlite'}"
        studies = fill_database(url, args.testers)
        try:
            server = start_streamlit("playtest/app.py", {
                "DATABASE_URL": url, auth.ENV_VAR: auth.hash_password(PASSWORD)}, Path(work))
        except RuntimeError as err:
            print(f"screenshots: error: {str(err).splitlines()[0]}", file=sys.stderr)
            return 2
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                for size in sizes:
                    for game, study in studies.items():
                        if args.game and game not in args.game:
                            continue
                        folder = args.out / size / game
                        for _ in tester_pages(browser, server, url, study, size, folder):
                            written += 1
                        width, height = SIZES[size]
                        context = browser.new_context(viewport={"width": width,
                                                                "height": height})
                        for _ in designer_pages(context.new_page(), server, study, folder):
                            written += 1
                        context.close()
                        print(f"{size} {game}: {folder}", flush=True)
                browser.close()
        finally:
            server.stop()
    print(f"{written} screenshots in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
