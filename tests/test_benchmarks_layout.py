"""Benchmarks, load tests, dev servers and harness apps live in benchmarks/, not in the
product packages, and the wheel does not ship them."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("engine", "surveys", "analytics", "playtest")


def test_the_wheel_leaves_benchmarks_out() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    assert not any(fnmatch.fnmatch("benchmarks", pattern) for pattern in include)
    assert all(any(fnmatch.fnmatch(name, pattern) for pattern in include) for name in PRODUCT)


def test_no_benchmark_or_harness_module_in_the_product_packages() -> None:
    names = ("bench*.py", "*loadtest*.py", "devserver.py", "*harness*.py", "*_app.py")
    offenders = [
        str(path.relative_to(ROOT))
        for package in PRODUCT
        for path in (ROOT / package).rglob("*.py")
        if any(fnmatch.fnmatch(path.name, pattern) for pattern in names)
    ]
    assert offenders == []
