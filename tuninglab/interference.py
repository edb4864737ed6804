"""Interference is measured, not assumed: what else used this machine during a trial.

Each measured window records, from the host's /proc/stat and the containers' own CPU counters:

- **steal**: the share of CPU time the hypervisor gave to other guests (a noisy neighbour);
- **outside CPU**: cores used by processes that are not in a container of the stack (the
  harness itself, the Docker engine, a build someone started). Interrupt and softirq time is
  kept apart (``irq``): it is mostly the kernel moving the stack's own packets between
  containers, which no container's counter includes (measured 2026-11-25: 0.08 of a core with
  two nodes side by side), so counting it as a neighbour would disturb every trial;
- **db core busy**: how busy the cores were that the database and the load generator share;
  near 100 % they, not the application server, limit throughput;
- the load generator's own utilisation (saturated, it cannot offer the load it claims).

A trial above any of the recipe's tolerances is *disturbed*: it is kept in the result with its
reasons, left out of the analysis, and its block is run again. Errors of the system under test
(failed requests) are not interference and are judged elsewhere (analysis.py).

On a remote engine the host's counters are not ours to read: steal, outside CPU and core busy
are then recorded as None and those rules cannot fire (the result says so).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from .recipe import Tolerance

__all__ = ["HostSnapshot", "host_snapshot", "host_window", "problems", "cpuset_cpus"]

PROC_STAT = Path("/proc/stat")


@dataclass(frozen=True)
class HostSnapshot:
    t: float
    # cpu -> (busy ticks, all ticks, steal ticks, interrupt + softirq ticks); busy includes
    # the interrupt ticks
    cpus: dict[int, tuple[int, ...]]


def host_snapshot(local: bool) -> HostSnapshot | None:
    if not local:
        return None
    cpus = {}
    for line in PROC_STAT.read_text().splitlines():
        if not line.startswith("cpu") or line.startswith("cpu "):
            continue
        name, *values = line.split()
        user, nice, system, idle, iowait, irq, softirq, steal = (int(v) for v in values[:8])
        busy = user + nice + system + irq + softirq
        cpus[int(name[3:])] = (busy, busy + idle + iowait + steal, steal, irq + softirq)
    return HostSnapshot(time.monotonic(), cpus)


def host_window(before: HostSnapshot | None, after: HostSnapshot | None, *,
                stack_cpu_s: float, shared_cpus: set[int]) -> dict:
    """Steal share, busy share of the shared cores and outside CPU (cores) over a window;
    ``stack_cpu_s`` is the CPU seconds every container of the stack used in it."""
    if before is None or after is None:
        return {"steal": None, "db_core_busy": None, "outside_cpu": None, "measured": False}
    seconds = after.t - before.t
    delta = {cpu: tuple(a - b for a, b in zip(after.cpus[cpu], before.cpus[cpu]))
             for cpu in after.cpus if cpu in before.cpus}
    total = sum(d[1] for d in delta.values())
    irq_s = sum(d[3] for d in delta.values() if len(d) > 3) / _ticks_per_second()
    process_s = sum(d[0] for d in delta.values()) / _ticks_per_second() - irq_s
    shared = [delta[c] for c in shared_cpus if c in delta]
    shared_total = sum(d[1] for d in shared)
    return {
        "steal": sum(d[2] for d in delta.values()) / total if total else 0.0,
        "db_core_busy": sum(d[0] for d in shared) / shared_total if shared_total else None,
        "outside_cpu": max(0.0, process_s - stack_cpu_s) / seconds if seconds > 0 else None,
        "irq": irq_s / seconds if seconds > 0 else None,
        "measured": True,
    }


def problems(window: dict, loadgen_utilisation: float | None, tolerance: Tolerance) -> list[str]:
    """Why a trial was disturbed, one sentence per broken tolerance (empty: it was not)."""
    out = []
    steal, busy, outside = window.get("steal"), window.get("db_core_busy"), window.get("outside_cpu")
    if steal is not None and steal > tolerance.steal:
        out.append(f"CPU steal {steal:.1%} > tolerance {tolerance.steal:.1%} (a neighbour on the "
                   f"host)")
    if outside is not None and outside > tolerance.outside_cpu:
        out.append(f"{outside:.2f} cores used outside the stack > tolerance "
                   f"{tolerance.outside_cpu:.2f}")
    if busy is not None and busy > tolerance.db_core_busy:
        out.append(f"database/load-generator cores {busy:.0%} busy > tolerance "
                   f"{tolerance.db_core_busy:.0%} (they may limit throughput)")
    if loadgen_utilisation is not None and loadgen_utilisation > tolerance.loadgen_cpu:
        out.append(f"load generator saturated: {loadgen_utilisation:.0%} of its CPUs > tolerance "
                   f"{tolerance.loadgen_cpu:.0%}")
    return out


def cpuset_cpus(cpuset: str) -> set[int]:
    """'0-2,5' -> {0, 1, 2, 5}."""
    out: set[int] = set()
    for part in cpuset.split(","):
        low, _, high = part.partition("-")
        out.update(range(int(low), int(high or low) + 1))
    return out


def _ticks_per_second() -> int:
    import os
    return os.sysconf("SC_CLK_TCK")
