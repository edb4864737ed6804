"""The CPU the JIT compiler's threads used, read from the kernel (recorded, not yet a rule).

The compiler rule (``jit_busy``) reads the JVM's total compilation time, which is the wall time
of the compiler's threads: on a node at its CPU quota with many busy threads every compilation
waits for CPU and stretches, so the figure rises without more compiling. A compilation of
10 ms of CPU can read as 100 ms. It cost two runs on 2026-11-26
(results/cluster-max-connections/20261126T040348Z-vm.json read 0.3-0.8 of a window in an
error-free warm-up). The kernel knows the CPU each thread used: the compiler's threads are
hidden from the JVM's own thread list (ThreadMXBean) but not from /proc, where they are named
``C1 CompilerThre`` and ``C2 CompilerThre`` (the kernel keeps 15 characters of a name).

Each window records both figures, so the rule can move to CPU time once runs show where its
threshold belongs.
"""
from __future__ import annotations

import os

__all__ = ["compiler_cpu_seconds", "parse_task_stats", "TASK_STATS"]

# Every thread's stat line of the container's JVM (WildFlyNode.run_on_jvm finds it).
TASK_STATS = "cat $p/task/*/stat 2>/dev/null"
COMPILER_THREADS = ("C1 CompilerThre", "C2 CompilerThre")


def parse_task_stats(text: str, ticks_per_second: int) -> float | None:
    """Seconds of CPU (user + system) of the compiler threads in /proc/<pid>/task/*/stat lines;
    None when no compiler thread is among them."""
    total, found = 0, False
    for line in text.splitlines():
        start, end = line.find("("), line.rfind(")")
        if start < 0 or end < start:
            continue
        if not line[start + 1:end].startswith(COMPILER_THREADS):
            continue
        fields = line[end + 1:].split()  # state, ppid, ... utime is the 12th, stime the 13th
        if len(fields) < 13:
            continue
        total += int(fields[11]) + int(fields[12])
        found = True
    return total / ticks_per_second if found else None


def compiler_cpu_seconds(container) -> float | None:
    """The compiler threads' CPU seconds so far in the container's JVM (None if unreadable).
    A compiler thread the JVM retires takes its seconds with it, so a window's difference is a
    lower bound when the JVM shrinks its compiler pool."""
    try:
        text = container.run_on_jvm(TASK_STATS)
    except RuntimeError:
        return None
    return parse_task_stats(text, os.sysconf("SC_CLK_TCK"))
