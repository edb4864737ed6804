"""Run one recipe: stack → verify → interleaved trials → analysis → stored result.

The order of trials alternates inside each pair (AB, BA, AB, ...), so a slow drift of the
machine (a warming disk, growing tables) falls on both arms alike. Every trial starts with a
configuration switch that is read back before any load runs; a switch that does not take
effect raises ChangeNotEffective and nothing is stored.
"""
from __future__ import annotations

import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from . import analysis, changes, layout, load, provenance, store, telemetry
from .recipe import Recipe, recipe_hash
from .stack import Stack, StackConfig

Progress = Callable[[str], None]


def trial_order(pairs: int) -> list[str]:
    order = []
    for pair in range(pairs):
        arms = [changes.BASELINE, changes.VARIANT]
        order += arms if pair % 2 == 0 else arms[::-1]
    return order


def stack_config(recipe: Recipe) -> StackConfig:
    s = recipe.stack
    return StackConfig(app_cpuset=s.app_cpuset, db_cpuset=s.db_cpuset,
                       loadgen_cpuset=s.loadgen_cpuset, app_memory=s.app_memory,
                       db_memory=s.db_memory, jvm_options=s.jvm_options,
                       server_config=s.server_config)


class Clock:
    """Elapsed time and a remaining-time estimate from the trials done so far."""

    def __init__(self, total_trials: int):
        self.began = time.monotonic()
        self.total = total_trials
        self.trial_times: list[float] = []

    def stamp(self) -> str:
        return _mmss(time.monotonic() - self.began)

    def remaining(self, done: int) -> str:
        if not self.trial_times:
            return "?"
        mean = sum(self.trial_times) / len(self.trial_times)
        return _mmss(mean * (self.total - done))


def _mmss(seconds: float) -> str:
    return f"{int(seconds // 60):02d}:{int(seconds % 60):02d}"


def run_recipe(recipe: Recipe, profile: str = "quick", *, progress: Progress = print,
               results_dir: Path | None = None, save: bool = True) -> dict:
    """Run the recipe in the named profile and return the result (stored unless save=False)."""
    prof = recipe.profile(profile)
    order = trial_order(prof.pairs)
    clock = Clock(len(order))
    say = lambda text: progress(f"[{clock.stamp()}] {text}")  # noqa: E731
    started = datetime.now(timezone.utc)
    say(f"{recipe.id}: profile {profile}: {prof.pairs} pairs x ({prof.warmup_s} s warm-up + "
        f"{prof.trial_s} s measured); change: {recipe.change.kind}")
    switcher = changes.switcher_for(recipe)
    spec = load.LoadSpec.from_workload(recipe.workload)
    # The code and recipe as they were when the run began: edits made while it runs are not
    # what it measured.
    code = {"recipe_hash": recipe_hash(recipe), **provenance.git()}
    with Stack(stack_config(recipe), progress=say) as stack:
        say("verify: every transaction type answers correctly (smoke run)")
        load.smoke_test(stack.loadgen)
        baseline_checks = changes.apply_baseline(stack, recipe.baseline)
        preflight = switcher.prepare(stack)
        say(f"verify: baseline set-up read back ({len(baseline_checks)} checks), change preflight "
            f"passed ({len(preflight)} checks)")
        warmup = warm_up(stack, spec, prof.stack_warmup_s, say)
        static = {"versions": provenance.versions(stack), "images": provenance.images(stack),
                  "wildfly_derived": provenance.wildfly_derived(stack),
                  "pinning": provenance.pinning(stack), "stack_ready_s": stack.started_in_s, **code}
        trials, jvm_by_arm = [], {}
        for index, arm in enumerate(order):
            began = time.monotonic()
            say(f"trial {index + 1}/{len(order)} ({arm}): switching configuration")
            checks = switcher.switch(stack, arm)
            jvm_by_arm.setdefault(arm, provenance.jvm_facts(stack))
            trial = _run_trial(stack, recipe, spec, prof, index, arm)
            trial["checks"] = [c.as_dict() for c in checks]
            trials.append(trial)
            clock.trial_times.append(time.monotonic() - began)
            m = trial["metrics"]
            state = "VALID" if trial["valid"] else "INVALID: " + "; ".join(trial["problems"])
            say(f"trial {index + 1}/{len(order)} ({arm}): {state}; errors {m['error_rate']:.2%}, "
                f"{m['throughput']:.1f} tx/s, p99 {m['latency_p99'] or 0:.1f} ms; "
                f"remaining ~{clock.remaining(index + 1)}")
    result = _result(recipe, profile, prof, order, trials, switcher, baseline_checks, preflight,
                     static, jvm_by_arm, started)
    result["warmup"] = warmup
    say(f"{recipe.id}: verdict: {result['verdict']} ({_primary_text(result)})")
    if save:
        path = store.write_result(result, results_dir or layout.results_dir())
        result["_path"] = str(path)
        shown = path.relative_to(layout.REPO_ROOT) if path.is_relative_to(layout.REPO_ROOT) else path
        say(f"stored {shown}")
    return result


WARMUP_WINDOW_S = 10
STEADY_SPREAD = 0.05


class WarmUpFailed(RuntimeError):
    """The stack answered no request correctly for a whole warm-up window: nothing to measure."""


