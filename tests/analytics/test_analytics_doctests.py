"""The docstring examples of the analytics modules run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["data", "derive", "stats", "experiments", "questionnaires", "figures", "report",
           "synth", "game_analytics", "games.vapoosh", "games.vapoosh.facts",
           "games.vapoosh.heatmaps", "games.vapoosh.figures", "games.vapoosh.occasions",
           "games.morris", "games.morris.board", "games.morris.points",
           "games.morris.hesitation", "games.morris.figures", "games.morris.telemetry"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"analytics.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
