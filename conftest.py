"""Doctests of every module are collected (``--doctest-modules`` over the packages in
pyproject's ``testpaths``); only files that are not importable modules are left out:
the Streamlit entry script (it draws the app when imported), Alembic's migration scripts
(they need Alembic's context), and the harness apps in ``benchmarks/``."""

import sys
from collections.abc import Iterator

import pytest

from tests.streamlit_scan import scan_installed_components_once

scan_installed_components_once()  # every AppTest, every folder: one component scan per process

collect_ignore = ["playtest/app.py", "playtest/storage/migrations"]
# the tests folders' conftest.py files share one module name: collected as doctest modules
# they clash ("import file mismatch"); pytest still loads them for their fixtures. The
# tests' harness apps (tests/*/apps) are Streamlit scripts, run by AppTest or a server
collect_ignore_glob = ["benchmarks/*_app.py", "tests/*/conftest.py", "tests/*/apps/*.py"]


# The files whose tests take longest (CI's --durations, seconds on the shared 2-core
# machine), longest first: they start first, so that with `-n 2 --dist loadfile` the two
# workers end together instead of one waiting out a long file started late. A file that
# is renamed only loses its place in the queue.
LONG_FIRST = (  # seconds: each file's time in CI run 39 (two agents beside it: ~2x)
    "tests/cluster/test_cluster.py",  # nginx and three app processes, mostly waiting: 166
    "tests/app/test_dashboards_after_up.py",  # every designer page of every game: 165
    "tests/analytics/test_calibrate.py",  # 289 (before the calibration speed-ups)
    "tests/packaging/test_wheel.py",  # builds the wheel, runs the lab from it: 138
    "tests/engine/test_players_generic.py",  # the strength table: 137
    "tests/analytics/test_learning.py",  # 144
    "tests/analytics/test_did_it_work_planted.py",  # 166 (before the calibration speed-ups)
    "tests/analytics/test_trouble_metric_planted.py",  # 172 (before the calibration speed-ups)
    "tests/storage/test_snapshot_in_memory.py",  # 89
    "tests/app/test_study_snapshot.py",  # 85
    "tests/analytics/test_core_every_game.py",  # 82
    "tests/app/test_confusion_follow_up.py",  # 77
    "tests/reliability/test_faults_click_transaction.py",  # every game on both databases: 75
    "tests/engine/test_fast_paths.py",  # 75
    "tests/app/test_play_message_stored_with_input.py",  # 67
    "tests/reliability/test_faults_sign_in.py",  # 65
    "tests/reliability/test_faults_kill.py",  # 46
)


def _queue_place(item: pytest.Item) -> int:
    path = item.nodeid.split("::", 1)[0]
    return LONG_FIRST.index(path) if path in LONG_FIRST else len(LONG_FIRST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # .ci/run runs the browser tests apart: every test under tests/browser is one, whether
    # or not its file remembered the mark.
    for item in items:
        if item.nodeid.startswith("tests/browser/"):
            item.add_marker(pytest.mark.browser)
    items.sort(key=_queue_place)  # stable: every file's tests keep their order


@pytest.fixture(autouse=True)
def _main_module_restored() -> Iterator[None]:
    # Streamlit's script runner (AppTest) sets sys.modules["__main__"] to the script it ran
    # and leaves it there; a later test in the same worker that starts processes by
    # forkserver (engine.balance.play_games while AppTest's threads live) then re-ran that
    # temporary script in each child, and failed.
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main


# Why each test that was run again failed first (``--reruns``: pytest-rerunfailures
# prints only "RERUN <test>"): the first line of its error, in the summary at the end, so
# a flaky test's cause is in CI's log for whoever fixes it.
_RERUN_REASONS: list[tuple[str, str]] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.outcome == "rerun":
        lines = [line for line in str(report.longrepr or "").splitlines() if line.strip()]
        errors = [line for line in lines if line.startswith("E ")]
        _RERUN_REASONS.append((report.nodeid, (errors[:1] or lines[-1:] or ["?"])[0][:300]))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _RERUN_REASONS:
        terminalreporter.section("why tests were run again")
        for nodeid, reason in _RERUN_REASONS:
            terminalreporter.write_line(f"{nodeid}: {reason}")
