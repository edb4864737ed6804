"""One trial: its metrics, and whether it may be used.

Two kinds of trouble, kept apart because they mean different things:

- **errors** of the system under test (failed requests above the recipe's tolerance, dropped
  iterations, no request at all): a result in itself. An A/B run with errors reports them and
  no delta; a curve marks the point and leaves it out of the knee;
- **disturbances** of the machine (interference.py), or of the node itself (its JIT compiler
  busy during the window: the node was still changing): the trial says nothing about the
  change, so it is left out and its block runs again.
"""
from __future__ import annotations

from .. import interference, stats
from .. import load as load_driver
from ..recipe import MEASURES_ERRORS, Recipe

__all__ = ["UNITS", "trial_metrics", "trial_errors", "trial_disturbances"]

UNITS = {
    "throughput": "tx/s", "latency_p50": "ms", "latency_p90": "ms", "latency_p99": "ms",
    "error_rate": "fraction of requests", "cpu_per_tx": "app-server CPU ms per tx",
    "db_cpu_per_tx": "database CPU ms per tx",
    "front_cpu_per_tx": "front web server CPU ms per tx",
    "gc_time": "share of wall time in GC", "pool_wait_ms": "ms waiting for a connection per tx",
    "dropped_share": "share of arrivals dropped",
    "db_statements_per_tx": "statements per tx", "db_updates_per_tx": "rows updated per tx",
    "db_wal_per_tx": "WAL bytes per tx", "db_rollbacks_per_tx": "rollbacks per tx",
    "deadlocks_per_min": "deadlocks a minute", "aborts_per_ktx": "aborts per 1,000 tx",
    "message_latency_p50": "ms from send to consumed", "message_latency_p99": "ms from send to consumed",
    "drain_rate": "messages consumed a second", "consumer_peak": "messages in the consumer at once (peak)",
    "disk_writes_per_tx": "disk write operations per tx",
    "sent_bytes_per_tx": "bytes the app server's nodes sent per tx",
    "orphans_per_ktx": "deliveries without a committed order per 1,000 orders",
    "delivery_lag_p50": "ms from order to delivery", "delivery_lag_p99": "ms from order to delivery",
}


def trial_metrics(load: dict, telemetry: dict) -> dict:
    metrics = {k: load[k] for k in ("throughput", "latency_p50", "latency_p90", "latency_p99",
                                    "error_rate")}
    if load.get("dropped_iterations"):
        metrics["dropped_share"] = load["dropped_iterations"] / (
            load["dropped_iterations"] + load["requests"])
    messages = load.get("messages")
    if messages:  # from send to consumption, as the app's ledger timed each message
        metrics["message_latency_p50"] = messages.get("e2e_p50_ms")
        metrics["message_latency_p99"] = messages.get("e2e_p99_ms")
        if messages.get("drain_rate") is not None:  # a drain: consumed a second, first to last
            metrics["drain_rate"] = messages["drain_rate"]
            metrics["consumer_peak"] = messages.get("peak_in_work")
    figures = load.get("app") or {}  # what the app's own script counted (stats.APP_REPORTED_METRICS)
    metrics.update({name: figures[name] for name in stats.APP_REPORTED_METRICS
                    if figures.get(name) is not None})
    metrics["cpu_per_tx"] = telemetry.get("cpu_per_tx_ms")
    metrics["db_cpu_per_tx"] = telemetry.get("db_cpu_per_tx_ms")
    if "front_cpu_per_tx_ms" in telemetry:  # a web server in front of the node (front.py)
        metrics["front_cpu_per_tx"] = telemetry["front_cpu_per_tx_ms"]
    metrics["gc_time"] = telemetry.get("gc_time_share")
    database = telemetry.get("database") or {}
    if "per_tx" in database:  # what the app's transactions did in the database
        per_tx = database["per_tx"]
        metrics.update({"db_statements_per_tx": per_tx.get("statements"),
                        "db_updates_per_tx": per_tx.get("updated"),
                        "db_wal_per_tx": per_tx.get("wal_bytes"),
                        "db_rollbacks_per_tx": per_tx.get("rollbacks"),
                        "deadlocks_per_min": database.get("deadlocks_per_min"),
                        "aborts_per_ktx": database.get("aborts_per_ktx")})
    disk = telemetry.get("disk") or {}
    if "writes_per_tx" in disk:  # what the node wrote to its disk (metrics.runtime "disk")
        metrics["disk_writes_per_tx"] = disk["writes_per_tx"]
    network = telemetry.get("network") or {}
    if "sent_bytes" in network.get("per_tx", {}):  # what the nodes sent (metrics.runtime "network")
        metrics["sent_bytes_per_tx"] = network["per_tx"]["sent_bytes"]
    pool = telemetry.get("datasource_pool")
    if pool:
        metrics["pool_wait_ms"] = pool.get("blocking_ms_per_tx")
    return metrics


def trial_errors(recipe: Recipe, load: dict) -> list[str]:
    """Why the system under test failed this trial (empty: it did not). A recipe whose primary
    metric is the error rate measures failed requests: they are its result, not a failure."""
    errors = []
    measured = recipe.metrics.primary == MEASURES_ERRORS
    if load["requests"] == 0:
        errors.append("no request completed in the measured window")
    elif load["error_rate"] > recipe.tolerance.error_rate and not measured:
        errors.append(
            f"{load['failed']:,} failed requests of {load['requests']:,} "
            f"({load['error_rate']:.2%}) > tolerance {recipe.tolerance.error_rate:.2%} "
            f"(reasons: {load['fail_reasons']})")
    errors += load_driver.message_problems(load.get("messages"))
    errors += load.get("problems") or []  # what the app's own script found wrong
    dropped = load["dropped_iterations"]
    if dropped:
        share = dropped / (dropped + load["requests"])
        if share > recipe.tolerance.dropped_share:
            errors.append(f"{dropped:,} dropped iterations ({share:.1%} of the arrivals): the "
                          f"arrivals could not be served at the offered rate")
    return errors


# How a disturbance by a node's own compiler is worded (the others come from interference.py);
# "JIT compiler busy" until 26 November 2026, when the rule read the compiler's wall time.
JIT_BUSY = "JIT compiler"


def still_compiling(disturbance: str) -> bool:
    """Whether a trial's disturbance is its node's compiler rather than the machine."""
    return JIT_BUSY in disturbance


def trial_disturbances(recipe: Recipe, telemetry: dict) -> list[str]:
    loadgen = telemetry["containers"]["loadgen"]["cpu_utilisation"]
    found = interference.problems(telemetry["interference"], loadgen, recipe.tolerance)
    jit = telemetry.get("jit_share")
    if jit is not None and jit > recipe.tolerance.jit_share:
        found.append(f"{telemetry.get('node', 'the node')}'s {JIT_BUSY} used {jit:.0%} of the "
                     f"node's CPU > tolerance {recipe.tolerance.jit_share:.0%} (the node was "
                     f"still compiling)")
    return found
