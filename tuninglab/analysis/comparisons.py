"""Paired comparisons of two arms, metric by metric, with the multiplicity of metrics handled.

Two arms are paired block by block: a block holds one trial of each arm (side by side in a
crossover, one after the other elsewhere). Only blocks where both trials are usable count. In
a crossover the interval rests on the periods, and when the nodes keep their JVMs across
periods the difference between the two nodes is estimated and removed (stats.compare).

Where the arms take turns on one cluster with a reload (swaps.ReloadEverywhereSwitcher), each
turn lands the cluster at a level of its own: in the first such run the windows of one turn
agreed within a few per cent while turns differed by up to 40 %
(results/cluster-entity-cache/20261126T102339Z-vm.json). A block's two trials then sit in two
turns, and consecutive blocks share a turn, so their differences are not independent and an
interval over blocks is too narrow (there: ±12 % over blocks, ±23 % over turns). Such a run is
paired by turns instead (``turn_pairs``): each turn's usable trials averaged, turns 1-2, 3-4
and so on paired, each turn used once.

The verdict rests on the recipe's primary metric, tested alone at 95 %. Every other metric is
a secondary: with eight of them, one would be flagged "by a hair" in a third of A/A runs, so
their p-values are adjusted together with Holm's method and a secondary is called better or
worse only when its adjusted p is below 0.05. Their raw 95 % intervals are still shown.
"""
from __future__ import annotations

from .. import stats
from .trials import UNITS

__all__ = ["paired_values", "compare_arms", "block_values", "turn_pairs"]

ALPHA = 0.05


def block_values(trials: list[dict], arm_id: str, metric: str) -> dict[int, float]:
    """The metric of the arm's usable trials, keyed by block."""
    return {t["block"]: t["metrics"][metric] for t in trials
            if t["arm"] == arm_id and t["used"] and t["metrics"].get(metric) is not None}


def paired_values(trials: list[dict], a: str, b: str, metric: str) -> tuple[list, list, list]:
    """(blocks, values of a, values of b) over the blocks where both arms have a value."""
    va, vb = block_values(trials, a, metric), block_values(trials, b, metric)
    blocks = sorted(set(va) & set(vb))
    return blocks, [va[k] for k in blocks], [vb[k] for k in blocks]


def turn_pairs(trials: list[dict]) -> list[dict]:
    """One record per arm and turn, in the shape of a trial: the mean of each metric over the
    turn's usable trials, its ``block`` the pair of turns it belongs to (turns 0 and 1 are
    pair 0). Every turn switches the arm, so a pair holds one turn of each of two arms."""
    groups: dict[tuple[int, str], list[dict]] = {}
    for t in trials:
        if t["used"]:
            groups.setdefault((t.get("turn", 0), t["arm"]), []).append(t["metrics"])
    out = []
    for (turn, arm), windows in sorted(groups.items()):
        names = {name for m in windows for name in m}
        means = {}
        for name in names:
            values = [m[name] for m in windows if m.get(name) is not None]
            means[name] = sum(values) / len(values) if values else None
        out.append({"block": turn // 2, "turn": turn, "arm": arm, "used": True,
                    "windows": len(windows), "metrics": means})
    return out


def compare_arms(trials: list[dict], baseline: str, variant: str, primary: str,
                 confidence: float = 0.95, *, crossover: str | None = None) -> dict:
    """Every metric of ``variant`` against ``baseline``; the verdict is the primary's.
    ``crossover``: None (blocks are independent), "same-jvms" (periods, the nodes' difference
    removed) or "fresh-jvms" (periods, each with JVMs of its own)."""
    metrics, p_secondary = {}, {}
    layout_of = {t["block"]: (t.get("period", t["block"]), t.get("orientation", 0))
                 for t in trials}
    for name, rule in stats.METRIC_RULES.items():
        blocks, b, v = paired_values(trials, baseline, variant, name)
        if not blocks:
            continue
        periods = [layout_of[k][0] for k in blocks] if crossover else None
        turns = [layout_of[k][1] for k in blocks] if crossover == "same-jvms" else None
        c = stats.compare(b, v, higher_is_better=rule.higher_is_better, scale=rule.scale,
                          confidence=confidence, periods=periods, orientations=turns)
        entry = c.to_dict()
        entry.update(unit=UNITS.get(name, ""), higher_is_better=rule.higher_is_better,
                     delta_kind="relative" if c.scale == stats.RATIO else "absolute",
                     primary=name == primary, blocks=blocks)
        metrics[name] = entry
        if name != primary:
            p_secondary[name] = c.p_value
    for name, p_adjusted in stats.holm(p_secondary).items():
        m = metrics[name]
        m["p_holm"] = p_adjusted
        if m["verdict"] != stats.NOT_ASSESSED:
            m["verdict"] = m["verdict"] if p_adjusted < ALPHA else stats.NO_CHANGE
    primary_entry = metrics.get(primary)
    return {"baseline": baseline, "variant": variant, "primary_metric": primary,
            "verdict": primary_entry["verdict"] if primary_entry else None,
            "pairs": primary_entry["n_pairs"] if primary_entry else 0,
            "periods": primary_entry["n_periods"] if primary_entry else None,
            "node_effect": primary_entry["node_effect"] if primary_entry else None,
            "secondary_correction": "Holm over the secondary metrics, alpha 0.05",
            "metrics": metrics}
