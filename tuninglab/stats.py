"""Paired comparisons with confidence intervals, p-values, Holm's correction and the smallest
effect a run could have detected.

A run measures in blocks: every arm once in each block, in a random order that the next block
mirrors, so slow drift of the machine (thermal state, page cache, neighbours, a growing table)
falls on every arm alike. Values of one block are *paired*: we analyse per-block differences,
never the arms as two independent groups.

Why a paired Student-t interval and not a bootstrap or a rank test: with 5 to 30 blocks the
percentile bootstrap undercovers (resampling 5 values cannot show more spread than they have),
and the Wilcoxon signed-rank test on 5 pairs cannot reach a two-sided p below 2/32. The t
interval is exact when the per-block differences are normal and stays close under moderate
skew; we make that plausible by working on log ratios for positive, multiplicative metrics
(throughput, latency, CPU per transaction), whose run-to-run noise is close to log-normal. The
unit tests check coverage, false-positive rate and power by simulation.

Two scales:

- ``"ratio"``: d_i = ln(v_i / b_i); delta = exp(mean d) - 1 is the relative change (0.12 means
  +12 %), and the interval is exp(mean d +- t * sd / sqrt(n)) - 1;
- ``"difference"``: d_i = v_i - b_i, for quantities that can be zero (error rate, GC share).

The Student-t distribution is computed here (numpy has no t CDF and the project does not ship
scipy): the CDF from the regularized incomplete beta function (continued fraction, Numerical
Recipes 6.4), the quantile by bisection on the CDF. Both are exact to about 1e-10.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

__all__ = [
    "BETTER",
    "WORSE",
    "NO_CHANGE",
    "NOT_ASSESSED",
    "VERDICTS",
    "RATIO",
    "DIFFERENCE",
    "SCALES",
    "APP_REPORTED_METRICS",
    "METRIC_RULES",
    "MetricRule",
    "Comparison",
    "compare",
    "compare_metric",
    "detectable_effect",
    "holm",
    "verdict",
    "half_width",
    "t_cdf",
    "t_ppf",
    "t_quantile",
]

BETTER = "better"
WORSE = "worse"
NO_CHANGE = "no significant change"
NOT_ASSESSED = "not assessed"  # fewer than two pairs: no interval, no claim
VERDICTS = (BETTER, WORSE, NO_CHANGE, NOT_ASSESSED)

RATIO = "ratio"
DIFFERENCE = "difference"
SCALES = (RATIO, DIFFERENCE)

POWER = 0.80  # the power at which a run states the smallest effect it could have detected


@dataclass(frozen=True)
class MetricRule:
    """How one metric is compared: which direction is good and on which scale, and when it
    measures nothing of the transactions (``negligible_below``: another metric and a share;
    where the baseline's mean is below that share of the other's, the comparison leaves the
    metric out and says why)."""

    higher_is_better: bool
    scale: str
    negligible_below: tuple[str, float] | None = None


# Every metric a trial records, and how to compare it. The primary metric of a recipe is one
# of these (recipe.schema.json, metrics.primary).
METRIC_RULES = {
    "throughput": MetricRule(higher_is_better=True, scale=RATIO),
    "cpu_per_tx": MetricRule(higher_is_better=False, scale=RATIO),
    "latency_p50": MetricRule(higher_is_better=False, scale=RATIO),
    "latency_p90": MetricRule(higher_is_better=False, scale=RATIO),
    "latency_p99": MetricRule(higher_is_better=False, scale=RATIO),
    "error_rate": MetricRule(higher_is_better=False, scale=DIFFERENCE),
    "gc_time": MetricRule(higher_is_better=False, scale=DIFFERENCE),
    "pool_wait_ms": MetricRule(higher_is_better=False, scale=DIFFERENCE),
    # An app that uses no database leaves its CPU at the database's background (autovacuum,
    # checkpoints): 0.02-0.04 % of the app's CPU a transaction in the session and remote-call
    # runs, against 24-56 % for the apps that use one; a ratio of those readings is noise
    # (-10 % [-99.9, +141,950] in http-session-granularity's run of 5 December 2026).
    "db_cpu_per_tx": MetricRule(higher_is_better=False, scale=RATIO,
                                negligible_below=("cpu_per_tx", 0.01)),
    "dropped_share": MetricRule(higher_is_better=False, scale=DIFFERENCE),
    # The web server in front of a node (front.py), per transaction: the tier it adds. An arm
    # whose load goes to the node directly leaves its front idle (its CPU is the status page's
    # reads): against that, a ratio is noise, as for the database's CPU below.
    "front_cpu_per_tx": MetricRule(higher_is_better=False, scale=RATIO,
                                   negligible_below=("cpu_per_tx", 0.01)),
    # What the app's transactions did in its database (database_stats.py), where a recipe reads
    # it: statements, rows updated, WAL bytes and rollbacks per transaction, deadlocks a minute,
    # and the aborts the database forced (deadlocks, serialization failures) per 1,000.
    # Counts that can be 0 in an arm compare as differences.
    "db_statements_per_tx": MetricRule(higher_is_better=False, scale=RATIO),
    "db_updates_per_tx": MetricRule(higher_is_better=False, scale=DIFFERENCE),
    "db_wal_per_tx": MetricRule(higher_is_better=False, scale=RATIO),
    "db_rollbacks_per_tx": MetricRule(higher_is_better=False, scale=DIFFERENCE),
    "deadlocks_per_min": MetricRule(higher_is_better=False, scale=DIFFERENCE),
    "aborts_per_ktx": MetricRule(higher_is_better=False, scale=DIFFERENCE),
    # Messages (apps/messages): from the send's commit to the consumer's end, per message.
    "message_latency_p50": MetricRule(higher_is_better=False, scale=RATIO),
    "message_latency_p99": MetricRule(higher_is_better=False, scale=RATIO),
    # A drain (a queue filled first, then consumed): its rate, and how many messages the
    # consumer worked on at once at the most (what maxSession and the MDB pool allow).
    "drain_rate": MetricRule(higher_is_better=True, scale=RATIO),
    "consumer_peak": MetricRule(higher_is_better=True, scale=DIFFERENCE),
    # Write operations the node sent to its disk, per transaction (metrics.runtime "disk").
    "disk_writes_per_tx": MetricRule(higher_is_better=False, scale=RATIO),
    # Bytes the application server's nodes sent on their network, per transaction (metrics.
    # runtime "network"): the answers, the queries, and what a cluster's nodes send each other.
    "sent_bytes_per_tx": MetricRule(higher_is_better=False, scale=RATIO),
    # What an app's own script reports of a window under these names (APP_REPORTED_METRICS):
    # purchase orders the supplier received from work orders that then rolled back, per 1,000
    # work orders, and the delay from a purchase order's row to its delivery (apps/purchasing).
    "orphans_per_ktx": MetricRule(higher_is_better=False, scale=DIFFERENCE),
    "delivery_lag_p50": MetricRule(higher_is_better=False, scale=RATIO),
    "delivery_lag_p99": MetricRule(higher_is_better=False, scale=RATIO),
}
# The metrics an app's script may report in its summary's "app" figures (k6_contract.js), taken
# as they are: the app counts them, not the lab.
APP_REPORTED_METRICS = ("orphans_per_ktx", "delivery_lag_p50", "delivery_lag_p99")


@dataclass(frozen=True)
class Comparison:
    """The outcome of comparing paired values of one metric.

    ``baseline`` and ``variant`` are arithmetic means of the raw values (for display);
    ``delta``, ``ci_low``, ``ci_high`` and ``detectable`` are relative changes on the ratio
    scale (0.12 = +12 %) and absolute differences on the difference scale. ``detectable`` is
    the smallest true effect this run would have found with 80 % power at its own variance
    (two-sided, at the interval's confidence). ``p_value`` is the two-sided paired t test.
    With fewer than two pairs the interval is (-inf, +inf) and p is 1.
    """

    baseline: float
    variant: float
    delta: float
    ci_low: float
    ci_high: float
    p_value: float
    detectable: float
    verdict: str
    n_pairs: int
    method: str
    scale: str
    confidence: float
    df: float | None = None  # degrees of freedom of the interval (None without one)
    n_periods: int | None = None  # crossover: the periods the interval rests on
    node_effect: float | None = None  # crossover: app-2 against app-1, same scale as delta
    period_test_p: float | None = None  # crossover: do the periods differ more than pairs do?

    def to_dict(self) -> dict:
        """A JSON-safe dict: non-finite numbers (the unbounded interval of n < 2) become None,
        because strict JSON has no Infinity and the result store writes strict JSON."""
        return {name: _json_safe(getattr(self, name)) for name in self.__dataclass_fields__}


def _json_safe(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


# --------------------------------------------------------------------------- Student's t


def t_cdf(t: float, df: float) -> float:
    """P(T_df <= t) for Student's t with ``df`` > 0 degrees of freedom (inf: the normal)."""
    if not df > 0:
        raise ValueError(f"degrees of freedom must be > 0, got {df}")
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    if math.isinf(df):
        return 0.5 * math.erfc(-t / math.sqrt(2.0))
    x = df / (df + t * t)
    tail = 0.5 * _incomplete_beta(df / 2.0, 0.5, x)  # P(T > |t|)
    return 1.0 - tail if t > 0 else tail


def t_ppf(q: float, df: float) -> float:
    """The quantile of Student's t: the t with P(T_df <= t) = q, for 0 < q < 1."""
    if not 0.0 < q < 1.0:
        raise ValueError(f"a probability strictly between 0 and 1 is required, got {q}")
    if q < 0.5:
        return -t_ppf(1.0 - q, df)
    if q == 0.5:
        return 0.0
    low, high = 0.0, 1.0
    while t_cdf(high, df) < q:  # bracket, then bisect: the CDF is monotone
        low, high = high, high * 2.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if t_cdf(mid, df) < q:
            low = mid
        else:
            high = mid
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2.0


def t_quantile(confidence: float, df: float) -> float:
    """Two-sided critical value: P(|T_df| <= t) = confidence (e.g. 2.776 for 0.95, df 4)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence}")
    if not df >= 1:
        raise ValueError(f"degrees of freedom must be >= 1, got {df}")
    return t_ppf((1.0 + confidence) / 2.0, df)


def binomial_interval(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The exact (Clopper-Pearson) interval of a rate seen ``k`` times in ``n``: the rates whose
    binomial tails leave the count inside, each bound a beta quantile found by bisection."""
    if not 0 <= k <= n or n < 1:
        raise ValueError(f"a count of 0 to n in n >= 1 trials is required, got {k} of {n}")
    alpha = (1.0 - confidence) / 2.0

    def rate_where(cdf, target: float) -> float:  # cdf rises with the rate
        low, high = 0.0, 1.0
        for _ in range(60):
            mid = (low + high) / 2.0
            if cdf(mid) < target:
                low = mid
            else:
                high = mid
        return (low + high) / 2.0
    # P(X >= k) = I_p(k, n - k + 1); P(X <= k) = 1 - I_p(k + 1, n - k)
    low = 0.0 if k == 0 else rate_where(lambda p: _incomplete_beta(k, n - k + 1, p), alpha)
    high = 1.0 if k == n else rate_where(lambda p: _incomplete_beta(k + 1, n - k, p), 1.0 - alpha)
    return low, high


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    # The continued fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry
    # I_x(a, b) = 1 - I_{1-x}(b, a) on the other side.
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    """Lentz's evaluation of the incomplete beta continued fraction."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        for numerator in (m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
                          -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-14:
            break
    return h


# --------------------------------------------------------------------------- comparisons


def verdict(ci_low: float, ci_high: float, higher_is_better: bool) -> str:
    """Better / worse only when the whole interval lies on one side of zero."""
    if ci_low > 0:
        return BETTER if higher_is_better else WORSE
    if ci_high < 0:
        return WORSE if higher_is_better else BETTER
    return NO_CHANGE


def half_width(comparison: Comparison) -> float:
    """Half the interval width (the noise floor an A/A recipe reports); on the ratio scale,
    where the interval is asymmetric, the mean of its two arms."""
    return (comparison.ci_high - comparison.ci_low) / 2


def detectable_effect(sd: float, n: int, confidence: float = 0.95, power: float = POWER) -> float:
    """The smallest true mean difference a paired t test of ``n`` pairs with per-pair standard
    deviation ``sd`` detects with probability ``power`` (two-sided, at 1 - confidence):
    (t_{1-alpha/2, n-1} + t_{power, n-1}) * sd / sqrt(n). Infinite below two pairs."""
    if n < 2 or not math.isfinite(sd):
        return math.inf
    return (t_quantile(confidence, n - 1) + t_ppf(power, n - 1)) * sd / math.sqrt(n)


def compare(
    baseline: Sequence[float],
    variant: Sequence[float],
    *,
    higher_is_better: bool,
    scale: str = RATIO,
    confidence: float = 0.95,
    periods: Sequence[int] | None = None,
    orientations: Sequence[int] | None = None,
) -> Comparison:
    """Compare paired values: ``baseline[i]`` and ``variant[i]`` ran in the same block.

    Without ``periods`` every pair is independent: a paired t interval over the pairs. A
    crossover (plan.py) gives each pair its ``periods[i]`` and ``orientations[i]`` (+1: the
    baseline ran on app-1, -1: on app-2); see ``_period_fit`` and ``_crossover_periods``.

    Raises ValueError for unequal lengths, no pairs, non-finite values, an unknown scale or a
    confidence outside (0, 1). On the ratio scale a value <= 0 makes logarithms impossible;
    the comparison then falls back to the difference scale and says so in ``method``.
    """
    b, v = _paired_arrays(baseline, variant)
    if scale not in SCALES:
        raise ValueError(f"scale {scale!r} not supported; allowed: {', '.join(SCALES)}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence}")
    note = ""
    if scale == RATIO and (np.any(b <= 0) or np.any(v <= 0)):
        scale = DIFFERENCE
        note = "; ratio scale impossible (a value <= 0), fell back to differences"
    d = np.log(v / b) if scale == RATIO else v - b
    on = "log ratios" if scale == RATIO else "differences"
    period_p = None
    if periods is None:
        fit = _period_fit(d, None)
        method = f"paired t interval on {on}"
    else:
        fit, period_p = _crossover_periods(d, periods, orientations)
        method = (f"crossover: t interval on the pairs of {on} (no sign of a difference "
                  f"between periods, p = {period_p:.2f})" if fit.pooled else
                  f"crossover: t interval on period means of {on}")
    if fit.node_term:
        method += ", the nodes' difference removed"
    if fit.df < 1:
        units = len(d) if periods is None else len(set(periods))
        note += f"; too few {'pairs' if periods is None else 'periods'} (n={units}) for an interval"
        low, high, p, detect = -math.inf, math.inf, 1.0, math.inf
    else:
        margin = t_quantile(confidence, fit.df) * fit.se
        low, high = fit.centre - margin, fit.centre + margin
        p = _p_from_t(fit.centre, fit.se, fit.df)
        detect = (t_quantile(confidence, fit.df) + t_ppf(POWER, fit.df)) * fit.se
    centre, node = fit.centre, fit.node
    if scale == RATIO:
        centre, low, high = _ratio_change(centre), _ratio_change(low), _ratio_change(high)
        detect = _ratio_change(detect)
        node = None if node is None else _ratio_change(node)
    assessed = fit.df >= 1
    return Comparison(
        baseline=float(np.mean(b)), variant=float(np.mean(v)), delta=float(centre),
        ci_low=float(low), ci_high=float(high), p_value=float(p), detectable=float(detect),
        verdict=verdict(low, high, higher_is_better) if assessed else NOT_ASSESSED,
        n_pairs=len(d), method=method + note, scale=scale, confidence=confidence,
        df=float(fit.df) if assessed else None,
        n_periods=None if periods is None else len(set(periods)),
        node_effect=None if node is None else float(node),
        period_test_p=period_p)


@dataclass(frozen=True)
class _Fit:
    centre: float
    se: float
    df: int
    node: float | None
    node_term: bool
    pooled: bool = False
    residual_ms: float = 0.0  # residual mean square of the units


# A crossover's interval rests on its periods unless the periods show no sign of differing
# more than their pairs do: then on the pairs ("sometimes pool", with the preliminary test at
# the liberal level that keeps the final test's error near its nominal 5 %: Bancroft 1964,
# Hines 1996). Unit tests check the error rate with and without period effects.
POOL_ALPHA = 0.25


def _crossover_periods(d: np.ndarray, periods: Sequence[int], orientations):
    """The crossover's fit, and the p-value of the test for a difference between periods
    (None when it cannot be made: no period holds two pairs)."""
    units, turns = _period_means(d, periods, orientations)
    by_period = _period_fit(units, turns)
    order = list(dict.fromkeys(periods))
    sizes = np.asarray([sum(1 for p in periods if p == period) for period in order])
    within = d - np.asarray([units[order.index(p)] for p in periods])
    df_within = len(d) - len(order)
    if by_period.df < 1 or df_within < 1:
        return by_period, None
    ms_within = float(within @ within) / df_within
    expected = ms_within * float(np.mean(1.0 / sizes))  # a period mean's variance, no effect
    if expected <= 0:
        return by_period, None
    f = by_period.residual_ms / expected
    p = 1.0 - f_cdf(f, by_period.df, df_within)
    if p <= POOL_ALPHA:
        return by_period, p
    pair_turns = None
    if turns is not None:
        pair_turns = np.asarray([turns[order.index(p)] for p in periods], dtype=float)
    pooled = _period_fit(d, pair_turns)
    return _Fit(pooled.centre, pooled.se, pooled.df, pooled.node, pooled.node_term,
                pooled=True, residual_ms=pooled.residual_ms), p


def f_cdf(x: float, d1: float, d2: float) -> float:
    """P(F <= x) for Fisher's F with (d1, d2) degrees of freedom."""
    if x <= 0:
        return 0.0
    return _incomplete_beta(d1 / 2.0, d2 / 2.0, d1 * x / (d1 * x + d2))


def _period_means(d: np.ndarray, periods: Sequence[int], orientations: Sequence[int] | None):
    """The mean difference of each period, and the period's orientation (None when the
    caller gave none)."""
    if len(periods) != len(d):
        raise ValueError(f"one period per pair: {len(d)} pairs, {len(periods)} periods")
    if orientations is not None and len(orientations) != len(d):
        raise ValueError(f"one orientation per pair: {len(d)} pairs, {len(orientations)} given")
    order = list(dict.fromkeys(periods))
    means, turns = [], []
    for period in order:
        members = [i for i, p in enumerate(periods) if p == period]
        means.append(float(np.mean(d[members])))
        if orientations is not None:
            seen = {orientations[i] for i in members}
            if len(seen) != 1:
                raise ValueError(f"period {period} has pairs of both orientations")
            turns.append(seen.pop())
    return np.asarray(means), (np.asarray(turns, dtype=float) if orientations is not None else None)


def _period_fit(units: np.ndarray, turns: np.ndarray | None) -> _Fit:
    """The mean of independent units (pairs, or periods of a crossover).

    With orientations, each unit is modelled as D = tau + s * delta + e: tau the change,
    s = +1 when the baseline ran on app-1 and -1 when it ran on app-2, and delta half the
    difference between the two nodes themselves (a JVM that is 4 % faster than its twin for
    the whole run). Least squares removes delta from the spread, at the cost of one degree of
    freedom; with mirrored orientations tau's estimate is the plain mean either way. Without
    both orientations delta cannot be told from tau, and the plain mean is all there is."""
    n = len(units)
    both = turns is not None and {1.0, -1.0} <= set(turns.tolist())
    if both and n >= 3:
        x = np.column_stack([np.ones(n), turns])
        xtx_inv = np.linalg.inv(x.T @ x)
        beta = xtx_inv @ x.T @ units
        residual = units - x @ beta
        df = n - 2
        variance = float(residual @ residual) / df
        return _Fit(float(beta[0]), math.sqrt(variance * xtx_inv[0, 0]), df, float(beta[1]),
                    True, residual_ms=variance)
    centre = float(np.mean(units))
    if n < 2:
        return _Fit(centre, math.inf, 0, None, False)
    variance = float(np.var(units, ddof=1))
    return _Fit(centre, math.sqrt(variance / n), n - 1, None, False, residual_ms=variance)


def _p_from_t(centre: float, se: float, df: int) -> float:
    if se == 0.0:
        return 0.0 if centre != 0.0 else 1.0
    return 2.0 * (1.0 - t_cdf(abs(centre) / se, df))


def compare_metric(
    metric: str, baseline: Sequence[float], variant: Sequence[float], *, confidence: float = 0.95
) -> Comparison:
    """compare() with the direction and scale that METRIC_RULES gives the named metric."""
    try:
        rule = METRIC_RULES[metric]
    except KeyError:
        allowed = ", ".join(METRIC_RULES)
        raise ValueError(f"unknown metric {metric!r}; allowed: {allowed}") from None
    return compare(baseline, variant, higher_is_better=rule.higher_is_better, scale=rule.scale,
                   confidence=confidence)


def holm(p_values: Mapping[str, float]) -> dict[str, float]:
    """Holm's step-down adjustment of a family of p-values (names -> adjusted p).

    Sorted ascending, the i-th of m p-values is multiplied by (m - i), and the adjusted values
    are made monotone; a family-wise error rate of alpha holds when each adjusted p is compared
    with alpha. Holm is valid under any dependence between the tests, which matters here:
    throughput, latency and CPU per transaction of one trial move together.
    """
    ordered = sorted(p_values.items(), key=lambda item: item[1])
    m, running, adjusted = len(ordered), 0.0, {}
    for i, (name, p) in enumerate(ordered):
        running = max(running, min(1.0, (m - i) * p))
        adjusted[name] = running
    return adjusted


def _ratio_change(log_ratio: float) -> float:
    """A mean log ratio as a relative change; unbounded ends stay unbounded (-inf, not
    exp(-inf) - 1 = -1), so n < 2 reads the same on both scales. An end too far out for a
    float (a level near 1 on one degree of freedom: a sequential look held to the level of a
    few usable blocks) is unbounded too, not an OverflowError."""
    if math.isinf(log_ratio):
        return log_ratio
    try:
        return math.exp(log_ratio) - 1
    except OverflowError:
        return math.inf


def _paired_arrays(baseline: Sequence[float], variant: Sequence[float]):
    b = np.asarray(baseline, dtype=float)
    v = np.asarray(variant, dtype=float)
    if b.ndim != 1 or v.ndim != 1:
        raise ValueError("baseline and variant must be flat sequences of numbers")
    if len(b) != len(v):
        raise ValueError(f"values come in pairs: {len(b)} baseline values but {len(v)} variant "
                         f"values")
    if len(b) == 0:
        raise ValueError("no pairs to compare")
    if not (np.all(np.isfinite(b)) and np.all(np.isfinite(v))):
        raise ValueError("trial values must be finite numbers (got NaN or infinity)")
    return b, v
