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


def _database_cpu_trials(database_share: float) -> list[dict]:
    trials = []
    for block, noise in enumerate([1.0, 1.3, 0.7, 1.1, 0.9, 1.2]):
        for arm, scale in (("baseline", 1.0), ("variant", noise)):
            trials.append({"block": block, "arm": arm, "used": True,
                           "metrics": {"throughput": 100.0 + block + scale, "cpu_per_tx": 1.0,
                                       "db_cpu_per_tx": database_share * scale}})
    return trials


def test_the_database_s_cpu_is_left_out_for_an_app_that_uses_none_and_says_why():
    """An app without a database leaves the database's CPU at its background, 0.02-0.04 % of
    the app's CPU a transaction in the session runs: a ratio of such readings is noise
    (-10.4 % [-99.9, +141,950] in http-session-granularity's run of 5 December 2026)."""
    idle = compare_arms(_database_cpu_trials(0.0003), "baseline", "variant", "throughput")
    assert "db_cpu_per_tx" not in idle["metrics"]
    assert idle["left_out"]["db_cpu_per_tx"].startswith(
        "the baseline's db_cpu_per_tx is 0.03% of its cpu_per_tx, below 1%")
    used = compare_arms(_database_cpu_trials(0.3), "baseline", "variant", "throughput")
    assert "db_cpu_per_tx" in used["metrics"] and used["left_out"] == {}
