"""The runnable examples in engine.dokusen's docstrings."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "engine.dokusen",
    "engine.dokusen.board",
    "engine.dokusen.stage",
    "engine.dokusen.state",
    "engine.dokusen.ai",
    "engine.dokusen.heuristics",
    "engine.dokusen.progress",
    "engine.dokusen.scenario",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
