"""Plain ``streamlit run playtest/app.py`` listens on this machine only (issue 11 item 8).

Started from the project folder with no ``--server.address``, as the README's quick start
allows, the server must bind 127.0.0.1 (``.streamlit/config.toml``), not every interface:
the kernel's own table of listening sockets (``/proc/net/tcp``, ``tcp6``) is the judge.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.devserver import free_port, healthy  # noqa: E402

LISTEN = "0A"


def _listening(port: int) -> set[str]:
    """Local addresses (kernel hex) of sockets listening on ``port``."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        path = Path(table)
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            address, _, hex_port = fields[1].rpartition(":")
            if int(hex_port, 16) == port and fields[3] == LISTEN:
                found.add(address)
    return found


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux's /proc/net/tcp")
def test_plain_streamlit_run_listens_on_loopback_only(tmp_path: Path) -> None:
    port = free_port()
    log = (tmp_path / "streamlit.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "playtest/app.py", "--server.port", str(port),
         "--server.fileWatcherType", "none"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT),
                       "DATABASE_URL": f"sqlite:///{tmp_path / 'p.sqlite'}"},
        stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while not healthy(f"http://127.0.0.1:{port}"):
            assert proc.poll() is None, (tmp_path / "streamlit.log").read_text()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)  # polling a start-up with a deadline, not synchronising a race
        addresses = _listening(port)
        assert addresses == {"0100007F"}, addresses  # 127.0.0.1, and no 0.0.0.0 or ::
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()
