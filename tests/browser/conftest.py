"""Browser-test harness: real `streamlit run` servers and Debian's Chromium.

ONE SERVER PER TEST MODULE. A server start costs a `streamlit run` plus its first page
(the app's imports), 5-20 s on this machine, so a module starts each app once and its
tests share it. Per-test state goes in the URL (``?study=<id>``, ``?p=<code>``, a harness
app's query parameters), in the study (a new study per test: :func:`new_study`) or in
the database, never in the server's environment: `streamlit_app` refuses a second
environment for the same script in one module.

Fixtures:

- `app_db` (module): a fresh migrated SQLite file for the module (:class:`AppDatabase`:
  ``.url``, ``.path``, ``.engine``). A module fills it in a module fixture of its own
  that asks for `app_db` (or overrides `app_db` itself).
- `app_server` (module): `streamlit run playtest/app.py` on `app_db`, with the designer's
  password :data:`PASSWORD` (``designer_flow.sign_in`` signs in with it). Started when
  the module's first test asks for it, stopped after the module's last test.
- `streamlit_app(script, env=None) -> StreamlitServer` (module): the module's server of
  another script (a board harness in ``benchmarks/``, an app in ``tests/browser/apps/``).
- `browser` (session): Chromium from /usr/bin/chromium. Missing Chromium skips the
  browser tests with a reason, or FAILS them when CI=true.
- `new_page(server, path="", *, width=1000, height=1100, **context_args) -> Page`: a
  fresh browser context (no cookie: a new tester, a designer not signed in) and page
  opened on the app, waiting until the app has rendered; closed after the test, with a
  screenshot in artifacts/screenshots/FAILED-* when the test failed.
- `open_study(server, study_id, size="phone"|"wide"|(w, h)) -> Page` : a fresh tester's
  page at the study's link.

Helpers (import from ``conftest``'s neighbours, e.g. ``from study_flow import new_study``):
``study_flow.new_study(app_db, **settings) -> study id`` (a new study per test),
``designer_flow.sign_in``/``go`` for the designer's pages.

Only what a browser shows belongs here (layout, taps, scripts, focus, the board's
protocol, cookies, downloads), at the screen size where it matters; what a page says is
checked in AppTest (tests/app). Screenshots for people to look at are made by
``python -m benchmarks.screenshots --out DIR``, not by the tests.

A slow machine on demand: ``PLAYTEST_BROWSER_CPU_SLOWDOWN=4`` runs every page's scripts
four times slower once it is first drawn (Chromium's CPU throttling), so a test that
races Streamlit's drawing (a widget still a grey skeleton while its code loads, the
elements of the run before still on screen) fails here and now instead of once in a
while on a busy CI machine.

Locating things: `data-testid` attributes and the `st-key-<key>` class of keyed
elements; Playwright's CSS and role locators pierce the board component's shadow root.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from designer_flow import PASSWORD, SIZES
from playwright.sync_api import expect
from study_flow import APP, AppDatabase, app_database

from benchmarks.devserver import (
    CHROMIUM,
    CHROMIUM_ARGS,
    ROOT,
    StreamlitServer,
    start_streamlit,
)
from playtest import auth

# Playwright's assertions wait 5 s by default. With the browser tests on two processes
# beside the other tests, the machine's load is 6-9, and a Streamlit run that draws a
# page took longer than that (CI runs 28 and 29). An assertion that holds returns as soon
# as it does, so only a failing one waits the longer time.
expect.set_options(timeout=20_000)

SCREENSHOTS = ROOT / "artifacts" / "screenshots"
APP_RENDER_TIMEOUT_MS = 30_000
# A new server's first run imports the whole app: on a busy machine (load ~20 on the shared
# 2 cores) that took over 30 s and failed the first page of a module now and then. Later
# pages of the same server keep the shorter limit.
FIRST_RENDER_TIMEOUT_MS = 120_000
CPU_SLOWDOWN = float(os.environ.get("PLAYTEST_BROWSER_CPU_SLOWDOWN") or 1)
# The tests' own screenshots (the `screenshot` fixture) are saved only when asked for:
# CI does not look at them; `python -m benchmarks.screenshots` makes the set to look at.
KEEP_SCREENSHOTS = os.environ.get("PLAYTEST_BROWSER_SCREENSHOTS") == "1"


class OneServerPerModule(RuntimeError):
    """A module asked for a second server of the same script (another environment)."""


@pytest.fixture(scope="module")
def streamlit_app(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest,
) -> Iterator[Callable[..., StreamlitServer]]:
    """Factory: `streamlit_app("benchmarks/board_harness_app.py", {"X": "1"})`, the
    module's one server of that script, started on first use and stopped after the
    module's last test (a server that died is started again, with the same environment).
    """
    servers: dict[str, StreamlitServer] = {}
    log_dir = tmp_path_factory.mktemp("streamlit-logs")

    def get(script: str | Path, env: Mapping[str, str] | None = None) -> StreamlitServer:
        wanted = dict(env or {})
        server = servers.get(str(script))
        if server is not None and server.env != wanted:
            raise OneServerPerModule(
                f"{request.module.__name__} asked for a second server of {script} with "
                "another environment: put per-test state in the URL, the study or the "
                "database (tests/browser/conftest.py)")
        if server is None or server.proc.poll() is not None:
            server = start_streamlit(script, wanted, log_dir)
            servers[str(script)] = server
        return server

    yield get
    for server in servers.values():
        server.stop()


@pytest.fixture(scope="module")
def app_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppDatabase]:
    """The module's database: a new migrated SQLite file (no study yet)."""
    with app_database(tmp_path_factory) as database:
        yield database


