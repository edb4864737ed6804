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

from .jvm_threads import JvmThread
from .management import compilation_seconds

__all__ = ["compiler_cores", "compiler_figures", "compiler_reading", "compiler_threads_cpu",
           "busiest", "COMPILER_THREADS"]

COMPILER_THREADS = ("C1 CompilerThre", "C2 CompilerThre")


def compiler_threads_cpu(threads: list[JvmThread] | None) -> dict[int, float] | None:
    """The CPU seconds so far of each compiler thread among a JVM's threads, by thread id
    (None if the threads were unreadable or none of them is a compiler thread)."""
    found = {t.tid: t.cpu_s for t in threads or () if t.name.startswith(COMPILER_THREADS)}
    return found or None


def compiler_reading(stack, node: str, threads: list[JvmThread] | None) -> dict:
    """What a window's edge records of a node's compiler: the JVM's compilation (wall) seconds
    and, from its thread list (read once per edge by the caller), each compiler thread's CPU."""
    return {"jit_s": compilation_seconds(stack.management_of(node)),
            "jit_cpu_s": compiler_threads_cpu(threads)}


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


def compiler_figures(before: dict, after: dict, seconds: float, allowed_cpus: float) -> dict:
    """A node's three compiler figures between two readings: its compilation (wall) time over
    the window (recorded; no rule reads it), the CPU of its compiler threads in cores, and
    that CPU over the CPUs the node could use (what the rules read)."""
    cores = compiler_cores(before.get("jit_cpu_s"), after.get("jit_cpu_s"), seconds)
    return {"jit_busy": (after["jit_s"] - before["jit_s"]) / seconds if seconds > 0 else None,
            "jit_cpu": cores,
            "jit_share": cores / allowed_cpus if cores is not None else None}


def busiest(figures: list[dict]) -> dict:
    """The busiest node's figures, each taken over the nodes that could be read."""
    return {key: max((f[key] for f in figures if f[key] is not None), default=None)
            for key in ("jit_busy", "jit_cpu", "jit_share")}
