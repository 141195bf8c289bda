"""A two-seat game whose balance numbers are known exactly, for testing the simulator.

1. Chance draws the length ``L``, uniform in ``1..MAX_LEN`` (median 5).
2. Seat 1 then seat 2 picks 0 or 1 (event ``pick``), then ``L`` forced moves follow
   (one legal action each, event ``step``): a game is ``2 + L`` moves (median 7).
3. Chance ends it: a draw with probability ``p_draw``; otherwise a seat that picked 1
   against a 0 wins, and equal picks let seat 1 win with probability ``p_first``.

Levels: ``weak`` and ``weak_too`` pick at random (the same player under two names),
``strong`` always picks 1. So, among decided games:

- ``weak`` against ``weak_too``: seat 1 wins ``(p_first + 1/2) / 2``; each level 1/2
  when the seats rotate;
- ``strong`` against ``weak``, seats rotated: ``strong`` wins 3/4;
- draws are ``p_draw`` of all games.
"""

from __future__ import annotations

from typing import Any

from engine.core import CHANCE, TERMINAL, Event, register_game
from engine.players import Player, RandomPlayer, register_levels
from engine.players.base import Decision

NAME = "test_planted"
MAX_LEN = 9
LENGTH, DRAW, FIRST, SECOND = 100, 200, 201, 202


class PlantedState:
    def __init__(self, rules: dict[str, float]) -> None:
        self.rules = rules
        self.length: int | None = None
        self.picks: list[int] = []
        self.steps = 0
        self.result: int | None = None  # DRAW, FIRST or SECOND

    def current_player(self) -> int:
        if self.result is not None:
            return TERMINAL
        if self.length is None:
            return CHANCE
        if len(self.picks) < 2:
            return len(self.picks)
        if self.steps < self.length:
            return self.steps % 2
        return CHANCE

    def legal_actions(self) -> list[int]:
        who = self.current_player()
        if who == TERMINAL:
            return []
        if who == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        return [0, 1] if len(self.picks) < 2 else [0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.current_player() != CHANCE:
            return []
        if self.length is None:
            return [(LENGTH + k, 1 / MAX_LEN) for k in range(1, MAX_LEN + 1)]
        a, b = self.picks
        first = self.rules["p_first"] if a == b else float(a > b)
        rest = 1 - self.rules["p_draw"]
        return [(DRAW, self.rules["p_draw"]), (FIRST, rest * first),
                (SECOND, rest * (1 - first))]

    def apply_action(self, action: int) -> list[Event]:
        who = self.current_player()
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action}")
        if who == CHANCE and self.length is None:
            self.length = action - LENGTH
            return []
        if who == CHANCE:
            self.result = action
            return [Event("draw" if action == DRAW else "win", None)]
        if len(self.picks) < 2:
            self.picks.append(action)
            return [Event("pick", who + 1)]
        self.steps += 1
        return [Event("step", who + 1)]

    def clone(self) -> PlantedState:
        other = PlantedState(self.rules)
        other.length, other.picks = self.length, list(self.picks)
        other.steps, other.result = self.steps, self.result
        return other

    def is_terminal(self) -> bool:
        return self.result is not None

    def returns(self) -> list[float]:
        if self.result == FIRST:
            return [1.0, -1.0]
        if self.result == SECOND:
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def to_json(self) -> dict[str, Any]:
        return {"length": self.length, "picks": self.picks, "steps": self.steps}


class PlantedGame:
    name = NAME
    num_players = 2

    def __init__(self, rules: Any) -> None:
        self.rules = {"p_first": 0.5, "p_draw": 0.0, **(rules or {})}

    def new_initial_state(self) -> PlantedState:
        return PlantedState(self.rules)

    def rules_obj(self) -> dict[str, float]:
        return dict(self.rules)


class StrongPlayer(Player):
    level = "strong"

    def _decide(self, state: Any, legal: list[int]) -> Decision:
        return Decision(max(legal), "picks 1")


register_game(NAME, lambda rules, players: PlantedGame(rules))  # type: ignore[arg-type,return-value]
register_levels(NAME, {"weak": RandomPlayer, "weak_too": RandomPlayer, "strong": StrongPlayer},
                rules={"p_first": 0.5, "p_draw": 0.0})
