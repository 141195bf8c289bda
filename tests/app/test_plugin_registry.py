"""The registry of game plug-ins: typed plug-ins, each game's own display settings, and a
game registered by configuration without editing the registry (issue 21, item 4)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from analytics.data import UNNAMED_GAME
from engine.core import make_game
from engine.players import levels
from playtest.games.plugin import GamePlugin, PluginError
from playtest.games.registry import game_names, game_plugin, games, known_ui_settings

ROOT = Path(__file__).resolve().parents[2]


def test_every_game_is_a_typed_plugin_connected_to_the_engine() -> None:
    assert UNNAMED_GAME in game_names()
    for plugin in games():
        assert isinstance(plugin, GamePlugin)
        assert make_game(plugin.name, plugin.default_rules, len(plugin.default_seats)).name \
            == plugin.name
        assert plugin.ai_levels() == levels(plugin.name)
        assert plugin.board is not None and plugin.board.script_path.is_file()


def test_a_game_offers_only_its_own_display_settings() -> None:
    offered = {p.name: {s.name for s in p.ui_settings} for p in games()}
    dice = [name for name, settings in offered.items() if "show_computer_dice" in settings]
    assert dice == [UNNAMED_GAME]  # only the dice game shows a computer's dice
    assert {s.name for s in known_ui_settings()} == set().union(*offered.values())
    for plugin in games():
        assert set(plugin.ignored_ui) == {s.name for s in known_ui_settings()} - offered[
            plugin.name]
        for setting in plugin.ui_settings:
            assert setting.check(setting.default) == setting.default
            with pytest.raises(ValueError, match=f"ui:{setting.name} must be"):
                setting.check("no such value")


def _games_in_a_process(listed: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PLAYTEST_GAMES": listed,
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests" / "app" / "plugins"),
                                          str(ROOT / "tests" / "engine")])}
    return subprocess.run(
        [sys.executable, "-c", "from playtest.games.registry import games\n"
         "from engine.core import make_game\n"
         "print(*[p.name for p in games()])\n"
         "print(make_game('toyrace', 'standard', 2).num_players)"],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)


def test_a_game_from_outside_the_packages_is_registered_by_configuration() -> None:
    done = _games_in_a_process("toy_plugin:PLUGIN")
    assert done.returncode == 0, done.stderr
    names, players = done.stdout.split("\n")[:2]
    assert names.split() == [*game_names(), "toyrace"]
    assert players == "2"  # the engine builds it by name (replays, balance, the demo)


def test_a_reference_that_is_not_a_plugin_is_refused_with_why() -> None:
    done = _games_in_a_process("toy_plugin:NOT_A_PLUGIN")
    assert done.returncode != 0
    assert "game plug-in 'toy_plugin:NOT_A_PLUGIN' is a str, not a GamePlugin" in done.stderr


def test_a_plugin_checks_its_own_declaration() -> None:
    plugin = game_plugin(UNNAMED_GAME)
    with pytest.raises(PluginError, match="lower-case folder name"):
        GamePlugin(name="Chess", title="Chess", engine=plugin.engine, presets=(),
                   default_rules="", check_rules=plugin.check_rules)
