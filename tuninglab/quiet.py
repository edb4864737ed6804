"""Wait for a quiet host: CPU steal (a neighbour on the hypervisor) is not ours to fix, and a run
that measures through it spends its re-runs on windows that will be disturbed again. So the
publishing queue waits before each recipe, and a run waits before re-running a block that steal
disturbed, until the host's steal stays under the tolerance for a few windows in a row."""
from __future__ import annotations

import time
from typing import Callable

from .interference import host_snapshot, host_window

__all__ = ["steal_now", "wait_for_quiet"]


def steal_now(window_s: float = 10.0) -> float | None:
    """The host's CPU steal share over the next ``window_s`` seconds (None: not readable)."""
    before = host_snapshot(True)
    time.sleep(window_s)
    after = host_snapshot(True)
    return host_window(before, after, stack_cpu_s=0.0, shared_cpus=set())["steal"]


def wait_for_quiet(tolerance: float, *, say: Callable[[str], None] = print,
                   window_s: float = 10.0, windows: int = 3, max_wait_s: float = 1800.0,
                   measure: Callable[[float], float | None] = steal_now) -> float:
    """Block until ``windows`` windows in a row have steal at or under ``tolerance`` (or
    ``max_wait_s`` passed, after which the caller measures anyway and its own interference
    rule judges each window). Returns the seconds spent waiting beyond the quiet windows."""
    began, quiet, waited_since = time.monotonic(), 0, None
    while quiet < windows:
        steal = measure(window_s)
        if steal is None:
            return 0.0  # a host whose counters cannot be read: nothing to wait for
        if steal <= tolerance:
            quiet += 1
            continue
        quiet = 0
        if waited_since is None:
            waited_since = time.monotonic()
            say(f"the host is noisy (CPU steal {steal:.1%} > {tolerance:.1%}, a neighbour on the "
                f"hypervisor): waiting for it to pass")
        if time.monotonic() - began > max_wait_s:
            say(f"still noisy after {max_wait_s / 60:.0f} min (steal {steal:.1%}); going on, "
                f"and each window's own check will judge it")
            break
    waited = 0.0 if waited_since is None else time.monotonic() - waited_since
    if waited:
        say(f"the host is quiet again after {waited / 60:.1f} min")
    return waited
