"""The experiment balance rule (:mod:`playtest.storage.allocation`), played through
seeded simulated studies where drop-out differs by arm: the arms' completers end within
two of each other, where the fewest-starters rule they replace drifts apart."""

from __future__ import annotations

import pytest

from playtest.storage.allocation import (
    RULE,
    STARTERS_RULE,
    ArmTally,
    choose_arm,
    expected_completers,
    simulate,
)

SEEDS = range(60)


@pytest.mark.parametrize(("rates", "per_hour", "completes"), [
    ({"A": 0.9, "B": 0.6}, 30.0, 40),
    ({"A": 0.8, "B": 0.4}, 30.0, 20),
    ({"A": 0.9, "B": 0.6}, 300.0, 40),  # a panel's burst: many start before anyone ends
    ({"A": 0.9, "B": 0.9}, 30.0, 40),
])
def test_completers_stay_within_two_when_drop_out_differs(
        rates: dict[str, float], per_hour: float, completes: int) -> None:
    ours = [simulate(rates, completes=completes, seed=s, arrivals_per_hour=per_hour)
            for s in SEEDS]
    assert max(r.gap for r in ours) <= 2
    assert all(sum(r.completed.values()) >= completes for r in ours)
    if rates["A"] != rates["B"]:
        # the arm that loses more testers got more starters
        assert all(r.started["B"] > r.started["A"] for r in ours)
        before = [simulate(rates, completes=completes, seed=s, rule=STARTERS_RULE,
                           arrivals_per_hour=per_hour) for s in SEEDS]
        assert sum(r.gap > 2 for r in before) > len(SEEDS) / 2


def test_three_arms_stay_within_two_nearly_always() -> None:
    rates = {"A": 0.95, "B": 0.7, "C": 0.5}
    gaps = [simulate(rates, completes=40, seed=s).gap for s in SEEDS]
    assert sum(g <= 2 for g in gaps) >= 0.95 * len(gaps)


def test_an_arm_without_finished_testers_weighs_its_testers_like_the_study() -> None:
    pooled = (9 + 1) / (9 + 1 + 2)
    assert expected_completers(ArmTally(0, 4, 0), pooled) == pytest.approx(4 * pooled)
    chosen = choose_arm(["A", "B"], {"A": ArmTally(9, 0, 1), "B": ArmTally(0, 4, 0)},
                        "t", "e")
    assert chosen.variant == "B" and chosen.rule == RULE
    assert chosen.record()["tallies"] == {"A": [9, 0, 1], "B": [0, 4, 0]}
