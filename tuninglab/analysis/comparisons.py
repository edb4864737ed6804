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
analysed by turns instead (``turn_triples``): each turn's usable trials averaged, and turns
1-3, 4-6 and so on taken as units, each turn used once. A unit's middle turn is one arm, its
two outer turns the other (A B A, then B A B: the turns alternate), and the middle turn is
compared with the mean of the outer two, so a drift that is steady across the three turns
cancels. Pairs of turns (1-2, 3-4; the analysis of 2026-11-26 10:57) cannot do that: the
turns alternate strictly, so every pair puts the same arm first and a drift leans on it.

The verdict rests on the recipe's primary metric, tested alone at 95 %. Every other metric is
a secondary: with eight of them, one would be flagged "by a hair" in a third of A/A runs, so
their p-values are adjusted together with Holm's method and a secondary is called better or
worse only when its adjusted p is below 0.05. Their raw 95 % intervals are still shown.
"""
from __future__ import annotations

from .. import stats
from .trials import UNITS

__all__ = ["paired_values", "compare_arms", "block_values", "turn_triples"]

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


def _turn_means(trials: list[dict]) -> list[tuple[int, str, int, dict]]:
    """(turn, arm, windows, mean of each metric) for every turn with a usable trial."""
    groups: dict[tuple[int, str], list[dict]] = {}
    for t in trials:
        if t["used"]:
            groups.setdefault((t.get("turn", 0), t["arm"]), []).append(t["metrics"])
    out = []
    for (turn, arm), windows in sorted(groups.items()):
        out.append((turn, arm, len(windows), _mean_metrics(windows)))
    return out


def _mean_metrics(rows: list[dict]) -> dict:
    names = {name for m in rows for name in m}
    means = {}
    for name in names:
        values = [m[name] for m in rows if m.get(name) is not None]
        means[name] = sum(values) / len(values) if values else None
    return means


def turn_triples(trials: list[dict], arms: tuple[str, str] | None = None) -> list[dict]:
    """Two records per unit of three consecutive turns, in the shape of a trial: the middle
    turn's means for its arm, the mean of the two outer turns' means for the other arm, both
    with ``block`` the unit's number. A turn with no usable trial ends the unit it would fall
    in (the turns around it no longer alternate), and the count starts again after it; turns
    left over at the end form no unit.

    ``arms``: the two arms compared, when the run has more (an A/B run at several loads, whose
    every turn holds one design at every load; None: the trials hold two arms only). Only their
    trials count, and their turns are numbered again in run order, so "consecutive" means
    consecutive among the two arms' turns:
    taken over all arms, a unit's outer turns could be windows of another load (the analysis of
    blog-notifier-sessions, 2 December 2026, compared 500 users with a mean of 500 and 200)."""
    if arms is not None:
        trials = [t for t in trials if t["arm"] in arms]
        # every turn of the two arms, usable or not, so that a turn set aside leaves its gap
        order = {turn: n for n, turn in enumerate(sorted({t.get("turn", 0) for t in trials}))}
        trials = [{**t, "turn": order[t.get("turn", 0)]} for t in trials]
    turns = _turn_means(trials)
    out, run = [], []
    for turn in turns:
        if run and (turn[0] != run[-1][0] + 1 or turn[1] == run[-1][1]):
            run = []  # a gap or two turns of one arm in a row: start a new unit here
        run.append(turn)
        if len(run) == 3:
            (t0, outer, w0, m0), (t1, middle, w1, m1), (t2, _, w2, m2) = run
            unit = len(out) // 2
            out.append({"block": unit, "turns": [t1], "arm": middle, "used": True,
                        "windows": w1, "metrics": m1})
            out.append({"block": unit, "turns": [t0, t2], "arm": outer, "used": True,
                        "windows": w0 + w2, "metrics": _mean_metrics([m0, m2])})
            run = []
    return out


def compare_arms(trials: list[dict], baseline: str, variant: str, primary: str,
                 confidence: float = 0.95, *, crossover: str | None = None) -> dict:
    """Every metric of ``variant`` against ``baseline``; the verdict is the primary's.
    ``crossover``: None (blocks are independent), "same-jvms" (periods, the nodes' difference
    removed) or "fresh-jvms" (periods, each with JVMs of its own)."""
    metrics, p_secondary, left_out = {}, {}, {}
    layout_of = {t["block"]: (t.get("period", t["block"]), t.get("orientation", 0))
                 for t in trials}
    for name, rule in stats.METRIC_RULES.items():
        blocks, b, v = paired_values(trials, baseline, variant, name)
        if not blocks:
            continue
        why = _negligible(trials, baseline, name, rule)
        if why:
            left_out[name] = why
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
            "metrics": metrics, "left_out": left_out}


def _negligible(trials: list[dict], baseline: str, name: str, rule) -> str:
    """Why a metric measures nothing of the transactions in this run (stats.MetricRule's
    ``negligible_below``), or ""."""
    if rule.negligible_below is None:
        return ""
    other, share = rule.negligible_below
    mine = list(block_values(trials, baseline, name).values())
    theirs = list(block_values(trials, baseline, other).values())
    if not mine or not theirs or sum(theirs) <= 0:
        return ""
    ratio = (sum(mine) / len(mine)) / (sum(theirs) / len(theirs))
    if ratio >= share:
        return ""
    return (f"the baseline's {name} is {ratio:.2%} of its {other}, below {share:.0%}: it reads "
            f"background activity, not the transactions' work")