@pytest.fixture(scope="module")
def app_server(
    streamlit_app: Callable[..., StreamlitServer], app_db: AppDatabase,
) -> StreamlitServer:
    """The module's `streamlit run playtest/app.py` on `app_db`, with the designer's
    password :data:`designer_flow.PASSWORD`."""
    return streamlit_app(APP, {"DATABASE_URL": app_db.url,
                               auth.ENV_VAR: auth.hash_password(PASSWORD)})


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        reason = f"Chromium not found at {CHROMIUM} (apt-get install -y chromium chromium-headless-shell)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason + "; browser tests are required under CI=true")
        pytest.skip(reason)
    return CHROMIUM


@pytest.fixture(scope="session")
def browser(chromium_path: Path) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright  # a test dependency: never skipped

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(chromium_path), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    setattr(item, f"rep_{report.when}", report)


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)


@pytest.fixture
def screenshot() -> Callable[[Any, str], Path]:
    """`screenshot(page, name)`: the path artifacts/screenshots/<name>.png, where the page
    is saved when PLAYTEST_BROWSER_SCREENSHOTS=1 (not in CI: see the module's doc)."""
    def shoot(page: Any, name: str) -> Path:
        path = SCREENSHOTS / f"{_safe(name)}.png"
        if KEEP_SCREENSHOTS:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(path), full_page=True)
        return path

    return shoot


def wait_for_app(page: Any, timeout_ms: int = APP_RENDER_TIMEOUT_MS) -> None:
    """Wait until Streamlit has connected and finished the current script run."""
    page.locator(
        "[data-testid=stApp][data-test-script-state=notRunning]"
        "[data-test-connection-state=CONNECTED]"
    ).wait_for(timeout=timeout_ms)


_SERVED: set[int] = set()  # ports of the servers that have drawn a first page


@pytest.fixture
def new_page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Callable[..., Any]]:
    contexts: list[Any] = []
    pages: list[Any] = []

    def open_page(
        server: StreamlitServer,
        path: str = "",
        *,
        width: int = 1000,
        height: int = 1100,
        before: Callable[[Any], None] | None = None,
        **context_args: Any,
    ) -> Any:
        """A page of ``server`` at ``path``, drawn; ``before(page)`` runs ahead of the first
        request (to route the page's WebSocket, say)."""
        context = browser.new_context(viewport={"width": width, "height": height}, **context_args)
        contexts.append(context)
        page = context.new_page()
        pages.append(page)
        if before is not None:
            before(page)
        page.goto(f"{server.url}/{path.lstrip('/')}")
        wait_for_app(page, APP_RENDER_TIMEOUT_MS if server.port in _SERVED
                     else FIRST_RENDER_TIMEOUT_MS)
        _SERVED.add(server.port)
        if CPU_SLOWDOWN > 1:  # after the first drawing, which has its own time limit
            context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate",
                                               {"rate": CPU_SLOWDOWN})
        return page

    yield open_page
    failed = getattr(request.node, "rep_call", None)
    if failed is not None and failed.failed:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        for n, page in enumerate(pages):
            # a page that already died must not hide the test's real failure
            with contextlib.suppress(Exception):
                page.screenshot(
                    path=str(SCREENSHOTS / f"FAILED-{_safe(request.node.name)}-{n}.png"),
                    full_page=True,
                )
    for context in contexts:
        context.close()


@pytest.fixture
def open_study(new_page: Callable[..., Any]) -> Callable[..., Any]:
    """`open_study(server, study_id, size="phone")`: a new tester (a fresh browser
    context) at the study's link ``?study=<id>``, at one of :data:`designer_flow.SIZES`
    or a ``(width, height)``."""
    def open_(server: StreamlitServer, study_id: str,
              size: str | tuple[int, int] = "phone") -> Any:
        width, height = SIZES[size] if isinstance(size, str) else size
        return new_page(server, f"?study={study_id}", width=width, height=height)

    return open_
