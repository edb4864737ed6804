"""From trials to a verdict: validity first, then paired comparisons per metric.

A trial is invalid when it had more failed requests than the recipe tolerates, dropped
iterations (the open model could not keep its arrival rate) or a saturated load generator.
One invalid trial makes the whole run invalid: no delta is reported, only the problems.
"""
from __future__ import annotations

from . import stats
from .recipe import Recipe

UNITS = {
    "throughput": "tx/s", "latency_p50": "ms", "latency_p90": "ms", "latency_p99": "ms",
    "error_rate": "fraction of requests", "cpu_per_tx": "app-server CPU ms per tx",
    "gc_time": "share of wall time in GC", "pool_wait_ms": "ms waiting for a connection per tx",
}
# Extra metric compared when the recipe samples the data-source pool.
POOL_WAIT = stats.MetricRule(higher_is_better=False, scale=stats.DIFFERENCE)

INVALID = "invalid"


def trial_metrics(load: dict, telemetry: dict) -> dict:
    metrics = {k: load[k] for k in ("throughput", "latency_p50", "latency_p90", "latency_p99",
                                    "error_rate")}
    metrics["cpu_per_tx"] = telemetry.get("cpu_per_tx_ms")
    metrics["gc_time"] = telemetry.get("gc_time_share")
    pool = telemetry.get("datasource_pool")
    if pool:
        metrics["pool_wait_ms"] = pool.get("blocking_ms_per_tx")
    return metrics


def trial_problems(recipe: Recipe, load: dict, telemetry: dict) -> list[str]:
    problems = []
    tolerance = recipe.tolerance
    if load["requests"] == 0:
        problems.append("no request completed in the measured window")
    elif load["error_rate"] > tolerance.error_rate:
        problems.append(
            f"{load['failed']:,} failed requests of {load['requests']:,} "
            f"({load['error_rate']:.2%}) > tolerance {tolerance.error_rate:.2%} "
            f"(reasons: {load['fail_reasons']})")
    if load["dropped_iterations"]:
        problems.append(f"{load['dropped_iterations']:,} dropped iterations: the load generator "
                        f"could not keep the arrival rate")
    loadgen = telemetry["containers"]["loadgen"]
    if loadgen["cpu_utilisation"] is not None and loadgen["cpu_utilisation"] > tolerance.loadgen_cpu:
        problems.append(f"load generator saturated: {loadgen['cpu_utilisation']:.0%} of its "
                        f"{loadgen['allowed_cpus']:g} CPU (limit {tolerance.loadgen_cpu:.0%})")
    return problems


def compare_trials(trials: list[dict], confidence: float = 0.95) -> dict:
    """Pair the i-th baseline with the i-th variant trial and compare every metric."""
    baseline = [t for t in trials if t["arm"] == "baseline"]
    variant = [t for t in trials if t["arm"] == "variant"]
    out = {}
    for name in trials[0]["metrics"]:
        b = [t["metrics"][name] for t in baseline]
        v = [t["metrics"][name] for t in variant]
        if any(x is None for x in b + v):
            continue
        rule = stats.METRIC_RULES.get(name, POOL_WAIT if name == "pool_wait_ms" else None)
        if rule is None:
            continue
        c = stats.compare(b, v, higher_is_better=rule.higher_is_better, scale=rule.scale,
                          confidence=confidence)
        entry = c.to_dict()
        entry.update(unit=UNITS.get(name, ""), higher_is_better=rule.higher_is_better,
                     delta_kind="relative" if c.scale == stats.RATIO else "absolute")
        out[name] = entry
    return out


def agrees(expected: str, verdict: str) -> bool | None:
    if verdict == INVALID:
        return None
    if expected == "no-change":
        return verdict == stats.NO_CHANGE
    return verdict == expected
