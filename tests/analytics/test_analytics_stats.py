"""Statistics: golden values against scipy/statsmodels, A/A false positives, verdicts."""

from __future__ import annotations

import gc
import math

import numpy as np
import pytest
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import TTestIndPower
from statsmodels.stats.proportion import confint_proportions_2indep

from analytics import stats
from analytics.experiments import (
    VERDICT_NO_DIFFERENCE,
    VERDICT_TOO_FEW,
    MetricValues,
    analyze_metrics,
    verdict,
)

CONTROL = np.array([3.1, 2.4, 5.0, 4.2, 3.3, 2.9, 4.8, 3.7, 3.0, 4.1])
TREATMENT = np.array([2.0, 2.2, 3.1, 1.9, 2.8, 2.5, 3.3, 2.1, 2.6, 2.4])


def test_welch_matches_scipy() -> None:
    result = stats.welch_test(CONTROL, TREATMENT)
    reference = sps.ttest_ind(TREATMENT, CONTROL, equal_var=False)
    interval = reference.confidence_interval(0.95)
    assert result.test == "welch"
    assert result.p_value == pytest.approx(reference.pvalue, abs=1e-12)
    assert result.effect == pytest.approx(TREATMENT.mean() - CONTROL.mean())
    assert result.ci95 == pytest.approx((interval.low, interval.high))
    # Golden value from the Welch–Satterthwaite formula written out.
    va, vb = CONTROL.var(ddof=1) / 10, TREATMENT.var(ddof=1) / 10
    t = (TREATMENT.mean() - CONTROL.mean()) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va**2 / 9 + vb**2 / 9)
    assert result.p_value == pytest.approx(2 * sps.t.sf(abs(t), df), rel=1e-9)
    assert result.p_value == pytest.approx(0.0021577, rel=1e-4)


def test_mann_whitney_matches_scipy_and_bootstrap_is_seeded() -> None:
    skewed_a = np.array([1.0, 1.0, 2.0, 2.0, 3.0, 40.0])
    skewed_b = np.array([3.0, 4.0, 5.0, 6.0, 7.0, 90.0])
    result = stats.mean_test(skewed_a, skewed_b)
    assert result.test == "mann_whitney"
    reference = sps.mannwhitneyu(skewed_b, skewed_a, alternative="two-sided")
    assert result.p_value == pytest.approx(reference.pvalue, abs=1e-12)
    assert result.ci95 == stats.mann_whitney_test(skewed_a, skewed_b).ci95
    assert result.ci95[0] < result.effect < result.ci95[1]


def test_rate_test_is_boschloo_for_small_and_fisher_for_large_samples() -> None:
    small = stats.rate_test(3, 12, 8, 12)
    reference = sps.boschloo_exact([[8, 4], [3, 9]], alternative="two-sided")
    assert small.test == "boschloo"
    assert small.p_value == pytest.approx(reference.pvalue, abs=1e-12)
    low, high = confint_proportions_2indep(8, 12, 3, 12, compare="diff", method="newcomb")
    assert small.ci95 == pytest.approx((low, high))
    large = stats.rate_test(100, 300, 130, 300)
    assert large.test == "fisher"
    assert large.p_value == pytest.approx(
        sps.fisher_exact([[130, 170], [100, 200]]).pvalue, abs=1e-12)


def test_holm_matches_statsmodels_and_keeps_nan() -> None:
    p_values = [0.01, 0.04, 0.03, 0.005, 0.2]
    # statsmodels' Holm calls gc.collect(); freezing the heap keeps that call cheap here.
    gc.freeze()
    try:
        expected = multipletests(p_values, method="holm")[1]
        assert stats.holm(p_values) == pytest.approx(list(expected), abs=1e-15)
        rng = np.random.default_rng(11)
        for size in (1, 2, 5, 9):
            for _ in range(10):
                random_p = rng.random(size) ** 3
                random_p[rng.random(size) < 0.2] = random_p[0]  # ties
                assert stats.holm(random_p) == pytest.approx(
                    list(multipletests(random_p, method="holm")[1]), abs=1e-12)
    finally:
        gc.unfreeze()
    adjusted = stats.holm([0.01, math.nan, 0.02])
    assert math.isnan(adjusted[1])
    assert adjusted[0] == pytest.approx(0.02) and adjusted[2] == pytest.approx(0.02)


def test_srm_matches_scipy_chisquare() -> None:
    result = stats.srm_check({"A": 30, "B": 12})
    assert result.p_value == pytest.approx(sps.chisquare([30, 12]).pvalue)
    assert result.counts == {"A": 30, "B": 12}
    with pytest.raises(stats.StatsInputError):
        stats.srm_check({"A": 3})


