"""Bring a freshly started application server to its plateau before anything is measured.

A JVM that warms at full load on its one core stays slow for minutes: WildFly and the app have
some 2,700 methods for C2 to compile under this workload, and the compiler threads get a small
share of a saturated core (measured: 24 users from the first second climbed from 64 to about
650 tx/s in 150 s and were still climbing; docs/method.md has the curves). The warm-up
therefore has two phases:

1. **compile**: the node may use every CPU of the engine, without its quota, and serves its
   own workload (the same users and mix it will be measured with: warming at another
   concurrency leaves profiles that the real load invalidates, and the JIT starts again) in
   5 s windows, until the compiler is nearly idle or ``compile_max_s`` has passed;
2. **plateau**: the node is back under the measurement's limits and serves 5 s windows until
   throughput is steady (``SteadyRule``) or ``plateau_max_s`` has passed.

Nodes that will be measured side by side compile one at a time (two JVMs compiling at once on
two cores starve each other's compiler threads: measured 2026-11-25, both were still compiling
flat out after 120 s, at a quarter of the throughput one node alone reaches in 60 s), then
reach their plateau side by side, the way they will be measured; the plateau phase ends when
it has ended for every node.

After every window (and once before the first plateau window), ``between_windows(node,
phase)`` may run what the measurement itself will run between its windows (the engine reads
every setting back and takes its telemetry through the management API): those code paths are
part of what the JVM must compile before it is warm, and compiled later they would land in the
measured windows as JIT bursts.

Every window is kept: throughput, error rate and how busy the JIT compiler was (its threads'
CPU as a share of what the node may use; compiler_cpu.py says why not its wall time). A window in
which every request failed stops the run (the stack does not serve this workload).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Callable

from . import load
from .compiler_cpu import busiest, compiler_figures, compiler_reading
from .jvm_threads import read_threads
from .together import together

__all__ = ["SteadyRule", "WarmUpFailed", "Window", "warm_up"]

WINDOW_S = 5


class WarmUpFailed(RuntimeError):
    """The node answered no request correctly for a whole warm-up window."""


@dataclass(frozen=True)
class Window:
    phase: str  # compile | plateau
    seconds: float
    throughput: float
    error_rate: float
    jit_busy: float  # the JVM's compilation (wall) time over the window; recorded, not a rule
    # The busiest member's compiler threads: CPU in cores, and as a share of the CPU the node
    # could use in this window (every engine CPU in the compile phase, its limit after); None
    # when the kernel's counters could not be read.
    jit_cpu: float | None = None
    jit_share: float | None = None

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class SteadyRule:
    """When a warm-up has reached its plateau.

    Over the last ``windows`` 5 s windows (30 s), the least-squares trend of throughput adds up
    to at most ``drift`` across them (a climb still under way fails), and over the last four
    the JIT compiler's threads used at most ``jit_share`` of the node's CPU (a compiler still
    working means the next windows will be faster; windows whose compiler could not be read
    are left out of that test). A 5 s window at a quarter of a core holds about 350 transactions and
    varies by about 10 % (2026-11-25), so over 30 s the trend itself is known only to about
    +/-12 %: the drift bound catches a node still climbing fast, not a slow creep. A slow
    creep common to both nodes of a crossover cancels in their ratio; the compiler's own
    activity, which is not noisy, is the sharper test. A JVM that compiled this server before
    is held to that test alone (``rewarmed``), and each such node's phase ends when it has
    passed (``latch``), not when every node passes in the same window.
    """

    drift: float | None = 0.10  # None: no trend test (a JVM that compiled before: rewarmed)
    # The wall-time bound it replaces (15 % of the window) read about three times the CPU share
    # on a quarter-core node with 8 users (calibration run of 26 November 2026), so 5 % keeps
    # that node's plateau where it was; a throttled node with many threads no longer fails it.
    jit_share: float = 0.05
    windows: int = 6  # plateau windows before the rule can pass
    jit_windows: int = 4  # the last windows whose compiler share is averaged
    # A node that has passed a phase's test stays passed while the other nodes go on (both the
    # compile phase's quiet windows and the plateau). Without it, nodes warming side by side
    # end only in a window where every one passes at once: reloaded nodes whose compiler hovers
    # around the threshold reset each other. Replayed over the 126 rewarms (two nodes each) of
    # the reload runs stored from 5 December 2026 (our arithmetic, 7 December), that wait was
    # about 12.5 s of the 56.9 s a switch spent warming: 55 of 631 compile windows and 259 of
    # 802 plateau windows. Each measured window still has its own compiler check
    # (analysis/trials.py, Tolerance.jit_share), which sends a window with a busy compiler back;
    # the latch is for JVMs that compiled before only (a fresh JVM's trend test is untouched).
    # Its nine reload runs and two A/A runs of 7 December: docs/method.md, "Warm-up" (the
    # saving did not show like for like; no A/A claim; the pairs' first blocks unbiased).
    latch: bool = False

    @classmethod
    def rewarmed(cls, windows: int) -> "SteadyRule":
        """The rule for a JVM that has compiled this server before (a reload, a stack taken
        over warm): ``windows`` windows with the compiler quiet, no trend test (profiles.toml,
        ``rewarm_windows``, says why), each node done when it has passed."""
        return cls(drift=None, windows=windows, jit_windows=windows, latch=True)

    def trend(self, windows: list[Window]) -> float | None:
        """The relative change the least-squares line predicts across the last windows."""
        recent = [w for w in windows if w.phase == "plateau"][-self.windows:]
        if len(recent) < self.windows or any(w.throughput <= 0 for w in recent):
            return None
        ys = [math.log(w.throughput) for w in recent]
        xs = list(range(len(ys)))
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        slope = (sum((x - mx) * (y - my) for x, y in zip(xs, ys))
                 / sum((x - mx) ** 2 for x in xs))
        return math.exp(slope * (len(ys) - 1)) - 1

    def steady(self, windows: list[Window]) -> bool:
        plateau = [w for w in windows if w.phase == "plateau"]
        if len(plateau) < self.windows or any(w.throughput <= 0 for w in plateau[-self.windows:]):
            return False
        if self.drift is not None:
            change = self.trend(windows)
            if change is None or abs(change) > self.drift:
                return False
        read = [w for w in plateau[-self.jit_windows:] if w.jit_share is not None]
        jit = sum(w.jit_share * w.seconds for w in read) / sum(w.seconds for w in read) if read else 0.0
        return jit <= self.jit_share


# The compile phase ends once the compiler's threads used less than this share of the CPU the
# widened node may use (every CPU of the engine: 0.04 of a core on two) in
# COMPILE_QUIET_WINDOWS windows in a row; a window whose compiler could not be read is not
# quiet. Until 26 November 2026 the phase read the compiler's wall time (under 0.1 of the
# window), which stretches when the node's own request threads share the cores with the
# compiler: in a calibration run that day (aa-noise, 8 users, unpublished; the published run
# under these rules is results/aa-noise/20261126T093521Z-vm.json) a widened node's
# wall figure was 4 to 7 times its compiler's CPU at the end of the phase, and several nodes
# compiling at once on two cores stretch it further (the compile phase of a four-node cluster
# ran to its cap: results/cluster-node-count/20261126T010941Z-vm.json). 0.04 of a core keeps
# about the old end for one node. Ending sooner was measured before: at half of the window
# (until 2026-11-25) the node had compiled for about 60 s and ran 600 tx/s, but it went on
# compiling for minutes under its quota, where each method that later crossed a compile
# threshold took eight times longer to reach it: measured nodes climbed by 30 % over the 20
# blocks that followed (results/aa-noise/20261125T104452Z-vm.json).
COMPILE_QUIET = 0.02
COMPILE_QUIET_WINDOWS = 2

Progress = Callable[[str], None]


def warm_up(stack, specs: dict[str, load.LoadSpec], *, compile_max_s: int, plateau_max_s: int,
            rule: SteadyRule = SteadyRule(), say: Progress = print,
            compile_side_by_side: bool = False,
            between_windows: Callable[[str, str], load.LoadSpec | None] | None = None
            ) -> dict[str, dict]:
    """Run both phases on the nodes of ``specs`` ({node: its load}) and return, for each node,
    the record that goes into the result: its windows, whether its plateau was reached and
    when. The compile phase runs one node at a time unless ``compile_side_by_side``.
    ``between_windows(node, phase)`` runs after each window and may return the load of the
    node's next window (a node that switches arms in place serves each arm's load)."""
    specs = dict(specs)
    nodes = list(specs)
    windows: dict[str, list[Window]] = {node: [] for node in nodes}
    groups = [nodes] if compile_side_by_side else [[node] for node in nodes]
    for group in groups if compile_max_s > 0 else ():
        _compile(stack, specs, group, compile_max_s, windows, say, between_windows, rule.latch)
    steady = dict.fromkeys(nodes, False)
    plateau_s = 0.0
    # The hook also runs once before the first plateau window: the engine puts a node that
    # served several arms while it compiled back on one for the plateau (experiment.py).
    for node in nodes if between_windows and plateau_max_s > 0 else ():
        specs[node] = between_windows(node, "plateau") or specs[node]
    while plateau_s < plateau_max_s:
        _windows(stack, specs, "plateau", windows, say, between_windows)
        plateau_s += WINDOW_S
        steady = {node: (rule.latch and steady[node]) or rule.steady(windows[node])
                  for node in nodes}
        if all(steady.values()):
            break
    return {node: {"node": node, "window_s": WINDOW_S, "compile_max_s": compile_max_s,
                   "plateau_max_s": plateau_max_s, "rule": asdict(rule), "steady": steady[node],
                   "side_by_side": nodes, "seconds": sum(w.seconds for w in windows[node]),
                   "windows": [w.as_dict() for w in windows[node]]} for node in nodes}


def _compile(stack, all_specs: dict[str, load.LoadSpec], group: list[str], compile_max_s: int,
             windows: dict[str, list[Window]], say: Progress, between_windows=None,
             latch: bool = False) -> None:
    """The compile phase of the ``group``'s nodes at once: wide, until every one is quiet or
    the cap (``latch``: a node once quiet stays so, SteadyRule.latch). Their loads are updated
    in ``all_specs`` as the hook returns them."""
    specs = {node: all_specs[node] for node in group}
    elapsed, quiet = 0.0, dict.fromkeys(specs, 0)
    members = [m for node in specs for m in stack.members(node)]
    for member in members:
        stack.widen(member)
    try:
        # A cap below one window (a CI run of a recipe that must fit its budget) shortens the
        # one window; published caps are minutes, so their windows stay WINDOW_S long.
        seconds = min(WINDOW_S, compile_max_s)
        while elapsed < compile_max_s:
            found = _windows(stack, specs, "compile", windows, say, between_windows, seconds)
            elapsed += seconds
            quiet = {n: quiet[n] + 1 if w.jit_share is not None and w.jit_share < COMPILE_QUIET
                     or (latch and quiet[n] >= COMPILE_QUIET_WINDOWS) else 0
                     for n, w in found.items()}
            if min(quiet.values()) >= COMPILE_QUIET_WINDOWS:
                break
        all_specs.update(specs)
    finally:
        for member in members:
            stack.restore(member)


def _windows(stack, specs: dict[str, load.LoadSpec], phase: str,
             windows: dict[str, list[Window]], say: Progress,
             between_windows=None, seconds: int = WINDOW_S) -> dict[str, Window]:
    """One window (5 s unless a cap is shorter) on every node at once (a balancer's nodes
    each: its compiler figures are the busiest node's)."""
    members = {node: stack.members(node) for node in specs}
    before = {m: _compiler_reading(stack, m) for ms in members.values() for m in ms}
    summaries = together(specs, lambda node: load.run(
        stack.loadgen, specs[node], seconds, f"warmup-{node}-{len(windows[node])}"))
    found = {}
    for node, summary in summaries.items():
        compiler = busiest([compiler_figures(
            before[m], _compiler_reading(stack, m), seconds,
            stack.allowed_cpus(m, widened=phase == "compile")) for m in members[node]])
        numbers = load.load_metrics(summary)
        window = Window(phase=phase, seconds=seconds, throughput=numbers["throughput"],
                        error_rate=numbers["error_rate"], **compiler)
        windows[node].append(window)
        found[node] = window
        share = (f"{window.jit_share:.0%} of its CPU" if window.jit_share is not None
                 else "not readable")
        say(f"warm-up {node}: {phase} window {len(windows[node])}: "
            f"{window.throughput:,.0f} tx/s, errors {window.error_rate:.1%}, compiler {share}")
        if numbers["requests"] and numbers["failed"] == numbers["requests"]:
            raise WarmUpFailed(
                f"every request failed in warm-up window {len(windows[node])} of {node} "
                f"({numbers['failed']} failed: {numbers['fail_reasons']}); the stack does not "
                f"serve this workload")
    for node in specs if between_windows else ():
        specs[node] = between_windows(node, phase) or specs[node]
    return found


def _compiler_reading(stack, member: str) -> dict:
    return compiler_reading(stack, member, read_threads(stack.nodes[member], stack.meter(member)))
