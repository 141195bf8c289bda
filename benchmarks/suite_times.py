"""Where the test suite's time goes: the files and folders that took longest, from the
JUnit XML files pytest writes (``.ci/run`` writes them to ``artifacts/ci/``).

    python -m benchmarks.suite_times artifacts/ci/*.xml            # the 15 slowest files
    python -m benchmarks.suite_times --top 40 artifacts/ci/browser.xml

Times are the test calls' wall seconds as pytest measured them (setup and teardown of
fixtures included), so on a loaded machine they add up to more than the run's wall time
on several workers. Where the run recorded each test's CPU (``pytest -p
benchmarks.cpu_per_test``: the test process and every process it started), the files are
listed by CPU seconds, the run's real cost on busy cores, with the wall seconds beside.
The folder table sums the files of each top-level test folder.

>>> import tempfile, pathlib
>>> xml = ('<testsuites><testsuite><testcase classname="tests.app.test_a" name="t1" '
...        'time="2.5"/><testcase classname="tests.app.test_a" name="t2" time="1.0"/>'
...        '<testcase classname="tests.browser.test_b" name="t" time="4"/></testsuite>'
...        '</testsuites>')
>>> path = pathlib.Path(tempfile.mkdtemp()) / "run.xml"
>>> _ = path.write_text(xml)
>>> sorted(file_times([path]).items())
[('tests/app/test_a.py', (3.5, 2)), ('tests/browser/test_b.py', (4.0, 1))]
>>> _ = path.write_text(xml.replace('time="4"/>', 'time="4"><properties><property '
...     'name="cpu_s" value="1.25"/></properties></testcase>'))
>>> file_cpu([path])
{'tests/browser/test_b.py': 1.25}

A test that failed and passed on a rerun (pytest-rerunfailures) appears once per run:

>>> _ = path.write_text(xml.replace('name="t" time="4"/>', 'name="t" time="4"/>'
...     '<testcase classname="tests.browser.test_b" name="t" time="3"/>'))
>>> rerun_tests([path])
{'tests.browser.test_b::t': 2}
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path


def _file_name(case: ElementTree.Element) -> str:
    # classname is the module's dotted path, with a class name after it for tests in a
    # class: the file is the part up to the last "test_" module.
    parts = (case.get("classname") or "?").split(".")
    module = max((i for i, part in enumerate(parts) if part.startswith("test_")),
                 default=len(parts) - 1)
    return "/".join(parts[:module + 1]) + ".py"


def file_times(reports: Iterable[Path]) -> dict[str, tuple[float, int]]:
    """Seconds and test count per test file, from JUnit XML ``reports``."""
    seconds: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    for report in reports:
        for case in ElementTree.parse(report).getroot().iter("testcase"):
            name = _file_name(case)
            seconds[name] += float(case.get("time") or 0.0)
            counts[name] += 1
    return {name: (round(seconds[name], 2), counts[name]) for name in seconds}


def file_cpu(reports: Iterable[Path]) -> dict[str, float]:
    """CPU seconds per test file, of the tests that recorded a ``cpu_s`` property
    (:mod:`benchmarks.cpu_per_test`); empty when none did."""
    cpu: dict[str, float] = defaultdict(float)
    for report in reports:
        for case in ElementTree.parse(report).getroot().iter("testcase"):
            for prop in case.iter("property"):
                if prop.get("name") == "cpu_s":
                    cpu[_file_name(case)] += float(prop.get("value") or 0.0)
    return {name: round(seconds, 2) for name, seconds in cpu.items()}


def rerun_tests(reports: Iterable[Path]) -> dict[str, int]:
    """The tests run more than once (a failure, then a rerun: ``--reruns``), with how
    many times each ran: flaky tests to fix."""
    runs: dict[str, int] = defaultdict(int)
    for report in reports:
        for case in ElementTree.parse(report).getroot().iter("testcase"):
            runs[f"{case.get('classname')}::{case.get('name')}"] += 1
    return {name: count for name, count in sorted(runs.items()) if count > 1}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("reports", nargs="+", type=Path, help="pytest --junitxml files")
    parser.add_argument("--top", type=int, default=15, help="how many files to list")
    args = parser.parse_args(argv)
    missing = [str(path) for path in args.reports if not path.is_file()]
    if missing:
        print(f"suite_times: no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    times = file_times(args.reports)
    cpu = file_cpu(args.reports)
    total = sum(seconds for seconds, _ in times.values())
    print(f"{len(times)} files, {sum(n for _, n in times.values())} tests, {total:.0f} s"
          + (f", CPU {sum(cpu.values()):.0f} s" if cpu else ""))

    def cost(seconds: float, name: str) -> float:  # what the tables are sorted by
        return cpu.get(name, 0.0) if cpu else seconds

    def row(seconds: float, count: int, name: str) -> str:
        spent = f"{cpu.get(name, 0.0):8.1f} " if cpu else ""
        return f"{spent}{seconds:8.1f} {count:5d}  {name}"

    head = f"{'CPU s':>8} " if cpu else ""
    print(f"{head}{'seconds':>8} {'tests':>5}  file")
    for name, (seconds, count) in sorted(times.items(),
                                         key=lambda kv: -cost(kv[1][0], kv[0]))[:args.top]:
        print(row(seconds, count, name))
    folders: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for name, (seconds, count) in times.items():
        folder = "/".join(name.split("/")[:2])
        folders[folder][0] += seconds
        folders[folder][1] += count
    folder_cpu: dict[str, float] = defaultdict(float)
    for name, seconds in cpu.items():
        folder_cpu["/".join(name.split("/")[:2])] += seconds
    cpu = dict(folder_cpu)  # the folder table's rows are folders
    print(f"\n{head}{'seconds':>8} {'tests':>5}  folder")
    for folder, (folder_seconds, folder_tests) in sorted(
            folders.items(), key=lambda kv: -cost(kv[1][0], kv[0]))[:args.top]:
        print(row(folder_seconds, int(folder_tests), folder))
    again = rerun_tests(args.reports)
    print(f"\nTests that failed and were run again (flaky: fix them): {len(again)}")
    for name, count in again.items():
        print(f"  {name}: {count} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
