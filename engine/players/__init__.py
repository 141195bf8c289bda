"""Computer players for every game: generic players over the engine core, and each game's
named levels.

A game registers its levels (easiest first) with :func:`register_levels`, usually built
from the generic :class:`RandomPlayer`, :class:`GreedyPlayer` and :class:`SearchPlayer`
with the game's own :class:`Heuristics`, plus players of its own. A game's levels live in
``engine/<game>/players.py``, which :func:`make_player` imports on first use (a game
configured from outside the packages registers them when its module is imported:
:mod:`engine.configured`).

>>> register_levels("toy", {"easy": RandomPlayer, "hard": GreedyPlayer})
>>> levels("toy")
('easy', 'hard')
>>> make_player("hard", seed=3, game="toy")
GreedyPlayer(seed=3)
>>> make_player("grandmaster", game="toy")
Traceback (most recent call last):
...
engine.players.base.PlayerError: unknown computer level 'grandmaster' (choose easy, hard)
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Mapping
from typing import Any

from engine.players.base import Decision, Heuristics, PlainHeuristics, Player, PlayerError
from engine.players.generic import GreedyPlayer, RandomPlayer, SearchPlayer

#: Builds a seeded player of one level.
PlayerFactory = Callable[[int], Player]
_LEVELS: dict[str, dict[str, PlayerFactory]] = {}
_RULES: dict[str, Any] = {}


def register_levels(
    game: str, factories: Mapping[str, PlayerFactory], rules: Any = None
) -> None:
    """Name ``game``'s computer levels, easiest first: ``{level: factory(seed)}``;
    ``rules`` is the rule set they are measured under (``make_game``'s ``rules``)."""
    _LEVELS[game] = dict(factories)
    _RULES[game] = rules


def standard_levels(heuristics: Heuristics, hard_budget: int,
                    hard_width: int | None = None) -> dict[str, PlayerFactory]:
    """The three levels most games offer, easiest first, on the game's ``heuristics``:
    ``easy`` (:class:`RandomPlayer`), ``medium`` (:class:`GreedyPlayer`) and ``hard``
    (:class:`SearchPlayer` creating up to ``hard_budget`` positions per decision, and
    looking deeper only at its ``hard_width`` best moves when given; a ``budget=``
    argument overrides the budget).

    >>> made = standard_levels(PlainHeuristics(), 300)
    >>> list(made), made["hard"](5).budget, made["hard"](5, budget=40).budget
    (['easy', 'medium', 'hard'], 300, 40)
    >>> standard_levels(PlainHeuristics(), 300, hard_width=8)["hard"](5).width
    8
    """

    def easy(seed: int) -> Player:
        return RandomPlayer(seed, heuristics)

    def medium(seed: int) -> Player:
        return GreedyPlayer(seed, heuristics)

    def hard(seed: int, budget: int = hard_budget) -> Player:
        return SearchPlayer(seed, heuristics, budget=budget, width=hard_width)

    return {"easy": easy, "medium": medium, "hard": hard}


def default_rules(game: str) -> Any:
    """The rules ``game``'s levels were registered with."""
    _levels_of(game)
    return _RULES[game]


def level_factory(game: str, level: str) -> PlayerFactory:
    """The factory of one level (see :func:`make_player`)."""
    factories = _levels_of(game)
    try:
        return factories[level]
    except (KeyError, TypeError):
        raise PlayerError(
            f"unknown computer level {level!r} (choose {', '.join(factories)})"
        ) from None


def _levels_of(game: str) -> dict[str, PlayerFactory]:
    if game not in _LEVELS:
        with contextlib.suppress(ImportError):
            importlib.import_module(f"engine.{game}.players")
    if game not in _LEVELS:  # a configured game's module registers its levels
        from engine.configured import ConfiguredGameError, import_configured

        with contextlib.suppress(ConfiguredGameError):
            import_configured()
    if game not in _LEVELS:
        raise PlayerError(f"no computer players for game {game!r}")
    return _LEVELS[game]


def levels(game: str) -> tuple[str, ...]:
    """``game``'s level names, easiest first."""
    return tuple(_levels_of(game))


def games_with_levels() -> tuple[str, ...]:
    """Games whose levels are registered so far (import a game to register it)."""
    return tuple(_LEVELS)


def make_player(level: str, seed: int = 1, *, game: str) -> Player:
    """A seeded computer player of ``game`` at ``level``; :class:`PlayerError` if unknown."""
    return level_factory(game, level)(seed)


__all__ = [
    "Decision",
    "GreedyPlayer",
    "Heuristics",
    "PlainHeuristics",
    "Player",
    "PlayerError",
    "RandomPlayer",
    "SearchPlayer",
    "default_rules",
    "games_with_levels",
    "level_factory",
    "levels",
    "make_player",
    "register_levels",
    "standard_levels",
]
