"""Run one recipe: plan → stack → verify → warm-up → blocks of trials → analysis → stored result.

The stages, each in its own module:

1. ``plan.compile_plan``: the arms (A/B is the two-arm case) and the node each arm runs on;
2. ``stack.Stack``: the containers, one application-server node per change level when the
   change lives in the application server;
3. ``changes``: every node configured once, read back, and the nodes' models compared;
4. ``warmup``: every node brought to its plateau, one at a time (the others idle);
5. ``design.blocks``: slots in randomized mirrored blocks; a slot is one arm, or the arms a
   plan measures side by side in the same window. Before each slot its arms' settings are
   read back (or switched, for in-place kinds), the load settles, then the measured window
   runs with telemetry at its edges. A trial disturbed by the machine sends its block back to
   the queue (up to ``max_retries``);
6. ``analysis.analyse``: comparisons or curves; ``result.build``: the stored record.

A setting that does not read back raises ChangeNotEffective, and nothing is stored.
"""
from __future__ import annotations

import random
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

import docker

from . import (changes, design, layout, load, preflight, provenance, result, staleness, stats,
               store, telemetry, warmup)
from .analysis import INVALID, analyse, trial_disturbances, trial_errors, trial_metrics
from .analysis.comparisons import paired_values
from .changes import nodes as node_setup
from .errors import DirtyTree
from .plan import AB, AB_BY_LOAD, Arm, Plan, compile_plan
from .recipe import Recipe, recipe_hash
from .stack import NodeConfig, Stack, StackConfig

__all__ = ["Progress", "run_recipe", "node_config", "stack_config"]

Progress = Callable[[str], None]
TRIAL_OVERHEAD_S = 1.5  # checks, k6 start-up and telemetry per trial, for time estimates


def stack_config(recipe: Recipe) -> StackConfig:
    s = recipe.stack
    return StackConfig(db_cpuset=s.db_cpuset, loadgen_cpuset=s.loadgen_cpuset, db_memory=s.db_memory)


def node_config(recipe: Recipe, share: int = 1) -> NodeConfig:
    """The node every arm starts from, before its change kind adds its own difference;
    ``share`` nodes measured side by side split the application server's CPU quota."""
    s = recipe.stack
    cpus = s.app_cpus / share if s.app_cpus else None
    return NodeConfig(cpuset=s.app_cpuset, cpus=cpus, memory=s.app_memory,
                      jvm_options=s.jvm_options, server_config=s.server_config)


def run_recipe(recipe: Recipe, profile: str = "quick", *, progress: Progress = print,
               results_dir: Path | None = None, save: bool = True,
               allow_dirty: bool | None = None) -> dict:
    """Run the recipe in the named profile and return the result (stored unless save=False).

    A run in the full profile is meant for the site: it refuses a tree whose measured inputs
    have uncommitted changes, unless ``allow_dirty``."""
    prof = recipe.profile(profile)
    code = {"recipe_hash": recipe_hash(recipe), **provenance.git()}
    if code["git_dirty"] and profile == "full" and not allow_dirty:
        raise DirtyTree(f"the full profile is what the site publishes, and these inputs have "
                        f"uncommitted changes: {', '.join(code['git_dirty_paths'][:8])}; commit "
                        f"them first (or pass --allow-dirty for a run the site will not show)")
    # Everything that can be known before a container starts: first what needs no engine,
    # then what only the images can answer (JVM options, PostgreSQL parameters).
    preflight.check(recipe)
    preflight.check(recipe, client=docker.from_env())
    kind = changes.kind_for(recipe)
    plan = compile_plan(recipe, per_node=kind.per_node, points=prof.points)
    kind.bind(plan.arms)
    seed = design.new_seed()
    blocks = design.blocks(plan.slots, prof.blocks, seed)
    clock = _Clock(len(blocks) * len(plan.slots), prof.settle_s + prof.window_s + TRIAL_OVERHEAD_S)
    say = lambda text: progress(f"[{clock.stamp()}] {text}")  # noqa: E731
    started = datetime.now(timezone.utc)
    say(f"{recipe.id}: profile {profile}: {len(plan.arms)} arms on {len(plan.nodes)} node(s), "
        f"{prof.blocks} blocks of {prof.settle_s} s settling + {prof.window_s} s measured per "
        f"trial; change: {kind.describe()}")
    base = node_config(recipe, share=plan.concurrency)
    configs = {node: kind.node_config(base, plan.arms_of_node(node)[0]) for node in plan.nodes}
    spec = load.LoadSpec.from_workload(recipe.workload)
    with Stack(stack_config(recipe), progress=say, nodes=configs) as stack:
        verified, states = _configure_and_verify(stack, recipe, plan, kind, say)
        static = _static_provenance(stack, plan, code)  # while every node runs
        warmups = _warm_up(stack, plan, spec, prof, say, random.Random(seed))
        run = _Run(stack, recipe, plan, kind, states, spec, prof, clock, say, random.Random(seed))
        trials, queue_log = run.blocks(blocks)
    analysis, validity = _analyse(recipe, plan, trials, queue_log)
    finished = datetime.now(timezone.utc)
    out = result.build(recipe=recipe, profile=prof, plan=plan, kind=kind, seed=seed,
                       blocks=blocks, queue_log=queue_log, trials=trials, verified=verified,
                       warmups=warmups, analysis=analysis, validity=validity,
                       provenance={**provenance.machine(), "started": started.isoformat(),
                                   "finished": finished.isoformat(),
                                   "wall_s": (finished - started).total_seconds(), **static})
    say(f"{recipe.id}: {result.headline(out)}")
    if save:
        path = store.write_result(out, results_dir or layout.results_dir())
        out["_path"] = str(path)
        shown = path.relative_to(layout.REPO_ROOT) if path.is_relative_to(layout.REPO_ROOT) else path
        say(f"stored {shown}")
    return out


