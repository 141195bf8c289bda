"""``pytest -p benchmarks.cpu_per_test`` records each test file's CPU, its started processes
included, and ``benchmarks.suite_times`` lists the files by it (what .ci/run prints)."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from benchmarks.suite_times import file_cpu, main

ROOT = Path(__file__).resolve().parents[1]

# spins until it has used ``seconds`` of CPU (one line: it goes through a shell too)
SPIN = "import itertools, time; all(time.process_time() < {seconds} for _ in itertools.count())"

BUSY_FILE = f'''
import subprocess, sys

def test_a_child_spins():
    subprocess.run([sys.executable, "-c", {SPIN.format(seconds=0.4)!r}], check=True)

def test_a_grandchild_spins():
    # a shell waits for Python, the test waits for the shell: counted through the shell
    subprocess.run(["sh", "-c", f"{{sys.executable}} -c '{SPIN.format(seconds=0.3)}'"],
                   check=True)

def test_nothing():
    pass
'''

IDLE_FILE = '''
def test_nothing_either():
    pass
'''


def test_each_file_gets_its_cpu_children_included_and_suite_times_lists_it(
    tmp_path: Path, capsys: object
) -> None:
    (tmp_path / "test_busy.py").write_text(BUSY_FILE, encoding="utf-8")
    (tmp_path / "test_idle.py").write_text(IDLE_FILE, encoding="utf-8")
    report = tmp_path / "run.xml"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
         "benchmarks.cpu_per_test", "--rootdir", str(tmp_path), "-c", "/dev/null",
         str(tmp_path / "test_busy.py"), str(tmp_path / "test_idle.py"),
         f"--junitxml={report}"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    cases = {case.get("name"): [prop.get("value") for prop in case.iter("property")
                                if prop.get("name") == "cpu_s"]
             for case in ElementTree.parse(report).getroot().iter("testcase")}
    # one reading per file, on its last test
    assert [name for name, values in cases.items() if values] == [
        "test_nothing", "test_nothing_either"]
    cpu = file_cpu([report])
    (busy,) = [seconds for name, seconds in cpu.items() if name.endswith("test_busy.py")]
    (idle,) = [seconds for name, seconds in cpu.items() if name.endswith("test_idle.py")]
    assert busy >= 0.7  # the child's 0.4 s and the grandchild's 0.3 s of CPU, at least
    assert 0 <= idle < busy
    assert main([str(report), "--top", "2"]) == 0
    shown = capsys.readouterr().out  # type: ignore[attr-defined]
    lines = shown.splitlines()
    assert lines[1].split()[:2] == ["CPU", "s"]
    assert lines[2].endswith("test_busy.py")  # the dearest file first
