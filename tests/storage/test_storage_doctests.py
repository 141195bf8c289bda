"""The examples in the storage modules' docstrings run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "playtest.storage.db",
    "playtest.storage.errors",
    "playtest.storage.models",
    "playtest.storage.timeutil",
    "playtest.storage.repository",
    "playtest.storage.events",
    "playtest.storage.privacy",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
