"""Small builders shared by the Vapoosh! engine tests (positions, rolls, drivers)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

from engine.core import Event
from engine.vapoosh import VapooshGame, VapooshState
from engine.vapoosh.playout import RULE_EVENTS


def rows(cells: Mapping[tuple[int, int], str] | None = None) -> list[str]:
    """12 board strings with ``cells[(c, r)]`` filled in (``"1"``..``"4"`` or ``"B"``)."""
    grid = [["."] * 12 for _ in range(12)]
    for (c, r), ch in (cells or {}).items():
        grid[r - 1][c - 1] = ch
    return ["".join(row) for row in grid]


def position(
    cells: Mapping[tuple[int, int], str] | None = None,
    rules: object = "standard",
    players: int = 2,
    to_move: int = 1,
    skips: Mapping[int, int] | None = None,
) -> VapooshState:
    """A state in phase ``roll`` on the given board."""
    game = VapooshGame(rules, players)  # type: ignore[arg-type]
    return game.state_from_position(rows(cells), to_move, skips)


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def dice_for(c: int, r: int) -> tuple[int, int, int, int]:
    """Ordinary dice (no quad, no three 6s) whose options are ``(c, r)`` and ``(r, c)``."""
    for p1 in range(1, 7):
        for g1 in range(1, 7):
            p2, g2 = c - p1, r - g1
            dice = (p1, p2, g1, g2)
            if not (1 <= p2 <= 6 and 1 <= g2 <= 6):
                continue
            if len(set(dice)) == 1 or dice.count(6) >= 3:
                continue
            return dice
    raise ValueError(f"no ordinary dice for {(c, r)}")


def drive_random(game: VapooshGame, rng: random.Random) -> tuple[VapooshState, Counter[str]]:
    """Play a whole game with the draw protocol of engine.vapoosh.playout."""
    state = game.new_initial_state()
    counts: Counter[str] = Counter()
    while not state.is_terminal():
        if state.phase == "setup":
            outs = state.chance_outcomes()
            action = outs[int(rng.random() * len(outs))][0]
        elif state.phase == "roll":
            action = int(rng.random() * 1296)
        else:
            legal = state.legal_actions()
            action = legal[int(rng.random() * len(legal))] if len(legal) > 1 else legal[0]
        for event in state.apply_action(action):
            counts[event.kind] += 1
    return state, counts


def rule_counts(counts: Counter[str]) -> dict[str, int]:
    return {k: counts[k] for k in RULE_EVENTS}
