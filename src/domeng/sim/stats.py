"""Statistics for tournaments: means with 95% confidence intervals over clusters.

The rounds of one game are not independent (stones, the CAMAT and who opens
carry over from round to round), and with duplicate play the five rotations
of a game share its deals. So the unit of the interval is the *game* (one
sequence of deals, all five rotations together): each game gives a total
``y_g`` (say, stones received by an entry) over ``n_g`` rounds, and

    mean = sum(y_g) / sum(n_g)
    se^2 = k / (k - 1) * sum((y_g - mean * n_g)^2) / (sum(n_g))^2

(the ratio estimator with its cluster-robust variance; with games of equal
length it is exactly the standard error of the per-game means). The interval
is ``mean ± t(0.975, k - 1) * se`` with Student's t for ``k`` games.

>>> round(t_quantile_975(10), 3)
2.228
>>> mean, (lo, hi) = cluster_mean_ci([3.0, 5.0, 4.0], [10, 10, 10])
>>> round(mean, 2), round(lo, 3), round(hi, 3)
(0.4, 0.152, 0.648)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

# Student's t, two-sided 95% (the 0.975 quantile), for 1..30 degrees of freedom.
_T975 = (
    12.7062047364,
    4.30265272975,
    3.18244630528,
    2.7764451052,
    2.57058183661,
    2.44691184879,
    2.36462425101,
    2.30600413503,
    2.26215716274,
    2.22813885196,
    2.20098516008,
    2.17881282966,
    2.16036865646,
    2.14478668792,
    2.13144954556,
    2.11990529922,
    2.10981557783,
    2.10092204024,
    2.09302405441,
    2.08596344727,
    2.07961384473,
    2.07387306790,
    2.06865761042,
    2.06389856163,
    2.05953855275,
    2.05552943864,
    2.05183051648,
    2.04840714180,
    2.04522964213,
    2.04227245630,
)
_Z975 = 1.959963984540054


def t_quantile_975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom.

    Exact (to 10 digits) up to 30; beyond, the Cornish-Fisher expansion around
    the normal quantile, good to better than 1e-6 there.
    """
    if df < 1:
        raise ValueError("degrees of freedom must be at least 1")
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z975
    n = float(df)
    return (
        z
        + (z**3 + z) / (4 * n)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * n**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * n**3)
        + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * n**4)
    )


def cluster_mean_ci(
    totals: Sequence[float], sizes: Sequence[int]
) -> tuple[float, tuple[float, float] | None]:
    """The mean per unit over clusters and its 95% interval (see the module's docstring).

    ``totals[g]`` is cluster g's sum over its ``sizes[g]`` units (rounds). The
    interval is None with fewer than two clusters (it cannot be estimated).
    """
    if len(totals) != len(sizes):
        raise ValueError("totals and sizes must have the same length")
    n = sum(sizes)
    if n <= 0:
        raise ValueError("no rounds to average")
    mean = sum(totals) / n
    k = len(totals)
    if k < 2:
        return mean, None
    ss = 0.0
    for y, m in zip(totals, sizes, strict=True):
        d = y - mean * m
        ss += d * d
    se = math.sqrt(k / (k - 1) * ss) / n
    half = t_quantile_975(k - 1) * se
    return mean, (mean - half, mean + half)


def interval_json(ci: tuple[float, float] | None) -> list[float] | None:
    """An interval as JSON writes it: ``[low, high]``, or None when there is none."""
    return None if ci is None else [ci[0], ci[1]]
