"""``<!-- calibration: <recipe-id> ratio <R> -->``: which value of a sweep stands R times below
its largest value, read from the sweep's newest result. The thesis's chapter 3 uses it: a whole
core stands in for a Helix node, and the quota whose throughput is a 4.16th of the whole core's
(Table 8.1's ratio of the two nodes' peaks) stands in for a Sisters node. The ratio comes from
the page, where its source is cited; every other figure from the stored result.

Each value's ratio is the largest value's throughput over its own, with the interval of the
sweep's paired comparison against its best (a log-ratio interval, so it inverts exactly). A
value whose interval holds R stands in; where none does, the two values whose ratios bracket R
and a log-linear interpolation between them are named, as an estimate and nothing firmer.
"""
from __future__ import annotations

import math
import re

from .. import result as results
from .text import cell, code

__all__ = ["SPEC", "render", "ratios", "reading"]

SPEC = re.compile(r"^\s*(?P<id>[A-Za-z0-9._-]+)\s+ratio\s+(?P<ratio>[0-9]+(?:\.[0-9]+)?)\s*$")


def render(site, spec: str, page: str) -> str:
    match = SPEC.match(spec)
    if not match:
        return (f'!!! danger "Marker not understood"\n\n    `calibration: {spec}`: allowed: '
                f'`calibration: <recipe> ratio <number>`\n')
    recipe_id, target = match["id"], float(match["ratio"])
    found = site.newest(recipe_id)
    if not found or not results.is_valid(found[1]) or not results.curves(found[1]):
        return (f'!!! info "Not calibrated yet"\n\n    No valid full result of the sweep '
                f'{code(recipe_id)} is stored yet.\n')
    curve = results.curves(found[1])[0]
    try:
        rows, top = ratios(curve)
    except ValueError as error:
        return f'!!! info "Not calibrated"\n\n    {cell(error)}\n'
    level = results.interval_level(found[1])
    lines = [f"| value | throughput at {top:g} over throughput at this value [{level} interval] "
             f"| holds {target:g} |", "|---|---|---|"]
    for value, (ratio, low, high) in rows:
        lines.append(f"| {value:g} | {ratio:.2f} [{low:.2f}, {high:.2f}] | "
                     f"{'yes' if low <= target <= high else 'no'} |")
    return "\n".join(lines + ["", reading(rows, top, target), ""])


def ratios(curve: dict) -> tuple[list[tuple[float, tuple[float, float, float]]], float]:
    """[(value, (ratio, low, high))] for every value below the largest, in ascending order, and
    the largest value; ValueError when the largest value was not the curve's best (the ratios
    are read against the best)."""
    points = curve.get("against_best") or {}
    values = {float(name): name for name in points}
    top = max(values)
    if str(curve.get("best")) != values[top]:
        raise ValueError(f"the largest value ({top:g}) was not the best of the sweep "
                         f"({curve.get('best')}): the ratios are read against the best")
    rows = []
    for value in sorted(values):
        if value == top:
            continue
        p = points[values[value]]
        # best/value = 1/(1 + delta); the interval's ends swap
        rows.append((value, (1 / (1 + p["delta"]), 1 / (1 + p["ci_high"]),
                             1 / (1 + p["ci_low"]))))
    return rows, top


def reading(rows: list, top: float, target: float) -> str:
    """The sentence under the table: which value stands ``target`` times below ``top``."""
    holding = [value for value, (_, low, high) in rows if low <= target <= high]
    if holding:
        names = " and ".join(f"{v:g}" for v in holding)
        return (f"A ratio of {target:g} lies inside the interval of {names}: "
                f"{'that value stands' if len(holding) == 1 else 'each of them stands'} "
                f"{target:g} times below {top:g} within what the run could tell apart.")
    for (v1, (r1, _, _)), (v2, (r2, _, _)) in zip(rows, rows[1:]):
        if min(r1, r2) <= target <= max(r1, r2) and r1 != r2:
            # log-linear between the two neighbours: ratios grow by factors, not steps
            share = (math.log(target) - math.log(r1)) / (math.log(r2) - math.log(r1))
            estimate = v1 + share * (v2 - v1)
            return (f"No value's interval holds {target:g}; the ratio passes it between {v1:g} "
                    f"({r1:.2f}) and {v2:g} ({r2:.2f}), at about {estimate:.2f} by "
                    f"interpolation: an estimate, not a measured value.")
    return (f"No value's interval holds {target:g}, and the measured ratios "
            f"({rows[0][1][0]:.2f} to {rows[-1][1][0]:.2f}) do not reach it: the sweep's values "
            f"must be widened.")
