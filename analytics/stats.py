"""Statistical tests for small playtests: one function per test, frozen results.

All tests come from scipy / statsmodels; this module picks the test that fits the data
and packages the numbers. Inputs are **one value per participant** (a tester's many
clicks are aggregated before they get here) so observations are independent.

Sign convention: ``effect = treatment − control`` (the second group minus the first).

>>> result = welch_test([1.0, 2.0, 3.0, 4.0], [2.0, 3.0, 5.0, 7.0])
>>> round(result.effect, 3), result.test
(1.75, 'welch')
>>> holm([0.01, 0.04, 0.03])
[0.03, 0.06, 0.06]
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

MetricKind = Literal["mean", "rate"]

#: Boschloo's exact test is more powerful than Fisher's but its cost grows fast with n;
#: above this many participants in total Fisher's exact test is used.
BOSCHLOO_MAX_TOTAL = 400
ALPHA = 0.05
POWER = 0.8
DRAWS = 20_000


class StatsInputError(ValueError):
    """A statistical function got unusable input (e.g. fewer than two groups)."""


@dataclass(frozen=True)
class Comparison:
    """Outcome of one two-group test: effect (treatment − control), 95 % CI, p-value."""

    test: str
    effect: float
    ci95: tuple[float, float]
    p_value: float


@dataclass(frozen=True)
class SrmResult:
    """Sample-ratio check: observed counts per variant and the chi-square p-value."""

    counts: dict[str, int]
    p_value: float


def _clean(values: Sequence[float] | np.ndarray) -> np.ndarray:
    array = np.asarray(values, dtype=float)
    return array[np.isfinite(array)]


def _nan_comparison(test: str, effect: float = math.nan) -> Comparison:
    return Comparison(test=test, effect=effect, ci95=(math.nan, math.nan), p_value=math.nan)


def welch_test(control: Sequence[float] | np.ndarray,
               treatment: Sequence[float] | np.ndarray) -> Comparison:
    """Welch's unequal-variance t-test (``scipy.stats.ttest_ind(equal_var=False)``).

    >>> welch_test([1.0], [2.0]).test
    'welch'
    """
    from scipy import stats as sps
    a, b = _clean(control), _clean(treatment)
    if len(a) < 2 or len(b) < 2:
        return _nan_comparison("welch", float(b.mean() - a.mean()) if len(a) and len(b)
                               else math.nan)
    effect = float(b.mean() - a.mean())
    if np.var(a) == 0 and np.var(b) == 0:
        # No spread at all: identical groups differ by nothing; otherwise the t-test is
        # undefined and the p-value is left out.
        return Comparison("welch", effect, (effect, effect), 1.0 if effect == 0 else math.nan)
    result = sps.ttest_ind(b, a, equal_var=False)
    interval = result.confidence_interval(0.95)
    return Comparison("welch", effect, (float(interval.low), float(interval.high)),
                      float(result.pvalue))


def mann_whitney_test(control: Sequence[float] | np.ndarray,
                      treatment: Sequence[float] | np.ndarray,
                      seed: int = 0) -> Comparison:
    """Mann–Whitney U (``scipy.stats.mannwhitneyu``, two-sided) for skewed data.

    The effect is still the difference in means (what designers read); its 95 % interval
    is a seeded percentile bootstrap (``scipy.stats.bootstrap``), which does not assume
    normality either.
    """
    from scipy import stats as sps
    a, b = _clean(control), _clean(treatment)
    if len(a) < 1 or len(b) < 1:
        return _nan_comparison("mann_whitney")
    effect = float(b.mean() - a.mean())
    result = sps.mannwhitneyu(b, a, alternative="two-sided")
    p_value = float(result.pvalue)
    if len(a) < 2 or len(b) < 2 or (np.ptp(a) == 0 and np.ptp(b) == 0):
        # No interval: one value alone, or two groups without any spread (every tester
        # of each the same, as 2 testers who all won against 2 who all lost), tell
        # nothing of how far the difference could be off (the bootstrap would say
        # "exactly", a zero-width interval).
        return Comparison("mann_whitney", effect, (math.nan, math.nan), p_value)
    boot = sps.bootstrap((b, a), lambda x, y, axis=-1: x.mean(axis=axis) - y.mean(axis=axis),
                         n_resamples=2000, method="percentile", vectorized=True,
                         rng=np.random.default_rng(seed))
    interval = boot.confidence_interval
    return Comparison("mann_whitney", effect, (float(interval.low), float(interval.high)),
                      p_value)


#: scipy's ``wilcoxon`` (method "auto") takes, for at most this many differences with a
#: zero or a tie, the permutation test over all 2**n sign flips.
_WILCOXON_ALL_FLIPS_MAX_N = 13


def wilcoxon_p(differences: Sequence[float] | np.ndarray) -> float:
    """``scipy.stats.wilcoxon(differences).pvalue``: two-sided, zeros dropped; the same
    number, computed faster for small samples with ties.

    For at most 13 differences with a zero or a tie scipy runs a permutation test over
    every sign flip of the differences (2**n of them), computing the statistic once
    per flip in Python: about a second for 13 testers, on every questionnaires page.
    The flips change the signs, never the ranks of the absolute values, so the null
    distribution is the sum of the ranks over every subset of the nonzero differences
    (each counted once per sign of the zeros): one matrix product, exact (ranks are
    halves). The p-value is then counted as scipy's test counts it (the same tolerance
    around the observed statistic). Other samples are scipy's own call.

    >>> d = [1.0, 2.0, 0.0, 3.0, -1.0, 2.0, 2.0, 1.0, 0.0, 1.0]
    >>> from scipy import stats as sps
    >>> wilcoxon_p(d) == float(sps.wilcoxon(d).pvalue)
    True
    """
    from scipy import stats as sps
    d = np.asarray(differences, dtype=float)
    nonzero = d[d != 0]
    magnitudes = np.abs(nonzero)
    tied = len(np.unique(magnitudes)) < len(magnitudes)
    if (d.ndim != 1 or len(d) > _WILCOXON_ALL_FLIPS_MAX_N or not len(nonzero)
            or not np.isfinite(d).all() or not (tied or len(nonzero) < len(d))):
        return float(sps.wilcoxon(d).pvalue)
    ranks = sps.rankdata(magnitudes)  # average ranks, as scipy's statistic
    observed = float(ranks[nonzero > 0].sum())
    flips = (np.arange(2 ** len(ranks))[:, None] >> np.arange(len(ranks))) & 1
    null = flips @ ranks  # the positive ranks' sum under every sign flip
    per_flip = 2 ** (len(d) - len(ranks))  # a zero's sign changes nothing
    gamma = abs(np.finfo(float).eps * 100 * observed)
    less = np.count_nonzero(null <= observed + gamma) * per_flip / 2 ** len(d)
    greater = np.count_nonzero(null >= observed - gamma) * per_flip / 2 ** len(d)
    return float(min(max(min(less, greater) * 2, 0.0), 1.0))


def looks_normal(values: np.ndarray) -> bool:
    """True when a t-test is safe: n ≥ 30, or 3 ≤ n and Shapiro–Wilk does not reject at 5 %."""
    from scipy import stats as sps
    if len(values) >= 30:
        return True
    if len(values) < 3 or np.ptp(values) == 0:
        return False
    return bool(sps.shapiro(values).pvalue >= 0.05)


def mean_test(control: Sequence[float] | np.ndarray,
              treatment: Sequence[float] | np.ndarray, seed: int = 0) -> Comparison:
    """Welch when both groups look normal (see :func:`looks_normal`), else Mann–Whitney.

    The comparison depends on the two groups' values alone (and the bootstrap's seed):
    it is kept (the result is frozen), so a page that compares the same values again
    (the plan and the experiments page, a page computed again on the same testers)
    computes it once.

    >>> r = mean_test([1.0, 2.0, 3.0, 4.0], [2.0, 3.0, 5.0, 7.0])
    >>> r.test, mean_test(np.array([1.0, 2.0, 3.0, 4.0]), [2.0, 3.0, 5.0, 7.0]) is r
    ('welch', True)
    """
    a, b = _clean(control), _clean(treatment)
    return _mean_test(a.tobytes(), b.tobytes(), seed)


@functools.lru_cache(maxsize=16_384)
def _mean_test(control: bytes, treatment: bytes, seed: int) -> Comparison:
    a, b = np.frombuffer(control).copy(), np.frombuffer(treatment).copy()
    if looks_normal(a) and looks_normal(b):
        return welch_test(a, b)
    return mann_whitney_test(a, b, seed=seed)


def rate_test(control_successes: int, control_n: int,
              treatment_successes: int, treatment_n: int) -> Comparison:
    """Exact test of two proportions: Boschloo (small n) or Fisher; Newcombe 95 % CI.

    A comparison depends on the four counts alone, and Boschloo's test maximises over a
    nuisance parameter (tens of milliseconds a table): each table's comparison is kept
    (the result is frozen), so a page that compares the same counts again, or a
    calibration that meets the same table in many simulated studies, computes it once.

    >>> r = rate_test(3, 12, 8, 12)
    >>> r.test, round(r.effect, 4)
    ('boschloo', 0.4167)
    >>> rate_test(3, 12, 8, 12) is r
    True
    """
    return _rate_test(control_successes, control_n, treatment_successes, treatment_n)


@functools.lru_cache(maxsize=65_536)
def _rate_test(control_successes: int, control_n: int,
               treatment_successes: int, treatment_n: int) -> Comparison:
    from scipy import stats as sps
    from statsmodels.stats.proportion import confint_proportions_2indep
    if control_n < 1 or treatment_n < 1:
        return _nan_comparison("boschloo")
    effect = treatment_successes / treatment_n - control_successes / control_n
    table = [[treatment_successes, treatment_n - treatment_successes],
             [control_successes, control_n - control_successes]]
    if control_n + treatment_n <= BOSCHLOO_MAX_TOTAL:
        test = "boschloo"
        p_value = float(sps.boschloo_exact(table, alternative="two-sided").pvalue)
    else:
        test = "fisher"
        p_value = float(sps.fisher_exact(table, alternative="two-sided").pvalue)
    if not math.isfinite(p_value):
        # Boschloo is undefined when a column is empty (all succeed or all fail): the
        # groups do not differ.
        p_value = 1.0
    low, high = confint_proportions_2indep(treatment_successes, treatment_n,
                                           control_successes, control_n,
                                           compare="diff", method="newcomb")
    return Comparison(test, float(effect), (float(low), float(high)), p_value)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values; NaN stays NaN.

    The step-down formula of ``statsmodels.stats.multitest.multipletests(method="holm")``
    (the tests check they agree): statsmodels' Holm branch calls ``gc.collect()``, which
    takes seconds while a million event dicts are in memory, so it is not called here.
    """
    values = np.asarray(p_values, dtype=float)
    adjusted = np.full(len(values), np.nan)
    finite = np.flatnonzero(np.isfinite(values))
    if len(finite):
        order = finite[np.argsort(values[finite], kind="stable")]
        scaled = values[order] * np.arange(len(order), 0, -1)
        adjusted[order] = np.minimum(np.maximum.accumulate(scaled), 1.0)
    return [float(v) if np.isfinite(v) else math.nan for v in adjusted]


