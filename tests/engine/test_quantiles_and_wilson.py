"""numpy's quantiles and statsmodels' Wilson interval give the numbers the hand-coded
functions they replaced gave (golden values computed with the old code)."""

from __future__ import annotations

import pytest

from benchmarks.loadtest import percentile
from engine.simulate import _length_stats, wilson

# (successes, trials) -> (low, high) of the hand-coded Wilson score interval (z = 1.95996…)
WILSON_GOLDEN = {
    (0, 10): (0.0, 0.277533),
    (10, 10): (0.722467, 1.0),
    (1, 3): (0.061492, 0.79234),
    (60, 100): (0.502003, 0.690599),
    (517, 1000): (0.486022, 0.547848),
    (3, 7): (0.15822, 0.749542),
}


@pytest.mark.parametrize(("counts", "golden"), list(WILSON_GOLDEN.items()))
def test_wilson_interval_equals_the_hand_coded_one(counts: tuple[int, int],
                                                   golden: tuple[float, float]) -> None:
    interval = wilson(*counts)
    assert (round(interval.low, 6), round(interval.high, 6)) == golden
    assert interval.share == counts[0] / counts[1]


def test_wilson_interval_of_no_trials_is_everything() -> None:
    interval = wilson(0, 0)
    assert (interval.low, interval.high, interval.trials) == (0.0, 1.0, 0)


LENGTHS = [12, 15, 15, 18, 21, 22, 30, 31, 44, 80]


def test_game_length_quantiles_equal_the_hand_coded_ones() -> None:
    stats = _length_stats(LENGTHS)
    got = (stats.median, stats.p10, stats.p25, stats.p75, stats.p90, stats.p99)
    assert got == pytest.approx((21.5, 14.7, 15.75, 30.75, 47.6, 76.76), abs=1e-9)
    assert (stats.minimum, stats.maximum) == (12, 80)


def test_no_games_have_zero_quantiles() -> None:
    stats = _length_stats([])
    assert (stats.median, stats.p99, stats.mean) == (0.0, 0.0, 0.0)


def test_loadtest_percentile_is_linear_interpolation() -> None:
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5
    assert percentile([float(x) for x in LENGTHS], 95) == pytest.approx(63.8)
    assert percentile([7.0], 95) == 7.0
    with pytest.raises(ValueError, match="no values"):
        percentile([], 95)
