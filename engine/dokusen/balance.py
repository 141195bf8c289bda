"""Dokusen's hooks of the balance simulator (:mod:`engine.balance`).

Dokusen has one human seat: a run names one computer level for it (the level plays as
the tester), the stage's own computer colours play their stage levels
(:func:`engine.dokusen.ai.computer_action`) and are the **house**, and the meteors are
chance nodes drawn by the simulator. So the generic numbers read: seat 1's win rate is
the share of stages that level wins; the house's the share it loses.

- **Parts**: a study's rules may be a course (``"all"``, or stages picked and changed);
  every stage is simulated on its own, so the designer sees the win rate per stage.
- **Length** counts rounds.
- **The section** adds the engine's events per game (placements, growth, meteors) and
  how much of the board the tester holds at the end.

>>> from engine.balance import simulate_parts
>>> (label, report), = simulate_parts("dokusen", "S1", ["greedy"], games=4, seed=1)
>>> label, report.seats, report.length_unit, report.house is not None
('S1', ('greedy',), 'rounds', True)
>>> report.seat_wins[0].trials == report.decided == 4
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.balance import (
    BalanceHooks,
    CountRates,
    GameResult,
    Interval,
    SectionTable,
    mean_interval,
    register_balance,
    wilson,
)
from engine.core import State
from engine.dokusen.ai import computer_action
from engine.dokusen.course import Course
from engine.dokusen.state import DokusenState

#: Counts that are not events: the tester's squares and the board's at the end.
USER_SQUARES, BOARD_SQUARES = "user_squares", "board_squares"


@dataclass(frozen=True)
class DokusenSection:
    """The stage's events per game, and the tester's share of the board at the end."""

    events: CountRates
    board_share: float
    board_share_ci: tuple[float, float]
    full_boards: Interval

    def to_dict(self) -> dict[str, Any]:
        return {**self.events.to_dict(), "board_share": {
            "mean": self.board_share, "ci95": list(self.board_share_ci),
            "full_boards": self.full_boards.share}}

    def text_lines(self) -> list[str]:
        low, high = self.board_share_ci
        return [*self.events.text_lines(), "",
                f"tester's share of the board at the end: mean {self.board_share:.1%} "
                f"[{low:.1%}, {high:.1%}]; no black square left in "
                f"{self.full_boards.share:.1%} of games"]

    def tables(self) -> list[SectionTable]:
        low, high = self.board_share_ci
        full = self.full_boards
        rows = (
            {"measure": "tester's share of the board at the end (mean)",
             "value": self.board_share, "ci95_low": low, "ci95_high": high},
            {"measure": "games that ended with no black square left",
             "value": full.share, "ci95_low": full.low, "ci95_high": full.high},
        )
        board = SectionTable(
            key="board", title="How much of the board the tester holds",
            definition=("The tester's squares over the board's squares when the stage "
                        "ends (a win needs more than half), averaged over the games, with "
                        "a 95% t-interval; and the share of games that ended because no "
                        "black square was left (the others reached the last round), with a "
                        "95% Wilson interval."),
            rows=rows, percent=("value", "ci95_low", "ci95_high"))
        return [*self.events.tables(), board]


class DokusenBalance(BalanceHooks):
    title = "Dokusen"
    length_unit = "rounds"
    max_actions = None  # maxRounds ends every stage
    seat_range = (1, 1)

    def parts(self, rules: Any) -> list[tuple[str, Any]]:
        course = Course.from_rules(rules)
        return [(stage.id, course.record_rules(stage.id)) for stage in course.stages]

    def house_action(self, state: State, rng: random.Random) -> int:
        assert isinstance(state, DokusenState)
        return computer_action(state, rng)

    def finish(self, state: State, moves: int, counts: dict[str, int], winner: int | None
               ) -> tuple[int, str, tuple[tuple[str, int], ...]]:
        assert isinstance(state, DokusenState)
        outcome = state.outcome
        squares = state.counts()
        counted = {**counts, USER_SQUARES: squares["0"], BOARD_SQUARES: squares["total"]}
        return (state.round, outcome.reason if outcome is not None else "unknown",
                tuple(counted.items()))

    def section(self, results: Sequence[GameResult]) -> DokusenSection:
        events = [k for r in results for k, _ in r.counts
                  if k not in (USER_SQUARES, BOARD_SQUARES)]
        shares = []
        for r in results:
            c = dict(r.counts)
            shares.append(c.get(USER_SQUARES, 0) / max(1, c.get(BOARD_SQUARES, 1)))
        full = sum(1 for r in results if r.reason == "full")
        return DokusenSection(
            events=CountRates.of(results, list(dict.fromkeys(events))),
            board_share=sum(shares) / len(shares) if shares else 0.0,
            board_share_ci=mean_interval(shares),
            full_boards=wilson(full, len(results)))


register_balance("dokusen", DokusenBalance())