def srm_check(counts: Mapping[str, int], weights: Mapping[str, float] | None = None
              ) -> SrmResult:
    """Sample-ratio mismatch: chi-square goodness of fit of the assignment counts.

    ``weights`` default to an equal split. A p-value below 0.001 means the assignment
    is broken (GrowthBook's threshold).

    >>> round(srm_check({"A": 12, "B": 12}).p_value, 3)
    1.0
    """
    from scipy import stats as sps
    names = list(counts)
    if len(names) < 2:
        raise StatsInputError("the sample-ratio check needs at least two variants")
    observed = np.array([counts[name] for name in names], dtype=float)
    share = np.array([1.0 if weights is None else weights[name] for name in names])
    total = observed.sum()
    if total == 0:
        return SrmResult({name: 0 for name in names}, math.nan)
    expected = total * share / share.sum()
    p_value = float(sps.chisquare(observed, expected).pvalue)
    return SrmResult({name: int(counts[name]) for name in names}, p_value)


def prob_best_rates(successes: Mapping[str, int], totals: Mapping[str, int],
                    lower_is_better: bool = False, seed: int = 0,
                    draws: int = DRAWS) -> dict[str, float]:
    """P(each variant has the best rate): seeded Monte Carlo from Beta(1+s, 1+f) posteriors.

    >>> p = prob_best_rates({"A": 2, "B": 10}, {"A": 12, "B": 12})
    >>> p["B"] > 0.99
    True
    """
    rng = np.random.default_rng(seed)
    names = list(totals)
    samples = np.column_stack([
        rng.beta(1 + successes[name], 1 + totals[name] - successes[name], size=draws)
        for name in names])
    return _share_best(names, samples, lower_is_better)


