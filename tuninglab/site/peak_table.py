"""``<!-- peak-of-averages: <recipe-id> repetitions <n> -->``: a load curve's newest result read
the thesis's way beside the lab's. The thesis (5.3-5.5) ran a ramp of transaction rates three
times, averaged each rate's throughput over the three, and reported the largest average as the
peak. A load-curve recipe's blocks each run every level once, so any n of its complete blocks
are n repetitions of the ramp: this table takes every such choice, the peak of its averages,
and sets their spread and their median beside the lab's figure for the same run: the best
level's point of the baseline curve the run stored (analysis/curves.py), the mean and interval
the recipe's own result block shows.

What it shows is the statistics of the procedure (the largest of several noisy averages), not
the order of a ramp: the lab's blocks run their levels in a shuffled order, the thesis's ramp
in ascending order, and a drift along a ramp is not reproduced. The baseline arm is read (a
recipe's curve of the unchanged server); every figure comes from the stored trials.
"""
from __future__ import annotations

import itertools
import re
import statistics

from .. import result as results
from .text import cell, code

__all__ = ["SPEC", "render", "level_series", "curve_points", "peaks", "reading"]

SPEC = re.compile(r"^\s*(?P<id>[A-Za-z0-9._-]+)\s+repetitions\s+(?P<n>[0-9]+)\s*$")
METRIC = "throughput"
ARM = "baseline"


def render(site, spec: str, page: str) -> str:
    match = SPEC.match(spec)
    if not match or int(match["n"]) < 1:
        return (f'!!! danger "Marker not understood"\n\n    `peak-of-averages: {spec}`: allowed: '
                f'`peak-of-averages: <recipe> repetitions <n>` with n of 1 or more\n')
    recipe_id, n = match["id"], int(match["n"])
    found = site.newest(recipe_id)
    if not found or not results.is_valid(found[1]):
        return (f'!!! info "Not read yet"\n\n    No valid full result of {code(recipe_id)} is '
                f'stored yet.\n')
    key, series = level_series(found[1])
    blocks = complete_blocks(series)
    points = curve_points(found[1])
    if len(series) < 2 or len(blocks) < n + 1 or set(points) != set(series):
        return (f'!!! info "Not enough to read"\n\n    The newest result of {code(recipe_id)} has '
                f'{len(blocks)} blocks with every level of {cell(key)} and a point for '
                f'{len(points)} of its {len(series)} levels; the reading needs more than {n} '
                f'blocks and every point.\n')
    level = results.interval_level(found[1])
    rows = [f"| {cell(key)} | mean, the run's curve [{level} interval] | lowest to highest "
            f"complete block |", "|---|---|---|"]
    for value, values in series.items():
        kept = [values[b] for b in blocks]
        rows.append(f"| {value:g} | {_figure(points[value])} | "
                    f"{min(kept):,.1f} to {max(kept):,.1f} |")
    found_peaks = peaks(series, blocks, n)
    return "\n".join(rows + ["", reading(points, blocks, n, found_peaks, key), ""])


def level_series(result: dict) -> tuple[str, dict[float, dict[int, float]]]:
    """The load key and {level: {block: throughput}} of the baseline arm's used trials."""
    plan = result.get("plan") or {}
    key = plan.get("load_key") or "load"
    arms = {a["id"]: a for a in plan.get("arms", [])}
    series: dict[float, dict[int, float]] = {}
    for trial in result.get("trials", []):
        arm = arms.get(trial.get("arm"))
        value = (trial.get("metrics") or {}).get(METRIC)
        if not trial.get("used") or arm is None or arm.get("level") != ARM or value is None:
            continue
        level = (arm.get("load") or {}).get(key)
        if level is not None:
            series.setdefault(float(level), {})[trial["block"]] = value
    return key, dict(sorted(series.items()))


def curve_points(result: dict) -> dict[float, dict]:
    """{level: the stored curve point (mean, ci_low, ci_high)} of the baseline arm's curve."""
    for curve in results.curves(result):
        if curve.get("level") == ARM and curve.get("metric") == METRIC:
            key = curve.get("key")
            return {float(p["load"][key]): p for p in curve.get("points", [])
                    if key in (p.get("load") or {}) and p.get("mean") is not None}
    return {}


def _figure(point: dict) -> str:
    if point.get("ci_low") is None:
        return f"{point['mean']:,.1f}"
    return f"{point['mean']:,.1f} [{point['ci_low']:,.1f}, {point['ci_high']:,.1f}]"


def complete_blocks(series: dict) -> list[int]:
    """The blocks in which every level has a used trial (a repetition of the whole ramp)."""
    sets = [set(values) for values in series.values()]
    return sorted(set.intersection(*sets)) if sets else []


def peaks(series: dict, blocks: list[int], n: int) -> list[tuple[float, float]]:
    """(peak of averages, its level) for every choice of n of the complete blocks."""
    out = []
    for chosen in itertools.combinations(blocks, n):
        averages = {level: statistics.fmean(values[b] for b in chosen)
                    for level, values in series.items()}
        best = max(averages, key=averages.get)
        out.append((averages[best], best))
    return out


def reading(points: dict, blocks: list[int], n: int, found: list[tuple[float, float]],
            key: str) -> str:
    """The sentence under the table: the procedure's spread and median against the lab's
    figure, the best point of the run's stored curve."""
    best = max(points, key=lambda level: points[level]["mean"])
    point = points[best]
    figures = sorted(p for p, _ in found)
    median = statistics.median(figures)
    at_best = sum(1 for _, level in found if level == best)
    shift = (median - point["mean"]) / point["mean"] * 100
    low, high = point.get("ci_low"), point.get("ci_high")
    side = ("" if low is None else
            f", so the median peak of averages lies "
            f"{'above' if median > high else 'below' if median < low else 'inside'} its interval")
    return (f"Over the {len(found):,} ways to pick {n} of the run's {len(blocks)} complete "
            f"blocks, the peak of the averages ranged from {figures[0]:,.1f} to "
            f"{figures[-1]:,.1f} (median {median:,.1f}, {shift:+.1f} % from the lab's figure) "
            f"and was found at {cell(key)} {best:g} in {at_best} of them; the lab's figure for "
            f"the same run, the best point of its curve over all its blocks, is "
            f"{_figure(point)} at {best:g}{side}. A peak of averages over {n} repetitions is one "
            f"of these draws: its spread is what a single such figure could not show.")
