"""The registry of the games the lab can playtest: the built-in plug-ins, ONE LINE PER GAME,
and any configured beside them.

A game is a plug-in with a folder in every layer (``engine/<game>/``,
``surveys/games/<game>/``, ``analytics/games/<game>/``, ``playtest/games/<game>/``); its
``playtest/games/<game>/plugin.py`` describes it as one typed
:class:`~playtest.games.plugin.GamePlugin` value (``PLUGIN``). Everything outside the
games' folders asks this module, never a game by name.

A game from outside the lab's packages is registered by configuration, without editing
this file: an installed distribution's entry point in the group
:data:`ENTRY_POINT_GROUP` (``name = "module:OBJECT"``), or the environment variable
:data:`GAMES_ENV` listing ``module:OBJECT`` references separated by commas (a plug-in in a
checkout's ``tests/`` folder, say). Each reference must name a ``GamePlugin``.

Order never changes what a record means: a study, game record or event that names no
game is :data:`analytics.data.UNNAMED_GAME`'s (the exchange format says so), whatever
the order here; the order is only the order games are listed in.

>>> [p.name for p in games()] == list(game_names())
True
>>> game_plugin("chess")
Traceback (most recent call last):
...
playtest.games.registry.UnknownGameError: game: unknown game 'chess' (known: ...)
"""

from __future__ import annotations

import functools
import importlib
import os
from importlib.metadata import entry_points
from typing import Final

from engine.core import register_game
from engine.players import games_with_levels, register_levels
from playtest.games.plugin import GamePlugin, PluginError
from playtest.games.ui_settings import UiSetting

#: The entry-point group an installed distribution registers its games in.
ENTRY_POINT_GROUP: Final = "playtest_lab.games"
#: Extra plug-ins, ``module:OBJECT[,module:OBJECT…]`` (read when the registry loads).
GAMES_ENV: Final = "PLAYTEST_GAMES"


def built_in_games() -> tuple[GamePlugin, ...]:
    """The games that come with the lab, in the order they are listed."""
    from playtest.games.dokusen.plugin import PLUGIN as DOKUSEN
    from playtest.games.morris.plugin import PLUGIN as MORRIS
    from playtest.games.vapoosh.plugin import PLUGIN as VAPOOSH
    from playtest.games.vasco.plugin import PLUGIN as VASCO

    return (VAPOOSH, MORRIS, VASCO, DOKUSEN)


class UnknownGameError(ValueError):
    """A game name the registry does not know; the message lists the known ones."""


def resolve(reference: str) -> GamePlugin:
    """The plug-in a ``module:OBJECT`` reference names (PluginError saying why not).

    >>> resolve("playtest.games.plugin")
    Traceback (most recent call last):
    ...
    playtest.games.plugin.PluginError: game plug-in 'playtest.games.plugin': write it module:OBJECT
    >>> resolve("playtest.games.registry:games")
    Traceback (most recent call last):
    ...
    playtest.games.plugin.PluginError: game plug-in 'playtest.games.registry:games' is a function, not a GamePlugin
    """
    module_name, _, attribute = reference.strip().partition(":")
    if not module_name or not attribute:
        raise PluginError(f"game plug-in {reference!r}: write it module:OBJECT")
    try:
        found: object = importlib.import_module(module_name)
        for part in attribute.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError) as err:
        raise PluginError(f"game plug-in {reference!r}: {err}") from None
    if not isinstance(found, GamePlugin):
        raise PluginError(f"game plug-in {reference!r} is a {type(found).__name__}, "
                          "not a GamePlugin")
    return found


def configured_games() -> tuple[GamePlugin, ...]:
    """The games registered by configuration (entry points, then :data:`GAMES_ENV`)."""
    found = [resolve(f"{ep.module}:{ep.attr}") for ep in entry_points(group=ENTRY_POINT_GROUP)]
    listed = os.environ.get(GAMES_ENV, "")
    found += [resolve(ref) for ref in listed.split(",") if ref.strip()]
    return tuple(found)


def _connect(plugin: GamePlugin) -> None:
    """Make the engine build and play the plug-in's game by its name (replays of stored
    records, the balance simulation, the demo's computer players): its factory, and its
    levels unless the engine has them already."""
    register_game(plugin.name, plugin.engine)
    if plugin.levels and plugin.name not in games_with_levels():
        register_levels(plugin.name, plugin.levels)


@functools.cache
def _plugins() -> dict[str, GamePlugin]:
    found: dict[str, GamePlugin] = {}
    for plugin in (*built_in_games(), *configured_games()):
        if plugin.name in found and found[plugin.name] is not plugin:
            raise PluginError(f"two games are named {plugin.name!r}")
        found[plugin.name] = plugin
        _connect(plugin)
    return found


def games() -> list[GamePlugin]:
    """Every registered game, built-in ones first."""
    return list(_plugins().values())


def game_names() -> tuple[str, ...]:
    """The registered games' names."""
    return tuple(_plugins())


def game_plugin(name: str) -> GamePlugin:
    """The plug-in of game ``name``; :class:`UnknownGameError` naming the known games."""
    plugin = _plugins().get(name) if isinstance(name, str) else None
    if plugin is None:
        raise UnknownGameError(
            f"game: unknown game {str(name)[:40]!r} (known: {', '.join(_plugins())})")
    return plugin


def known_ui_settings() -> tuple[UiSetting, ...]:
    """Every display setting some registered game offers (each once, by name)."""
    seen: dict[str, UiSetting] = {}
    for plugin in games():
        for setting in plugin.ui_settings:
            seen.setdefault(setting.name, setting)
    return tuple(seen.values())
