"""The experiment balance played through simulated studies: how far apart the arms'
completers end when drop-out differs by arm, for the rule the app uses and the one it
replaced (:mod:`playtest.storage.allocation`).

    python -m benchmarks.sim_allocation [--seeds 200]

Each line is one scenario (completion chance per arm, arrivals per hour, the quota of
complete testers) and one rule; the columns count the simulated studies (seeds) by the
gap between the arm with the most completers and the one with the fewest. Pure
arithmetic, seeded: the same numbers on every machine.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence

from playtest.storage.allocation import RULE, STARTERS_RULE, Rule, simulate

#: (completion chance per arm, arrivals per hour): drop-out equal and unequal, a steady
#: trickle and a panel's burst.
SCENARIOS: tuple[tuple[dict[str, float], float], ...] = (
    ({"A": 0.9, "B": 0.9}, 30.0),
    ({"A": 0.9, "B": 0.6}, 30.0),
    ({"A": 0.8, "B": 0.4}, 30.0),
    ({"A": 0.9, "B": 0.6}, 300.0),
    ({"A": 0.95, "B": 0.7, "C": 0.5}, 30.0),
    ({"A": 0.95, "B": 0.7, "C": 0.5}, 300.0),
)
QUOTAS = (20, 40, 100)


def gaps(rates: dict[str, float], per_hour: float, completes: int, rule: Rule,
         seeds: int) -> Counter[int]:
    """How many of ``seeds`` simulated studies ended with each completers' gap."""
    return Counter(simulate(rates, completes=completes, seed=seed, rule=rule,
                            arrivals_per_hour=per_hour).gap for seed in range(seeds))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200, help="studies per line")
    args = parser.parse_args(argv)
    print(f"{'completion by arm':<28} {'per h':>5} {'quota':>5}  {'rule':<27} "
          f"{'gap<=1':>6} {'gap<=2':>6} {'worst':>5} {'mean':>5}")
    for rates, per_hour in SCENARIOS:
        for completes in QUOTAS:
            for rule in (STARTERS_RULE, RULE):
                found = gaps(rates, per_hour, completes, rule, args.seeds)
                within = [sum(n for g, n in found.items() if g <= k) / args.seeds
                          for k in (1, 2)]
                mean = sum(g * n for g, n in found.items()) / args.seeds
                shown = " ".join(f"{a}:{r:.2f}" for a, r in rates.items())
                print(f"{shown:<28} {per_hour:>5.0f} {completes:>5}  {rule:<27} "
                      f"{within[0]:>6.1%} {within[1]:>6.1%} {max(found):>5} {mean:>5.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