# --------------------------------------------------------------------------- stages


def _configure_and_verify(stack: Stack, recipe: Recipe, plan: Plan, kind, say):
    """Configure every node, prove it, compare the nodes; returns (checks, node states).

    Nodes are smoke-tested and configured while still wide (every CPU, no quota: seconds
    instead of tens of seconds on a cold JVM), then put under their limits and verified."""
    _together(plan.nodes, lambda node: load.smoke_test(stack.loadgen, target=node))
    say(f"verify: every transaction type answers correctly on {', '.join(plan.nodes)}")
    checks = {"database": node_setup.apply_db_baseline(stack, recipe.baseline)}
    states = {node: node_setup.configure(stack, node, kind, plan.arms_of_node(node)[0],
                                         recipe.baseline) for node in plan.nodes}
    checks["nodes compared"] = node_setup.compare_models(stack, kind, states)
    for node in plan.nodes:
        stack.restore(node)
    checks["preflight"] = kind.prepare(stack)
    for node in plan.nodes:
        checks[node] = node_setup.verify(stack, node, kind, plan.arms_of_node(node)[0], states[node])
    total = sum(len(c) for c in checks.values())
    say(f"verify: {total} checks passed (baseline, change read back on every node, nodes differ "
        f"only where the change writes)")
    return {where: [c.as_dict() for c in found] for where, found in checks.items()}, states


def _warm_up(stack: Stack, plan: Plan, spec: load.LoadSpec, prof, say, rng) -> dict:
    """Every node to its plateau, one at a time (the others idle), in a random order: a node
    warmed first must not always be the same arm's."""
    records = {}
    for node in rng.sample(plan.nodes, len(plan.nodes)):
        records[node] = warmup.warm_up(stack, node, spec.at(node),
                                       compile_max_s=prof.compile_max_s,
                                       plateau_max_s=prof.plateau_max_s, say=say)
        if prof.plateau_max_s:
            say(f"warm-up {node}: {'steady' if records[node]['steady'] else 'NOT steady'} after "
                f"{records[node]['seconds']:.0f} s")
        elif prof.compile_max_s:
            say(f"warm-up {node}: {records[node]['seconds']:.0f} s of compiling; this profile "
                f"does not wait for a plateau")
    return records


