"""From trials to findings: what a plan compares decides how it is analysed.

- ``ab``: the variant against the baseline (comparisons.py);
- ``ab-by-load``: the same at each load level, the levels' primary p-values adjusted together
  (Holm); when the levels are a load (users or an arrival rate), each change level also gets
  its load curve (saturation, latency knee), so a page can show where each configuration
  saturates and what happens past it;
- ``sweep`` (and ``sweep-by-load``, one curve per load level): the curve, its best value, its
  knee and a recommendation (curves.py); when the load levels are a load, each value also gets
  its load curve (``load_curves``: a ladder's configurations side by side over the users);
- ``load``: throughput and latency over load levels, saturation and latency knee.

How a curve is advised on (advice.py) and how a result is held against its source's claim
(agreement.py) are readings of the stored numbers: ``read_stored`` applies today's rules and
the recipe's current claim to any stored result, so the site and ``tuninglab show`` say the
same, and a corrected rule reaches every page without a new run.

Validity comes first: trials with errors of the system under test make an A/B run invalid
(no delta is reported), and mark a point of a curve.
"""
from __future__ import annotations

import copy

from .. import stats
from . import advice
from .agreement import agreement
from ..plan import AB, AB_BY_LOAD, CROSSOVER, LOAD, PER_LEVEL, SWEEP, SWEEP_BY_LOAD, Plan
from ..recipe import Recipe
from .comparisons import compare_arms, turn_triples
from .curves import load_curve, sweep_curve
from .trials import UNITS, trial_disturbances, trial_errors, trial_metrics

__all__ = ["INVALID", "MIXED", "UNITS", "analyse", "agreement", "read_stored",
           "trial_disturbances", "trial_errors", "trial_metrics"]

INVALID = "invalid"
MIXED = "mixed"  # an A/B run whose load levels disagree


def analyse(recipe: Recipe, plan: Plan, trials: list[dict], confidence: float = 0.95) -> dict:
    """The findings of a valid run; ``trials`` carry ``used`` (counted) and ``status``."""
    failed = {t["arm"] for t in trials if t["status"] == "failed"}
    primary = recipe.metrics.primary
    if plan.kind in (AB, AB_BY_LOAD):
        out = _ab(plan, trials, primary, confidence)
        if plan.load_key in LOAD_AXES:
            out["curves"] = [_level_curve(plan, trials, level, confidence, failed)
                             for level in plan.change_levels]
        return out
    if plan.kind in (SWEEP, SWEEP_BY_LOAD):
        # A node per value, started anew in several periods (launches): a value's luck of
        # launch is part of its comparisons (curves.py).
        by_period = plan.layout == PER_LEVEL and len({t.get("period", 0) for t in trials}) > 1
        curves = []
        for load in plan.load_values or (None,):
            arms = plan.arms_at_load(load)
            # The CI profile measures only the curve's ends, which may leave the reference out.
            reference = next((a.id for a in arms if a.value == recipe.sweep.reference), None)
            curve = sweep_curve(trials, arms, primary=primary, cheaper=recipe.sweep.cheaper,
                                reference_arm=reference, name=recipe.sweep.name,
                                unit=recipe.sweep.unit, confidence=confidence, failed=failed,
                                by_period=by_period, margin=recipe.metrics.margin)
            curve["load"] = None if load is None else {plan.load_key: load}
            curves.append(curve)
        headline = curves[0].get("headline")
        out = {"kind": plan.kind, "curves": curves,
               "verdict": headline["verdict"] if headline else None}
        if plan.load_key in LOAD_AXES:
            out["load_curves"] = [_level_curve(plan, trials, level, confidence, failed)
                                  for level in plan.change_levels]
        return out
    if plan.kind == LOAD:
        curve = load_curve(trials, list(plan.arms), key=plan.load_key, confidence=confidence,
                           failed=failed)
        return {"kind": LOAD, "curves": [curve], "verdict": None}
    raise ValueError(f"unknown plan kind {plan.kind!r}")


# Load levels that are a load (a curve with saturation and a latency knee), not a payload.
LOAD_AXES = ("users", "rate")


def _level_curve(plan: Plan, trials, level: str, confidence: float, failed) -> dict:
    arms = [a for a in plan.arms if a.level == level]
    curve = load_curve(trials, arms, key=plan.load_key, confidence=confidence, failed=failed)
    curve["level"] = level
    return curve


def _ab(plan: Plan, trials: list[dict], primary: str, confidence: float) -> dict:
    comparisons = []
    crossover = None
    if plan.layout == CROSSOVER:
        crossover = "same-jvms" if plan.keeps_jvms else "fresh-jvms"
    # Arms taking turns on a cluster with a reload: the turns are the units (comparisons.py).
    by_turns = plan.takes_turns
    for load in plan.load_values or (None,):
        baseline, variant = plan.arms_at_load(load)
        units = turn_triples(trials, (baseline.id, variant.id)) if by_turns else trials
        c = compare_arms(units, baseline.id, variant.id, primary, confidence,
                         crossover=crossover)
        c["load"] = None if load is None else {plan.load_key: load}
        c["pairing"] = "turn-triples" if by_turns else "blocks"
        if c["verdict"] is None:  # no unit at all (two turns, as in the CI profile)
            c["verdict"] = stats.NOT_ASSESSED
        comparisons.append(c)
    if len(comparisons) > 1:
        adjusted = stats.holm({str(i): c["metrics"][primary]["p_value"]
                               for i, c in enumerate(comparisons) if primary in c["metrics"]})
        for i, c in enumerate(comparisons):
            m = c["metrics"].get(primary)
            if m is not None:
                m["p_holm"] = adjusted[str(i)]
                c["verdict"] = m["verdict"] if adjusted[str(i)] < 0.05 else stats.NO_CHANGE
        verdicts = {c["verdict"] for c in comparisons}
        verdict = verdicts.pop() if len(verdicts) == 1 else MIXED
    else:
        verdict = comparisons[0]["verdict"]
    return {"kind": plan.kind, "comparisons": comparisons, "verdict": verdict,
            "level_correction": "Holm over the load levels' primary metric" if len(comparisons) > 1 else None}


def read_stored(result: dict, recipe: Recipe | None = None) -> dict:
    """A copy of a stored result read by today's rules: every curve's ranks and advice
    (advice.py) with the recipe's reading keys, and ``agreement``, the one word for our result
    against the recipe's claim (agreement.py). Without a recipe, the claim and keys the result
    stored are used. The stored numbers are not changed; a metric stored without its unit (one
    measured before UNITS named it) gets today's, so a count is not printed as a share."""
    out = copy.deepcopy(result)
    for comparison in (out.get("analysis") or {}).get("comparisons") or []:
        for name, entry in (comparison.get("metrics") or {}).items():
            if not entry.get("unit") and UNITS.get(name):
                entry["unit"] = UNITS[name]
    reading, claim = {}, {}
    if recipe is not None:
        reading = {"margin": recipe.metrics.margin}
        if recipe.sweep is not None:
            reading.update(cheaper=recipe.sweep.cheaper, name=recipe.sweep.name,
                           unit=recipe.sweep.unit)
        claim = {"expected": recipe.source.expected, "effect": recipe.source.effect,
                 "contrast": recipe.source.contrast, "margin": recipe.metrics.margin}
        out["expected"] = recipe.source.expected
    advice.reread(out, reading)
    out["agreement"] = agreement(out, **claim)
    return out
