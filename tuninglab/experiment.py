"""Run one recipe: plan → stack → verify → warm-up → blocks of trials → analysis → stored result.

The stages, each in its own module:

1. ``plan.compile_plan``: the arms (A/B is the two-arm case), the layout (a crossover of two
   nodes, one shared node, or a node per level) and how the change switches;
2. ``design.blocks``: slots in randomized mirrored blocks, and a crossover's periods;
3. ``stack.Stack``: the containers, with the application-server nodes of the layout, or a
   cluster behind a balancer formed on it (``topology``); an arm's target is a node or the
   balancer, and everything done to a node is done to each node of the target
   (``Stack.members``);
4. ``changes``: every node configured for its first arm, read back, and the nodes' models
   compared;
5. ``warmup``: every node brought to its plateau (nodes measured side by side warm together);
6. the trial loop (``_Run``): before each period ``swaps`` puts the arms on their nodes (a
   reload or fresh JVMs when the change needs them), before each slot the arms' settings are
   switched where they switch in place and read back everywhere, the load settles, then the
   measured window runs with telemetry at its edges. A trial disturbed by the machine sends
   its block back to the queue (up to ``max_retries``);
7. ``analysis.analyse``: comparisons or curves; ``result.build``: the stored record.

A setting that does not read back raises ChangeNotEffective, and nothing is stored.
"""
from __future__ import annotations

import random
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from . import (apps, calibration, changes, courses, database_stats, design, images, layout,
               load, network, placement, preflight, profiling, provenance, quiet, result, stackpool,
               staleness, stats, store, telemetry, topology, warmup)
from .analysis import INVALID, analyse, sequential, trial_disturbances, trial_errors, trial_metrics
from .analysis.comparisons import paired_values, turn_triples
from .analysis.trials import UNITS, still_compiling
from .changes import client_read_back, database_read_back
from .changes import nodes as node_setup
from .errors import DirtyTree
from .plan import AB, AB_BY_LOAD, CROSSOVER, PER_LEVEL, RUNTIME, Arm, Plan, compile_plan
from .recipe import MEASURES_ERRORS, Recipe, measured_hash, recipe_hash
from .stack import TIERED, NodeConfig, Stack, StackConfig
from .swaps import switcher_for
from .together import together
from .window_length import WindowLength

__all__ = ["Progress", "run_recipe", "node_config", "stack_config", "period_blocks"]

Progress = Callable[[str], None]
TRIAL_OVERHEAD_S = 1.5  # checks, k6 start-up and telemetry per trial, for time estimates


def stack_config(recipe: Recipe) -> StackConfig:
    s = recipe.stack
    return StackConfig(db_cpuset=s.db_cpuset, loadgen_cpuset=s.loadgen_cpuset, db_memory=s.db_memory,
                       databases=s.databases, db_cpus=s.db_cpus,
                       **changes.kind_for(recipe).stack_needs())


def node_config(recipe: Recipe, share: int = 1, jit: str = TIERED) -> NodeConfig:
    """The node every arm starts from, before its change kind adds its own difference;
    ``share`` nodes measured side by side split the application server's CPU quota; ``jit``
    is the profile's (stack.NodeConfig)."""
    s = recipe.stack
    cpus = s.app_cpus / share if s.app_cpus else None
    app = apps.load(recipe.workload.app, recipe.repo_root)
    return NodeConfig(cpuset=s.app_cpuset, cpus=cpus, memory=s.app_memory,
                      jvm_options=s.jvm_options, server_config=recipe.server_config,
                      apps=apps.node_apps(app, recipe.repo_root), jit=jit)


