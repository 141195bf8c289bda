"""Games configured from outside the lab's packages: where the configuration is read.

A game whose code is not in ``engine/<game>/`` (a plug-in in a checkout's ``tests/``
folder, an installed distribution) is named by ``module:OBJECT`` references: an
installed distribution's entry points in the group :data:`ENTRY_POINT_GROUP`, then the
environment variable :data:`GAMES_ENV` (references separated by commas). The app's
registry (``playtest.games.registry``) reads the same references and resolves each to
its plug-in; the engine only imports their modules (:func:`import_configured`), whose
engine registers its game (:func:`engine.core.register_game`) and its computer levels
(:func:`engine.players.register_levels`) as ``engine/<game>/`` does. So the engine
builds a configured game by its name in any process (a replay, a balance simulation's
worker processes, the engine's command line), whether the registry was read or not.

>>> references({GAMES_ENV: " pkg.plugin:PLUGIN , other:GAME,"})[-2:]
('pkg.plugin:PLUGIN', 'other:GAME')
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from importlib.metadata import entry_points
from typing import Final

#: The entry-point group an installed distribution registers its games in.
ENTRY_POINT_GROUP: Final = "playtest_lab.games"
#: Games configured in the environment: ``module:OBJECT[,module:OBJECT…]``.
GAMES_ENV: Final = "PLAYTEST_GAMES"


class ConfiguredGameError(ImportError):
    """A configured reference whose module cannot be imported; the message names it."""


def references(environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The configured ``module:OBJECT`` references: entry points, then :data:`GAMES_ENV`
    of ``environ`` (default: this process's environment)."""
    found = [f"{ep.module}:{ep.attr}" for ep in entry_points(group=ENTRY_POINT_GROUP)]
    listed = (os.environ if environ is None else environ).get(GAMES_ENV, "")
    return (*found, *(ref.strip() for ref in listed.split(",") if ref.strip()))


def import_configured() -> None:
    """Import the module of every configured reference (once each: Python keeps them);
    :class:`ConfiguredGameError` naming a reference whose module cannot be imported."""
    for reference in references():
        module = reference.partition(":")[0]
        try:
            importlib.import_module(module)
        except ImportError as err:
            raise ConfiguredGameError(f"game plug-in {reference!r}: {err}") from None
