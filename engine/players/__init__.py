"""Computer players for Vapoosh!: Easy, Medium, Hard and Expert.

>>> from engine.players import LEVELS, make_player
>>> LEVELS
('easy', 'medium', 'hard', 'expert')
>>> make_player("hard", seed=3)
HardPlayer(seed=3)

A player decides only in phase "place", for the seat to move; the caller rolls the dice.
``player.choose(state)`` returns a :class:`Decision` (the move and a one-line reason).
"""

from __future__ import annotations

from engine.players.base import Decision, Player, PlayerError
from engine.players.evaluation import Weights
from engine.players.search import ExpectimaxPlayer, ExpertPlayer, HardPlayer
from engine.players.simple import EasyPlayer, MediumPlayer

LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert")

_CLASSES: dict[str, type[Player]] = {
    "easy": EasyPlayer,
    "medium": MediumPlayer,
    "hard": HardPlayer,
    "expert": ExpertPlayer,
}


def make_player(level: str, seed: int = 1) -> Player:
    """A computer player of the given level (one of :data:`LEVELS`), seeded.

    >>> make_player("grandmaster")
    Traceback (most recent call last):
    ...
    engine.players.base.PlayerError: unknown computer level 'grandmaster' (choose easy, medium, hard, expert)
    """
    try:
        cls = _CLASSES[level]
    except (KeyError, TypeError):
        raise PlayerError(
            f"unknown computer level {level!r} (choose {', '.join(LEVELS)})"
        ) from None
    return cls(seed=seed)


__all__ = [
    "LEVELS",
    "Decision",
    "EasyPlayer",
    "ExpectimaxPlayer",
    "ExpertPlayer",
    "HardPlayer",
    "MediumPlayer",
    "Player",
    "PlayerError",
    "Weights",
    "make_player",
]
