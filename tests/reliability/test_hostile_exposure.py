"""The app's safety settings do not depend on the working folder (issue 11 item 8, issue 25
item 2).

Started as ``cd /elsewhere && streamlit run /path/playtest/app.py``, the app used to read
no settings at all (Streamlit looks for ``.streamlit/config.toml`` in the working folder):
it listened on every address, IPv4 and IPv6, showed visitors tracebacks and sent usage
statistics. Now its settings sit next to it (``playtest/.streamlit/config.toml``), and a
served app that finds them changed refuses to serve. Judges: the kernel's table of
listening sockets (``/proc/net/tcp``, ``tcp6``), what a visitor's browser is sent over
the websocket (the session's usage-statistics switch, the page), and the server's output.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from served_app import listening, serve, visit

from playtest import serving

LOOPBACK = {"0100007F"}  # 127.0.0.1; no 0.0.0.0 (00000000) nor :: in tcp6

pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").exists(),
                                reason="needs Linux's /proc/net/tcp")


def _elsewhere(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    return folder, {"DATABASE_URL": f"sqlite:///{folder / 'p.sqlite'}"}


@pytest.mark.parametrize("supported", [False, True], ids=["streamlit-run", "playtest-serve"])
def test_started_from_another_folder_it_keeps_its_safety_settings(
    tmp_path: Path, supported: bool,
) -> None:
    folder, env = _elsewhere(tmp_path)
    served = serve(folder, env, supported=supported)
    try:
        assert listening(served.port) == LOOPBACK, listening(served.port)
        (page,) = visit(served.url)
        assert page.gather_usage_stats is False
        # The app checked what it runs with (error details none, XSRF and CORS on, no
        # Rich tracebacks) and serves: the start page, not the refusal.
        assert "Playtest lab" in page.text() and serving.REFUSED_TITLE not in page.text()
        assert not page.exceptions
    finally:
        served.stop()
    assert "REFUSING" not in served.output()


@pytest.mark.parametrize("flags", [
    ("--client.showErrorDetails", "full"),
    ("--browser.gatherUsageStats", "true"),
    ("--server.enableXsrfProtection", "false"),
], ids=["error-details", "usage-stats", "no-xsrf"])
def test_changed_safety_settings_make_it_refuse_to_serve(tmp_path: Path,
                                                         flags: tuple[str, str]) -> None:
    folder, env = _elsewhere(tmp_path)
    served = serve(folder, env, *flags)
    try:
        (page,) = visit(served.url, "study=demo")
    finally:
        served.stop()
    assert serving.REFUSED_TITLE in page.text()
    assert not page.widgets  # nothing to click, nothing stored
    output = served.output()
    assert "REFUSING TO SERVE" in output and flags[0].removeprefix("--") in output


def test_an_address_chosen_on_purpose_is_used_and_said(tmp_path: Path) -> None:
    folder, env = _elsewhere(tmp_path)
    served = serve(folder, env, "--server.address", "0.0.0.0")
    try:
        assert listening(served.port) == {"00000000"}
        (page,) = visit(served.url)
        assert serving.REFUSED_TITLE not in page.text()
    finally:
        served.stop()
    assert "listening on 0.0.0.0" in served.output()
