"""Matplotlib figures of a stored result (the site renders them as PNG inside notebooks)."""
from __future__ import annotations

import math

import matplotlib.pyplot as plt

COLOURS = {"baseline": "#4c72b0", "variant": "#dd8452"}


def trials(result: dict, metric: str | None = None):
    """Every trial's value in run order, coloured by arm: drift and outliers show at a glance."""
    metric = metric or result["primary_metric"]
    fig, ax = plt.subplots(figsize=(7, 3.2))
    for arm, colour in COLOURS.items():
        points = [(t["index"] + 1, t["metrics"][metric]) for t in result["trials"]
                  if t["arm"] == arm and t["metrics"].get(metric) is not None]
        if points:
            xs, ys = zip(*points)
            ax.scatter(xs, ys, color=colour, label=arm, s=40, zorder=3)
    for t in result["trials"]:
        if not t["valid"]:
            ax.axvline(t["index"] + 1, color="red", alpha=0.3, lw=6, zorder=1)
    unit = (result["metrics"].get(metric) or {}).get("unit", "")
    ax.set_xlabel("trial (run order)")
    ax.set_ylabel(f"{metric} ({unit})" if unit else metric)
    ax.set_title(f"{result['recipe']}: {metric} per trial ({result['profile']} profile)")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    return fig


def deltas(result: dict, metrics=("throughput", "latency_p50", "latency_p99", "cpu_per_tx")):
    """Relative deltas with their 95 % intervals; a bar crossing zero is no significant change."""
    rows = [(name, result["metrics"][name]) for name in metrics
            if name in result["metrics"] and result["metrics"][name]["delta_kind"] == "relative"]
    fig, ax = plt.subplots(figsize=(7, 0.6 + 0.5 * max(len(rows), 1)))
    for y, (name, m) in enumerate(rows):
        low = m["ci_low"] if m["ci_low"] is not None else -math.inf
        high = m["ci_high"] if m["ci_high"] is not None else math.inf
        low, high = max(low, -1.0), min(high, 5.0)  # keep an unbounded interval on the chart
        ax.plot([low * 100, high * 100], [y, y], color="black", lw=2)
        ax.scatter([m["delta"] * 100], [y], color=COLOURS["variant"], zorder=3, s=50)
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(range(len(rows)), [name for name, _ in rows])
    ax.set_xlabel("variant vs baseline (%), 95 % interval")
    ax.set_title(f"{result['recipe']}: verdict {result['verdict']}")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig
