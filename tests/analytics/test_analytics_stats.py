"""Statistics: golden values against scipy/statsmodels, A/A false positives, verdicts."""

from __future__ import annotations

import gc
import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import confint_proportions_2indep

from analytics import stats
from analytics.experiments import (
    VERDICT_NO_DIFFERENCE,
    VERDICT_TOO_FEW,
    MetricValues,
    analyze_metrics,
    decide,
)
from analytics.metrics import metric_by_key

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


def _metric(key: str, a: np.ndarray, b: np.ndarray) -> MetricValues:
    return MetricValues(metric_by_key(key), {"A": np.asarray(a, float),
                                             "B": np.asarray(b, float)})


def _verdict(values: list[MetricValues], min_effect: float) -> tuple[str, int | None]:
    return decide(analyze_metrics(values, draws=2000)[0], min_effect)


def test_tiny_samples_say_too_few_with_the_needed_n_from_the_spread() -> None:
    a, b = np.array([2.0, 5.0, 1.0, 3.0]), np.array([1.0, 3.0, 2.5, 4.0])
    text, needed = _verdict([_metric("response_time", a, b)], min_effect=1.0)
    assert text == VERDICT_TOO_FEW
    sd = math.sqrt((a.var(ddof=1) + b.var(ddof=1)) / 2)
    assert needed == stats.sequential_needed_n(sd, 1.0)
    # More spread or a smaller effect worth finding needs more testers.
    assert stats.sequential_needed_n(sd, 0.5) > needed > stats.sequential_needed_n(sd / 2, 1.0)


def test_clear_difference_names_the_better_variant_by_direction() -> None:
    rng = np.random.default_rng(3)
    a = rng.normal(4.0, 1.0, 20)
    b = rng.normal(2.0, 1.0, 20)
    assert _verdict([_metric("response_time", a, b)], 1.0) == ("B better", None)
    # Higher is better for quiz answers: the same numbers favour A.
    assert _verdict([_metric("quiz_correct", a, b)], 0.1) == ("A better", None)


def test_no_difference_needs_the_interval_inside_min_effect() -> None:
    rng = np.random.default_rng(4)
    values = rng.normal(3.0, 1.0, 400)
    primary = analyze_metrics([_metric("response_time", values[:200], values[200:])],
                              draws=2000)[0]
    low, high = primary.interval
    assert -0.5 < low < high < 0.5
    assert decide(primary, 0.5) == (VERDICT_NO_DIFFERENCE, None)
    # Demanding equivalence within ±0.1 s is not met by the same data: too few.
    text, needed = decide(primary, 0.1)
    assert text == VERDICT_TOO_FEW and needed is not None and needed > 200


def test_metric_without_variance_is_shown_and_not_tested() -> None:
    rng = np.random.default_rng(5)
    results = analyze_metrics([
        _metric("response_time", rng.normal(3, 1, 12), rng.normal(3, 1, 12)),
        _metric("completion", np.ones(12), np.ones(12)),
        _metric("wrong_clicks_after", rng.random(12), rng.random(12))], draws=2000)
    flat = results[1]
    assert flat.no_variance and math.isnan(flat.p_adjusted)
    assert flat.to_json()["effect_text"].startswith("no variance")
    # Holm runs over the one remaining secondary only: its p-value is not multiplied.
    assert results[2].p_adjusted == pytest.approx(results[2].comparison.p_value)


def test_guardrail_clearly_worse_is_named() -> None:
    rng = np.random.default_rng(6)
    results = analyze_metrics([
        _metric("response_time", rng.normal(4, 1, 30), rng.normal(2, 1, 30)),
        _metric("wrong_clicks_after", rng.normal(0.2, 0.1, 30), rng.normal(0.6, 0.1, 30)),
        _metric("rules_lookups_after", rng.normal(0.2, 0.1, 30),
                rng.normal(0.6, 0.1, 30))], draws=2000)
    assert decide(results[0], 1.0)[0] == "B better"
    assert results[1].worse == "B"  # more wrong clicks with B: a guardrail
    assert results[2].worse is None  # not a guardrail metric