def period_blocks(plan: Plan, prof) -> int | None:
    """Blocks per period (None without periods). A crossover: every block swaps at runtime; a
    reload or a restart divides the blocks into ``prof.periods`` periods. A node per value:
    ``prof.launches`` periods, each node starting anew at every boundary (swaps.py)."""
    if plan.layout == PER_LEVEL:
        return -(-prof.blocks // prof.launches) if prof.launches > 1 else None
    if plan.layout != CROSSOVER:
        return None
    if plan.switch == "runtime":
        return 1
    return max(1, -(-prof.blocks // max(1, prof.periods)))


def run_recipe(recipe: Recipe, profile: str = "quick", *, progress: Progress = print,
               results_dir: Path | None = None, save: bool = True,
               allow_dirty: bool | None = None) -> dict:
    """Run the recipe in the named profile and return the result (stored unless save=False).

    A run in the full profile is meant for the site: it refuses a tree whose measured inputs
    have uncommitted changes, unless ``allow_dirty``."""
    prof = database_stats.settled(recipe.profile(profile), recipe.metrics.reads_database)
    recipe = recipe.as_run_in(prof)  # a CI profile's smaller cluster (profile cluster_nodes)
    phases = _Phases()
    code = {"recipe_hash": recipe_hash(recipe), "measured_hash": measured_hash(recipe),
            "role_inputs": staleness.role_inputs(recipe), **provenance.git()}
    if code["git_dirty"] and profile == "full" and not allow_dirty:
        raise DirtyTree(f"the full profile is what the site publishes, and these inputs have "
                        f"uncommitted changes: {', '.join(code['git_dirty_paths'][:8])}; commit "
                        f"them first (or pass --allow-dirty for a run the site will not show)")
    # Everything that can be known before a container starts: first what needs no engine,
    # then what only the images can answer (JVM options, PostgreSQL parameters).
    preflight.check(recipe)
    preflight.check(recipe, client=placement.local_client())
    phases.end("preflight")
    kind = changes.kind_for(recipe)
    plan = compile_plan(recipe, switch=kind.switch, points=prof.points)
    kind.bind(plan.arms)
    seed = design.new_seed()
    blocks = design.blocks(plan.slots, prof.blocks, seed, period_blocks=period_blocks(plan, prof))
    idle_s = prof.idle_s(recipe.workload.idle_before_s)
    lead = f"{idle_s} s idle" if idle_s else f"{prof.settle_s} s settling"
    clock = _Clock(len(blocks) * len(plan.slots),
                   (idle_s or prof.settle_s) + prof.window_s + TRIAL_OVERHEAD_S)
    say = lambda text: progress(f"[{clock.stamp()}] {text}")  # noqa: E731
    started = datetime.now(timezone.utc)
    say(f"{recipe.id}: profile {profile}: {len(plan.arms)} arms, {_layout_text(plan, blocks)}; "
        f"{prof.blocks} blocks of {lead} + {prof.window_s} s measured per "
        f"trial; change: {kind.describe()}")
    base = node_config(recipe, share=plan.concurrency, jit=prof.jit)
    servers = topology.topology_for(recipe)
    reuse = prof.reuse_stack and stackpool.enabled() and servers.reuses_stacks
    if reuse:  # a claimed stack's databases are new containers at new addresses
        base = base.with_changes(dns_ttl_s=0)
    mirrored = reuse and plan.layout == CROSSOVER and _mirror_fits_the_pool_better(
        recipe, plan, kind, base, servers, blocks, prof.reuse_runs)
    if mirrored:
        blocks = design.mirror(blocks)
    first = _first_arms(plan, blocks[0])
    configs = {node: kind.node_config(base, arm) for node, arm in first.items()}
    spec = load.LoadSpec.from_workload(recipe.workload, recipe.repo_root)
    with Stack(stack_config(recipe), progress=say, nodes=servers.initial_nodes(configs),
               reuse=reuse, pool_extra=servers.pool_extra(), reuse_runs=prof.reuse_runs,
               reuse_alone=prof.reuse_alone, reuse_parked=prof.reuse_parked,
               run_label=store.run_label(recipe.id, started),
               workspace=recipe.repo_root, app=spec.app) as stack:
        servers.start(stack, configs)
        load.install(stack.loadgen, spec.app, [spec.with_load(kind.load_for(arm))
                                               for arm in plan.arms])
        phases.end("stack")
        run = _Run(stack, recipe, plan, kind, spec, prof, clock, say, base, random.Random(seed),
                   servers, looks=_looks(plan, prof, blocks))
        verified = run.configure(first)
        phases.end("configure")
        static = {**_static_provenance(stack, plan, code),  # while every node runs
                  **servers.provenance(),
                  # the tiers' round trips and rate, before any load (network.py)
                  "network": network.measure(stack, plan.nodes[0], say)}
        phases.end("network")
        if prof.calibrate:  # before any warm-up, while the nodes idle
            say("calibration: timing a fixed CPU loop in the load generator")
            static["calibration"] = calibration.measure(stack.loadgen)
            say(f"calibration: {static['calibration']['median_ms']:.0f} ms (median)")
            phases.end("calibration")
        origin = stack.origin()
        warmups = run.warm_up(first, compiled_before=origin["taken_over"] and set(first) <= set(
            origin["nodes_kept_warm"]))
        phases.end("warmup")
        trials, queue_log = run.blocks(blocks)
        phases.end("trials")
        phases.split("trials", run.spent)
        profiled = run.profiled_pass() if recipe.metrics.profiled_pass and trials else None
        if profiled is not None:
            phases.end("profiling")
        # A JVM that ran a recording keeps JFR's threads and buffers: no run whose numbers
        # make claims measures it after this one.
        if profiled is None or not prof.claims:
            stack.keep()
    phases.end("teardown")
    stopping = queue_log.get("sequential") or {}
    analysis, validity = _analyse(recipe, plan, trials, queue_log,
                                  stopping.get("blocks", len(blocks)), prof.min_usable_share,
                                  stopping.get("confidence", 0.95))
    phases.end("analysis")
    finished = datetime.now(timezone.utc)
    out = result.build(recipe=recipe, profile=prof, plan=plan, kind=kind, seed=seed,
                       mirrored=mirrored,
                       blocks=blocks, queue_log=queue_log, trials=trials, verified=verified,
                       warmups=warmups, periods=run.periods,
                       switches=run.switcher.records, analysis=analysis,
                       validity=validity, profiled_pass=profiled,
                       provenance={**provenance.machine(), "started": started.isoformat(),
                                   "finished": finished.isoformat(),
                                   "wall_s": (finished - started).total_seconds(),
                                   "phases": phases.seconds, **static})
    say(f"{recipe.id}: {result.headline(out)}")
    if save:
        earlier = store.repeats(out, results_dir or layout.results_dir())
        path = store.write_result(out, results_dir or layout.results_dir())
        out["_path"] = str(path)
        home = layout.workspace()
        shown = path.relative_to(home) if path.is_relative_to(home) else path
        say(f"stored {shown}")
        if earlier:
            say(f"this run repeats {len(earlier)} stored run(s) of the same recipe files, commit, "
                f"profile and stack ({', '.join(p.name for p in earlier)}); every run is kept, "
                f"each a sample of the same experiment")
    return out


def _first_arms(plan: Plan, block: design.Block) -> dict[str, Arm]:
    """The arm each node is configured and warmed for at the start: its arm in the first
    block's orientation; where the arms take turns on the nodes with a reload, the first
    window's arm, so that the run does not open with a turn (a reload and a warm-up)."""
    arms = plan.arms_by_node(block.orientation)
    if plan.takes_turns:
        opening = plan.arm(block.arms[0])
        arms = {node: opening for node in arms}
    return arms


def _mirror_fits_the_pool_better(recipe, plan, kind, base, servers, blocks, runs=0) -> bool:
    """A stack is reused: whether a crossover's mirrored design starts with more
    nodes that a parked stack has than the design drawn (stackpool.claim_nearest boots the
    others). The two are equally likely draws; a JVM-option crossover's one default node sits
    on either node, and this keeps a claim from missing it for its name. The result records
    ``mirrored`` (the seed then reproduces the orientations reversed)."""
    def wanted(candidate):
        first = {node: kind.node_config(base, arm)
                 for node, arm in _first_arms(plan, candidate[0]).items()}
        return stackpool.node_keys(servers.initial_nodes(first))

    common = stackpool.common_key(stack_config(recipe),
                                  images.require_images(placement.local_client()),
                                  servers.pool_extra())
    return (stackpool.best_fit(common, wanted(design.mirror(blocks)), runs)
            > stackpool.best_fit(common, wanted(blocks), runs))


def _layout_text(plan: Plan, blocks: list[design.Block]) -> str:
    if plan.layout == CROSSOVER:
        periods = len({b.period for b in blocks})
        how = {"runtime": "every block", "reload": "with a reload",
               "restart": "with fresh JVMs"}[plan.switch]
        return (f"crossover of {' and '.join(plan.nodes)} side by side, arms swapping nodes "
                f"{how} ({periods} period{'s' if periods != 1 else ''})")
    if plan.layout == "shared":
        if plan.takes_turns:
            return (f"one target ({plan.nodes[0]}), its nodes reloaded and warmed again "
                    f"whenever the next window's arm differs")
        return f"one node ({plan.nodes[0]}), the setting switched in place ({plan.switch})"
    again = result.launches_text(plan.switch, len({b.period for b in blocks}))
    return f"one node per level ({len(plan.nodes)}), measured one at a time{again}"


class _Run:
    """One run on a started stack: configuration, warm-up, and the trial loop."""

    def __init__(self, stack, recipe, plan, kind, spec, prof, clock, say, base: NodeConfig,
                 rng: random.Random, servers: topology.Nodes = topology.Nodes(),
                 looks: list[sequential.Look] | None = None):
        self.stack, self.recipe, self.plan, self.kind = stack, recipe, plan, kind
        self.looks = looks or []  # sequential stopping (analysis/sequential.py), or none
        self.servers = servers
        self.spec, self.prof, self.clock, self.say, self.base = spec, prof, clock, say, base
        self.rng = rng
        self.states: dict[str, node_setup.NodeState] = {}
        # node -> the change level it is configured for (arms of one level at several loads
        # share the server setting)
        self.holding: dict[str, str | None] = {}
        self.trials: list[dict] = []
        self.periods: list[dict] = []
        self.retry_periods: list[int] = []
        self.switcher = switcher_for(self)
        self.streams = {node: i for i, node in enumerate(plan.nodes)}
        # Seconds of the trial loop spent on period switches and on re-run blocks (phases).
        self.spent = {"switches": 0.0, "reruns": 0.0, "waiting": 0.0}
        self.window = WindowLength(prof.window_s, prof.min_transactions, prof.window_max_s)
        self.last_slot: tuple[design.Block, tuple[str, ...]] | None = None  # profiled pass

    # -- configuration --------------------------------------------------------------------------
    def configure(self, arms: dict[str, Arm]) -> dict:
        """Configure every node for its arm, prove it, compare the nodes; returns the checks.

        Nodes are smoke-tested and configured while still wide (every CPU, no quota: seconds
        instead of tens of seconds on a cold JVM), and a cluster is verified as a whole so
        (on quarter-core nodes its checks took 56 s of a 142 s CI run, 2026-11-26); then the
        nodes are put under their limits and each is verified, its limits included."""
        stack, say = self.stack, self.say
        if not self.servers.smoke_tests:  # else verified as a whole below, configured
            together(arms, lambda target: load.smoke_test(stack.loadgen, target=target,
                                                          app=self.spec.app,
                                                          deployments=self.driven()))
            say(f"verify: every transaction type answers correctly on {', '.join(arms)}")
        checks = {"database": node_setup.apply_db_baseline(stack, self.recipe.baseline)}
        by_node = {node: arm for target, arm in arms.items() for node in stack.members(target)}

        self.states.update(together(by_node, lambda node: node_setup.configure(
            stack, node, self.kind, by_node[node], self.recipe.baseline)))

        pending = {node: state.pending for node, state in self.states.items() if state.pending}

        def settle_target(target):
            # A cluster's nodes one after the other, whether they reload or redeploy: reloaded
            # at once, each formed a view of its own (26 November 2026); a distributable app
            # redeployed on every node at once stops and starts its clustered cache on all of
            # them together, as the service restarts that once stalled for 90 s did
            # (http-session-replication, 7 December 2026). A lone node's target has one
            # member, and the targets still settle side by side.
            for node in stack.members(target):
                node_setup.settle(stack, node, self.states[node])
        began = time.monotonic()
        together(arms, settle_target)
        if pending:
            say(f"configure: {_settled_text(pending)} in {time.monotonic() - began:.1f} s")
        for target, arm in arms.items():
            self.holding[target] = arm.level
        # A cluster as a whole (one view, the balancer's policy, every node answering through
        # it), after configuration may have reloaded its nodes and before the change's own
        # preparation may take nodes out of the balancer's rotation. Before the nodes are
        # compared: a reloaded node redeploys the cluster's probe from its deployment folder
        # on its own time, and until its view is back its model lacks that deployment.
        whole = self.servers.verify(stack)
        if whole:
            checks["servers"] = whole
        checks["nodes compared"] = node_setup.compare_models(stack, self.kind, by_node)
        for node in by_node:
            stack.restore(node)
        checks["preflight"] = self.kind.prepare(stack)
        verified = together(by_node, lambda node: node_setup.verify(
            stack, node, self.kind, by_node[node], self.states[node]))
        checks.update((node, verified[node]) for node in by_node)
        total = sum(len(c) for c in checks.values())
        say(f"verify: {total} checks passed (baseline, change read back on every node, nodes "
            f"differ only where the change writes)")
        return {where: [c.as_dict() for c in found] for where, found in checks.items()}

    def relaunch(self, arms: dict[str, Arm]) -> dict:
        """Fresh JVMs for the nodes, each with its arm's options and limits, configured and
        verified (a restart switch's period boundary). Returns the seconds each start took."""
        configs = {node: self.kind.node_config(self.base, arm) for node, arm in arms.items()}
        seconds = {node: self.stack.replace_node(node, config) for node, config in configs.items()}
        self.say(f"period: fresh JVMs for {', '.join(arms)} "
                 f"({', '.join(f'{s:.1f} s' for s in seconds.values())})")
        return {"start_s": seconds, "verified": self.configure(arms)}

    # -- warm-up --------------------------------------------------------------------------------
    def warm_up(self, arms: dict[str, Arm], compiled_before: bool = False) -> dict:
        """Every node to its plateau, in a random order (a node warmed first must not always be
        the same arm's): nodes measured side by side reach it side by side (warmup.py), nodes
        measured one at a time one at a time, the others idle. ``compiled_before``: every node
        is a JVM that has compiled this server before (reloaded, or taken over warm), which
        has only the redeployed application left to compile."""
        prof, say = self.prof, self.say
        order = list(arms)
        self.rng.shuffle(order)
        specs = {node: self._warm_spec(node, arms[node]) for node in order}
        side_by_side = prof.compile_side_by_side or (compiled_before
                                                     and prof.recompile_side_by_side)
        rule = (warmup.SteadyRule.rewarmed(prof.rewarm_windows)
                if compiled_before and prof.rewarm_windows else warmup.SteadyRule())
        # The CI profile (compile phase side by side, no plateau phase) warms every node at
        # once whatever the layout: nothing is left to do one node at a time.
        at_once = self.plan.concurrency > 1 or (side_by_side and prof.plateau_max_s == 0)
        groups = [order] if at_once else [[node] for node in order]
        records = {}
        for group in groups:
            records.update(warmup.warm_up(self.stack, {n: specs[n] for n in group},
                                          compile_max_s=prof.compile_max_s,
                                          plateau_max_s=prof.plateau_max_s, rule=rule, say=say,
                                          compile_side_by_side=side_by_side,
                                          between_windows=lambda n, phase: self._between(
                                              n, self._warm_arm(n, arms[n], phase))))
            for node in group:
                _say_warm(say, node, records[node], prof)
        return records

    def _warm_arm(self, node: str, first: Arm, phase: str = "compile") -> Arm:
        """The arm a node serves in its next warm-up window. Where the setting switches in
        place, the node will serve every arm in the trials, and each arm's setting has code
        paths of its own (an asynchronous handler, a queue in front of two worker threads):
        in the compile phase the node takes the arms in turn, so they compile here and not as
        JIT bursts in the measured windows. The plateau phase judges steadiness window against
        window, which only means something for one arm: the node goes back to its first arm
        there (a quota sweep rotated through its quotas there and never looked steady,
        results/app-cpu-quota/20261125T172438Z-vm.json). Elsewhere it keeps its first arm."""
        rotates = (self.switcher.switches_in_place and self.plan.switch == RUNTIME
                   and self.kind.warms_every_arm)
        if not rotates or phase != "compile":
            if self.switcher.switches_in_place and self.holding.get(node) != first.level:
                self.switcher.before_slot(node, first)
            return first
        levels = list(dict.fromkeys(a.level for a in self.plan.arms))
        level = self.holding.get(node, first.level)
        following = levels[(levels.index(level) + 1) % len(levels)]
        arm = next(a for a in self.plan.arms if a.level == following)
        self.switcher.before_slot(node, arm)
        return arm

    def _warm_spec(self, node: str, arm: Arm) -> load.LoadSpec:
        """The warm-up's load on a node serving ``arm``: the recipe's own workload (load
        levels vary the measured trials, not the warm-up: a curve's first level, one user,
        would leave the JIT half done), with what the change has the client do for that arm
        (another deployment's URL: without it, the variant's WAR of a deployment change met
        its first requests in the measured trials, 20261127T064823Z)."""
        return (self.spec.with_load(self.kind.load_for(arm)).for_warmup()
                .at(self.kind.target_for(arm, node), self.streams[node], len(self.streams)))

    def _between(self, node: str, arm: Arm) -> load.LoadSpec:
        """What the trial loop does to a node between its windows (read every setting back,
        take the telemetry), done during the warm-up so that the JIT compiles it there. Only
        the server's code paths matter: in the compile phase the node runs without its limits,
        so their read-back fails there, and that is expected. Returns the load of the arm the
        node serves next."""
        try:
            self.verify(node, arm)
        except changes.ChangeNotEffective:
            pass
        telemetry.snapshot(self.stack, node, self.recipe.metrics.runtime)
        return self._warm_spec(node, arm)

    def verify(self, target: str, arm: Arm) -> list:
        """Every node of the target runs what the arm says (node_setup.verify), a cluster's
        nodes read at the same time."""
        members = self.stack.members(target)
        found = together(members, lambda node: node_setup.verify(self.stack, node, self.kind, arm,
                                                                 self.states[node]))
        return [check for node in members for check in found[node]]

    # -- the trial loop -------------------------------------------------------------------------
    def blocks(self, blocks: list[design.Block]) -> tuple[list[dict], dict]:
        queue, log = list(blocks), {"retried": [], "unresolved": []}
        next_index, retries, period = len(blocks), 0, blocks[0].period
        if self.looks:
            log["sequential"] = {"rule": sequential.RULE, "alpha": 0.05,
                                 "margin": self.recipe.metrics.margin, "looks": [],
                                 "stopped": sequential.BUDGET, "blocks": len(blocks),
                                 "confidence": self.looks[-1].confidence}
        planned_done = 0
        self.periods.append({"period": period, "orientation": blocks[0].orientation,
                             "arms": _node_labels(self.plan, blocks[0])})
        while queue:
            block = queue.pop(0)
            began = time.monotonic()
            if block.period != period:
                period = block.period
                record = self.switcher.begin_period(block.orientation)
                self.spent["switches"] += time.monotonic() - began
                self.periods.append({"period": period, "orientation": block.orientation,
                                     "arms": _node_labels(self.plan, block), **(record or {})})
            slots_began, switched = time.monotonic(), self.spent["switches"]
            done = [t for slot in block.slots for t in self.slot(block, slot)]
            if block.index >= len(blocks):  # less any turn taken in it (booked as a switch)
                self.spent["reruns"] += (time.monotonic() - slots_began
                                         - (self.spent["switches"] - switched))
            if any(t["status"] == "disturbed" for t in done):
                if self.prof.interference == "enforce" and self.stack.local_engine and any(
                        "CPU steal" in d for t in done for d in t["disturbances"]):
                    # Re-running into the same neighbour spends a re-run for nothing: wait
                    # for the host to be quiet first (quiet.py).
                    waited = quiet.wait_for_quiet(self.recipe.tolerance.steal, say=self.say)
                    self.spent["waiting"] += waited
                if retries < self.prof.max_retries:
                    retries += 1
                    again = self._retry(block, next_index, queue)
                    next_index += 1
                    queue.append(again)
                    self.clock.total += len(block.slots)
                    log["retried"].append({"block": block.index, "as": again.index})
                    self.say(f"block {block.index + 1} was disturbed: it runs again as block "
                             f"{again.index + 1}")
                else:
                    log["unresolved"].append(block.index)
            if self.plan.kind in (AB, AB_BY_LOAD) and any(t["status"] == "failed" for t in done):
                self.say("errors in the system under test: the A/B run stops here (errors come "
                         "first)")
                break
            planned_done += block.index < len(blocks)
            # The last look comes once, after the re-runs too: after every re-run block it
            # would be another chance to claim (cluster-entity-cache's run of 6 December 2026
            # looked three times after its last planned block).
            last_pending = queue and planned_done == len(blocks)
            if not last_pending and self._look(planned_done, log.get("sequential")):
                self.clock.total -= sum(len(b.slots) for b in queue)
                break
            self.running_estimate()
        return self.trials, log

    def _look(self, planned_done: int, record: dict | None) -> bool:
        """At a planned look: the primary interval at the look's level, and whether the run
        can stop (the effect's sign settled, or any effect within the margin). True: stop."""
        look = next((k for k in self.looks if k.blocks == planned_done), None)
        if look is None or record is None:
            return False
        margin = self.recipe.metrics.margin if stats.METRIC_RULES[
            self.recipe.metrics.primary].scale == stats.RATIO else 0.0  # a margin is relative
        last = look is self.looks[-1]
        confidence, usable = look.confidence, None
        if not self.plan.takes_turns:  # (units of turns: their looks count units as they come)
            confidence, usable = self._held_level(look, record, last)
        # A look that counts no usable block, or whose level the spending leaves at 1 (never
        # the last: it spends what the others left), has no interval and decides nothing.
        decides = usable != 0 and confidence < 1.0
        c = self._primary_so_far(confidence) if decides else None
        entry = {**look.as_dict(), "confidence": round(confidence, 6), "pairs": 0,
                 "decision": sequential.CONTINUE}
        if usable is not None:
            entry["usable_blocks"] = usable
        if c is not None:
            decision = sequential.decide(c.ci_low, c.ci_high, margin, last)
            # an end a level near 1 leaves unbounded decides nothing, and is stored as None
            bounds = c.to_dict()
            entry.update(pairs=c.n_pairs, delta=c.delta, ci_low=bounds["ci_low"],
                         ci_high=bounds["ci_high"], decision=decision)
            self.say(f"look {len(record['looks']) + 1} of {len(self.looks)} after {look.blocks} "
                     f"blocks: {self.recipe.metrics.primary} {c.delta:+.1%} "
                     f"[{c.ci_low:+.1%}, {c.ci_high:+.1%}] at {confidence:.2%}: "
                     + {sequential.EFFECT: "the sign is settled, the run stops here",
                        sequential.EQUIVALENT: f"within +-{margin:.0%}, the run stops here",
                        sequential.BUDGET: "the last look",
                        sequential.CONTINUE: "not yet known, the run goes on"}[decision])
        record["looks"].append(entry)
        if entry["decision"] in (sequential.EFFECT, sequential.EQUIVALENT):
            record.update(stopped=entry["decision"], blocks=look.blocks, confidence=confidence)
            return True
        if last and c is not None:  # the run ends here: its intervals at the level held here
            record["confidence"] = confidence
        return False

    def _held_level(self, look: sequential.Look, record: dict, last: bool) -> tuple[float, int]:
        """The level a look's interval is held to, and the usable blocks it counts (0: none,
        so it decides nothing: fewer than 3 usable, or none new since the last look that
        counted). Disturbed blocks run again only at the end, so a look may find fewer usable
        blocks than it was planned after: its level is then spent for the blocks it has
        (Lan-DeMets spending at the observed fraction, over the looks that counted), not for
        the planned ones (hibernate-bulk-load-cache's run of 6 December 2026 stopped at its
        look planned after 12 blocks on 3 usable ones, at the 12 blocks' level). The last look
        ends the run whatever it has, so it spends all the alpha the others left (``final``)."""
        usable = self._usable_blocks()
        counted = [k["usable_blocks"] for k in record["looks"] if k.get("usable_blocks")]
        if last and counted and usable == counted[-1]:
            # No block since that look: the last one takes its place (on the same blocks at a
            # laxer level, it claims whatever that look would have), spending what it left.
            counted = counted[:-1]
        if not last and (usable < 3 or (counted and usable <= counted[-1])):
            return look.confidence, 0
        planned = [k.blocks for k in self.looks[:self.looks.index(look) + 1]]
        if usable < 3 or [*counted, usable] == planned:
            return look.confidence, usable
        budget = round(look.blocks / look.fraction)  # the planned blocks, the fraction's base
        return sequential.looks([*counted, usable], budget, final=last)[-1].confidence, usable

    def _usable_blocks(self) -> int:
        """Blocks measured so far whose every trial is usable (a re-run counts as its own)."""
        usable: dict[int, bool] = {}
        for trial in self.trials:
            usable[trial["block"]] = usable.get(trial["block"], True) and bool(trial.get("used"))
        return sum(usable.values())

    def _retry(self, block: design.Block, index: int, queue: list[design.Block]) -> design.Block:
        """A disturbed block, measured again at the end of the run. Where the arms swap at
        runtime it is a period of its own with the disturbed block's orientation (the balance
        between orientations holds); elsewhere it joins the period in force then, because a
        retry must not cost a reload or fresh JVMs of its own."""
        if self.plan.layout == CROSSOVER and self.plan.switch == "runtime":
            last = max([b.period for b in queue] + [block.period, *self.retry_periods])
            self.retry_periods.append(last + 1)
            return design.Block(index, block.slots, period=last + 1,
                                orientation=block.orientation)
        last = queue[-1] if queue else block
        return design.Block(index, block.slots, period=last.period, orientation=last.orientation)

    def slot(self, block: design.Block, arm_ids: tuple[str, ...]) -> list[dict]:
        """One window: the slot's arms measured at the same time, each on its node."""
        stack, prof = self.stack, self.prof
        assignment = self.plan.assignment(block.orientation)
        # Arms side by side start in a random order (their k6 runs start some ms apart).
        arms = [self.plan.arm(a) for a in self.rng.sample(list(arm_ids), len(arm_ids))]
        nodes = {arm.id: assignment[arm.id] for arm in arms}
        began = time.monotonic()
        started = datetime.now(timezone.utc).isoformat()
        # Arms side by side are on nodes of their own: each is switched and verified, and its
        # counters read, at the same time as the others (one after the other, the reads took
        # about a second of every side-by-side slot).
        checks = self._put_arms(arms, nodes)
        # The k6 data stream follows the node, not the arm: rows a node's users touch are the
        # node's for the whole run, and a difference between them cancels like the node's own.
        specs = self._load_specs(arms, nodes)
        self.last_slot = (block, tuple(arm_ids))
        tag = f"{len(self.trials)}"
        drained = {a.id: telemetry.wait_until_idle(stack, nodes[a.id], prof.drain_max_s)
                   for a in arms}
        if self.recipe.metrics.reads_database:  # its requests' work in the database too
            # the profile's patience counts from the end of the window, as the node's did
            patience = max(0.0, prof.drain_max_s - max(drained.values(), default=0.0))
            quiet_s = telemetry.database_quiet(stack, cancel_after_s=patience)
            drained = {arm: s + quiet_s for arm, s in drained.items()}
        idle_s = prof.idle_s(self.recipe.workload.idle_before_s)
        if idle_s:  # the window measures a burst on a server left idle (guide 2.1.3)
            time.sleep(idle_s)
        elif prof.settle_s:
            together(arms, lambda a: load.run(stack.loadgen, specs[a.id], prof.settle_s,
                                              f"{tag}-{nodes[a.id]}-settle"))
        runtime = self.recipe.metrics.runtime
        # The k6 runs whose last requests the server may still finish inside the window: a
        # settling run's (or a window measured again's) and the window's own.
        edges = 1 if idle_s or not prof.settle_s else 2
        while True:  # once, unless the window held too few transactions (window_length.py)
            seconds = self.window.seconds
            before = together(arms, lambda a: telemetry.snapshot(stack, nodes[a.id], runtime,
                                                                 edge="start"))
            with courses.sampling(stack, nodes, self.recipe.metrics.courses) as sampled:
                summaries = together(arms, lambda a: load.run(stack.loadgen, specs[a.id],
                                                              seconds, f"{tag}-{nodes[a.id]}"))
            after = together(arms, lambda a: telemetry.snapshot(stack, nodes[a.id], runtime))
            for arm in arms:  # the window's course, beside its edges (courses.py)
                if sampled[arm.id]:
                    after[arm.id]["courses"] = sampled[arm.id]
            completed = {a.label: _completed(summaries[a.id]) for a in arms}
            longer = self.window.grow(completed)
            if longer is None:
                break
            edges = 2
            self.say(f"block {block.index + 1}: fewer than {self.window.min_transactions} "
                     f"transactions completed in the {seconds} s window "
                     f"({', '.join(f'{k} {n}' for k, n in completed.items())}); measuring "
                     f"again with {longer} s windows, kept for the rest of the run")
        slow = self.window.too_slow(completed)
        if slow:
            self.say(f"block {block.index + 1}: {slow}")
        self.clock.done(time.monotonic() - began)
        return [self._trial(block, arm, nodes[arm.id], started, checks[arm.id], summaries[arm.id],
                            before[arm.id], after[arm.id], len(arms), drained[arm.id],
                            edges * specs[arm.id].concurrency)
                for arm in arms]

    def _put_arms(self, arms: list[Arm], nodes: dict[str, str]) -> dict:
        """Each arm switched onto its node and verified there, side by side; its checks."""
        return together(arms, lambda arm: self.switcher.before_slot(nodes[arm.id], arm)
                        + self.verify(nodes[arm.id], arm))

    def driven(self) -> tuple[str, ...]:
        """The app's deployments the arms' loads go to ("" for its own), for the smoke test
        before configuration (a cluster's verification tests every one: cluster.verify)."""
        return tuple(sorted({self._arm_load(arm).deployment for arm in self.plan.arms}))

    def _arm_load(self, arm: Arm) -> load.LoadSpec:
        """The workload as the arm drives it: the change's load keys, then the arm's own."""
        return self.spec.with_load({**self.kind.load_for(arm), **arm.load})

    def _load_specs(self, arms: list[Arm], nodes: dict[str, str]) -> dict:
        return {arm.id: self._arm_load(arm).at(
            self.kind.target_for(arm, nodes[arm.id]), self.streams[nodes[arm.id]],
            len(self.streams)) for arm in arms}

    def profiled_pass(self) -> dict:
        """The last slot's arms once more, on the same nodes, while JFR records each node
        (profiling.py); kept out of every trial. A failure is recorded, not raised: the run's
        numbers do not depend on the pass."""
        block, arm_ids = self.last_slot
        assignment = self.plan.assignment(block.orientation)
        arms = [self.plan.arm(a) for a in arm_ids]
        nodes = {a.id: assignment[a.id] for a in arms}
        if any(node not in self.stack.nodes for node in nodes.values()):
            return {"arms": {}, "error": "the last slot ran through a cluster's balancer; the "
                                         "pass records single nodes"}
        seconds = profiling.PASS_WINDOWS * self.window.seconds
        self.say(f"profiled pass: JFR ({profiling.SETTINGS} settings) on "
                 f"{', '.join(f'{a.label} on {nodes[a.id]}' for a in arms)}, one {seconds} s "
                 f"window of each arm side by side, kept out of the trials")
        try:
            self._put_arms(arms, nodes)
        except Exception as error:  # noqa: BLE001 - after the trials: recorded, not raised
            return {"arms": {}, "error": f"{type(error).__name__}: {error}"}
        specs = self._load_specs(arms, nodes)
        record = profiling.run_pass(
            self.stack, {a.label: nodes[a.id] for a in arms},
            lambda: together(arms, lambda a: load.run(self.stack.loadgen, specs[a.id], seconds,
                                                      f"profiled-{nodes[a.id]}")), seconds)
        if record.get("error"):
            self.say(f"profiled pass: failed, recorded with the result ({record['error']})")
        else:
            self.say("profiled pass: " + "; ".join(
                f"{label} {arm['samples']} samples, hottest {arm['self'][0][0] if arm['self'] else '-'}"
                for label, arm in record["arms"].items()))
        return record

    def _pool_checks(self, variant: bool, pool: dict | None) -> list:
        """What the pool held and opened in the window, where the recipe says (change.pool):
        only after the whole pause it describes. A profile that cuts the pause (CI) leaves a
        pool that had no time to empty, so its ranges would not describe that window."""
        asked = self.recipe.workload.idle_before_s
        if self.prof.idle_s(asked) != asked:
            return []
        return database_read_back.checks(self.recipe.change.pool, variant, pool,
                                         where="in the data source's pool",
                                         window_figures=database_read_back.POOL_FIGURES)

    def _trial(self, block, arm, node, started, checks, summary, before, after, shared_by,
               drained_s, cut_off) -> dict:
        stack, prof, index = self.stack, self.prof, len(self.trials)
        numbers = load.load_metrics(summary)
        # A change made by the load generator is proven by the window it ran in, and by what
        # its client reported of itself, where the recipe says what that must be.
        checks = [*checks, *changes.require(
            self.kind.read_back_load(arm, numbers)
            + client_read_back.checks(self.recipe.change.client, self.kind.applies(arm),
                                      numbers.get("client")),
            f"{node} ({arm.label}), trial {index}")]
        ok = numbers["requests"] - numbers["failed"]
        window = telemetry.window(stack, node, before, after, ok, self.window.seconds, shared_by,
                                  cut_off)
        # What the arm did to the database and on the nodes' networks, where the recipe says
        # what that must be.
        variant = self.kind.applies(arm)
        checks = [*checks, *changes.require(
            database_read_back.checks(self.recipe.change.database, variant,
                                      window.get("database"))
            + database_read_back.checks(self.recipe.change.network, variant,
                                        window.get("network"), where="on the nodes' networks")
            + self._pool_checks(variant, window.get("datasource_pool")),
            f"{node} ({arm.label}), trial {index}")]
        errors = trial_errors(self.recipe, numbers)
        disturbances = trial_disturbances(self.recipe, window)
        # The CI profile records interference but does not re-run for it: its numbers support
        # no claim, and a busy CI machine must not fail a recipe that works.
        enforced = disturbances if prof.interference == "enforce" else []
        status = "failed" if errors else ("disturbed" if enforced else "valid")
        trial = {"index": index, "block": block.index, "period": block.period,
                 "turn": len(self.switcher.records),  # the arms' turns so far (swaps.py)
                 "orientation": block.orientation, "arm": arm.id, "node": node,
                 "started": started, "window_s": self.window.seconds,
                 "settle_s": 0 if self.recipe.workload.idle_before_s else prof.settle_s,
                 "idle_s": prof.idle_s(self.recipe.workload.idle_before_s),
                 "drained_s": round(drained_s, 2), "status": status,
                 "used": status == "valid", "errors": errors,
                 "disturbances": disturbances, "metrics": trial_metrics(numbers, window),
                 "load": {k: numbers[k] for k in ("requests", "failed", "error_rate",
                                                   "dropped_iterations", "fail_reasons",
                                                   "connections")}
                         # the window's messages as the app's ledger counted them
                         | ({"messages": numbers["messages"]} if numbers.get("messages") else {})
                         # the app's own figures, as its script read them after the window,
                         # and a client JVM's (drivers/java_client.py)
                         | {key: numbers[key] for key in ("app", "client") if numbers.get(key)},
                 "transactions": numbers["transactions"], "telemetry": window,
                 "checks": [c.as_dict() for c in checks],
                 # Failed requests come with the server's own words for them, also where
                 # the recipe measures them rather than fails on them.
                 "server_errors": stack.error_lines(node) if numbers["failed"] else []}
        self.trials.append(trial)
        m = trial["metrics"]
        reasons = "; ".join(errors + enforced)
        noted = "; ".join(d for d in disturbances if d not in enforced)  # recorded only
        noted = f" (noted, not re-run in this profile: {noted})" if noted else ""
        primary, own = self.recipe.metrics.primary, ""
        if primary not in ("throughput", "cpu_per_tx", MEASURES_ERRORS):  # e.g. a drain's rate
            own = f", {primary} {m.get(primary) or 0:,.1f} {UNITS.get(primary, '')}".rstrip()
        self.say(f"block {block.index + 1} {arm.label} on {node}: "
                 f"{status.upper() if status != 'valid' else 'served'}"
                 f"{': ' + reasons if reasons else ''}{noted}; {m['throughput']:,.1f} tx/s, "
                 f"{m['cpu_per_tx'] or 0:.3f} ms CPU/tx, p99 {m['latency_p99'] or 0:.1f} ms"
                 f"{own}; remaining ~{self.clock.remaining()}")
        return trial

    def running_estimate(self) -> None:
        """After each block of an A/B run: the primary delta so far (where the arms take
        turns, over the units of three turns complete so far: none before the third turn)."""
        c = self._primary_so_far(0.95) if self.prof.claims else None
        if c is None:  # none yet, or a profile whose windows support no interval
            return
        self.say(f"so far: {self.recipe.metrics.primary} {c.delta:+.1%} [{c.ci_low:+.1%}, "
                 f"{c.ci_high:+.1%}] over {c.n_pairs} pairs (smallest detectable "
                 f"{c.detectable:.1%})")

    def _primary_so_far(self, confidence: float):
        """The primary comparison over the usable pairs so far, as the analysis will make it,
        or None where it cannot be made yet (fewer than 3 pairs; not an A/B run). Arms that
        take turns pair units of three turns, as the analysis does (comparisons.turn_triples)."""
        if self.plan.kind != AB:
            return None
        baseline, variant = self.plan.arms
        primary = self.recipe.metrics.primary
        units = (turn_triples(self.trials, (baseline.id, variant.id)) if self.plan.takes_turns
                 else self.trials)
        blocks, b, v = paired_values(units, baseline.id, variant.id, primary)
        if len(blocks) < 3:
            return None
        rule = stats.METRIC_RULES[primary]
        layout_of = {t["block"]: (t["period"], t["orientation"]) for t in self.trials}
        crossover = self.plan.layout == CROSSOVER
        c = stats.compare(b, v, higher_is_better=rule.higher_is_better, scale=rule.scale,
                          confidence=confidence,
                          periods=[layout_of[k][0] for k in blocks] if crossover else None,
                          orientations=[layout_of[k][1] for k in blocks]
                          if crossover and self.plan.keeps_jvms else None)
        return None if c.verdict == stats.NOT_ASSESSED else c


def _say_warm(say, node: str, record: dict, prof) -> None:
    if prof.plateau_max_s:
        say(f"warm-up {node}: {'steady' if record['steady'] else 'NOT steady'} after "
            f"{record['seconds']:.0f} s")
    elif prof.compile_max_s:
        say(f"warm-up {node}: {record['seconds']:.0f} s of compiling; this profile does not wait "
            f"for a plateau")


def _settled_text(pending: dict[str, str]) -> str:
    """What configuration needed to take effect, by node: "app-1, app-2 reloaded (the server
    or the change's switch asked for it)", "app-1 redeployed its apps (a system property or a
    service restart)"."""
    why = {node_setup.RELOAD: "reloaded (the server or the change's switch asked for it)",
           node_setup.REDEPLOY: "redeployed its apps (a system property or a service restart)"}
    return "; ".join(f"{', '.join(n for n, p in pending.items() if p == kind)} {text}"
                     for kind, text in why.items() if kind in pending.values())


def _node_labels(plan: Plan, block: design.Block) -> dict[str, str]:
    """{node: the change level it serves} during a block (for the result's period log)."""
    return {node: arm.level or arm.id
            for node, arm in plan.arms_by_node(block.orientation).items()}


def _completed(summary: dict) -> int:
    """Transactions a load window completed without failing."""
    numbers = load.load_metrics(summary)
    return numbers["requests"] - numbers["failed"]


def _looks(plan: Plan, prof, blocks: list[design.Block]) -> list[sequential.Look]:
    """The planned looks of a sequential A/B run (none elsewhere: a curve's points have no
    single interval to stop on). Arms that take turns look by units of three turns."""
    if not prof.sequential or plan.kind != AB:
        return []
    if plan.takes_turns:
        return sequential.turn_looks([b.arms for b in blocks])
    points = sequential.look_points([b.period for b in blocks], plan.layout == CROSSOVER)
    return sequential.looks(points, len(blocks)) if len(points) > 1 else []


def _analyse(recipe, plan, trials, queue_log, planned: int, min_usable_share: float = 1.0,
             confidence: float = 0.95) -> tuple[dict | None, dict]:
    """Validity first (errors of the system under test; too many blocks disturbed), then the
    analysis of a valid run."""
    errors = [f"trial {t['index'] + 1} ({t['arm']}): {e}" for t in trials for e in t["errors"]]
    problems = []
    if errors and plan.kind in (AB, AB_BY_LOAD):
        problems += errors
    unresolved = len(queue_log["unresolved"])
    if unresolved and planned - unresolved < min_usable_share * planned:
        problems.append(f"{unresolved} of {planned} block(s) still disturbed after "
                        f"{len(queue_log['retried'])} re-runs: fewer than "
                        f"{min_usable_share:.0%} usable ({_disturbance_causes(trials)})")
    if not problems and not any(t["used"] for t in trials):
        problems.append("no usable trial")
    valid = not problems
    analysis = (analyse(recipe, plan, trials, confidence) if valid
                else {"kind": plan.kind, "verdict": INVALID})
    return analysis, {"valid": valid, "problems": problems, "errors": errors,
                      "disturbed": sum(t["status"] == "disturbed" for t in trials),
                      "unresolved_blocks": queue_log["unresolved"]}


def _disturbance_causes(trials: list[dict]) -> str:
    """What disturbed the trials: a node still compiling (the JIT rule) or the machine (the
    interference rules), counted by trial."""
    disturbed = [t for t in trials if t["status"] == "disturbed"]
    compiling = sum(any(still_compiling(d) for d in t["disturbances"]) for t in disturbed)
    return (f"{compiling} disturbed trial(s) had a node still compiling, "
            f"{len(disturbed) - compiling} were disturbed by the machine")


def _static_provenance(stack: Stack, plan: Plan, code: dict) -> dict:
    nodes = [node for target in plan.nodes for node in stack.members(target)]
    first = nodes[0]
    return {"versions": provenance.versions(stack, first), "images": provenance.images(stack),
            "wildfly_derived": provenance.wildfly_derived(stack, first),
            "nodes": {n: {"config": vars(stack.node_configs[n]) | {
                          "jvm_command_line": stack.node_configs[n].jvm_command_line()},
                          "jvm": provenance.jvm_facts(stack, n)} for n in nodes},
            "placement": {"db": stack.config.db_cpuset, "loadgen": stack.config.loadgen_cpuset,
                          "databases": {name: stack.limits_of(name)["cpus"]
                                        for name in stack.databases},
                          "engine_local": stack.local_engine, "hosts": stack.hosts()},
            "stack_inputs": staleness.stack_inputs_hash(),
            "stack_ready_s": stack.started_in_s, "stack_origin": stack.origin(), **code}


class _Phases:
    """Where a run's time goes (stored as provenance.phases, seconds by phase): each ``end``
    closes the phase that ran since the previous one; ``split`` moves parts of a phase out
    under their own names (the trial loop's period switches and re-run blocks)."""

    def __init__(self):
        self.seconds: dict[str, float] = {}
        self._last = time.monotonic()

    def end(self, name: str) -> None:
        now = time.monotonic()
        self.seconds[f"{name}_s"] = round(now - self._last, 1)
        self._last = now

    def split(self, name: str, parts: dict[str, float]) -> None:
        for part, seconds in parts.items():
            self.seconds[f"{part}_s"] = round(seconds, 1)
            self.seconds[f"{name}_s"] = round(self.seconds[f"{name}_s"] - seconds, 1)


class _Clock:
    """Elapsed time, and a remaining-time estimate from the trials done so far."""

    def __init__(self, total_trials: int, guess_s: float):
        self.began = time.monotonic()
        self.total = total_trials
        self.guess_s = guess_s
        self.times: list[float] = []

    def stamp(self) -> str:
        return _mmss(time.monotonic() - self.began)

    def done(self, seconds: float) -> None:
        self.times.append(seconds)

    def remaining(self) -> str:
        per = sum(self.times) / len(self.times) if self.times else self.guess_s
        return _mmss(per * max(0, self.total - len(self.times)))


def _mmss(seconds: float) -> str:
    return f"{int(seconds // 60):02d}:{int(seconds % 60):02d}"
