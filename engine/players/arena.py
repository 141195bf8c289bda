"""Matches between two computer players of any game, with seats swapped, and their
win rates with 95% Wilson intervals.

Game ``g`` of a match gives the first player seat ``g % 2``; games ``2k`` and ``2k + 1``
share their chance draws (the same dice, dealt to swapped seats), so luck cancels out
between the pair. Every draw comes from generators seeded from ``seed``: the same seed
gives the same table.

>>> r = MatchResult("some game", "hard", "easy", games=100, wins=60, losses=38, draws=2,
...                 actions=5000)
>>> r.decided, round(r.share, 3), [round(x, 3) for x in r.interval]
(98, 0.612, [0.513, 0.703])
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core import make_game, sample_chance
from engine.players.base import Player

#: A named way to build a seeded player: ``(level name, factory(seed))``.
Contender = tuple[str, Callable[[int], Player]]
#: Safety net for games without an end rule of their own: a draw after this many actions.
MAX_ACTIONS = 2000


def derive_seed(seed: int, *parts: object) -> int:
    """A 62-bit seed from ``seed`` and labels (stable across runs and machines).

    >>> derive_seed(1, "game", 3) == derive_seed(1, "game", 3) != derive_seed(1, "game", 4)
    True
    """
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little") >> 2


@dataclass(frozen=True)
class MatchResult:
    """The first player's results against the second over ``games`` games.

    ``share`` is its wins among decided games, with a 95% Wilson interval
    ``[low, high]`` (draws are left out of both counts).
    """

    game: str
    first: str
    second: str
    games: int
    wins: int
    losses: int
    draws: int
    actions: int

    @property
    def decided(self) -> int:
        return self.wins + self.losses

    @property
    def share(self) -> float:
        return self.wins / self.decided if self.decided else float("nan")

    @property
    def interval(self) -> tuple[float, float]:
        from statsmodels.stats.proportion import proportion_confint
        if not self.decided:
            return (0.0, 1.0)
        low, high = proportion_confint(self.wins, self.decided, alpha=0.05, method="wilson")
        return float(low), float(high)

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "game": self.game,
            "pair": f"{self.first} vs {self.second}",
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "share": self.share,
            "low": low,
            "high": high,
            "actions": self.actions,
        }


def play_one(
    game_name: str, rules: Any, players: list[Player], chance: random.Random
) -> tuple[list[float], int]:
    """Play one two-seat game; returns its ``returns()`` and how many actions it took."""
    state = make_game(game_name, rules, len(players)).new_initial_state()
    actions = 0
    while not state.is_terminal() and actions < MAX_ACTIONS:
        seat = state.current_player()
        action = sample_chance(state, chance) if seat < 0 else players[seat].decide(state).action
        state.apply_action(action)
        actions += 1
    returns = list(state.returns()) if state.is_terminal() else [0.0] * len(players)
    return returns, actions


def play_match(
    game_name: str, rules: Any, first: Contender, second: Contender, games: int, seed: int
) -> MatchResult:
    """``games`` games of ``first`` against ``second``, seats swapped every game."""
    wins = losses = draws = total_actions = 0
    for g in range(games):
        a_seat = g % 2
        chance = random.Random(derive_seed(seed, game_name, "chance", g // 2))
        a = first[1](derive_seed(seed, game_name, first[0], "player", g))
        b = second[1](derive_seed(seed, game_name, second[0], "player", g))
        seats = [a, b] if a_seat == 0 else [b, a]
        returns, actions = play_one(game_name, rules, seats, chance)
        total_actions += actions
        if returns[a_seat] > returns[1 - a_seat]:
            wins += 1
        elif returns[a_seat] < returns[1 - a_seat]:
            losses += 1
        else:
            draws += 1
    return MatchResult(game_name, first[0], second[0], games, wins, losses, draws, total_actions)
