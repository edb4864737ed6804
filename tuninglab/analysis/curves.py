"""Curves: a metric over the values of one setting (a sweep) or over levels of the load.

Every point is the mean of its arm's usable trials, with a 95 % t interval over blocks on the
log scale (the band on the plots). Points are compared with each other in pairs, block by block,
as A/B arms are, because blocks share the drift of the machine.

A sweep with a node per value that started its nodes anew several times (``launches``, one
period each) samples each value's luck of launch more than once, and that luck does not cancel
between two values on two nodes: a band then rests on the launches' means, and a comparison
treats the launches as a restart crossover treats its periods (stats.compare: on the periods,
or on the pairs when the periods differ no more than the pairs do).

The rules, stated once (docs/method.md repeats them; advice.py reads the curves):

- **best**: the value with the best mean of the primary metric;
- every other value is ranked against the best by its paired 95 % interval, and is **as good
  as the best** only when that whole interval lies within the recipe's margin (an equivalence
  test, advice.py); the recommendation is the cheapest such value (``sweep.cheaper`` says
  which end of the axis is cheap), or "this run cannot tell"; unordered choices
  (``cheaper = "none"``) are ranked, with no knee;
- for a load curve, **saturation** is the lowest load whose throughput is shown within the
  margin of the highest, the **latency knee** the lowest load whose p99 is more than
  ``LATENCY_KNEE_FACTOR`` times the p99 of the lowest load, and throughput **falls past
  saturation** when the highest load is significantly below the best (paired interval
  entirely below zero).

Points whose trials failed (errors of the system under test) are reported, and left out of
best, knee and saturation.
"""
from __future__ import annotations

import math

import numpy as np

from .. import stats
from ..plan import Arm
from . import advice
from .advice import LATENCY_KNEE_FACTOR
from .comparisons import block_values, paired_values

__all__ = ["LATENCY_KNEE_FACTOR", "curve_points", "sweep_curve", "load_curve"]

def curve_points(trials: list[dict], arms: list[Arm], metric: str, confidence: float = 0.95,
                 failed: set[str] = frozenset(), by_period: bool = False) -> list[dict]:
    """One point per arm: mean, interval (over blocks, or over the launches' means when
    ``by_period``), and the telemetry a recommendation cites."""
    period_of = _period_of(trials)
    points = []
    for arm in arms:
        by_block = block_values(trials, arm.id, metric)
        values = list(by_block.values())
        point = {"arm": arm.id, "value": arm.value, "load": dict(arm.load),
                 "label": arm.label, "n": len(values), "failed": arm.id in failed}
        point.update(_mean_interval(values, confidence))
        if by_period:
            means = _period_means(by_block, period_of)
            band = _mean_interval(means, confidence)
            point.update(ci_low=band["ci_low"], ci_high=band["ci_high"], launches=len(means))
        point["telemetry"] = _telemetry_means(trials, arm.id)
        points.append(point)
    return points


def sweep_curve(trials, arms: list[Arm], *, primary: str, cheaper: str, reference_arm: str | None,
                name: str, unit: str, confidence: float = 0.95, failed=frozenset(),
                by_period: bool = False, margin: float = advice.DEFAULT_MARGIN) -> dict:
    """``by_period``: the nodes started anew in every period (launches; module docstring)."""
    rule = stats.METRIC_RULES[primary]
    points = curve_points(trials, arms, primary, confidence, failed, by_period)
    best = _best(points, rule.higher_is_better)
    if best is None:
        return {"points": points, "best": None, "knee": None, "recommendation":
                "no value ran without errors: nothing to recommend"}
    against_best = _against(trials, arms, best, primary, confidence, by_period)
    # The best against the reference; nothing when the reference is the best (a value against
    # itself would read "no significant change" and count as disagreeing with the source).
    headline = (_compare(trials, reference_arm, best, primary, confidence, by_period)
                if reference_arm and reference_arm != best else None)
    out = {"metric": primary, "points": points, "best": best, "against_best": against_best,
           "headline": headline, "reference": reference_arm}
    out.update(advice.read_sweep(points, against_best, best=best,
                                 higher_is_better=rule.higher_is_better, cheaper=cheaper,
                                 margin=margin, name=name, unit=unit, metric=primary))
    return out


