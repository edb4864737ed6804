"""Curves: a metric over the values of one setting (a sweep) or over levels of the load.

Every point is the mean of its arm's usable trials, with a 95 % t interval over blocks on the
log scale (the band on the plots). Points are compared with each other in pairs, block by block,
as A/B arms are, because blocks share the drift of the machine.

A sweep with a node per value that started its nodes anew several times (``launches``, one
period each) samples each value's luck of launch more than once, and that luck does not cancel
between two values on two nodes: a band then rests on the launches' means, and a comparison
treats the launches as a restart crossover treats its periods (stats.compare: on the periods,
or on the pairs when the periods differ no more than the pairs do).

The rules, stated once (docs/method.md repeats them):

- **best**: the value with the best mean of the primary metric;
- **knee**: the cheapest value whose primary metric cannot be told apart from the best's: its
  paired 95 % interval against the best contains zero (``sweep.cheaper`` says which end of the
  axis is cheap). A noisier run widens the intervals and can move the knee to a cheaper
  value; the page shows each interval, and the recommendation says when the knee's interval
  still allows a loss beyond ``FIRM_KNEE_LOSS``;
- for a load curve, **saturation** is the knee of throughput (the lowest load whose throughput
  cannot be told apart from the highest), the **latency knee** the lowest load whose p99 is
  more than ``LATENCY_KNEE_FACTOR`` times the p99 of the lowest load, and throughput **falls
  past saturation** when the highest load is significantly below the best (paired interval
  entirely below zero).

Points whose trials failed (errors of the system under test) are reported, and left out of
best, knee and saturation.
"""
from __future__ import annotations

import math

import numpy as np

from .. import stats
from ..plan import Arm
from .comparisons import block_values, paired_values

__all__ = ["LATENCY_KNEE_FACTOR", "curve_points", "find_knee", "sweep_curve", "load_curve"]

LATENCY_KNEE_FACTOR = 3.0
# Telemetry a recommendation may cite: words, format, and the least change that counts as a
# reason. Shares (fractions of time or of a quota) count by their absolute change: a GC share
# that doubles from 0.1 % to 0.2 % explains nothing. Amounts count by their relative change
# (at least 25 %) and must also move by their floor.
REASON_METRICS = {
    "gc_time": ("time in garbage collection", "{:.1%} of the time", "share", 0.02),
    "app_cpu": ("the application server's CPU use", "{:.0%} of its quota", "share", 0.05),
    "db_core_busy": ("the database core's load", "{:.0%} busy", "share", 0.05),
    "pool_wait_ms": ("waiting for a pooled connection", "{:.2f} ms per transaction", "amount", 0.5),
    "latency_p99": ("the 99th percentile of latency", "{:.1f} ms", "amount", 5.0),
}
RELATIVE_FLOOR = 0.25
# "Cannot be told apart from the best" is not "as good as the best" when the interval is wide:
# a knee whose interval against the best reaches a loss beyond this share says so.
FIRM_KNEE_LOSS = 0.05


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


def find_knee(points: list[dict], comparisons: dict[str, dict], cheaper: str) -> str | None:
    """The cheapest usable point whose paired interval against the best contains zero (the
    best itself qualifies). ``comparisons`` maps arm id -> comparison with the best. With a
    single block nothing can be compared, and only the best qualifies."""
    usable = [p for p in points if not p["failed"] and p["mean"] is not None]
    ordered = usable if cheaper == "lower" else list(reversed(usable))
    for point in ordered:
        c = comparisons.get(point["arm"])
        # A point without a comparison (fewer than two blocks) is not "within noise": it is
        # unknown, and an unknown point must not become the recommendation.
        if c is not None and (c.get("is_best") or c["verdict"] == stats.NO_CHANGE):
            return point["arm"]
    return None


def sweep_curve(trials, arms: list[Arm], *, primary: str, cheaper: str, reference_arm: str | None,
                name: str, unit: str, confidence: float = 0.95, failed=frozenset(),
                by_period: bool = False) -> dict:
    """``by_period``: the nodes started anew in every period (launches; module docstring)."""
    rule = stats.METRIC_RULES[primary]
    points = curve_points(trials, arms, primary, confidence, failed, by_period)
    best = _best(points, rule.higher_is_better)
    if best is None:
        return {"points": points, "best": None, "knee": None, "recommendation":
                "no value ran without errors: nothing to recommend"}
    against_best = _against(trials, arms, best, primary, confidence, by_period)
    knee = find_knee(points, against_best, cheaper)
    # The best against the reference; nothing when the reference is the best (a value against
    # itself would read "no significant change" and count as disagreeing with the source).
    headline = (_compare(trials, reference_arm, best, primary, confidence, by_period)
                if reference_arm and reference_arm != best else None)
    by_arm = {p["arm"]: p for p in points}
    return {
        "metric": primary, "points": points, "best": best, "knee": knee,
        "against_best": against_best, "headline": headline, "reference": reference_arm,
        "rule": "knee: the cheapest value whose paired 95 % interval against the best value "
                "contains zero",
        "recommendation": _recommend(points, by_arm, knee, best, primary, name, unit, cheaper,
                                     compared=set(against_best))
        + _firmness(against_best.get(knee) if knee else None, rule.higher_is_better),
    }


