"""The threads of a node's JVM as the kernel sees them: name and CPU of each, from /proc.

The JVM's own thread list (ThreadMXBean) leaves out its compiler threads, and the management
model has no count of the io worker's live task threads (only the busy ones); the kernel has
both. One ``docker exec`` reads every thread's stat line (WildFlyNode.run_on_jvm finds the
java process). The kernel keeps 15 characters of a thread's name: "C2 CompilerThre",
"default task-12".
"""
from __future__ import annotations

import os
from dataclasses import dataclass

__all__ = ["JvmThread", "TASK_STATS", "parse_task_stats", "read_threads"]

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


def read_threads(container) -> list[JvmThread] | None:
    """The threads of the container's JVM now (None when the JVM cannot be read)."""
    try:
        text = container.run_on_jvm(TASK_STATS)
    except RuntimeError:
        return None
    return parse_task_stats(text, os.sysconf("SC_CLK_TCK"))
