"""Start `streamlit run <script>` on a free local port and wait until it is healthy.

Used by the browser tests (tests/browser/conftest.py) and the latency benchmark
(an example, not a doctest: it starts a server)::

    server = start_streamlit("benchmarks/board_harness_app.py")
    server.url  # 'http://127.0.0.1:41235'
    server.stop()
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
START_TIMEOUT_S = 60.0
# Debian's Chromium, as the browser tests and the latency benchmark launch it: its headless
# shell where installed (Debian's chromium-headless-shell: the same Blink and V8 without the
# full browser around them, what Playwright itself runs headless; measured on two browser
# test modules: 11-19 % less CPU than `chromium --headless`), else the full browser.
_HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
CHROMIUM = Path(os.environ.get("CHROMIUM_PATH") or (
    _HEADLESS_SHELL if _HEADLESS_SHELL.is_file() else "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def free_port() -> int:
    """A TCP port that was free a moment ago (bind to port 0, read it, close)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class StreamlitServer:
    """A running `streamlit run` process; `stop()` ends exactly this process."""

    script: Path
    port: int
    proc: subprocess.Popen[bytes]
    log_path: Path
    env: dict[str, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def _end_with_parent() -> None:
    """In the child before `exec`: on Linux, have the kernel send SIGTERM to the server
    when the process that started it dies (a test run killed by a timeout or ^C leaves
    no server behind); elsewhere nothing."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def healthy(url: str) -> bool:
    """True when GET <url>/_stcore/health answers `ok`."""
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as resp:
            return bool(resp.read().decode().strip() == "ok")
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def start_streamlit(
    script: str | Path,
    env: Mapping[str, str] | None = None,
    log_dir: Path | None = None,
    timeout_s: float = START_TIMEOUT_S,
) -> StreamlitServer:
    """Start `streamlit run script` (headless, cwd = project root, so the project's
    `.streamlit/config.toml` applies) and return once /_stcore/health is `ok`.

    Raises FileNotFoundError for a missing script, RuntimeError (with the server log's
    tail) when the server exits or is not healthy within `timeout_s`.
    """
    path = Path(script)
    if not path.is_absolute():
        path = ROOT / path
    if not path.is_file():
        raise FileNotFoundError(f"no Streamlit script at {path}")
    port = free_port()
    log_dir = log_dir or Path(tempfile.gettempdir())
    log_path = log_dir / f"streamlit-{path.stem}-{port}.log"
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    cmd = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(path),
        "--server.headless",
        "true",
        "--server.address",
        "127.0.0.1",
        "--server.port",
        str(port),
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
    ]
    with log_path.open("wb") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=full_env, stdout=log, stderr=subprocess.STDOUT,
                                preexec_fn=_end_with_parent)
    server = StreamlitServer(path, port, proc, log_path, dict(env or {}))
    deadline = time.monotonic() + timeout_s
    while not healthy(server.url):  # polls a condition, bounded by a deadline
        if proc.poll() is not None or time.monotonic() > deadline:
            server.stop()
            raise RuntimeError(
                f"streamlit run {path.name} did not become healthy:\n{server.log_tail()}"
            )
        time.sleep(0.1)
    return server
