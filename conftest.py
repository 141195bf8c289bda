"""Doctests of every module are collected (``--doctest-modules`` over the packages in
pyproject's ``testpaths``); only files that are not importable modules are left out:
the Streamlit entry script (it draws the app when imported), Alembic's migration scripts
(they need Alembic's context), and the harness apps in ``benchmarks/``."""

collect_ignore = ["playtest/app.py", "playtest/storage/migrations"]
collect_ignore_glob = ["benchmarks/*_app.py"]