def load_curve(trials, arms: list[Arm], *, key: str, confidence: float = 0.95,
               failed=frozenset()) -> dict:
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
    saturation = find_knee(throughput, against_best, "lower")
    usable = [p for p in p99 if not p["failed"] and p["mean"] is not None]
    knee = None
    if usable:
        floor = usable[0]["mean"]
        knee = next((p["arm"] for p in usable if p["mean"] > LATENCY_KNEE_FACTOR * floor), None)
    last = [p for p in throughput if not p["failed"]][-1]["arm"]
    falls = against_best.get(last) if last != best else None
    out.update({
        "against_best": against_best, "saturation": saturation, "latency_knee": knee,
        "latency_knee_factor": LATENCY_KNEE_FACTOR,
        "past_saturation": falls,
        "falls_past_saturation": bool(falls and falls["ci_high"] is not None and falls["ci_high"] < 0),
        "rule": (f"saturation: the lowest load whose throughput's paired 95 % interval against "
                 f"the best contains zero; latency knee: the lowest load whose p99 exceeds "
                 f"{LATENCY_KNEE_FACTOR:g} x the p99 of the lowest load"),
    })
    out["recommendation"] = _load_sentence(out, {p["arm"]: p for p in throughput},
                                           {p["arm"]: p for p in p99}, key)
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


def _recommend(points, by_arm, knee, best, primary, name, unit, cheaper,
               compared: set[str]) -> str:
    """One sentence: the value to set, why (the knee rule), and what the telemetry shows just
    below it. ``compared``: the arms with a paired comparison against the best."""
    if knee is None:
        return "no value could be compared with the best: nothing to recommend"
    unit_text = f" {unit}" if unit else ""
    metric = primary.replace("_", " ")
    usable = [p for p in points if not p["failed"] and p["mean"] is not None]
    ordered = usable if cheaper == "lower" else list(reversed(usable))
    index = [p["arm"] for p in ordered].index(knee)
    unknown = [p for p in ordered[:index] if p["arm"] not in compared]
    if knee == best and unknown:
        # The best is the knee only because the cheaper values could not be compared with it
        # (fewer than two blocks, as in CI): it is the highest mean, not a recommendation.
        return (f"nothing to recommend: {_value_text(unknown[0]['value'])}{unit_text} and the "
                f"best ({_value_text(by_arm[best]['value'])}{unit_text}) share fewer than two "
                f"blocks, so they cannot be told apart")
    k = by_arm[knee]
    head = f"Set {name} to {_value_text(k['value'])}{unit_text}"
    if knee == best:
        why = f"it gave the best {metric}" + (
            ", and every cheaper value was measurably worse" if index > 0 else "")
    else:
        why = (f"it is the cheapest value whose {metric} cannot be told apart from the best "
               f"({_value_text(by_arm[best]['value'])}{unit_text})")
    if index == 0:
        note = "" if knee == best else "; even the cheapest value tried is within noise of the best"
        return f"{head}: {why}{note}{_steady_reason(k)}."
    below = ordered[index - 1]
    signal = _largest_shift(below["telemetry"], k["telemetry"])
    if signal is None:
        return f"{head}: {why}."
    words, fmt, _, _ = REASON_METRICS[signal]
    return (f"{head}: {why}; at {_value_text(below['value'])}{unit_text} {words} was "
            f"{fmt.format(below['telemetry'][signal])}, against "
            f"{fmt.format(k['telemetry'][signal])} at {_value_text(k['value'])}{unit_text}.")


def _firmness(against: dict | None, higher_is_better: bool) -> str:
    """A sentence when the knee's interval against the best still allows a loss larger than
    FIRM_KNEE_LOSS: the knee then rests on the run's resolution as much as on the curve."""
    if not against or against.get("is_best"):
        return ""
    worst = against.get("ci_low") if higher_is_better else against.get("ci_high")
    if worst is None or abs(worst) <= FIRM_KNEE_LOSS:
        return ""
    return (f" Its interval against the best still reaches {abs(worst):.0%} "
            f"{'below' if higher_is_better else 'above'} it, so this run cannot rule out a "
            f"loss of that size there; more blocks would firm the knee up.")


def _steady_reason(point: dict) -> str:
    cpu = point["telemetry"].get("app_cpu")
    return f" (the application server used {cpu:.0%} of its CPU quota there)" if cpu else ""


def _largest_shift(below: dict, at: dict) -> str | None:
    """The telemetry signal that moved most between two neighbouring points, measured against
    the least change that counts for it (REASON_METRICS); None when none moved that much."""
    best, score = None, 1.0
    for key, (_, _, kind, floor) in REASON_METRICS.items():
        a, b = below.get(key), at.get(key)
        if a is None or b is None:
            continue
        change = abs(a - b)
        if kind == "share":
            this = change / floor
        else:
            relative = change / max(abs(a), abs(b)) if max(abs(a), abs(b)) > 0 else 0.0
            this = min(change / floor, relative / RELATIVE_FLOOR)
        if this >= score:
            best, score = key, this
    return best


def _load_sentence(curve: dict, tput: dict, p99: dict, key: str) -> str:
    label = key.replace("_", " ")
    sat = curve["saturation"]
    parts = [f"Throughput reaches its plateau at {label} {_value_text(tput[sat]['load'][key])} "
             f"({tput[sat]['mean']:,.0f} tx/s)" if sat else "No saturation point was found"]
    if curve["latency_knee"]:
        knee = p99[curve["latency_knee"]]
        parts.append(f"p99 latency passes {LATENCY_KNEE_FACTOR:g} x its low-load value at {label} "
                     f"{_value_text(knee['load'][key])} ({knee['mean']:,.1f} ms)")
    else:
        parts.append(f"p99 latency stays within {LATENCY_KNEE_FACTOR:g} x its low-load value")
    falls = curve.get("past_saturation")
    if curve["falls_past_saturation"]:
        parts.append(f"past saturation throughput falls by {-falls['delta']:.1%} "
                     f"[{-falls['ci_high']:.1%}, {-falls['ci_low']:.1%}]")
    elif falls:
        parts.append("past saturation throughput holds (no significant fall)")
    return "; ".join(parts) + "."


def _value_text(value) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
