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

The rules are read per machine (``Machine``): a kernel and every process on it, which
/proc/stat counts. On one engine that is this machine, or the engine's (DOCKER_HOST), read
through one of the stack's containers there, since /proc/stat is the kernel's and not a
container's. A stack spread over a swarm's hosts (placement/) has one machine per host, the
hosts whose engines run on this machine counting as one (the swarm's test hosts share its
kernel): a busy database host is not a busy application host, and CPU outside the stack is
what a machine ran beyond the stack's containers on it. Several machines make the window's
figures each rule's worst machine, named (``worst``).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .recipe import Tolerance

__all__ = ["HostSnapshot", "Machine", "THIS_MACHINE", "group", "host_snapshot", "host_window",
           "problems", "cpuset_cpus", "worst"]

PROC_STAT = Path("/proc/stat")
THIS_MACHINE = "this machine"


@dataclass(frozen=True)
class Machine:
    """One kernel the stack runs on, read as one for interference."""

    name: str
    roles: tuple[str, ...]  # the stack's meter roles running on it
    shared_cpus: frozenset[int]  # the database's and the load generator's cores, where they run
    read_stat: Callable[[], str] | None = None  # its /proc/stat text; None: this machine's


def group(machine_of: dict[str, str], shared_cpus_of: dict[str, set[int]],
          readers: dict[str, Callable[[], str]]) -> list[Machine]:
    """The machines of a stack from where each role runs (role -> machine name), the cores
    each role shares (the database's, the load generator's) and how each other machine's
    /proc/stat is read (THIS_MACHINE's is read here)."""
    roles: dict[str, list[str]] = {}
    for role, machine in machine_of.items():
        roles.setdefault(machine, []).append(role)
    return [Machine(name, tuple(members),
                    frozenset(c for r in members for c in shared_cpus_of.get(r, ())),
                    None if name == THIS_MACHINE else readers[name])
            for name, members in roles.items()]


@dataclass(frozen=True)
class HostSnapshot:
    t: float
    # cpu -> (busy ticks, all ticks, steal ticks, interrupt + softirq ticks); busy includes
    # the interrupt ticks
    cpus: dict[int, tuple[int, ...]]


def host_snapshot(local: bool = True, read_stat: Callable[[], str] | None = None
                  ) -> HostSnapshot | None:
    """The CPU counters of this machine (``local``), or of another one through ``read_stat``;
    None when neither can be read."""
    if read_stat is not None:
        text = read_stat()
    elif local:
        text = PROC_STAT.read_text()
    else:
        return None
    return HostSnapshot(time.monotonic(), parse_stat(text))


def parse_stat(text: str) -> dict[int, tuple[int, ...]]:
    """cpu -> (busy, all, steal, interrupt) ticks from a /proc/stat text."""
    cpus = {}
    for line in text.splitlines():
        if not line.startswith("cpu") or line.startswith("cpu "):
            continue
        name, *values = line.split()
        user, nice, system, idle, iowait, irq, softirq, steal = (int(v) for v in values[:8])
        busy = user + nice + system + irq + softirq
        cpus[int(name[3:])] = (busy, busy + idle + iowait + steal, steal, irq + softirq)
    return cpus


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


RULES = ("steal", "outside_cpu", "db_core_busy", "irq")


def worst(windows: dict[str, dict]) -> dict:
    """One window's figures from its machines' (name -> host_window): a single machine's as
    they are; of several, each figure its worst machine's, with where it was (``where``) and
    every machine's own (``machines``)."""
    if len(windows) == 1:
        return next(iter(windows.values()))
    out: dict = {"measured": any(w.get("measured") for w in windows.values()), "where": {},
                 "machines": windows}
    for rule in RULES:
        found = {name: w[rule] for name, w in windows.items() if w.get(rule) is not None}
        if found:
            name = max(found, key=found.get)
            out[rule], out["where"][rule] = found[name], name
        else:
            out[rule] = None
    return out


def problems(window: dict, loadgen_utilisation: float | None, tolerance: Tolerance) -> list[str]:
    """Why a trial was disturbed, one sentence per broken tolerance (empty: it was not)."""
    out = []
    steal, busy, outside = window.get("steal"), window.get("db_core_busy"), window.get("outside_cpu")
    where = {rule: f" on {name}" for rule, name in (window.get("where") or {}).items()}
    if steal is not None and steal > tolerance.steal:
        out.append(f"CPU steal {steal:.1%} > tolerance {tolerance.steal:.1%} (a neighbour on the "
                   f"host{where.get('steal', '')})")
    if outside is not None and outside > tolerance.outside_cpu:
        out.append(f"{outside:.2f} cores used outside the stack{where.get('outside_cpu', '')} > "
                   f"tolerance {tolerance.outside_cpu:.2f}")
    if busy is not None and busy > tolerance.db_core_busy:
        out.append(f"database/load-generator cores{where.get('db_core_busy', '')} {busy:.0%} busy "
                   f"> tolerance {tolerance.db_core_busy:.0%} (they may limit throughput)")
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
