"""Which experiment arm a new tester gets: balanced among completers, not only starters.

**The rule** (:data:`RULE`). Each arm's *expected completers* are its completers plus its
testers in progress, each weighted by the arm's completion rate::

    expected = completed + in_progress × rate
    rate     = (completed + 2 · pooled) / (completed + dropped + 2)
    pooled   = (all completed + 1) / (all completed + all dropped + 2)

(completed, in progress and dropped out as :mod:`playtest.storage.places` defines them;
the rate is the arm's share of finished testers who completed, shrunk towards the
study's with the weight of two testers, so an arm with no finished testers yet weighs
its testers in progress like the study's). The new tester goes to the arm with the
fewest expected completers; arms tied within 1e-9 are split by a hash of the experiment
key and the tester's code: deterministic (the same database and tester give the same
arm), unpredictable to the study team, and even across testers. Each assignment stores
the rule and the tallies it saw (:meth:`Allocation.record`, the assignment's
``allocation``).

While every arm loses the same share of its testers this gives each arm the same number
of starters, as the fewest-starters rule did; when one arm loses more (its game is
harder, its wording puts people off), that arm gets more starters, and the completers
stay balanced. :func:`simulate` plays a study through it (``python -m
benchmarks.sim_allocation`` prints the comparison).

>>> tallies = {"A": ArmTally(completed=9, in_progress=2, dropped=1),
...            "B": ArmTally(completed=6, in_progress=2, dropped=4)}
>>> choose_arm(["A", "B"], tallies, "tester-1", "wording").variant
'B'
>>> choose_arm(["A", "B"], {}, "tester-1", "wording") == choose_arm(["A", "B"], {}, "tester-1", "wording")
True
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from playtest.storage.places import ArmTally

RULE: Final = "fewest_expected_completers"
#: The rule before: the arm with the fewest starters (consented testers), kept to compare.
STARTERS_RULE: Final = "fewest_starters"
Rule = Literal["fewest_expected_completers", "fewest_starters"]
_TIE: Final = 1e-9


def _pooled_rate(tallies: Mapping[str, ArmTally]) -> float:
    done = sum(t.completed for t in tallies.values())
    dropped = sum(t.dropped for t in tallies.values())
    return (done + 1) / (done + dropped + 2)


def expected_completers(tally: ArmTally, pooled: float) -> float:
    """An arm's completers plus its testers in progress weighted by its shrunk
    completion rate (the module's rule).

    >>> expected_completers(ArmTally(completed=3, in_progress=2, dropped=1), pooled=0.5)
    4.333333333333333
    """
    rate = (tally.completed + 2 * pooled) / (tally.completed + tally.dropped + 2)
    return tally.completed + tally.in_progress * rate


def _score(rule: Rule, tally: ArmTally, pooled: float) -> float:
    if rule == STARTERS_RULE:
        return float(tally.completed + tally.in_progress + tally.dropped)
    return expected_completers(tally, pooled)


def tie_break(experiment: str, tester: str, arms: Sequence[str]) -> str:
    """One of ``arms``, chosen by a hash of the experiment and the tester's code.

    >>> tie_break("wording", "tester-1", ["A", "B"]) == tie_break("wording", "tester-1", ["A", "B"])
    True
    """
    digest = hashlib.sha256(f"{experiment}\x00{tester}".encode()).digest()
    return arms[int.from_bytes(digest[:8], "big") % len(arms)]


@dataclass(frozen=True)
class Allocation:
    """The arm chosen, and what it was chosen from (stored with the assignment)."""

    variant: str
    rule: str
    scores: dict[str, float]
    tallies: dict[str, ArmTally]

    def record(self) -> dict[str, Any]:
        """The assignment's ``allocation`` as stored and exported: the rule, each arm's
        score and its completed / in progress / dropped counts."""
        return {"rule": self.rule,
                "scores": {v: round(s, 4) for v, s in self.scores.items()},
                "tallies": {v: [t.completed, t.in_progress, t.dropped]
                            for v, t in self.tallies.items()}}


def choose_arm(variants: Sequence[str], tallies: Mapping[str, ArmTally], tester: str,
               experiment: str, rule: Rule = RULE) -> Allocation:
    """The arm of ``variants`` a new tester gets under ``rule`` (the module's rule)."""
    if not variants:
        raise ValueError("an experiment needs variants")
    seen = {v: tallies.get(v, ArmTally()) for v in variants}
    pooled = _pooled_rate(seen)
    scores = {v: _score(rule, t, pooled) for v, t in seen.items()}
    low = min(scores.values())
    tied = [v for v in variants if scores[v] <= low + _TIE]
    return Allocation(tie_break(experiment, tester, tied), rule, scores, seen)


# -- a study played through the rule ----------------------------------------------------


@dataclass(frozen=True)
class SimulatedStudy:
    """How a simulated study ended: completers and starters per arm."""

    completed: dict[str, int]
    started: dict[str, int]

    @property
    def gap(self) -> int:
        """Most completers of an arm minus fewest."""
        return max(self.completed.values()) - min(self.completed.values())


def simulate(rates: Mapping[str, float], *, completes: int, seed: int,
             rule: Rule = RULE, arrivals_per_hour: float = 30.0,
             minutes: float = 20.0, hold_minutes: float = 60.0) -> SimulatedStudy:
    """A study with a quota of ``completes`` places, run until it is full and everyone
    in it finished or dropped out. Testers arrive at random (``arrivals_per_hour``,
    exponential gaps); a tester of arm ``v`` completes with chance ``rates[v]`` after a
    log-normal time (median ``minutes``), else leaves half-way and never comes back.

    >>> result = simulate({"A": 0.9, "B": 0.6}, completes=40, seed=1)
    >>> sum(result.completed.values()) >= 40, result.gap <= 2
    (True, True)
    """
    rng = random.Random(seed)
    arms = list(rates)
    hold = hold_minutes
    testers: list[tuple[float, str, float | None]] = []  # start, arm, completion time
    now = 0.0
    for number in range(100_000):
        now += rng.expovariate(arrivals_per_hour / 60.0)
        tallies = _tallies_at(testers, now, hold)
        taken = sum(t.completed + t.in_progress for t in tallies.values())
        if sum(t.completed for t in tallies.values()) >= completes:
            break
        if taken >= completes:
            continue  # full for now: a place comes back when its tester drops out
        arm = choose_arm(arms, tallies, f"t{number}", "sim", rule).variant
        length = minutes * math.exp(rng.gauss(0.0, 0.4))
        done = now + length if rng.random() < rates[arm] else None
        testers.append((now, arm, done))
    started = {a: sum(1 for _s, arm, _d in testers if arm == a) for a in arms}
    completed = {a: sum(1 for _s, arm, d in testers if arm == a and d is not None)
                 for a in arms}
    return SimulatedStudy(completed, started)


def _tallies_at(testers: Sequence[tuple[float, str, float | None]], now: float,
                hold: float) -> dict[str, ArmTally]:
    counts: dict[str, list[int]] = {}
    for start, arm, done in testers:
        row = counts.setdefault(arm, [0, 0, 0])
        if done is not None and done <= now:
            row[0] += 1
        elif start > now - hold:
            row[1] += 1
        else:
            row[2] += 1
    return {arm: ArmTally(*row) for arm, row in counts.items()}
