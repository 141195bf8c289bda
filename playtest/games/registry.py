"""The one registry of the games the lab can playtest: one line per game.

A game is a plug-in with a folder in every layer (``engine/<game>/``,
``surveys/games/<game>/``, ``analytics/games/<game>/``, ``playtest/games/<game>/``); its
``playtest/games/<game>/__init__.py`` describes it as a :class:`GamePlugin`
(``PLUGIN``), and :data:`GAME_MODULES` below lists those modules. Everything outside the
games' folders asks this module, never a game by name.

>>> [p.name for p in games()] == list(GAME_NAMES)
True
>>> plugin = game_plugin(DEFAULT_GAME)
>>> plugin.name == DEFAULT_GAME and plugin.default_rules in plugin.presets
True
>>> game_plugin("chess")
Traceback (most recent call last):
...
playtest.games.registry.UnknownGameError: game: unknown game 'chess' (known: ...)
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from engine.core import Game, make_game

#: The games, by their plug-in module: ONE LINE PER GAME.
GAME_MODULES: Final[tuple[str, ...]] = (
    "playtest.games.vapoosh",
    "playtest.games.morris",
    "playtest.games.vasco",
    "playtest.games.dokusen",
)

#: The game of a study, game record or event that does not say (everything stored
#: before the lab had more than one game).
DEFAULT_GAME: Final = GAME_MODULES[0].rsplit(".", 1)[1]


class UnknownGameError(ValueError):
    """A game name the registry does not know; the message lists the known ones."""


@dataclass(frozen=True)
class GamePlugin:
    """What the app asks a game (one frozen value per game, ``PLUGIN`` in its folder).

    - ``name``: the game's folder name in every layer, its engine name
      (:func:`engine.core.make_game`) and the prefix of its chance seeds;
    - ``title``: the game's name for people; ``about``: what it is in a few words, after
      its title in the tester's consent text ("a dice and times-tables board game");
    - ``presets`` and ``default_rules``: the named rule sets a study may choose;
      ``rule_options``: each rules option's choices (the Studies page's help);
      ``check_rules(rules)``: raises ``ValueError``/``RulesError`` saying why a preset name
      or rules object cannot be played;
    - ``seats``: the fewest and most seats a game may have; ``default_seats``: the seats
      of a new study (and of its demo study) when the designer gives none;
    - ``pre_survey``, ``post_survey``: the default surveys (``surveys/games/<name>/``);
      ``child_surveys``: the children's form per phase (``"pre"``, ``"post"``); a
      survey's adults' form is found by its name, ``<id>_adult`` beside it (no field:
      :func:`playtest.services.survey_id_for`);
    - ``catalog_path``: the message catalog (YAML) of its play screen;
    - ``analytics_module``: its analytics plug-in (``analytics/games/<name>/``);
    - ``board_module``: the module that draws its board (a Streamlit component);
    - ``play_module``: the module whose ``play_page(tester, to_post_survey=...)`` draws
      the tester's play step;
    - ``replay_module``: the module whose ``replay_page(engine, game)`` draws a stored
      game step by step on the game's board on the designer's Replay page ("" shows the
      engine's text view instead); ``replay_glow(events, computer)``: the board marks of
      the tiles one replayed action touched (None: no marks).
    """

    name: str
    title: str
    presets: tuple[str, ...]
    default_rules: str
    check_rules: Callable[[Any], Any]
    rule_options: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    seats: tuple[int, int] = (1, 4)
    default_seats: tuple[str, ...] = ("human", "ai:easy")
    pre_survey: str | None = None
    post_survey: str | None = None
    child_surveys: Mapping[str, str] = field(default_factory=dict)
    catalog_path: Path | None = None
    board_module: str = ""
    play_module: str = ""
    #: The setup chance action a game's seed deals (``deal(rules, players, seed)``), for
    #: games whose rules start with a random setup; None for the others.
    deal: Callable[[Any, int, int], Any] | None = None
    #: The study's display settings (``ui:<setting>``) its board does not use: an
    #: experiment on one of them would compare arms that look the same.
    ignored_ui: tuple[str, ...] = ()
    about: str = ""
    replay_module: str = ""
    replay_glow: Callable[[list[dict[str, Any]], bool], dict[tuple[int, int], str]] | None = None
    #: An engine refusal reason in the words of the game's message catalog (None: not
    #: one of its reasons), for the designer's tables; None: the game has no such words.
    refusal_words: Callable[[str], str | None] | None = None

    @property
    def seed_prefix(self) -> str:
        """What a game's chance seeds start with (``"<name>:<seed>:<draw>"``)."""
        return self.name

    @property
    def analytics_module(self) -> str:
        return f"analytics.games.{self.name}"

    def make_game(self, rules: Any, players: int) -> Game:
        """The engine's game for these rules (a preset name or a rules object) and seats."""
        return make_game(self.name, rules, players)

    def ai_levels(self) -> tuple[str, ...]:
        """The computer levels a seat ``"ai:<level>"`` of this game may name, easiest
        first: the engine's registered levels (:func:`engine.players.levels`), else those
        the game's default seats name (a game whose computer has one strength), else none
        (a game without computer seats).

        >>> game_plugin(DEFAULT_GAME).ai_levels()[0]
        'easy'
        """
        from engine.players import PlayerError, levels

        try:
            return levels(self.name)
        except PlayerError:
            named = (s.split(":", 1)[1] for s in self.default_seats if s.startswith("ai:"))
            return tuple(dict.fromkeys(named))

    def analytics(self) -> Any | None:
        """The game's analytics plug-in object (``ANALYTICS``), or None without one."""
        try:
            module = importlib.import_module(self.analytics_module)
        except ImportError:
            return None
        return getattr(module, "ANALYTICS", None)

    def board(self) -> Any:
        """The module that draws the game's board (imports Streamlit)."""
        return importlib.import_module(self.board_module)


@functools.cache
def _plugins() -> dict[str, GamePlugin]:
    found: dict[str, GamePlugin] = {}
    for module_name in GAME_MODULES:
        plugin = importlib.import_module(module_name).PLUGIN
        if not isinstance(plugin, GamePlugin) or module_name.rsplit(".", 1)[1] != plugin.name:
            raise TypeError(f"{module_name}.PLUGIN must be a GamePlugin named after its folder")
        found[plugin.name] = plugin
    return found


#: The registered games' names, in registry order.
GAME_NAMES: Final[tuple[str, ...]] = tuple(m.rsplit(".", 1)[1] for m in GAME_MODULES)


def games() -> list[GamePlugin]:
    """Every registered game, in registry order."""
    return list(_plugins().values())


def game_plugin(name: str | None) -> GamePlugin:
    """The plug-in of game ``name`` (None: :data:`DEFAULT_GAME`).

    Raises :class:`UnknownGameError` naming the known games.
    """
    key = DEFAULT_GAME if name is None else name
    plugin = _plugins().get(key) if isinstance(key, str) else None
    if plugin is None:
        raise UnknownGameError(
            f"game: unknown game {str(key)[:40]!r} (known: {', '.join(GAME_NAMES)})")
    return plugin
