"""Doctests of every module are collected (``--doctest-modules`` over the packages in
pyproject's ``testpaths``); only files that are not importable modules are left out:
the Streamlit entry script (it draws the app when imported), Alembic's migration scripts
(they need Alembic's context), and the harness apps in ``benchmarks/``."""

import sys
from collections.abc import Iterator

import pytest

collect_ignore = ["playtest/app.py", "playtest/storage/migrations"]
# the tests folders' conftest.py files share one module name: collected as doctest modules
# they clash ("import file mismatch"); pytest still loads them for their fixtures. The
# tests' harness apps (tests/*/apps) are Streamlit scripts, run by AppTest or a server
collect_ignore_glob = ["benchmarks/*_app.py", "tests/*/conftest.py", "tests/*/apps/*.py"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # .ci/run runs the browser tests apart (one at a time): every test under tests/browser
    # is one, whether or not its file remembered the mark.
    for item in items:
        if item.nodeid.startswith("tests/browser/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True)
def _main_module_restored() -> Iterator[None]:
    # Streamlit's script runner (AppTest) sets sys.modules["__main__"] to the script it ran
    # and leaves it there; a later test in the same worker that starts processes by
    # forkserver (engine.balance.play_games while AppTest's threads live) then re-ran that
    # temporary script in each child, and failed.
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main
