"""Calibration of "Did it work?" (issue 26, item 4) on planted study families.

``python -m benchmarks.calibrate_did_it_work [--seeds N] [--seed S]`` builds each game's
demo study with simulated testers (real engine games, as the app logs them:
``tests/demo_studies.py``), takes its top rule confusion and splits its testers by
whether they had trouble on it (``tests/analytics/trouble_planted.py``, :class:`Pool`).
The follow-up is sized as the Confusion page sizes it (:func:`recommended_per_arm`: the
testers per arm of :func:`analytics.follow_ups.proposed_follow_ups`, the always-valid
80 % power size of a fall to half of today's rate). Then per seed a planted family: v1 of
that many testers at the pool's trouble rate and a v2 of as many, either with a remedy
that halves the rate or with nothing changed; each read by
:func:`analytics.did_it_work.compare` (v1 → v2) as testers come in, looked at after a
quarter, half, three quarters and all of them. A copied tester keeps their original's
trouble (the tests check it on whole planted studies), so a family draws each tester's
trouble (0 or 1) at the planted rate rather than copying events.

It prints per game: the point, its rate, the testers per arm, the share of families
reading "better" or "fixed" when the remedy halves the rate (target ≥ 80 %), the share
reading "better" when nothing changed (target ≤ 5 %) and the share where any of the four
looks read better when nothing changed (the always-valid interval keeps it ≤ 5 % too),
each with its 95 % Wilson interval.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analytics.confusion import confusion_points
from analytics.data import StudyData
from analytics.did_it_work import Change, Group, GroupRate, Verdict, compare
from analytics.follow_ups import proposed_follow_ups
from analytics.remedies import always_valid_arm_size
from analytics.stats import wilson_interval
from playtest.games.registry import game_names
from tests.analytics.trouble_planted import Pool, pool_of
from tests.demo_studies import demo_study_data

#: Seeds per game when none are asked for.
SEEDS = 2000
#: When the designer looks: these shares of the testers of each version have come in.
LOOKS = (0.25, 0.5, 0.75, 1.0)
FOUND = frozenset({Verdict.BETTER, Verdict.FIXED})


def game_pool(data: StudyData) -> Pool:
    """The study's testers split on its top rule confusion point."""
    point = next(p.id for p in confusion_points(data) if p.id.startswith("rule:"))
    return pool_of(data, point)


def recommended_per_arm(data: StudyData, pool: Pool) -> int:
    """The testers per arm the Confusion page recommends for the follow-up of the
    pool's point (its proposal's size; a point without a remedy: the same sizing,
    :func:`analytics.remedies.always_valid_arm_size` of half the rate)."""
    proposed = {p.point: p for p in proposed_follow_ups(data)}
    found = proposed.get(pool.point)
    if found is not None:
        return found.plan.per_arm
    return always_valid_arm_size(pool.rate, pool.rate / 2)


def family_looks(rate: float, after_rate: float, per_arm: int,
                 rng: np.random.Generator) -> list[Change]:
    """One planted family v1 → v2 (``per_arm`` testers each, trouble rates ``rate`` and
    ``after_rate``) read at each of :data:`LOOKS` (the last: every tester)."""
    before = np.cumsum(rng.random(per_arm) < rate)
    after = np.cumsum(rng.random(per_arm) < after_rate)
    changes = []
    for share in LOOKS:
        n = max(2, int(round(share * per_arm)))
        changes.append(compare(GroupRate(Group(1), n, int(before[n - 1])),
                               GroupRate(Group(2), n, int(after[n - 1]))))
    return changes


@dataclass(frozen=True)
class FamilyCalibration:
    """How the families of one game's point read over ``seeds`` seeds: ``found`` read
    better or fixed when the remedy halved the rate; ``false_better`` read better when
    nothing changed; ``false_any_look`` read better at one of the looks then."""

    game: str
    point: str
    rate: float
    per_arm: int
    seeds: int
    found: int
    false_better: int
    false_any_look: int

    def share(self, count: int) -> tuple[float, float, float]:
        """A count's share of the seeds with its 95 % Wilson interval."""
        low, high = wilson_interval(count, self.seeds)
        return count / self.seeds, low, high


def calibrate_family(game: str, point: str, rate: float, per_arm: int, seeds: int,
                     seed: int = 0) -> FamilyCalibration:
    """:func:`family_looks` over ``seeds`` seeds, halved and unchanged."""
    found = false_better = false_any = 0
    own = zlib.crc32(f"{game} {point}".encode())  # each game's families drawn apart
    for number in range(seeds):
        halved = family_looks(rate, rate / 2, per_arm,
                              np.random.default_rng([seed, own, number, 1]))
        found += halved[-1].verdict in FOUND
        same = family_looks(rate, rate, per_arm,
                            np.random.default_rng([seed, own, number, 0]))
        false_better += same[-1].verdict in FOUND
        false_any += any(change.verdict in FOUND for change in same)
    return FamilyCalibration(game, point, rate, per_arm, seeds, found, false_better,
                             false_any)


def _cell(result: FamilyCalibration, count: int) -> str:
    share, low, high = result.share(count)
    return f"{share:6.1%} [{low:.1%}, {high:.1%}]"


def table(results: Sequence[FamilyCalibration]) -> str:
    """The calibration table, one line per game."""
    lines = [f"{'game':8} {'point':22} {'rate':>5} {'per arm':>7} {'seeds':>5}  "
             f"{'halved: better/fixed (≥ 80 %)':30} {'unchanged: better (≤ 5 %)':26} "
             "unchanged: better at any of 4 looks"]
    for r in results:
        lines.append(f"{r.game:8} {r.point:22} {r.rate:5.2f} {r.per_arm:7d} {r.seeds:5d}  "
                     f"{_cell(r, r.found):30} {_cell(r, r.false_better):26} "
                     f"{_cell(r, r.false_any_look)}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=SEEDS, help="families per game")
    parser.add_argument("--seed", type=int, default=0, help="the first seed")
    args = parser.parse_args(argv)
    if args.seeds < 1:
        parser.error("--seeds is at least 1")
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for game in sorted(game_names()):
            data = demo_study_data(Path(folder) / f"{game}.sqlite", game)
            pool = game_pool(data)
            per_arm = recommended_per_arm(data, pool)
            results.append(calibrate_family(game, pool.point, pool.rate, per_arm,
                                            args.seeds, args.seed))
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
