"""The Monitor page in Chromium while 50 simulated testers take part (issue 28: "The
monitor page shows a live study of 50 load-test testers changing as they play").

The designer opens the Monitor of the load test's study and leaves it open: nobody is
taking part. Then the load test's testers (``benchmarks.loadtest``: real websocket sessions
of the app, each consenting and playing two turns), 20 and then 30 more, arrive and play
while the page, never reloaded, redraws itself (a fragment with ``run_every``): the count
of testers in the study climbs to 20, then to 50 and the page's numbers agree with the database. What the numbers mean and how they are computed is checked in AppTest
(tests/app/test_remote_monitor.py) and on planted data (tests/analytics/test_live.py);
this is what only a browser shows: the page changing by itself.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from designer_flow import PASSWORD, go, sign_in
from playwright.sync_api import expect

from benchmarks import loadtest
from playtest import auth
from playtest.storage import repository as repo

pytestmark = pytest.mark.browser

APP = "playtest/app.py"
TESTERS = 50


#: The page shows another count of testers in the study than ``last``.
CHANGED = """([last]) => {
  const m = [...document.querySelectorAll('[data-testid=stMetric]')]
    .find(e => e.innerText.includes('In the study now'));
  return !!m && Number(m.querySelector('[data-testid=stMetricValue]').innerText) !== last;
}"""


def _metric(page: Any, label: str) -> int:
    metric = page.locator("[data-testid=stMetric]", has_text=label)
    return int(metric.locator("[data-testid=stMetricValue]").inner_text())


def test_the_monitor_follows_fifty_testers_by_itself(
    streamlit_app: Callable[..., Any], new_page: Callable[..., Any],
    tmp_path_factory: pytest.TempPathFactory, screenshot: Callable[[Any, str], Path],
) -> None:
    url, engine = loadtest.prepare_database(
        tmp_path_factory.mktemp("monitor") / "playtest.sqlite")
    server = streamlit_app(APP, {"DATABASE_URL": url,
                                 auth.ENV_VAR: auth.hash_password(PASSWORD)})
    page = sign_in(new_page, server)
    go(page, "Monitor", loadtest.STUDY_ID)
    assert _metric(page, "In the study now") == 0
    expect(page.get_by_text("Nobody is taking part right now.")).to_be_visible()
    # A mark in the window: still there at the end, the page was never loaded again.
    page.evaluate("window.__monitorMark = 'kept'")

    # Two waves of testers, 20 then 30 more; each wave consents and plays while the
    # page follows, redraw by redraw.
    seen = [0]
    played: list[loadtest.PlayPhase] = []
    for wave, (testers, total) in enumerate([(20, 20), (TESTERS - 20, TESTERS)]):
        crowd = threading.Thread(target=lambda n=testers, w=wave: played.append(
            loadtest.run_coroutine(loadtest.run_testers(
                server.url, loadtest.STUDY_ID, n, turns=2, think_ms=(200, 600),
                seed=28 + w, time_limit_s=300))))
        crowd.start()
        try:
            while seen[-1] < total:
                page.wait_for_function(CHANGED, arg=[seen[-1]], timeout=300_000,
                                       polling=100)
                seen.append(_metric(page, "In the study now"))
                assert seen[-2] <= seen[-1] <= total, seen  # nobody leaves, none too many
        finally:
            crowd.join()
        if wave == 0:
            screenshot(page, "monitor-20-testers")
    screenshot(page, "monitor-50-testers")
    assert [r.errors for phase in played for r in phase.results if r.errors] == []
    assert len(played) == 2 and 20 in seen and seen[-1] == TESTERS, seen
    assert page.evaluate("window.__monitorMark") == "kept"
    # the page's numbers are the database's: every tester consented and is at play
    testers = repo.list_participants(engine, loadtest.STUDY_ID)
    assert len(testers) == TESTERS and {t.stage for t in testers} == {"play"}
    assert _metric(page, "Started in the last hour") == TESTERS
    assert _metric(page, "Finished in the last hour") == 0
