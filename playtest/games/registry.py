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
from typing import Final

from engine import configured
from engine.core import register_game
from engine.players import games_with_levels, register_levels
from playtest.games.plugin import GamePlugin, PluginError
from playtest.games.ui_settings import UiSetting

#: The entry-point group an installed distribution registers its games in.
ENTRY_POINT_GROUP: Final = configured.ENTRY_POINT_GROUP
#: Extra plug-ins, ``module:OBJECT[,module:OBJECT…]`` (read when the registry loads).
GAMES_ENV: Final = configured.GAMES_ENV


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
    return tuple(resolve(reference) for reference in configured.references())


def _connect(plugin: GamePlugin) -> None:
    """Make the engine build and play the plug-in's game by its name (replays of stored
    records, the balance simulation, the demo's computer players): its factory, and its
    levels unless the engine has them already."""
    register_game(plugin.name, plugin.engine)
    if plugin.levels and plugin.name not in games_with_levels():
        register_levels(plugin.name, plugin.levels)


def _connect_all(plugins: dict[str, GamePlugin]) -> None:
    """Make the surveys and analytics layers find every registered game's own (its
    survey folder's surveys, its analytics by its name), replacing what an earlier read
    of the registry gave them; PluginError for a default survey no folder holds."""
    from analytics.game_analytics import GameAnalytics, register_games
    from surveys.loader import list_surveys, use_game_folders

    use_game_folders({name: p.survey_folder for name, p in plugins.items()
                      if p.survey_folder is not None})
    register_games({name: p.analytics for name, p in plugins.items()
                    if isinstance(p.analytics, GameAnalytics)})
    known = set(list_surveys())
    for plugin in plugins.values():
        named = (plugin.pre_survey, plugin.post_survey, *plugin.child_surveys.values())
        missing = [survey for survey in named if survey is not None and survey not in known]
        if missing:
            raise PluginError(f"{plugin.name}: no survey {', '.join(map(repr, missing))} "
                              "(its survey folder, GameFiles.surveys, holds <id>.yaml)")


@functools.cache
def _plugins() -> dict[str, GamePlugin]:
    found: dict[str, GamePlugin] = {}
    for plugin in (*built_in_games(), *configured_games()):
        if plugin.name in found and found[plugin.name] is not plugin:
            raise PluginError(f"two games are named {plugin.name!r}")
        found[plugin.name] = plugin
        _connect(plugin)
    _connect_all(found)
    return found


def reload() -> None:
    """Read the games again: the built-in ones and those configured now (entry points,
    :data:`GAMES_ENV`), for a test or a script that changed the configuration. A game no
    longer configured is no longer listed, nor are its surveys or analytics."""
    _plugins.cache_clear()
    _plugins()


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
