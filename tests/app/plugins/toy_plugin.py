"""A game plug-in from outside the lab's packages, for the registry's configuration test:
the engine's tiny dice race (tests/engine/race_game.py) with one computer level."""

from __future__ import annotations

from typing import Any

from engine.players import RandomPlayer
from playtest.games.plugin import GamePlugin


def _engine(rules: Any, players: int) -> Any:
    from race_game import RaceGame  # tests/engine, on the path of the process that loads this

    return RaceGame()


def _check(rules: Any) -> Any:
    return rules


PLUGIN = GamePlugin(name="toyrace", title="Toy race", engine=_engine, presets=("standard",),
                    default_rules="standard", check_rules=_check, seats=(2, 2),
                    levels={"easy": RandomPlayer})
NOT_A_PLUGIN = "toyrace"
