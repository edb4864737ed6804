"""The threads of a node's JVM as the kernel sees them: name and CPU of each, from /proc.

The JVM's own thread list (ThreadMXBean) leaves out its compiler threads, and the management
model has no count of the io worker's live task threads (only the busy ones); the kernel has
both. Where the engine is local, its containers' processes are ours to read: the container's
cgroup lists them (cgroups.py) and their /proc is read straight from this machine, in about a
millisecond. Elsewhere one ``docker exec`` reads every thread's stat line (WildFlyNode.run_on_jvm
finds the java process), 0.4 to 0.7 s a read on this machine's two busy cores, four reads a
trial. The kernel keeps 15 characters of a thread's name: "C2 CompilerThre", "default task-12".
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["JvmThread", "TASK_STATS", "local_task_stats", "parse_task_stats", "read_threads"]

TASK_STATS = "cat $p/task/*/stat 2>/dev/null"


@dataclass(frozen=True)
class JvmThread:
    tid: int
    name: str
    cpu_s: float  # user + system since the thread started


def parse_task_stats(text: str, ticks_per_second: int) -> list[JvmThread]:
    """Every thread in /proc/<pid>/task/*/stat lines (malformed lines are skipped)."""
    found = []
    for line in text.splitlines():
        start, end = line.find("("), line.rfind(")")  # a name may hold brackets itself
        if start < 0 or end < start or not line[:start].strip().isdigit():
            continue
        fields = line[end + 1:].split()  # state, ppid, ... utime is the 12th, stime the 13th
        if len(fields) < 13:
            continue
        found.append(JvmThread(int(line[:start]), line[start + 1:end],
                               (int(fields[11]) + int(fields[12])) / ticks_per_second))
    return found


def read_threads(container, meter=None) -> list[JvmThread] | None:
    """The threads of the container's JVM now (None when the JVM cannot be read). ``meter``
    (cgroups.meter_for) lists the container's processes when the engine is local."""
    pids = meter.processes() if meter is not None else None
    text = local_task_stats(pids) if pids else None
    if text is None:
        try:
            text = container.run_on_jvm(TASK_STATS)
        except RuntimeError:
            return None
    return parse_task_stats(text, os.sysconf("SC_CLK_TCK"))


def local_task_stats(pids: list[int], proc: Path = Path("/proc")) -> str | None:
    """Every stat line of the java process among ``pids``, read from this machine's /proc
    (None when none of them is a java process: the caller asks the container instead)."""
    for pid in pids:
        try:
            if (proc / str(pid) / "comm").read_text().strip() != "java":
                continue
        except OSError:  # the process ended
            continue
        lines = []
        for stat in (proc / str(pid) / "task").glob("*/stat"):
            try:
                lines.append(stat.read_text().strip())
            except OSError:  # the thread ended between the listing and the read
                continue
        return "\n".join(lines)
    return None