def prob_best_means(values: Mapping[str, Sequence[float] | np.ndarray],
                    lower_is_better: bool = False, seed: int = 0,
                    draws: int = DRAWS) -> dict[str, float]:
    """P(each variant has the best mean): seeded draws from each mean's posterior.

    Under the reference prior the posterior of a mean is ``x̄ + s/√n · t(n−1)``. A
    variant with fewer than two values gets no posterior and probability 0 unless no
    variant has one (then all are equal).

    The answer depends on the values alone (and the seed and draws): it is kept, so the
    same values asked again (another page of the same testers) are not drawn again.

    >>> p = prob_best_means({"A": [1.0, 2.0, 3.0], "B": [4.0, 5.0, 6.0]})
    >>> p["B"] > 0.9, prob_best_means({"A": [1.0, 2.0, 3.0], "B": [4.0, 5.0, 6.0]}) == p
    (True, True)
    """
    cleaned = tuple((name, _clean(values[name]).tobytes()) for name in values)
    return dict(_prob_best_means(cleaned, lower_is_better, seed, draws))


@functools.lru_cache(maxsize=16_384)
def _prob_best_means(values: tuple[tuple[str, bytes], ...], lower_is_better: bool,
                     seed: int, draws: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    names = [name for name, _ in values]
    columns = []
    usable = []
    for name, raw in values:
        data = np.frombuffer(raw).copy()
        if len(data) >= 2:
            scale = float(data.std(ddof=1)) / math.sqrt(len(data))
            columns.append(data.mean() + scale * rng.standard_t(len(data) - 1, size=draws))
            usable.append(name)
    if not usable:
        return {name: 1.0 / len(names) for name in names}
    best = _share_best(usable, np.column_stack(columns), lower_is_better)
    return {name: best.get(name, 0.0) for name in names}


def _share_best(names: list[str], samples: np.ndarray, lower_is_better: bool
                ) -> dict[str, float]:
    scores = -samples if lower_is_better else samples
    top = scores.max(axis=1, keepdims=True)
    winners = scores == top
    # Ties (e.g. two degenerate posteriors) share the win instead of favouring column 0.
    share = (winners / winners.sum(axis=1, keepdims=True)).mean(axis=0)
    return {name: float(round(value, 6)) for name, value in zip(names, share, strict=True)}


# --- always-valid inference for the primary metric ---------------------------------------

#: Total testers at which the confidence sequence is tightest (its "tuning" n): a typical
#: playtest. The guarantee holds at every n; only the width trades off across n.
SEQUENTIAL_TUNING_N = 40
SEQUENTIAL_METHOD = ("always-valid 95% confidence sequence (asymptotic, Waudby-Smith et al. "
                     "2023, eq. 9; as in GrowthBook's sequential testing)")


@dataclass(frozen=True)
class SequentialComparison:
    """Treatment − control with an always-valid (time-uniform) 95 % interval.

    ``ci95`` covers the true difference at every sample size simultaneously with
    probability ≥ 95 % (asymptotically), so looking at it every day does not inflate
    false positives. ``sd``: the pooled per-tester standard deviation it used.
    """

    effect: float
    ci95: tuple[float, float]
    p_value: float
    n: int
    sd: float
    test: str = "always-valid"


def sequential_rho2(alpha: float = ALPHA, tuning_n: float = SEQUENTIAL_TUNING_N) -> float:
    """ρ² of the normal-mixture boundary tuned to be tightest at ``tuning_n``
    (Waudby-Smith et al. 2023, eq. 161; GrowthBook's ``sequential_rho`` squared).

    >>> round(sequential_rho2(0.05, 40), 4)
    0.1984
    """
    log_term = -2 * math.log(alpha)
    return (log_term + math.log(log_term + 1)) / tuning_n


def sequential_halfwidth(unit_variance: float, n: float, alpha: float = ALPHA,
                         tuning_n: float = SEQUENTIAL_TUNING_N) -> float:
    """Half-width of the two-sided asymptotic confidence sequence after ``n`` units
    whose per-unit variance is ``unit_variance`` (Waudby-Smith, Arbour, Sinha, Kennedy,
    Ramdas 2023, "Time-uniform central limit theory and asymptotic confidence sequences",
    Annals of Statistics, eq. 9)::

        sqrt(σ²) · sqrt( 2 (n ρ² + 1) / (n² ρ²) · log( sqrt(n ρ² + 1) / α ) )

    >>> round(sequential_halfwidth(1.0, 40) / (1.96 / math.sqrt(40)), 2)  # vs fixed-n
    1.55
    """
    rho2 = sequential_rho2(alpha, tuning_n)
    grown = n * rho2 + 1
    return math.sqrt(unit_variance) * math.sqrt(
        2 * grown * math.log(math.sqrt(grown) / alpha) / (n * n * rho2))


def _unit_variance(a: np.ndarray, b: np.ndarray, kind: MetricKind) -> tuple[float, float]:
    """Variance of the difference of means (Welch) and the pooled per-tester SD.

    Rates use Agresti–Caffo's add-one proportions so that 12 of 12 against 12 of 12
    still has spread (nothing is known exactly from 12 testers).
    """
    if kind == "rate":
        pa = (a.sum() + 1) / (len(a) + 2)
        pb = (b.sum() + 1) / (len(b) + 2)
        va, vb = pa * (1 - pa), pb * (1 - pb)
    else:
        va, vb = float(np.var(a, ddof=1)), float(np.var(b, ddof=1))
    return va / len(a) + vb / len(b), math.sqrt((va + vb) / 2)


def sequential_test(control: Sequence[float] | np.ndarray,
                    treatment: Sequence[float] | np.ndarray, kind: MetricKind = "mean",
                    alpha: float = ALPHA, tuning_n: float = SEQUENTIAL_TUNING_N
                    ) -> SequentialComparison:
    """Treatment − control with an always-valid interval and p-value (see
    :func:`sequential_halfwidth`; p-value: the reciprocal of the mixture e-value, eq. 155).

    Each arm needs two testers; with no spread at all in either arm (means) the interval
    is undefined (NaN): the metric cannot be tested yet.

    >>> result = sequential_test([2.0, 2.5, 3.0, 2.2] * 5, [4.0, 4.4, 3.9, 4.6] * 5)
    >>> result.ci95[0] > 0, result.p_value < 0.05
    (True, True)
    """
    a, b = _clean(control), _clean(treatment)
    effect = float(b.mean() - a.mean()) if len(a) and len(b) else math.nan
    if len(a) < 2 or len(b) < 2:
        return SequentialComparison(effect, (math.nan, math.nan), math.nan,
                                    len(a) + len(b), math.nan)
    variance, sd = _unit_variance(a, b, kind)
    n = len(a) + len(b)
    scale = max(1.0, float(np.abs(np.concatenate([a, b])).max()))
    if sd <= 1e-9 * scale:
        # No spread beyond float rounding (e.g. the same 40 ms everywhere): untestable.
        return SequentialComparison(effect, (math.nan, math.nan), math.nan, n, 0.0)
    half = sequential_halfwidth(variance * n, n, alpha, tuning_n)
    rho2 = sequential_rho2(alpha, tuning_n)
    grown = n * rho2 + 1
    z2 = effect * effect / variance  # squared z statistic
    log_e = rho2 * n * z2 / (2 * grown) - 0.5 * math.log(grown)
    p_value = float(min(1.0, math.exp(-log_e)))
    return SequentialComparison(effect, (effect - half, effect + half), p_value, n, sd)


def sequential_needed_n(sd: float, min_effect: float, alpha: float = ALPHA,
                        power: float = POWER, tuning_n: float = SEQUENTIAL_TUNING_N,
                        limit: int = 100_000) -> int | None:
    """Testers per variant for ``power`` to find a difference of ``min_effect`` with the
    always-valid interval, given a per-tester SD of ``sd`` (equal arms).

    Power is P(the interval excludes 0) when the true difference is ``min_effect``: the
    estimate (SE = sd·√(2/n)) must exceed the half-width, so ``min_effect ≥ half-width +
    z_power · SE``; the smallest such n is found with ``scipy.optimize.brentq``. None
    when ``sd`` or ``min_effect`` is unusable or more than ``limit`` would be needed.

    >>> sequential_needed_n(1.0, 1.0)  # a fixed-n t-test would need 17
    31
    """
    from scipy import optimize
    from scipy import stats as sps
    if not (math.isfinite(sd) and sd > 0 and math.isfinite(min_effect) and min_effect > 0):
        return None
    z_power = float(sps.norm.ppf(power))

    def gap(per_arm: float) -> float:
        total = 2 * per_arm
        se = sd * math.sqrt(2 / per_arm)
        # per-unit variance of the difference: total · SE² = 4 sd² for equal arms
        return min_effect - sequential_halfwidth(4 * sd * sd, total, alpha, tuning_n) \
            - z_power * se

    if gap(2) >= 0:
        return 2
    if gap(limit) < 0:
        return None
    return int(math.ceil(optimize.brentq(gap, 2, limit)))


def wilson_interval(successes: int, trials: int) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion (statsmodels); (0, 1) for no trials.

    Each pair of counts is computed once (statsmodels takes a millisecond a call, and a
    calibration or a page of many groups asks the same few counts again and again).

    >>> [round(x, 4) for x in wilson_interval(60, 100)]
    [0.502, 0.6906]
    >>> wilson_interval(60, 100) is wilson_interval(60, 100)
    True
    """
    return _wilson_interval(successes, trials)


@functools.lru_cache(maxsize=65_536)
def _wilson_interval(successes: int, trials: int) -> tuple[float, float]:
    from statsmodels.stats.proportion import proportion_confint

    if trials <= 0:
        return 0.0, 1.0
    low, high = proportion_confint(successes, trials, alpha=ALPHA, method="wilson")
    return max(0.0, float(low)), min(1.0, float(high))


def median_interval(values: Sequence[float] | np.ndarray) -> tuple[float, float, float]:
    """The median and a distribution-free 95 % interval for it (order statistics: the
    ranks the binomial(n, ½) puts 2.5 % beyond; the whole range below 6 values, when no
    pair of ranks reaches 95 %). NaNs are dropped; all NaN for no values.

    >>> median_interval([5.0, 1.0, 3.0, 2.0, 4.0, 6.0, 7.0, 8.0, 9.0, 10.0])
    (5.5, 2.0, 9.0)
    """
    from scipy import stats as sps
    data = np.sort(_clean(values))
    n = len(data)
    if n == 0:
        return math.nan, math.nan, math.nan
    rank = int(sps.binom.ppf(ALPHA / 2, n, 0.5))  # 1-based lower rank (0: none reaches)
    low, high = (data[rank - 1], data[n - rank]) if rank >= 1 else (data[0], data[-1])
    return float(np.median(data)), float(low), float(high)