class _Run:
    """The trial loop of one run: blocks in order, a disturbed block queued again."""

    def __init__(self, stack, recipe, plan, kind, states, spec, prof, clock, say, rng):
        self.stack, self.recipe, self.plan, self.kind, self.states = stack, recipe, plan, kind, states
        self.spec, self.prof, self.clock, self.say, self.rng = spec, prof, clock, say, rng
        self.trials: list[dict] = []

    def blocks(self, blocks: list[design.Block]) -> tuple[list[dict], dict]:
        queue, log = list(blocks), {"retried": [], "unresolved": []}
        next_index, retries = len(blocks), 0
        while queue:
            block = queue.pop(0)
            done = [t for slot in block.slots for t in self.slot(block.index, slot)]
            if any(t["status"] == "disturbed" for t in done):
                if retries < self.prof.max_retries:
                    retries += 1
                    again = design.Block(next_index, block.slots)
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
            self.running_estimate()
        return self.trials, log

    def slot(self, block: int, arm_ids: tuple[str, ...]) -> list[dict]:
        """One window: the slot's arms measured at the same time, each on its own node."""
        stack, prof = self.stack, self.prof
        # Arms side by side start in a random order (their k6 runs start some ms apart).
        arms = [self.plan.arm(a) for a in self.rng.sample(list(arm_ids), len(arm_ids))]
        began = time.monotonic()
        started = datetime.now(timezone.utc).isoformat()
        checks = {}
        for arm in arms:
            found = self.kind.switch(stack, arm.node, arm) if not self.kind.per_node else []
            found += node_setup.verify(stack, arm.node, self.kind, arm, self.states[arm.node])
            checks[arm.id] = found
        streams = self.plan.concurrency
        specs = {arm.id: self.spec.with_load(arm.load).at(arm.node, arm_ids.index(arm.id), streams)
                 for arm in arms}
        tag = f"{len(self.trials)}"
        if prof.settle_s:
            _together(arms, lambda a: load.run(stack.loadgen, specs[a.id], prof.settle_s,
                                               f"{tag}-{a.node}-settle"))
        before = {a.id: telemetry.snapshot(stack, a.node, self.recipe.metrics.runtime) for a in arms}
        summaries = _together(arms, lambda a: load.run(stack.loadgen, specs[a.id], prof.window_s,
                                                       f"{tag}-{a.node}"))
        after = {a.id: telemetry.snapshot(stack, a.node, self.recipe.metrics.runtime) for a in arms}
        self.clock.done(time.monotonic() - began)
        return [self._trial(block, arm, started, checks[arm.id], summaries[arm.id],
                            before[arm.id], after[arm.id], len(arms)) for arm in arms]

    def _trial(self, block, arm, started, checks, summary, before, after, shared_by) -> dict:
        stack, prof, index = self.stack, self.prof, len(self.trials)
        numbers = load.load_metrics(summary)
        ok = numbers["requests"] - numbers["failed"]
        window = telemetry.window(stack, arm.node, before, after, ok, prof.window_s, shared_by)
        errors = trial_errors(self.recipe, numbers)
        disturbances = trial_disturbances(self.recipe, window)
        # The CI profile records interference but does not re-run for it: its numbers support
        # no claim, and a busy CI machine must not fail a recipe that works.
        enforced = disturbances if prof.interference == "enforce" else []
        status = "failed" if errors else ("disturbed" if enforced else "valid")
        trial = {"index": index, "block": block, "arm": arm.id, "node": arm.node,
                 "started": started, "window_s": prof.window_s, "settle_s": prof.settle_s,
                 "status": status, "used": status == "valid", "errors": errors,
                 "disturbances": disturbances, "metrics": trial_metrics(numbers, window),
                 "load": {k: numbers[k] for k in ("requests", "failed", "error_rate",
                                                   "dropped_iterations", "fail_reasons")},
                 "transactions": numbers["transactions"], "telemetry": window,
                 "checks": [c.as_dict() for c in checks]}
        self.trials.append(trial)
        m = trial["metrics"]
        reasons = "; ".join(errors + disturbances)
        self.say(f"block {block + 1} {arm.label}: "
                 f"{status.upper() if status != 'valid' else status}"
                 f"{': ' + reasons if reasons else ''}; {m['throughput']:,.1f} tx/s, "
                 f"{m['cpu_per_tx'] or 0:.3f} ms CPU/tx, p99 {m['latency_p99'] or 0:.1f} ms; "
                 f"remaining ~{self.clock.remaining()}")
        return trial

    def running_estimate(self) -> None:
        """After each block of an A/B run: the primary delta so far."""
        if self.plan.kind != AB:
            return
        baseline, variant = self.plan.arms
        primary = self.recipe.metrics.primary
        blocks, b, v = paired_values(self.trials, baseline.id, variant.id, primary)
        if len(blocks) < 2:
            return
        rule = stats.METRIC_RULES[primary]
        c = stats.compare(b, v, higher_is_better=rule.higher_is_better, scale=rule.scale)
        self.say(f"so far: {primary} {c.delta:+.1%} [{c.ci_low:+.1%}, {c.ci_high:+.1%}] over "
                 f"{c.n_pairs} pairs (smallest detectable {c.detectable:.1%})")


def _analyse(recipe, plan, trials, queue_log) -> tuple[dict | None, dict]:
    errors = [f"trial {t['index'] + 1} ({t['arm']}): {e}" for t in trials for e in t["errors"]]
    problems = []
    if errors and plan.kind in (AB, AB_BY_LOAD):
        problems += errors
    if queue_log["unresolved"]:
        problems.append(f"{len(queue_log['unresolved'])} block(s) still disturbed after "
                        f"{len(queue_log['retried'])} re-runs (the machine was too busy)")
    if not problems and not any(t["used"] for t in trials):
        problems.append("no usable trial")
    valid = not problems
    analysis = analyse(recipe, plan, trials) if valid else {"kind": plan.kind, "verdict": INVALID}
    return analysis, {"valid": valid, "problems": problems, "errors": errors,
                      "disturbed": sum(t["status"] == "disturbed" for t in trials)}


def _static_provenance(stack: Stack, plan: Plan, code: dict) -> dict:
    first = plan.nodes[0]
    return {"versions": provenance.versions(stack, first), "images": provenance.images(stack),
            "wildfly_derived": provenance.wildfly_derived(stack, first),
            "nodes": {n: {"config": vars(stack.node_configs[n]) | {
                          "jvm_command_line": stack.node_configs[n].jvm_command_line()},
                          "jvm": provenance.jvm_facts(stack, n)} for n in plan.nodes},
            "placement": {"db": stack.config.db_cpuset, "loadgen": stack.config.loadgen_cpuset,
                          "engine_local": stack.local_engine},
            "stack_inputs": staleness.stack_inputs_hash(),
            "stack_ready_s": stack.started_in_s, **code}


def _together(items, job) -> dict:
    """``job(item)`` for every item at once, in threads (k6 runs against nodes measured side
    by side, smoke tests of cold nodes); returns {id or item: result}; the first error is
    raised in the caller's thread."""
    results, errors = {}, []

    def run(item):
        try:
            results[getattr(item, "id", item)] = job(item)
        except BaseException as exc:  # re-raised below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in items]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return results


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
