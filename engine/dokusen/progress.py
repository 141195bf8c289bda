"""A tester's way through the stages (the seed: a won stage lets the player go on to the
next; a lost one must be replayed), and stage variants for a study's A/B tests.

Progress is a pure function of the tester's finished games, so the app keeps nothing
but the games it already stores.

>>> p = Progress.from_results([("S1", "win"), ("S2", "loss"), ("S2", "win"), ("S3", "loss")])
>>> p.current(["S1", "S2", "S3", "S4"]), p.unlocked(["S1", "S2", "S3", "S4"])
('S3', ['S1', 'S2', 'S3'])
>>> p.attempts["S2"], p.won_on_attempt("S2")
(2, 2)
>>> Progress.from_records([("S1", "win:full"), ({"id": "S2", "board": ["1."]}, "loss:max_rounds"),
...                        ("S2", "abandoned")]).attempts
{'S1': 1, 'S2': 1}
>>> vary("S7", {"meteors": {"firstRound": 3, "every": 3}, "id": "S7-fast"}).schedule
MeteorSchedule(first_round=3, every=3, radius=1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import RulesError
from engine.dokusen.stage import Stage


@dataclass(frozen=True)
class Progress:
    """Which stages a tester has won, and how many finished attempts each took."""

    won: frozenset[str] = frozenset()
    attempts: Mapping[str, int] = field(default_factory=dict)
    first_win: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def from_results(cls, results: Iterable[tuple[str, str]]) -> Progress:
        """From ``(stage id, "win" | "loss")`` of the tester's finished games, oldest first."""
        won: set[str] = set()
        attempts: dict[str, int] = {}
        first_win: dict[str, int] = {}
        for stage, result in results:
            if result not in ("win", "loss"):
                raise RulesError(f"result: must be 'win' or 'loss', got {result!r}")
            attempts[stage] = attempts.get(stage, 0) + 1
            if result == "win" and stage not in won:
                won.add(stage)
                first_win[stage] = attempts[stage]
        return cls(frozenset(won), attempts, first_win)

    @classmethod
    def from_records(cls, records: Iterable[tuple[Any, str | None]]) -> Progress:
        """From the ``(rules, reason)`` of the tester's finished game records, oldest
        first: the rules name the stage (its id, or a stage object with an ``id``), the
        reason starts with ``win`` or ``loss`` (``"win:full"``); games that ended any
        other way (left, restarted) are not attempts."""
        results = []
        for rules, reason in records:
            stage = rules if isinstance(rules, str) else (
                rules.get("id") if isinstance(rules, Mapping) else None)
            result = (reason or "").split(":", 1)[0]
            if isinstance(stage, str) and result in ("win", "loss"):
                results.append((stage, result))
        return cls.from_results(results)

    def unlocked(self, order: Sequence[str]) -> list[str]:
        """The stages the tester may play: the first, and each one after a won stage."""
        out = []
        for k, stage in enumerate(order):
            if k == 0 or order[k - 1] in self.won:
                out.append(stage)
            else:
                break
        return out

    def current(self, order: Sequence[str]) -> str:
        """The stage to offer: the first one not yet won (the last when all are won)."""
        for stage in order:
            if stage not in self.won:
                return stage
        return order[-1]

    def won_on_attempt(self, stage: str) -> int | None:
        """The attempt (1 = first) on which ``stage`` was first won, or None."""
        return self.first_win.get(stage)


def vary(stage: Stage | Mapping[str, Any] | str, changes: Mapping[str, Any]) -> Stage:
    """A stage with some fields replaced (a study's variant of a stage); validated like
    any stage, raising :class:`RulesError` naming the field."""
    base = Stage.from_obj(stage) if not isinstance(stage, Stage) else stage
    obj = base.to_obj()
    obj.update(changes)
    return Stage.from_obj(obj)
