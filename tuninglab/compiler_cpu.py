"""The CPU the JIT compiler's threads used, read from the kernel: what the compiler rules read.

Whether a node is still compiling decides when its warm-up's compile phase and plateau end and
whether a measured window counts. Until 26 November 2026 those rules read the JVM's total
compilation time, which is the wall time of the compiler's threads: on a node at its CPU quota
with many busy threads every compilation waits for CPU and stretches, so the figure rises
without more compiling. In the first run that recorded both, on nodes of 0.35 CPU, the wall
figure read 0.35-2.75 of a window while the threads used 0.004-0.10 of a core
(results/cluster-max-connections/20261126T045242Z-vm.json), and it had cost two runs. The
kernel knows the CPU each thread used: the compiler's threads are hidden from the JVM's own
thread list (ThreadMXBean) but not from /proc, where they are named ``C1 CompilerThre`` and
``C2 CompilerThre`` (jvm_threads.py reads them).

The rules read that CPU as a share of the CPU the node may use in the window (``jit_share``):
the share of the node's work that went to compiling instead of serving, the same figure on a
node of a quarter core as on one of two.
"""
from __future__ import annotations

from .jvm_threads import read_threads

__all__ = ["compiler_cores", "compiler_threads_cpu", "COMPILER_THREADS"]

COMPILER_THREADS = ("C1 CompilerThre", "C2 CompilerThre")


def compiler_threads_cpu(container) -> dict[int, float] | None:
    """The CPU seconds so far of each compiler thread of the container's JVM, by thread id
    (None if unreadable or when it has no compiler thread)."""
    threads = read_threads(container)
    found = {t.tid: t.cpu_s for t in threads or () if t.name.startswith(COMPILER_THREADS)}
    return found or None


def compiler_cores(before: dict[int, float] | None, after: dict[int, float] | None,
                   seconds: float) -> float | None:
    """Cores' worth of CPU the compiler threads used between two readings (None if either is
    missing). The JVM starts and retires compiler threads as its queue grows and shrinks
    (UseDynamicNumberOfCompilerThreads), so the sum is taken thread by thread: a thread born in
    the window counts from zero, and one that retired in it takes its seconds with it (the
    figure is then a lower bound). A plain difference of totals read 0 % for a window in the
    middle of a compile phase at 30 % (2026-11-26)."""
    if before is None or after is None or seconds <= 0:
        return None
    used = sum(max(0.0, cpu - before.get(tid, 0.0)) for tid, cpu in after.items())
    return used / seconds
