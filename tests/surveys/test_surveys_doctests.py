"""The docstring examples in surveys/ run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["surveys", "surveys.model", "surveys.logic", "surveys.loader", "surveys.instruments",
           "surveys.simulate", "surveys.responses"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0
