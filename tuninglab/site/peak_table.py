"""``<!-- peak-of-averages: <recipe-id> repetitions <n> -->``: a load curve's newest result read
the thesis's way beside the lab's. The thesis (5.3-5.5) ran a ramp of transaction rates three
times, averaged each rate's throughput over the three, and reported the largest average as the
peak. A load-curve recipe's blocks each run every level once, so any n of its complete blocks
are n repetitions of the ramp: this table takes every such choice, the peak of its averages,
and sets their spread and their median beside the lab's figure for the same run, the best
level's mean over every block with its interval.

What it shows is the statistics of the procedure (the largest of several noisy averages), not
the order of a ramp: the lab's blocks run their levels in a shuffled order, the thesis's ramp
in ascending order, and a drift along a ramp is not reproduced. The baseline arm is read (a
recipe's curve of the unchanged server); every figure comes from the stored trials.
"""
from __future__ import annotations

import itertools
import math
import re
import statistics

from .. import result as results
from ..stats import t_quantile
from .text import cell, code

__all__ = ["SPEC", "render", "level_series", "peaks", "reading"]

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
    if len(series) < 2 or len(blocks) < n + 1:
        return (f'!!! info "Not enough to read"\n\n    The newest result of {code(recipe_id)} has '
                f'{len(blocks)} blocks with every level of {cell(key)}; the reading needs more '
                f'than {n}.\n')
    rows = ["| " + cell(key) + " | mean over the blocks [95 % interval] | lowest to highest block |",
            "|---|---|---|"]
    for level, values in series.items():
        kept = [values[b] for b in blocks]
        mean, low, high = _mean_interval(kept)
        rows.append(f"| {level:g} | {mean:,.1f} [{low:,.1f}, {high:,.1f}] | "
                    f"{min(kept):,.1f} to {max(kept):,.1f} |")
    found_peaks = peaks(series, blocks, n)
    return "\n".join(rows + ["", reading(series, blocks, n, found_peaks, key), ""])


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


def _mean_interval(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = t_quantile(0.95, len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def reading(series: dict, blocks: list[int], n: int, found: list[tuple[float, float]],
            key: str) -> str:
    """The sentence under the table: the procedure's spread and median against the lab's."""
    means = {level: statistics.fmean(values[b] for b in blocks)
             for level, values in series.items()}
    best = max(means, key=means.get)
    mean, low, high = _mean_interval([series[best][b] for b in blocks])
    figures = sorted(p for p, _ in found)
    median = statistics.median(figures)
    at_best = sum(1 for _, level in found if level == best)
    shift = (median - mean) / mean * 100
    side = ("above" if median > high else "below" if median < low
            else "inside")
    return (f"Over the {len(found):,} ways to pick {n} of the run's {len(blocks)} complete "
            f"blocks, the peak of the averages ranged from {figures[0]:,.1f} to "
            f"{figures[-1]:,.1f} (median {median:,.1f}, {shift:+.1f} % from the lab's figure) "
            f"and was found at {cell(key)} {best:g} in {at_best} of them; the lab's figure for "
            f"the same run, the best level's mean over all {len(blocks)} blocks, is "
            f"{mean:,.1f} [{low:,.1f}, {high:,.1f}] at {best:g}, so the median peak of averages "
            f"lies {side} that interval. A peak of averages over {n} repetitions is one of these "
            f"draws: its spread is what a single such figure could not show.")