def test_sequential_interval_is_wider_than_the_fixed_one_and_p_matches_it() -> None:
    rng = np.random.default_rng(7)
    a, b = rng.normal(3, 1, 20), rng.normal(2.2, 1, 20)
    seq = stats.sequential_test(a, b)
    fixed = stats.welch_test(a, b)
    assert seq.ci95[0] < fixed.ci95[0] and seq.ci95[1] > fixed.ci95[1]
    # The always-valid p-value is below 0.05 exactly when the interval excludes 0.
    for shift in np.linspace(0, 2, 21):
        result = stats.sequential_test(a, b - shift)
        excludes = result.ci95[1] < 0 or result.ci95[0] > 0
        assert (result.p_value < 0.05) == excludes


def test_three_variants_compare_the_likely_best_with_the_control_at_a_split_alpha() -> None:
    rng = np.random.default_rng(8)
    metric = metric_by_key("response_time")
    values = MetricValues(metric, {"A": rng.normal(4, 1, 20), "B": rng.normal(4, 1, 20),
                                   "C": rng.normal(2, 1, 20)})
    primary = analyze_metrics([values], draws=2000)[0]
    assert primary.compared == ("A", "C")
    assert decide(primary, 1.0) == ("C better", None)
    # Bonferroni over the two comparisons: the interval is the one at α = 2.5 %.
    two_arm = stats.sequential_test(values.values["A"], values.values["C"], alpha=0.025)
    assert primary.interval == pytest.approx(two_arm.ci95)


def test_two_groups_without_spread_get_no_interval_not_a_zero_width_one() -> None:
    """2 testers who all won against 2 who all lost: the difference is -1, but nothing
    says how far off that could be; the bootstrap's answer was "exactly" ([-1, -1])."""
    from analytics.stats import mean_test

    result = mean_test([1.0, 1.0], [0.0, 0.0])
    assert result.effect == -1.0
    assert all(math.isnan(x) for x in result.ci95)
    spread = mean_test([1.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 0.0])
    assert spread.ci95[0] < spread.effect < spread.ci95[1]


# Small paired samples with zeros and ties, as 0-10 answers before and after give: where
# stats.wilcoxon_p counts the sign flips itself instead of scipy's permutation test.
_ANSWER_CHANGES = st.lists(
    st.one_of(st.integers(-10, 10).map(float), st.sampled_from([-1.5, -0.5, 0.5, 2.5])),
    min_size=1, max_size=10)  # scipy's own answer, the reference, takes ~1 s at 13


@settings(max_examples=30, deadline=None, derandomize=True)
@given(_ANSWER_CHANGES)
@example([2.0, -1.0, 0.0, 3.0, 1.0, 2.0, -2.0, 4.0, 1.0, 0.5, 2.5, 3.0, 1.0])  # 13: flips
@example([2.0, -1.0, 0.0, 3.0, 1.0, 2.0, -2.0, 4.0, 1.0, 0.5, 2.5, 3.0, 1.0, 5.0])  # scipy's
@example([1.0, -2.0, 3.5, 4.0, -5.0, 6.0])  # no zero, no tie: scipy's exact test
def test_wilcoxon_p_is_scipy_s_p_value(differences: list[float]) -> None:
    """The same number as ``scipy.stats.wilcoxon(d).pvalue`` for any small sample, with or
    without zeros and ties (the counted flips, and scipy's own call past 13 or untied);
    a scipy whose "auto" method or counting changes makes this fail, not the pages drift."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy's notes on zeros and small samples
        try:
            expected = float(sps.wilcoxon(differences).pvalue)
        except ValueError:  # every difference zero: scipy refuses, so does wilcoxon_p
            with pytest.raises(ValueError):
                stats.wilcoxon_p(differences)
            return
        got = stats.wilcoxon_p(differences)
    assert got == expected or (math.isnan(got) and math.isnan(expected)), (got, expected)
