"""Metrics an app's own script counts (stats.APP_REPORTED_METRICS): taken from its summary's
"app" figures as they are, compared like the lab's own (apps/purchasing's orphans)."""
from __future__ import annotations

from tuninglab import stats
from tuninglab.analysis.comparisons import compare_arms
from tuninglab.analysis.trials import trial_metrics

LOAD = {"throughput": 100.0, "latency_p50": 1.0, "latency_p90": 2.0, "latency_p99": 3.0,
        "error_rate": 0.0}


def test_an_app_s_figures_named_as_metrics_become_metrics_and_no_others():
    app = {"orphans_per_ktx": 48.5, "delivery_lag_p50": 101.0, "delivery_lag_p99": 140.0,
           "orphans": 97, "requested": 2000}  # counts beside the ratios stay figures
    metrics = trial_metrics({**LOAD, "app": app}, {})
    assert metrics["orphans_per_ktx"] == 48.5
    assert (metrics["delivery_lag_p50"], metrics["delivery_lag_p99"]) == (101.0, 140.0)
    assert "orphans" not in metrics and "requested" not in metrics


def test_a_figure_the_app_could_not_count_is_left_out_not_zero():
    metrics = trial_metrics({**LOAD, "app": {"orphans_per_ktx": None}}, {})
    assert "orphans_per_ktx" not in metrics and "delivery_lag_p99" not in metrics
    assert "orphans_per_ktx" not in trial_metrics(LOAD, {})


def test_orphans_compare_as_a_difference_in_count_lower_being_better():
    """Zero orphans in one arm is the expected reading (a send after the commit), so the
    comparison is a difference, not a ratio that zero would break."""
    trials = []
    for block, (base, variant) in enumerate([(50.0, 0.0), (47.0, 0.0), (52.0, 0.0), (49.0, 0.0)]):
        for arm, orphans in (("baseline", base), ("variant", variant)):
            trials.append({"block": block, "arm": arm, "used": True,
                           "metrics": {"throughput": 100.0 + block, "orphans_per_ktx": orphans}})
    entry = compare_arms(trials, "baseline", "variant", "throughput")["metrics"]["orphans_per_ktx"]
    assert entry["delta_kind"] == "absolute" and entry["delta"] == -49.5
    assert entry["ci_high"] < 0 and not entry["higher_is_better"]
    assert set(stats.APP_REPORTED_METRICS) <= set(stats.METRIC_RULES)
