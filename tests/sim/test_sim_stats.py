"""The statistics of `domeng sim`: Student's t and the cluster 95% interval."""

from __future__ import annotations

import math
import statistics

import pytest

from domeng.sim.stats import cluster_mean_ci, interval_json, t_quantile_975

# Reference 0.975 quantiles of Student's t (standard tables).
KNOWN_T = {
    1: 12.706205,
    2: 4.302653,
    5: 2.570582,
    19: 2.093024,
    30: 2.042272,
    31: 2.039513,
    40: 2.021075,
    60: 2.000298,
    120: 1.979930,
    1000: 1.962339,
}


@pytest.mark.parametrize(("df", "expected"), sorted(KNOWN_T.items()))
def test_t_quantile_matches_the_tables(df: int, expected: float) -> None:
    assert t_quantile_975(df) == pytest.approx(expected, abs=2e-6)


def test_t_quantile_needs_a_degree_of_freedom() -> None:
    with pytest.raises(ValueError, match="degrees of freedom"):
        t_quantile_975(0)


def test_equal_clusters_give_the_t_interval_of_the_cluster_means() -> None:
    totals = [12.0, 7.0, 9.0, 15.0, 4.0, 10.0]
    sizes = [10] * 6
    mean, ci = cluster_mean_ci(totals, sizes)
    means = [t / 10 for t in totals]
    assert mean == pytest.approx(statistics.mean(means))
    half = 2.570582 * statistics.stdev(means) / math.sqrt(6)
    assert ci is not None
    assert ci[0] == pytest.approx(mean - half, abs=1e-6)
    assert ci[1] == pytest.approx(mean + half, abs=1e-6)


def test_a_worked_example() -> None:
    # Three games of 10 rounds with 3, 5 and 4 stones: mean 0.4, per-game sd 0.1.
    mean, ci = cluster_mean_ci([3.0, 5.0, 4.0], [10, 10, 10])
    assert mean == pytest.approx(0.4)
    assert ci == pytest.approx((0.4 - 0.2484138, 0.4 + 0.2484138), abs=1e-6)


def test_unequal_clusters_use_the_ratio_estimator() -> None:
    totals = [6.0, 2.0, 3.0]
    sizes = [20, 10, 5]
    mean, ci = cluster_mean_ci(totals, sizes)
    assert mean == pytest.approx(11 / 35)
    ss = sum((y - mean * n) ** 2 for y, n in zip(totals, sizes, strict=True))
    se = math.sqrt(3 / 2 * ss) / 35
    assert ci == pytest.approx((mean - 4.302653 * se, mean + 4.302653 * se), abs=1e-6)


def test_identical_clusters_give_a_zero_width_interval() -> None:
    mean, ci = cluster_mean_ci([2.0, 2.0, 2.0], [4, 4, 4])
    assert mean == 0.5
    assert ci == (0.5, 0.5)


def test_one_cluster_has_no_interval() -> None:
    assert cluster_mean_ci([7.0], [10]) == (0.7, None)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="same length"):
        cluster_mean_ci([1.0, 2.0], [1])
    with pytest.raises(ValueError, match="no rounds"):
        cluster_mean_ci([], [])


def test_an_interval_is_written_to_json_as_a_list_or_null() -> None:
    assert interval_json((0.25, 0.5)) == [0.25, 0.5]
    assert interval_json(None) is None
