"""CPU seconds per test file, for pytest's JUnit XML: ``pytest -p benchmarks.cpu_per_test``.

On CI's two busy cores a test's wall time says little (it waits for the cores as much as
it uses them); its CPU time is what it costs the run. The last test of each file (its
teardown done) gets a property ``cpu_s``: the CPU the test process used from the start of
the file's first test, with every process it started (a Streamlit server, Chromium and
Playwright's driver, a ``playtest`` command, a pool's workers), alive or ended.
``python -m benchmarks.suite_times`` lists the files by it. A file at a time, not a test
at a time: a reading walks ``/proc`` (about 6 ms of CPU here), too dear for every test.

How it is counted (Linux's ``/proc``; elsewhere no property is written): at the file's
start and end, every process in the test process's tree with its user and system time and
its ended children's (``cutime``, ``cstime``: what a process that waits for its children
inherits from them). The file's CPU is what each process of the second reading gained
since the first (all of it, for a process started meanwhile). A process of the first
reading that has ended by the second moves, whole, into its parent's ended-children time
when the parent waits for it: what it had used by the first reading, counted in earlier
files, is taken off again (up to what the parent gained that way: Chromium keeps renderer
processes across tests, and its zygote waits for them). One that ends without a waiting
parent in the tree is not counted after its last reading. A server a module's fixture
started is counted in the files that ran while it served. The PostgreSQL server the
storage tests share is not a descendant of a test process: it is in no file's count.

>>> fields = _stat_fields("1 (a b) S 0 1 1 0 -1 0 0 0 0 0 7 3 2 1 20 0 1 0 555")
>>> fields[1], _ticks(fields), fields[19]
('0', 13, '555')

A parent (pid 1) went on from 100 to 150 ticks, of which 40 are its child's (pid 2): it
had used 30 at the first reading, then 10 more, and was waited for. A new process used 30:

>>> first = {(1, "5"): Use(100, 0, 0), (2, "6"): Use(30, 0, 1)}
>>> second = {(1, "5"): Use(150, 40, 0), (3, "7"): Use(30, 0, 1)}
>>> cpu_between(first, second, tick=100)
0.5
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import NamedTuple

import pytest

_PROC = "/proc"
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat_fields(text: str) -> list[str]:
    """The fields of a ``/proc/<pid>/stat`` line after the command's name, from the
    state on (the name is in parentheses and may hold spaces): [state, ppid, ...]."""
    return text[text.rindex(")") + 2:].split()


def _ticks(fields: list[str]) -> int:
    """utime + stime + cutime + cstime, in clock ticks."""
    return sum(int(value) for value in fields[11:15])


class Use(NamedTuple):
    """A process's CPU so far, in clock ticks."""

    ticks: int  # its own and its ended, waited-for children's
    children: int  # its ended, waited-for children's alone
    parent: int  # the parent's pid


Reading = dict[tuple[int, str], Use]  # (pid, start time): a pid can be reused


def tree_reading(root: int | None = None) -> Reading | None:
    """The CPU of ``root`` (this process by default) and each of its living descendants;
    None where ``/proc`` cannot be read."""
    root = os.getpid() if root is None else root
    parent: dict[int, int] = {}
    found: dict[int, tuple[str, Use]] = {}
    try:
        names = os.listdir(_PROC)
    except OSError:
        return None
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"{_PROC}/{name}/stat", encoding="utf-8", errors="replace") as stat:
                fields = _stat_fields(stat.read())
        except (OSError, ValueError):
            continue  # ended meanwhile
        pid = int(name)
        parent[pid] = int(fields[1])
        found[pid] = (fields[19], Use(_ticks(fields), int(fields[13]) + int(fields[14]),
                                      parent[pid]))
    if root not in found:
        return None
    children: dict[int, list[int]] = {}
    for pid, ppid in parent.items():
        children.setdefault(ppid, []).append(pid)
    reading: Reading = {}
    todo = [root]
    while todo:
        pid = todo.pop()
        started, use = found[pid]
        reading[(pid, started)] = use
        todo.extend(child for child in children.get(pid, ()) if child in found)
    return reading


def cpu_between(first: Reading, second: Reading, tick: int = _TICK) -> float:
    """CPU seconds the processes of ``second`` used since ``first`` (see the module)."""
    gained = sum(use.ticks - (first[key].ticks if key in first else 0)
                 for key, use in second.items())
    # The processes that ended meanwhile, by parent: their use at the first reading, now
    # inside the parent's ended-children time, was counted before.
    ended: dict[int, int] = {}
    for key, use in first.items():
        if key not in second:
            ended[use.parent] = ended.get(use.parent, 0) + use.ticks
    pids = {key[0]: key for key in first if key in second}  # processes in both readings
    for parent, counted in ended.items():
        waited = pids.get(parent)
        if waited is not None:
            reaped = second[waited].children - first[waited].children
            gained -= min(counted, max(reaped, 0))
    return gained / tick


def _file(item: pytest.Item | None) -> str | None:
    return None if item is None else item.nodeid.split("::", 1)[0]


_begun: tuple[str | None, Reading | None] = (None, None)  # the file, its first reading


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    global _begun
    if _begun[0] != _file(item):
        _begun = (_file(item), tree_reading())
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    global _begun
    yield
    if _file(nextitem) == _file(item):
        return
    first, ended = _begun[1], tree_reading()
    _begun = (None, None)
    if first is not None and ended is not None:
        # before the teardown's report is made: it carries the property to the XML
        item.user_properties.append(("cpu_s", round(cpu_between(first, ended), 2)))
