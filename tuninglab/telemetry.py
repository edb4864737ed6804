"""What the stack did during a measured window: container CPU and memory, JVM GC and heap,
and the WildFly runtime statistics a recipe names.

Counters are cumulative, so a window is two snapshots and a difference: sampling costs a few
management calls at the edges of the window, not a probe running beside the load.
"""
from __future__ import annotations

import time

from .management import ManagementError
from .management import PLATFORM_GC as GC
from .management import PLATFORM_MEMORY as MEMORY
from .stack import Stack

POOL = [("subsystem", "datasources"), ("data-source", "OrderDS"), ("statistics", "pool")]
IO_WORKER = [("subsystem", "io"), ("worker", "default")]

RUNTIME_SOURCES = {
    "datasource-pool": POOL,
    "io-worker": IO_WORKER,
    "jvm-memory": MEMORY,
}


def snapshot(stack: Stack, runtime: tuple[str, ...]) -> dict:
    snap = {"t": time.monotonic(), "containers": {}}
    for role in ("app", "db", "loadgen"):
        snap["containers"][role] = getattr(stack, role).cpu_and_memory()
    snap["gc"] = _gc_totals(stack)
    for name in runtime:
        if name in RUNTIME_SOURCES:
            snap[name] = _runtime(stack, RUNTIME_SOURCES[name])
    return snap


def _gc_totals(stack: Stack) -> dict:
    collectors = stack.management.read_resource(GC, runtime=True, recursive=True)
    per = collectors.get("name", {}) if collectors else {}
    return {
        "count": sum((c or {}).get("collection-count") or 0 for c in per.values()),
        "time_ms": sum((c or {}).get("collection-time") or 0 for c in per.values()),
        "collectors": sorted(per),
    }


def _runtime(stack: Stack, address) -> dict:
    try:
        return stack.management.read_resource(address, runtime=True) or {}
    except ManagementError as exc:
        return {"error": str(exc)}


def window(stack: Stack, before: dict, after: dict, transactions: int, load_s: float) -> dict:
    """Derived telemetry of one window; CPU per transaction in milliseconds.

    The snapshots bracket the whole k6 run, which includes a second or two of k6 start-up
    without load; utilisation and GC share are therefore taken over `load_s`, the seconds the
    load actually ran (k6's own start-up CPU stays in, so the load generator is, if anything,
    reported busier than it was)."""
    seconds = load_s
    out = {"window_s": after["t"] - before["t"], "load_s": load_s, "containers": {}}
    for role in before["containers"]:
        cpu_s = after["containers"][role]["cpu_s"] - before["containers"][role]["cpu_s"]
        allowed = getattr(stack, role).allowed_cpus()
        out["containers"][role] = {
            "cpu_s": cpu_s,
            "cpu_utilisation": cpu_s / seconds / allowed if seconds > 0 else None,
            "allowed_cpus": allowed,
            "memory_bytes": after["containers"][role]["memory_bytes"],
            "memory_peak_bytes": after["containers"][role]["memory_peak_bytes"],
        }
    gc_ms = after["gc"]["time_ms"] - before["gc"]["time_ms"]
    out["gc"] = {"count": after["gc"]["count"] - before["gc"]["count"], "time_ms": gc_ms,
                 "collectors": after["gc"]["collectors"]}
    out["cpu_per_tx_ms"] = (out["containers"]["app"]["cpu_s"] * 1000 / transactions
                            if transactions else None)
    out["gc_time_share"] = gc_ms / (seconds * 1000) if seconds > 0 else None
    if "datasource-pool" in after:
        out["datasource_pool"] = _pool_window(before.get("datasource-pool", {}),
                                              after["datasource-pool"], transactions)
    for name in ("io-worker", "jvm-memory"):
        if name in after:
            out[name.replace("-", "_")] = after[name]
    return out


def _pool_window(before: dict, after: dict, transactions: int) -> dict:
    def delta(key):
        return _number(after.get(key)) - _number(before.get(key))
    blocking_ms = delta("TotalBlockingTime")
    return {
        "wait_count": delta("WaitCount"),
        "timed_out": delta("TimedOut"),
        "total_blocking_ms": blocking_ms,
        "blocking_ms_per_tx": blocking_ms / transactions if transactions else None,
        "max_used": _number(after.get("MaxUsedCount")),
        "max_wait_count": _number(after.get("MaxWaitCount")),
        "active": _number(after.get("ActiveCount")),
    }


def _number(value) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0
