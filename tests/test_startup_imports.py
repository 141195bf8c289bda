"""What a server and a command import before they do anything: not the analytics' heavy
libraries. Every `streamlit run` of the app and every ``playtest`` command starts a new
Python, and scipy, statsmodels and pandas took about 6 CPU seconds of its start on
this machine (issue 24); a tester's page needs none of them, and a designer's page
imports them when it is first drawn."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("scipy", "statsmodels", "pandas", "plotly.express")

STARTUP = """
import sys
import playtest.cli
from playtest.app_pages import access, arrival, cookies, designer, home, identity, tester, trouble
from playtest import runtime, services, serving
designer.pages()
playtest.cli.load_command_modules()
print(" ".join(m for m in {heavy!r} if m in sys.modules))
"""


def test_the_app_and_the_commands_start_without_scipy_statsmodels_or_pandas() -> None:
    done = subprocess.run([sys.executable, "-c", STARTUP.format(heavy=HEAVY)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [], f"imported at start: {done.stdout}"
