"""Nothing outside a game's folders names the game (issue 15, item 1).

A game lives in ``engine/<game>/``, ``surveys/games/<game>/``, ``analytics/games/<game>/``
and ``playtest/games/<game>/``, tied in by its one line in ``playtest/games/registry.py``
(the import of its plug-in, named once more in the list of built-in games).
This test greps the product packages for every registered game's name (any case) and
fails on a file outside those folders that names it, unless the file is in
:data:`KNOWN_OFFENDERS` (code not moved yet, each with why). That list may only shrink:
a listed file that no longer names its game fails the test too, so the list stays true.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from playtest.games.registry import game_names

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "surveys", "analytics", "playtest")
SUFFIXES = {".py", ".yaml", ".yml", ".json", ".js", ".css", ".html", ".md", ".mako", ".toml"}
REGISTRY = "playtest/games/registry.py"

#: Files outside a game's folders that still name it: (game, path) -> why.
KNOWN_OFFENDERS: dict[tuple[str, str], str] = {
    # -- frozen history
    ("vapoosh", "playtest/storage/migrations/versions/0003_games_name_their_game.py"):
        "frozen history: the game every older row was",
    # -- the exchange format's own word: an absent game means this one (stated once)
    ("vapoosh", "analytics/data.py"):
        "telemetry-format.md: records that name no game are this game's (UNNAMED_GAME)",
}


def _game_folders(game: str) -> tuple[str, ...]:
    return (f"engine/{game}/", f"surveys/games/{game}/", f"analytics/games/{game}/",
            f"playtest/games/{game}/")


def _product_files() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*")
                  if p.is_file() and p.suffix in SUFFIXES and "__pycache__" not in p.parts)


def _registry_line(game: str) -> str:
    return f"    from playtest.games.{game}.plugin import PLUGIN as {game.upper()}"


def _without_registry_line(text: str, game: str) -> str:
    """The registry's text without the game's import line and its name in the list."""
    text = text.replace(_registry_line(game), "")
    return re.sub(rf"\b{game.upper()}\b", "", text)


def _naming(game: str) -> list[str]:
    """Product files outside the game's folders whose text names the game."""
    pattern = re.compile(re.escape(game), re.IGNORECASE)
    found = []
    for path in _product_files():
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(_game_folders(game)):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if rel == REGISTRY:  # its one line per game may name the game
            text = _without_registry_line(text, game)
        if pattern.search(text):
            found.append(rel)
    return found


@pytest.mark.parametrize("game", game_names())
def test_no_file_outside_a_games_folders_names_it(game: str) -> None:
    known = {path for (g, path) in KNOWN_OFFENDERS if g == game}
    unexpected = sorted(set(_naming(game)) - known)
    assert not unexpected, (
        f"these files name {game!r} outside its folders ({', '.join(_game_folders(game))}):"
        f" {unexpected}; move the code into the game's folder or ask the registry")


@pytest.mark.parametrize("game", game_names())
def test_the_known_offenders_list_is_not_stale(game: str) -> None:
    naming = set(_naming(game))
    stale = sorted(path for (g, path) in KNOWN_OFFENDERS if g == game and path not in naming)
    assert not stale, f"no longer name {game!r}: remove them from KNOWN_OFFENDERS: {stale}"


def test_the_offenders_list_names_only_registered_games() -> None:
    assert {g for g, _ in KNOWN_OFFENDERS} <= set(game_names())


def test_the_registry_has_one_line_per_game() -> None:
    from playtest.games.registry import built_in_games

    lines = (ROOT / REGISTRY).read_text(encoding="utf-8").splitlines()
    for plugin in built_in_games():
        assert lines.count(_registry_line(plugin.name)) == 1