def load_curve(trials, arms: list[Arm], *, key: str, confidence: float = 0.95,
               failed=frozenset(), margin: float = advice.DEFAULT_MARGIN) -> dict:
    """Throughput and latency over load levels (arms in increasing load)."""
    throughput = curve_points(trials, arms, "throughput", confidence, failed)
    p99 = curve_points(trials, arms, "latency_p99", confidence, failed)
    best = _best(throughput, True)
    out = {"metric": "throughput", "key": key, "points": throughput, "latency_p99": p99,
           "best": best}
    if best is None:
        out["recommendation"] = "no load level ran without errors"
        return out
    against_best = _against(trials, arms, best, "throughput", confidence)
    read = advice.read_load(throughput, against_best, best=best, margin=margin)
    usable = [p for p in p99 if not p["failed"] and p["mean"] is not None]
    knee = None
    if usable:
        floor = usable[0]["mean"]
        knee = next((p["arm"] for p in usable if p["mean"] > LATENCY_KNEE_FACTOR * floor), None)
    last = [p for p in throughput if not p["failed"]][-1]["arm"]
    out.update({
        "against_best": against_best, **advice.load_fields(read),
        "latency_knee": knee, "latency_knee_factor": LATENCY_KNEE_FACTOR,
        "past_saturation": against_best.get(last) if last != best else None,
    })
    out["recommendation"] = advice.load_sentence(out, read)
    return out


# --------------------------------------------------------------------------- helpers


def _mean_interval(values: list[float], confidence: float) -> dict:
    if not values:
        return {"mean": None, "ci_low": None, "ci_high": None}
    array = np.asarray(values, dtype=float)
    mean = float(np.mean(array))
    if len(array) < 2 or np.any(array <= 0):
        return {"mean": mean, "ci_low": None, "ci_high": None}
    logs = np.log(array)
    margin = stats.t_quantile(confidence, len(array) - 1) * float(np.std(logs, ddof=1)) / math.sqrt(len(array))
    centre = float(np.mean(logs))
    return {"mean": mean, "ci_low": math.exp(centre - margin), "ci_high": math.exp(centre + margin)}


def _period_of(trials: list[dict]) -> dict[int, int]:
    """block -> its period (0 for results from before periods were recorded)."""
    return {t["block"]: t.get("period", 0) for t in trials}


def _period_means(by_block: dict[int, float], period_of: dict[int, int]) -> list[float]:
    """The mean of each period's values (a launch's mean), in period order."""
    groups: dict[int, list[float]] = {}
    for block, value in by_block.items():
        groups.setdefault(period_of.get(block, 0), []).append(value)
    return [float(np.mean(groups[p])) for p in sorted(groups)]


def _telemetry_means(trials: list[dict], arm_id: str) -> dict:
    used = [t for t in trials if t["arm"] == arm_id and t["used"]]

    def mean(values):
        values = [v for v in values if v is not None]
        return float(np.mean(values)) if values else None

    return {
        "gc_time": mean(t["metrics"].get("gc_time") for t in used),
        "pool_wait_ms": mean(t["metrics"].get("pool_wait_ms") for t in used),
        "app_cpu": mean(t["telemetry"]["containers"]["app"]["cpu_utilisation"] for t in used),
        "db_core_busy": mean(t["telemetry"]["interference"].get("db_core_busy") for t in used),
        "latency_p99": mean(t["metrics"].get("latency_p99") for t in used),
        "error_rate": mean(t["metrics"].get("error_rate") for t in used),
    }


def _best(points: list[dict], higher_is_better: bool) -> str | None:
    usable = [p for p in points if not p["failed"] and p["mean"] is not None]
    if not usable:
        return None
    pick = max if higher_is_better else min
    return pick(usable, key=lambda p: p["mean"])["arm"]


def _compare(trials, a: str, b: str, metric: str, confidence: float,
             by_period: bool = False) -> dict | None:
    """b against a, paired by block (None without two common blocks); ``by_period``: the
    blocks' periods are launches of both nodes (module docstring)."""
    blocks, va, vb = paired_values(trials, a, b, metric)
    if len(blocks) < 2:
        return None
    rule = stats.METRIC_RULES[metric]
    period_of = _period_of(trials)
    periods = [period_of[k] for k in blocks] if by_period else None
    entry = stats.compare(va, vb, higher_is_better=rule.higher_is_better, scale=rule.scale,
                          confidence=confidence, periods=periods).to_dict()
    entry.update(baseline=a, variant=b, blocks=blocks)
    return entry


def _against(trials, arms, best: str, metric: str, confidence: float,
             by_period: bool = False) -> dict[str, dict]:
    """Every arm against the best (the best itself marked)."""
    out = {}
    for arm in arms:
        if arm.id == best:
            out[arm.id] = {"is_best": True, "verdict": stats.NO_CHANGE, "delta": 0.0,
                           "ci_low": 0.0, "ci_high": 0.0}
            continue
        c = _compare(trials, best, arm.id, metric, confidence, by_period)
        if c is not None:
            out[arm.id] = c
    return out
