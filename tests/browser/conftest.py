"""Browser-test infrastructure: a real `streamlit run` server and Debian's Chromium.

Fixtures (reuse them from any test under tests/browser/):

- `streamlit_app(script, env=None) -> StreamlitServer`: starts `streamlit run <script>`
  on a free port (headless, cwd = project root so `.streamlit/config.toml` applies; see
  benchmarks/devserver.py), polls `/_stcore/health` until it answers `ok`, and stops
  it at the end of the session.
  Servers are shared per (script, env) within a session; each browser context is a new
  Streamlit session, so tests stay isolated.
- `browser`: a Chromium launched once per session from /usr/bin/chromium. Missing
  Chromium skips the browser tests with a reason, or FAILS them when CI=true.
- `new_page(server, path="", *, width=1000, height=1100, **context_args) -> Page`: a
  fresh context and page opened on the app, waiting until the app has rendered; closed
  after the test, with a screenshot in artifacts/screenshots/ when the test failed.
- `screenshot(page, name) -> Path`: saves artifacts/screenshots/<name>.png.
- A slow machine on demand: `PLAYTEST_BROWSER_CPU_SLOWDOWN=4` runs every page's scripts
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

from benchmarks.devserver import (
    CHROMIUM,
    CHROMIUM_ARGS,
    ROOT,
    StreamlitServer,
    start_streamlit,
)

SCREENSHOTS = ROOT / "artifacts" / "screenshots"
APP_RENDER_TIMEOUT_MS = 30_000
# A new server's first run imports the whole app: on a busy machine (load ~20 on the shared
# 2 cores) that took over 30 s and failed the first page of a module now and then. Later
# pages of the same server keep the shorter limit.
FIRST_RENDER_TIMEOUT_MS = 120_000
CPU_SLOWDOWN = float(os.environ.get("PLAYTEST_BROWSER_CPU_SLOWDOWN") or 1)


@pytest.fixture(scope="session")
def streamlit_app(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Callable[..., StreamlitServer]]:
    """Factory: `streamlit_app("benchmarks/board_harness_app.py", {"X": "1"})`."""
    servers: dict[tuple[str, tuple[tuple[str, str], ...]], StreamlitServer] = {}
    log_dir = tmp_path_factory.mktemp("streamlit-logs")

    def get(script: str | Path, env: Mapping[str, str] | None = None) -> StreamlitServer:
        ident = (str(script), tuple(sorted((env or {}).items())))
        server = servers.get(ident)
        if server is None or server.proc.poll() is not None:
            server = start_streamlit(script, env, log_dir)
            servers[ident] = server
        return server

    yield get
    for server in servers.values():
        server.stop()


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        reason = f"Chromium not found at {CHROMIUM} (apt-get install -y chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason + "; browser tests are required under CI=true")
        pytest.skip(reason)
    return CHROMIUM


@pytest.fixture(scope="session")
def browser(chromium_path: Path) -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
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
    def shoot(page: Any, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{_safe(name)}.png"
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
        **context_args: Any,
    ) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height}, **context_args)
        contexts.append(context)
        page = context.new_page()
        pages.append(page)
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