def test_prob_best_is_seeded_and_respects_direction() -> None:
    first = stats.prob_best_rates({"A": 2, "B": 9}, {"A": 12, "B": 12}, seed=7)
    assert first == stats.prob_best_rates({"A": 2, "B": 9}, {"A": 12, "B": 12}, seed=7)
    assert first["B"] > 0.99
    lower = stats.prob_best_rates({"A": 2, "B": 9}, {"A": 12, "B": 12},
                                  lower_is_better=True, seed=7)
    assert lower["A"] > 0.99
    means = stats.prob_best_means({"A": CONTROL, "B": TREATMENT}, lower_is_better=True)
    assert means["B"] > 0.99 and sum(means.values()) == pytest.approx(1.0)
    # Identical degenerate groups share the win.
    tied = stats.prob_best_means({"A": [1.0, 1.0], "B": [1.0, 1.0]})
    assert tied == {"A": 0.5, "B": 0.5}


def test_needed_n_matches_statsmodels_power() -> None:
    expected = TTestIndPower().solve_power(effect_size=0.5, alpha=0.05, power=0.8)
    assert stats.needed_n_per_variant("mean") == math.ceil(expected) == 64


def _metric(name: str, kind: str, lower: bool, a: np.ndarray, b: np.ndarray) -> MetricValues:
    return MetricValues(name, kind, lower, {"A": a, "B": b})  # type: ignore[arg-type]


def _aa_study(rng: np.random.Generator, testers: int = 24) -> list[MetricValues]:
    half = testers // 2
    metrics = []
    turns = 10
    wrong = rng.poisson(0.3 * turns, size=testers) / turns
    metrics.append(_metric("wrong_per_turn", "mean", True, wrong[:half], wrong[half:]))
    hesitation = rng.lognormal(8.0, 0.5, size=testers)
    metrics.append(_metric("hesitation_ms", "mean", True, hesitation[:half], hesitation[half:]))
    quiz = rng.binomial(3, 0.7, size=testers) / 3
    metrics.append(_metric("quiz_correct", "mean", False, quiz[:half], quiz[half:]))
    sus = np.clip(rng.normal(68, 12.5, size=testers), 0, 100)
    metrics.append(_metric("score:sus", "mean", False, sus[:half], sus[half:]))
    done = (rng.random(testers) < 0.8).astype(float)
    metrics.append(_metric("completion", "rate", False, done[:half], done[half:]))
    return metrics


@pytest.mark.slow
def test_aa_simulation_keeps_false_differences_near_five_percent() -> None:
    """200 A/A studies of 24 testers: no real difference, so any "<name> better" is false.

    Holm keeps the family-wise error ≤ 5 %; the band allows binomial noise
    (200 × 0.05 = 10 expected at most; 20 is far above its 99.9 % quantile).
    """
    rng = np.random.default_rng(20261121)
    false_differences = 0
    verdicts = []
    for _ in range(200):
        text, needed = verdict(analyze_metrics(_aa_study(rng), seed=1, draws=2000))
        verdicts.append(text)
        if text.endswith(" better"):
            false_differences += 1
        else:
            assert text == VERDICT_TOO_FEW and needed == 64
    assert false_differences / 200 <= 0.10
    assert VERDICT_TOO_FEW in verdicts


def test_tiny_samples_say_too_few_with_the_needed_n() -> None:
    metrics = analyze_metrics([_metric("wrong_per_turn", "mean", True,
                                       np.array([0.2, 0.5, 0.1]), np.array([0.1, 0.3]))])
    assert verdict(metrics) == (VERDICT_TOO_FEW, 64)


def test_clear_difference_names_the_better_variant() -> None:
    rng = np.random.default_rng(3)
    a = rng.normal(0.5, 0.1, 40)
    b = rng.normal(0.2, 0.1, 40)
    metrics = analyze_metrics([_metric("wrong_per_turn", "mean", True, a, b)])
    assert verdict(metrics) == ("B better", None)
    higher_is_better = analyze_metrics([_metric("quiz", "mean", False, a, b)])
    assert verdict(higher_is_better) == ("A better", None)


def test_large_equal_samples_say_no_difference() -> None:
    rng = np.random.default_rng(4)
    values = rng.normal(0.3, 0.1, 200)
    metrics = analyze_metrics([_metric("wrong_per_turn", "mean", True, values[:100],
                                       values[100:])])
    assert metrics[0].p_adjusted > 0.05
    assert verdict(metrics) == (VERDICT_NO_DIFFERENCE, None)
