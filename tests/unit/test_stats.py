"""stats.py: the paired t interval, checked against known distributions.

The simulations are what can make these tests fail: a z interval instead of t, a forgotten
pairing, a wrong degree of freedom or a bootstrap would move the coverage of the 95 %
interval well outside [0.93, 0.97] with 5 pairs.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tuninglab.stats import (
    BETTER,
    NO_CHANGE,
    NOT_ASSESSED,
    WORSE,
    Comparison,
    compare,
    compare_metric,
    detectable_effect,
    half_width,
    holm,
    t_cdf,
    t_ppf,
    t_quantile,
    verdict,
)

EXPERIMENTS = 2000


def simulate_pairs(rng, n_pairs, true_ratio, sigma, level=1000.0, drift=0.3):
    """Paired log-normal trials: each pair shares a machine state (drift) that hits both
    arms alike; within a pair each trial has its own log-normal noise of scale sigma."""
    state = rng.normal(0.0, drift, size=n_pairs)
    baseline = level * np.exp(state + rng.normal(0.0, sigma, size=n_pairs))
    variant = level * true_ratio * np.exp(state + rng.normal(0.0, sigma, size=n_pairs))
    return baseline, variant


def run_experiments(seed, true_ratio, sigma=0.05, n_pairs=5, higher_is_better=True):
    rng = np.random.default_rng(seed)
    return [compare(*simulate_pairs(rng, n_pairs, true_ratio, sigma),
                    higher_is_better=higher_is_better)
            for _ in range(EXPERIMENTS)]


# --------------------------------------------------------------------------- t quantiles


@pytest.mark.parametrize(
    ("confidence", "df", "expected"),
    [
        (0.95, 1, 12.706), (0.95, 2, 4.303), (0.95, 4, 2.776), (0.95, 10, 2.228),
        (0.95, 30, 2.042), (0.95, 120, 1.980), (0.95, math.inf, 1.960),
        (0.90, 4, 2.132), (0.90, 20, 1.725), (0.99, 4, 4.604), (0.99, 60, 2.660),
    ],
)
def test_t_quantile_matches_printed_tables(confidence, df, expected):
    assert t_quantile(confidence, df) == pytest.approx(expected, abs=5e-4)


@pytest.mark.parametrize(
    ("df", "exact"),  # from the closed-form t CDF (Abramowitz & Stegun 26.7.3/26.7.4)
    [(35, 2.0301), (50, 2.0086), (80, 1.9901), (200, 1.9719), (1000, 1.9623)],
)
def test_t_quantile_between_table_rows_is_exact(df, exact):
    assert t_quantile(0.95, df) == pytest.approx(exact, abs=1e-4)


@pytest.mark.parametrize(("t", "df", "p"), [
    (0.0, 5, 0.5), (1.0, 1, 0.75),  # Cauchy: 1/2 + atan(1)/pi
    (2.0, 2, 0.5 + 1.0 / math.sqrt(6.0)),  # df 2: 1/2 + t / (2 sqrt(2 + t^2))
    (-2.0, 2, 0.5 - 1.0 / math.sqrt(6.0)), (1.96, math.inf, 0.975002),
])
def test_t_cdf_matches_closed_forms(t, df, p):
    assert t_cdf(t, df) == pytest.approx(p, abs=1e-6)


def test_t_ppf_inverts_the_cdf_and_gives_the_power_quantile():
    for df in (1, 3, 9, 29, 200):
        for q in (0.6, 0.8, 0.975, 0.995):
            assert t_cdf(t_ppf(q, df), df) == pytest.approx(q, abs=1e-9)
    assert t_ppf(0.80, 9) == pytest.approx(0.8834, abs=1e-4)  # printed one-sided tables
    assert t_ppf(0.20, 9) == pytest.approx(-0.8834, abs=1e-4)


def test_t_quantile_rejects_impossible_levels_and_df():
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        t_quantile(1.0, 4)
    with pytest.raises(ValueError, match="degrees of freedom"):
        t_quantile(0.95, 0)


# --------------------------------------------------------------------------- simulations


def test_coverage_of_the_95_percent_interval_is_95_percent():
    true_delta = 0.10
    results = run_experiments(seed=20240601, true_ratio=1 + true_delta)

    covered = np.mean([r.ci_low <= true_delta <= r.ci_high for r in results])
    assert 0.93 <= covered <= 0.97


def test_coverage_holds_with_three_pairs_and_other_levels():
    rng = np.random.default_rng(7)
    for confidence in (0.90, 0.99):
        covered = np.mean([
            (lambda r: r.ci_low <= 0.2 <= r.ci_high)(
                compare(*simulate_pairs(rng, 3, 1.2, 0.1), higher_is_better=True,
                        confidence=confidence))
            for _ in range(EXPERIMENTS)
        ])
        assert abs(covered - confidence) <= 0.02, (confidence, covered)


def test_aa_runs_call_a_change_at_the_nominal_5_percent_rate():
    results = run_experiments(seed=11, true_ratio=1.0)

    false_changes = np.mean([r.verdict != NO_CHANGE for r in results])
    assert 0.03 <= false_changes <= 0.07


def test_large_effect_is_found_in_both_directions():
    better = run_experiments(seed=5, true_ratio=1.5)
    worse = run_experiments(seed=5, true_ratio=1.5, higher_is_better=False)

    assert np.mean([r.verdict == BETTER for r in better]) > 0.99
    assert np.mean([r.verdict == WORSE for r in worse]) > 0.99


def test_pairing_removes_the_shared_drift():
    """With drift six times the noise, an unpaired analysis would see nothing."""
    results = run_experiments(seed=3, true_ratio=1.10, sigma=0.02)

    assert np.mean([r.verdict == BETTER for r in results]) > 0.99


# --------------------------------------------------------------------------- exact values


def test_hand_computed_ratio_example():
    # log ratios 0.1, 0.2, 0.3: mean 0.2, sd 0.1, n 3, t(0.975, 2) = 4.302653
    # margin = 4.302653 * 0.1 / sqrt(3) = 0.248414
    baseline = [100.0, 200.0, 50.0]
    variant = [100 * math.exp(0.1), 200 * math.exp(0.2), 50 * math.exp(0.3)]

    result = compare(baseline, variant, higher_is_better=True)

    assert result.delta == pytest.approx(math.exp(0.2) - 1)  # +22.14 %
    assert result.ci_low == pytest.approx(math.exp(0.2 - 0.248414) - 1, abs=1e-6)  # -4.73 %
    assert result.ci_high == pytest.approx(math.exp(0.2 + 0.248414) - 1, abs=1e-6)  # +56.58 %
    assert result.verdict == NO_CHANGE
    assert result.baseline == pytest.approx(350 / 3)
    assert result.variant == pytest.approx(np.mean(variant))
    assert (result.n_pairs, result.scale, result.confidence) == (3, "ratio", 0.95)
    assert result.method == "paired t interval on log ratios"


def test_hand_computed_difference_example_for_a_lower_is_better_metric():
    # differences 0.02, 0.01, 0.02: mean 0.016667, sd 0.0057735, margin 0.0143430
    result = compare([0.01, 0.02, 0.00], [0.03, 0.03, 0.02], higher_is_better=False,
                     scale="difference")

    assert result.delta == pytest.approx(0.0166667, abs=1e-6)
    assert result.ci_low == pytest.approx(0.0023237, abs=1e-6)
    assert result.ci_high == pytest.approx(0.0310097, abs=1e-6)
    assert result.verdict == WORSE
    assert half_width(result) == pytest.approx(0.0143430, abs=1e-6)


def test_compare_metric_uses_each_metrics_direction_and_scale():
    faster = compare_metric("latency_p99", [10.0, 12.0, 11.0], [8.0, 9.5, 8.8])
    errors = compare_metric("error_rate", [0.0, 0.0, 0.0], [0.0, 0.0, 0.0])

    assert (faster.verdict, faster.scale) == (BETTER, "ratio")
    assert (errors.verdict, errors.scale) == (NO_CHANGE, "difference")
    with pytest.raises(ValueError, match="unknown metric 'tps'; allowed: throughput"):
        compare_metric("tps", [1.0], [1.0])


@pytest.mark.parametrize(
    ("low", "high", "higher_is_better", "expected"),
    [
        (0.01, 0.2, True, BETTER), (0.01, 0.2, False, WORSE),
        (-0.2, -0.01, True, WORSE), (-0.2, -0.01, False, BETTER),
        (-0.1, 0.1, True, NO_CHANGE), (0.0, 0.1, True, NO_CHANGE), (-0.1, 0.0, False, NO_CHANGE),
    ],
)
def test_verdict_needs_the_whole_interval_on_one_side(low, high, higher_is_better, expected):
    assert verdict(low, high, higher_is_better) == expected


# --------------------------------------------------------------------------- edge cases


def test_one_pair_gives_an_unbounded_interval():
    result = compare([100.0], [150.0], higher_is_better=True)

    assert result.delta == pytest.approx(0.5)
    assert (result.ci_low, result.ci_high) == (-math.inf, math.inf)
    assert result.verdict == NOT_ASSESSED  # one pair supports no claim either way
    assert "too few pairs (n=1)" in result.method
    assert half_width(result) == math.inf


def test_identical_values_collapse_the_interval_to_zero():
    result = compare([100.0, 200.0, 300.0], [100.0, 200.0, 300.0], higher_is_better=True)

    assert result.delta == result.ci_low == result.ci_high == 0.0
    assert result.verdict == NO_CHANGE


def test_a_constant_nonzero_ratio_is_a_point_interval_with_a_verdict():
    result = compare([100.0, 200.0], [110.0, 220.0], higher_is_better=True)

    assert result.ci_low == pytest.approx(0.1) and result.ci_high == pytest.approx(0.1)
    assert result.verdict == BETTER


def test_zeros_fall_back_to_differences_and_say_so():
    result = compare([0.0, 0.01, 0.0], [0.0, 0.02, 0.01], higher_is_better=False)

    assert result.scale == "difference"
    assert "fell back to differences" in result.method
    assert result.delta == pytest.approx(0.01 * 2 / 3)


@pytest.mark.parametrize(
    ("baseline", "variant", "kwargs", "message"),
    [
        ([1.0, 2.0], [1.0], {}, "2 baseline values but 1 variant"),
        ([], [], {}, "no pairs"),
        ([1.0, math.nan], [1.0, 2.0], {}, "finite"),
        ([1.0, 2.0], [1.0, 2.0], {"scale": "log"}, "allowed: ratio, difference"),
        ([1.0, 2.0], [1.0, 2.0], {"confidence": 1.5}, "strictly between 0 and 1"),
    ],
)
def test_invalid_input_raises_value_error(baseline, variant, kwargs, message):
    with pytest.raises(ValueError, match=message):
        compare(baseline, variant, higher_is_better=True, **kwargs)


def test_to_dict_is_strict_json_safe():
    import json

    finite = compare([1.0, 2.0], [1.1, 2.3], higher_is_better=True).to_dict()
    unbounded = compare([1.0], [2.0], higher_is_better=True).to_dict()

    assert set(finite) == set(Comparison.__dataclass_fields__)
    assert (unbounded["ci_low"], unbounded["ci_high"]) == (None, None)
    json.dumps(unbounded, allow_nan=False)


# --------------------------------------------------------------------------- detectable effect


def test_detectable_effect_is_found_80_percent_of_the_time():
    """A true effect equal to the stated detectable effect is called in about 80 % of runs:
    the figure is a power statement, not a half-width (which would give about 50 %)."""
    rng = np.random.default_rng(42)
    n, sigma = 12, 0.04
    sd_pairs = sigma * math.sqrt(2)  # each pair's log ratio has two trials' noise
    effect = detectable_effect(sd_pairs, n)
    hits = np.mean([compare(*simulate_pairs(rng, n, math.exp(effect), sigma, drift=0.0),
                            higher_is_better=True).verdict == BETTER for _ in range(EXPERIMENTS)])
    assert 0.76 <= hits <= 0.84, hits


def test_detectable_effect_hand_computed_and_reported_on_the_ratio_scale():
    # n 10: t(0.975, 9) 2.2622 + t(0.80, 9) 0.8834 = 3.1456; sd 0.05 / sqrt(10) = 0.015811
    assert detectable_effect(0.05, 10) == pytest.approx(3.1456 * 0.015811, abs=1e-4)
    assert detectable_effect(0.05, 1) == math.inf
    logs = [0.0, 0.1, -0.1, 0.05, -0.05, 0.02, -0.02, 0.08, -0.08, 0.0]
    c = compare([100.0] * 10, [100 * math.exp(x) for x in logs], higher_is_better=True)
    assert c.detectable == pytest.approx(math.exp(detectable_effect(float(np.std(logs, ddof=1)), 10)) - 1)


def test_p_value_agrees_with_the_interval():
    rng = np.random.default_rng(9)
    for _ in range(200):
        c = compare(*simulate_pairs(rng, 8, 1.03, 0.04), higher_is_better=True)
        assert (c.p_value < 0.05) == (c.verdict != NO_CHANGE)


# --------------------------------------------------------------------------- Holm


def test_holm_hand_computed():
    adjusted = holm({"a": 0.01, "b": 0.04, "c": 0.03})
    # sorted a 0.01, c 0.03, b 0.04: x3 = 0.03, x2 = 0.06, x1 = 0.04 -> monotone 0.06
    assert adjusted == pytest.approx({"a": 0.03, "c": 0.06, "b": 0.06})
    assert holm({}) == {}


def test_holm_keeps_the_family_wise_error_of_eight_null_metrics_near_5_percent():
    """Eight secondary metrics of an A/A run, each tested at 5 %: without the correction about
    a third of runs flag at least one; with Holm about 5 % do (fewer, as the metrics move
    together here)."""
    rng = np.random.default_rng(2024)
    raw, corrected = 0, 0
    for _ in range(EXPERIMENTS):
        shared = rng.normal(0, 0.03, size=(10, 1))  # metrics of one trial move together a little
        logs = shared + rng.normal(0, 0.05, size=(10, 8))
        p = {f"m{i}": compare([1.0] * 10, list(np.exp(logs[:, i])), higher_is_better=True).p_value
             for i in range(8)}
        raw += any(v < 0.05 for v in p.values())
        corrected += any(v < 0.05 for v in holm(p).values())
    assert raw / EXPERIMENTS > 0.2
    assert corrected / EXPERIMENTS <= 0.07