def warm_up(stack: Stack, spec: load.LoadSpec, max_s: int, say: Progress) -> dict:
    """Run the workload unmeasured, in 10 s windows, until throughput is steady (see _steady)
    or `max_s` has passed. A fresh JVM on one core keeps
    compiling for minutes; trials that start before the plateau would measure the compiler
    (drift), not the change. The windows and their error rates are kept in the result as
    evidence; a window in which every request failed ends the run."""
    windows: list[float] = []
    errors: list[float] = []
    steady = False
    while len(windows) * WARMUP_WINDOW_S < max_s:
        seconds = min(WARMUP_WINDOW_S, max_s - len(windows) * WARMUP_WINDOW_S)
        summary = load.run(stack.loadgen, spec, seconds, f"stack-warmup-{len(windows)}")
        numbers = load.load_metrics(summary)
        windows.append(numbers["throughput"])
        errors.append(numbers["error_rate"])
        steady = _steady(windows)
        say(f"warm-up: window {len(windows)}: {windows[-1]:.1f} tx/s, errors {errors[-1]:.2%}"
            + (" (steady)" if steady else ""))
        if numbers["failed"] and numbers["failed"] == numbers["requests"]:
            raise WarmUpFailed(
                f"every request failed in warm-up window {len(windows)} ({numbers['failed']} "
                f"failed: {numbers['fail_reasons']}); the stack does not serve this workload")
        if steady:
            break
    return {"window_s": WARMUP_WINDOW_S, "max_s": max_s, "throughput": windows,
            "error_rate": errors, "steady": steady}


def _steady(windows: list[float]) -> bool:
    """The last three windows agree within 5 % of their mean, and that mean is within 5 % of
    the three windows before: a slow climb (a JIT still compiling) is not a plateau."""
    if len(windows) < 6:
        return False
    last, before = windows[-3:], windows[-6:-3]
    mean, mean_before = sum(last) / 3, sum(before) / 3
    return (mean > 0 and (max(last) - min(last)) / mean <= STEADY_SPREAD
            and abs(mean - mean_before) / mean <= STEADY_SPREAD)


def _run_trial(stack: Stack, recipe: Recipe, spec: load.LoadSpec, prof, index: int, arm: str) -> dict:
    started = datetime.now(timezone.utc).isoformat()
    if prof.warmup_s:
        load.run(stack.loadgen, spec, prof.warmup_s, f"{index}-warmup")
    before = telemetry.snapshot(stack, recipe.metrics.runtime)
    summary = load.run(stack.loadgen, spec, prof.trial_s, str(index))
    after = telemetry.snapshot(stack, recipe.metrics.runtime)
    load_numbers = load.load_metrics(summary)
    ok = load_numbers["requests"] - load_numbers["failed"]
    window = telemetry.window(stack, before, after, ok, prof.trial_s)
    problems = analysis.trial_problems(recipe, load_numbers, window)
    return {"index": index, "pair": index // 2, "arm": arm, "started": started,
            "duration_s": prof.trial_s, "valid": not problems, "problems": problems,
            "metrics": analysis.trial_metrics(load_numbers, window),
            "errors": {k: load_numbers[k] for k in ("requests", "failed", "error_rate",
                                                    "dropped_iterations", "fail_reasons")},
            "transactions": load_numbers["transactions"], "telemetry": window}


def _result(recipe, profile, prof, order, trials, switcher, baseline_checks, preflight,
            static, jvm_by_arm, started) -> dict:
    problems = [f"trial {t['index'] + 1} ({t['arm']}): {p}" for t in trials for p in t["problems"]]
    valid = not problems
    metrics = analysis.compare_trials(trials) if valid else {}
    primary = recipe.metrics.primary
    verdict = metrics[primary]["verdict"] if valid else analysis.INVALID
    finished = datetime.now(timezone.utc)
    return {
        "format": 1,
        "recipe": recipe.id,
        "title": recipe.title,
        "profile": profile,
        "verdict": verdict,
        "primary_metric": primary,
        "expected": recipe.source.expected,
        "agrees_with_source": analysis.agrees(recipe.source.expected, verdict),
        "source": {"document": recipe.source.document, "section": recipe.source.section,
                   "table": recipe.source.table, "claim": recipe.source.claim},
        "change": {"kind": recipe.change.kind, "description": switcher.description(),
                   "files": switcher.files(),
                   "verified": [c.as_dict() for c in baseline_checks + preflight]},
        "workload": {"mix": recipe.workload.mix, "model": recipe.workload.model,
                     "users": recipe.workload.users, "rate": recipe.workload.rate,
                     "think_time_ms": recipe.workload.think_time_ms,
                     "lines": recipe.workload.lines, "note_chars": recipe.workload.note_chars},
        "method": {"ci": "paired Student-t interval on per-pair log ratios (ratio metrics) or "
                         "differences (share and rate metrics)",
                   "confidence": 0.95, "pairs": prof.pairs, "order": order,
                   "stack_warmup_s": prof.stack_warmup_s, "warmup_s": prof.warmup_s,
                   "trial_s": prof.trial_s},
        "validity": {"valid": valid, "problems": problems},
        "metrics": metrics,
        "trials": trials,
        "provenance": {
            **provenance.machine(),
            "started": started.isoformat(), "finished": finished.isoformat(),
            "wall_s": (finished - started).total_seconds(), "jvm": jvm_by_arm, **static},
    }


def _primary_text(result: dict) -> str:
    m = result["metrics"].get(result["primary_metric"])
    if not m:
        return "; ".join(result["validity"]["problems"])[:300]
    return (f"{result['primary_metric']} {m['delta']:+.1%} "
            f"[{m['ci_low'] if m['ci_low'] is not None else float('-inf'):+.1%}, "
            f"{m['ci_high'] if m['ci_high'] is not None else float('inf'):+.1%}]")
