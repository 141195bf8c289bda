"""Every docstring example runs: pytest collects the doctests of every module of the
product packages (pyproject: ``--doctest-modules`` over ``testpaths``), not a hand-kept
list; conftest.py leaves out only files that are not importable modules."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "surveys", "analytics", "playtest", "benchmarks")


def _pytest_config() -> dict:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return data["tool"]["pytest"]["ini_options"]


def _ignored() -> list[str]:
    tree = ast.parse((ROOT / "conftest.py").read_text(encoding="utf-8"))
    found: list[str] = []
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else None
        if isinstance(target, ast.Name) and target.id in ("collect_ignore", "collect_ignore_glob"):
            found += ast.literal_eval(node.value)
    return found


def test_doctests_are_collected_from_every_product_package() -> None:
    config = _pytest_config()
    assert "--doctest-modules" in config["addopts"].split()
    assert set(PACKAGES) <= set(config["testpaths"])


def test_no_module_with_examples_is_left_out() -> None:
    ignored = [ROOT / pattern for pattern in _ignored()]
    left_out = [
        str(path.relative_to(ROOT))
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if ">>>" in path.read_text(encoding="utf-8")
        and any(path == ig or ig in path.parents or path.match(str(ig)) for ig in ignored)
    ]
    assert left_out == []


def test_no_hand_kept_doctest_lists_in_the_tests() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "tests").rglob("*.py")
        if path.name != Path(__file__).name and "testmod(" in path.read_text(encoding="utf-8")
    ]
    assert offenders == []
