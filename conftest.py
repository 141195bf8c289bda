"""Doctests of every module are collected (``--doctest-modules`` over the packages in
pyproject's ``testpaths``); only files that are not importable modules are left out:
the Streamlit entry script (it draws the app when imported), Alembic's migration scripts
(they need Alembic's context), and the harness apps in ``benchmarks/``."""

collect_ignore = ["playtest/app.py", "playtest/storage/migrations"]
# the tests folders' conftest.py files share one module name: collected as doctest modules
# they clash ("import file mismatch"); pytest still loads them for their fixtures
collect_ignore_glob = ["benchmarks/*_app.py", "tests/*/conftest.py"]
