"""Paired comparison of baseline and variant trials, with a confidence interval.

A recipe measures in pairs: one baseline trial and one variant trial, adjacent in time and in
alternating order (AB, BA, AB, ...). Slow drift of the machine (thermal state, page cache,
noisy neighbours) then hits both members of a pair alike, so we analyse the per-pair
differences, not the two groups separately.

Why a paired Student-t interval and not a bootstrap: a recipe has 3 (quick) to 5 (full)
pairs. With so few pairs the percentile bootstrap undercovers badly: resampling 3 or 5
values can never produce more spread than the sample shows, and it has no equivalent of the
t distribution's heavy tails, so a nominal 95 % bootstrap interval covers the true effect in
only about 76 % (3 pairs) or 83 % (5 pairs) of experiments, even with normal differences.
A rank test is no way out either: the Wilcoxon signed-rank test on 5 pairs cannot reach a
two-sided p below 2/32 = 0.0625, so it could never call a change at the 95 % level. The t
interval is exact when the per-pair differences are normal and remains close under moderate
skew; we make that assumption plausible by working on log ratios for positive,
multiplicative metrics (throughput, latency, CPU per transaction), whose run-to-run noise
is close to log-normal. The unit tests check the coverage by simulation.

Two scales:

- ``"ratio"``: d_i = ln(v_i / b_i); delta = exp(mean d) - 1 is the relative change (0.12
  means +12 %), and the interval is exp(mean d +- t * sd / sqrt(n)) - 1, asymmetric around
  delta as a ratio interval should be.
- ``"difference"``: d_i = v_i - b_i; delta = mean d (absolute), for quantities that can be
  zero (error rate, share of time in GC).

Student-t quantiles come from an embedded table (numpy has no inverse t CDF and the project
does not ship scipy); between table rows we interpolate linearly in 1/df, which is how
printed tables are meant to be read and is accurate to about 1e-3 here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

__all__ = [
    "BETTER",
    "WORSE",
    "NO_CHANGE",
    "VERDICTS",
    "SCALES",
    "CONFIDENCE_LEVELS",
    "METRIC_RULES",
    "MetricRule",
    "Comparison",
    "compare",
    "compare_metric",
    "verdict",
    "half_width",
    "t_quantile",
]

BETTER = "better"
WORSE = "worse"
NO_CHANGE = "no significant change"
VERDICTS = (BETTER, WORSE, NO_CHANGE)

RATIO = "ratio"
DIFFERENCE = "difference"
SCALES = (RATIO, DIFFERENCE)

# Two-sided Student-t critical values t_{(1+c)/2, df}, computed from the exact closed-form
# CDF for integer df (Abramowitz & Stegun 26.7.3/26.7.4) and rounded to 4 decimals.
_TABLE_DFS = tuple(range(1, 31)) + (40, 60, 120)
_T_TABLE = {
    0.90: (6.3138, 2.9200, 2.3534, 2.1318, 2.0150, 1.9432, 1.8946, 1.8595, 1.8331, 1.8125,
           1.7959, 1.7823, 1.7709, 1.7613, 1.7531, 1.7459, 1.7396, 1.7341, 1.7291, 1.7247,
           1.7207, 1.7171, 1.7139, 1.7109, 1.7081, 1.7056, 1.7033, 1.7011, 1.6991, 1.6973,
           1.6839, 1.6706, 1.6577),
    0.95: (12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
           2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
           2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
           2.0211, 2.0003, 1.9799),
    0.99: (63.6567, 9.9248, 5.8409, 4.6041, 4.0321, 3.7074, 3.4995, 3.3554, 3.2498, 3.1693,
           3.1058, 3.0545, 3.0123, 2.9768, 2.9467, 2.9208, 2.8982, 2.8784, 2.8609, 2.8453,
           2.8314, 2.8188, 2.8073, 2.7969, 2.7874, 2.7787, 2.7707, 2.7633, 2.7564, 2.7500,
           2.7045, 2.6603, 2.6174),
}
# The normal quantile, i.e. df = infinity.
_Z = {0.90: 1.6449, 0.95: 1.9600, 0.99: 2.5758}
CONFIDENCE_LEVELS = tuple(sorted(_T_TABLE))


@dataclass(frozen=True)
class MetricRule:
    """How one metric is compared: which direction is good and on which scale."""

    higher_is_better: bool
    scale: str


# The metrics a recipe may name (recipe.schema.json, metrics.primary) and how to compare them.
METRIC_RULES = {
    "throughput": MetricRule(higher_is_better=True, scale=RATIO),
    "latency_p50": MetricRule(higher_is_better=False, scale=RATIO),
    "latency_p90": MetricRule(higher_is_better=False, scale=RATIO),
    "latency_p99": MetricRule(higher_is_better=False, scale=RATIO),
    "cpu_per_tx": MetricRule(higher_is_better=False, scale=RATIO),
    "error_rate": MetricRule(higher_is_better=False, scale=DIFFERENCE),
    "gc_time": MetricRule(higher_is_better=False, scale=DIFFERENCE),
}


@dataclass(frozen=True)
class Comparison:
    """The outcome of comparing paired trials for one metric.

    ``baseline`` and ``variant`` are arithmetic means of the raw trial values (for display);
    ``delta``, ``ci_low`` and ``ci_high`` are relative changes on the ratio scale (0.12 =
    +12 %) and absolute differences on the difference scale. With fewer than two pairs the
    interval is (-inf, +inf).
    """

    baseline: float
    variant: float
    delta: float
    ci_low: float
    ci_high: float
    verdict: str
    n_pairs: int
    method: str
    scale: str
    confidence: float

    def to_dict(self) -> dict:
        """A JSON-safe dict: non-finite numbers (the unbounded interval of n < 2) become None,
        because strict JSON has no Infinity and the result store writes strict JSON."""
        return {name: _json_safe(getattr(self, name)) for name in self.__dataclass_fields__}


def _json_safe(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def t_quantile(confidence: float, df: float) -> float:
    """Two-sided Student-t critical value: P(|T_df| <= t) = confidence.

    ``confidence`` is one of CONFIDENCE_LEVELS; ``df`` >= 1 (math.inf gives the normal
    quantile). Between table rows the value is interpolated linearly in 1/df.
    """
    table = _table_for(confidence)
    if not df >= 1:
        raise ValueError(f"degrees of freedom must be >= 1, got {df}")
    if df in _TABLE_DFS:
        return table[_TABLE_DFS.index(df)]
    points = [(1.0 / d, t) for d, t in zip(_TABLE_DFS, table)] + [(0.0, _Z[confidence])]
    x = 0.0 if math.isinf(df) else 1.0 / df
    for (x_hi, t_hi), (x_lo, t_lo) in zip(points, points[1:]):
        if x_lo <= x <= x_hi:
            return t_lo + (t_hi - t_lo) * (x - x_lo) / (x_hi - x_lo)
    raise AssertionError("unreachable: 1/df lies in [0, 1]")


def _table_for(confidence: float) -> tuple[float, ...]:
    for level, table in _T_TABLE.items():
        if math.isclose(confidence, level):
            return table
    allowed = ", ".join(str(c) for c in CONFIDENCE_LEVELS)
    raise ValueError(f"confidence {confidence!r} not supported; allowed: {allowed}")


def verdict(ci_low: float, ci_high: float, higher_is_better: bool) -> str:
    """Better / worse only when the whole interval lies on one side of zero."""
    if ci_low > 0:
        return BETTER if higher_is_better else WORSE
    if ci_high < 0:
        return WORSE if higher_is_better else BETTER
    return NO_CHANGE


def half_width(comparison: Comparison) -> float:
    """Half the interval width: the noise floor an A/A recipe reports.

    On the ratio scale the interval is asymmetric, so this is the mean of its two arms.
    """
    return (comparison.ci_high - comparison.ci_low) / 2


def compare(
    baseline: Sequence[float],
    variant: Sequence[float],
    *,
    higher_is_better: bool,
    scale: str = RATIO,
    confidence: float = 0.95,
) -> Comparison:
    """Compare paired trials: ``baseline[i]`` and ``variant[i]`` ran next to each other.

    Raises ValueError for unequal lengths, no pairs, non-finite values, an unknown scale or
    an unsupported confidence level. On the ratio scale a value <= 0 makes logarithms
    impossible; the comparison then falls back to the difference scale and says so in
    ``method``.
    """
    b, v = _paired_arrays(baseline, variant)
    if scale not in SCALES:
        raise ValueError(f"scale {scale!r} not supported; allowed: {', '.join(SCALES)}")
    _table_for(confidence)  # rejects an unsupported level before any arithmetic
    note = ""
    if scale == RATIO and (np.any(b <= 0) or np.any(v <= 0)):
        scale = DIFFERENCE
        note = "; ratio scale impossible (a value <= 0), fell back to differences"
    d = np.log(v / b) if scale == RATIO else v - b
    method = "paired t interval on " + ("log ratios" if scale == RATIO else "differences")
    centre, low, high = _t_interval(d, confidence)
    if scale == RATIO:
        centre, low, high = _ratio_change(centre), _ratio_change(low), _ratio_change(high)
    if len(d) < 2:
        note += f"; too few pairs (n={len(d)}) for an interval"
    return Comparison(
        baseline=float(np.mean(b)),
        variant=float(np.mean(v)),
        delta=float(centre),
        ci_low=float(low),
        ci_high=float(high),
        verdict=verdict(low, high, higher_is_better),
        n_pairs=len(d),
        method=method + note,
        scale=scale,
        confidence=confidence,
    )


def compare_metric(
    metric: str, baseline: Sequence[float], variant: Sequence[float], *, confidence: float = 0.95
) -> Comparison:
    """compare() with the direction and scale that METRIC_RULES gives the named metric."""
    try:
        rule = METRIC_RULES[metric]
    except KeyError:
        allowed = ", ".join(METRIC_RULES)
        raise ValueError(f"unknown metric {metric!r}; allowed: {allowed}") from None
    return compare(
        baseline, variant, higher_is_better=rule.higher_is_better, scale=rule.scale,
        confidence=confidence,
    )


def _ratio_change(log_ratio: float) -> float:
    """A mean log ratio as a relative change; the unbounded ends of an interval stay
    unbounded (-inf, not exp(-inf) - 1 = -1), so n < 2 reads the same on both scales."""
    return log_ratio if math.isinf(log_ratio) else math.exp(log_ratio) - 1


def _paired_arrays(baseline: Sequence[float], variant: Sequence[float]):
    b = np.asarray(baseline, dtype=float)
    v = np.asarray(variant, dtype=float)
    if b.ndim != 1 or v.ndim != 1:
        raise ValueError("baseline and variant must be flat sequences of numbers")
    if len(b) != len(v):
        raise ValueError(
            f"trials come in pairs: {len(b)} baseline values but {len(v)} variant values"
        )
    if len(b) == 0:
        raise ValueError("no pairs to compare")
    if not (np.all(np.isfinite(b)) and np.all(np.isfinite(v))):
        raise ValueError("trial values must be finite numbers (got NaN or infinity)")
    return b, v


def _t_interval(d: np.ndarray, confidence: float) -> tuple[float, float, float]:
    """Mean of the per-pair values and its two-sided t interval (centre, low, high)."""
    n = len(d)
    centre = float(np.mean(d))
    if n < 2:
        return centre, -math.inf, math.inf
    sd = float(np.std(d, ddof=1))
    margin = t_quantile(confidence, n - 1) * sd / math.sqrt(n)
    return centre, centre - margin, centre + margin
