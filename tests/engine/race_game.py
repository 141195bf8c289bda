"""A tiny two-seat dice race over the engine core, for testing the generic players.

Each turn the mover steps ``safe`` (+1) or ``risky`` (a draw: nothing with probability
2/3, +3 with 1/3); the first to reach ``GOAL`` wins; after ``MAX_TURNS`` turns it is a
draw. Small enough to solve exactly, and it has chance nodes of unequal outcomes.
"""

from __future__ import annotations

from typing import Any

from engine.core import CHANCE, TERMINAL, Event, register_game

GOAL = 4
MAX_TURNS = 6
SAFE, RISKY = 0, 1
MISS, HIT = 2, 3  # chance actions
OUTCOMES = ((MISS, 2 / 3), (HIT, 1 / 3))


class RaceState:
    def __init__(self, pos: tuple[int, int] = (0, 0), mover: int = 0, rolling: bool = False,
                 turns: int = 0) -> None:
        self.pos = list(pos)
        self.mover = mover
        self.rolling = rolling
        self.turns = turns

    def winner(self) -> int | None:
        for s in (0, 1):
            if self.pos[s] >= GOAL:
                return s
        return None

    def is_terminal(self) -> bool:
        return self.winner() is not None or self.turns >= MAX_TURNS

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return CHANCE if self.rolling else self.mover

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        return [MISS, HIT] if self.rolling else [SAFE, RISKY]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(OUTCOMES) if self.rolling and not self.is_terminal() else []

    def apply_action(self, action: int) -> list[Event]:
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action}")
        if self.rolling:
            if action == HIT:
                self.pos[self.mover] += 3
            self.rolling = False
            self._end_turn()
        elif action == SAFE:
            self.pos[self.mover] += 1
            self._end_turn()
        else:
            self.rolling = True
        return []

    def _end_turn(self) -> None:
        self.mover = 1 - self.mover
        self.turns += 1

    def clone(self) -> RaceState:
        return RaceState((self.pos[0], self.pos[1]), self.mover, self.rolling, self.turns)

    def returns(self) -> list[float]:
        w = self.winner()
        if w is None:
            return [0.0, 0.0]
        return [1.0 if s == w else -1.0 for s in (0, 1)]

    def to_json(self) -> dict[str, Any]:
        return {"pos": self.pos, "mover": self.mover, "rolling": self.rolling,
                "turns": self.turns}


class RaceGame:
    name = "test_race"
    num_players = 2

    def new_initial_state(self) -> RaceState:
        return RaceState()


register_game("test_race", lambda rules, players: RaceGame())  # type: ignore[arg-type,return-value]


def exact_value(state: RaceState) -> list[float]:
    """Expectimax value of ``state`` for both seats, solved to the end."""
    if state.is_terminal():
        return state.returns()
    p = state.current_player()
    if p == CHANCE:
        total = [0.0, 0.0]
        for a, prob in state.chance_outcomes():
            v = exact_value(after(state, a))
            total = [total[s] + prob * v[s] for s in (0, 1)]
        return total
    return max((exact_value(after(state, a)) for a in state.legal_actions()), key=lambda v: v[p])


def after(state: RaceState, action: int) -> RaceState:
    child = state.clone()
    child.apply_action(action)
    return child
