"""Figures of stored results, drawn the same way in notebooks and at site build.

- ``result_figure``: the picture a chapter page shows: for A/B the trials of each arm in run
  order beside the delta with its interval; for a sweep the curve with its 95 % band, the best
  value and the knee marked, and the source's points on the same axes; for a load curve,
  throughput and p99 latency over the load;
- ``trials``, ``warmup``: the raw evidence (drift, outliers, the warm-up's windows);
- ``forest``: the Results page, every recipe's headline delta with its interval and the
  source's figure beside it.

Colours are the Okabe-Ito palette (safe for colour-blind readers) on white, so the figures read
in both site themes and in print.
"""
from __future__ import annotations

import math
import os

import matplotlib

# Headless where nobody chose a backend (the site build, the CLI). A Jupyter kernel sets
# MPLBACKEND to its inline backend, and forcing Agg over it left every notebook's plt.show()
# without a picture (test_plot_backend.py).
if not os.environ.get("MPLBACKEND"):
    matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from . import result as results  # noqa: E402

PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
           "#000000"]
SOURCE_COLOUR = "#D55E00"
__all__ = ["result_figure", "trials", "warmup", "forest", "curve"]


def _colours(result: dict) -> dict[str, str]:
    arms = [a["id"] for a in (result.get("plan") or {}).get("arms", [])]
    return {arm: PALETTE[i % len(PALETTE)] for i, arm in enumerate(arms)}


def _label(result: dict, arm_id: str) -> str:
    for a in (result.get("plan") or {}).get("arms", []):
        if a["id"] == arm_id:
            return a.get("label") or arm_id
    return arm_id


def result_figure(result: dict):
    result = results.upgrade(result)
    by_level = (result.get("analysis") or {}).get("load_curves")
    if by_level:  # each configuration over the load reads better than each load over them
        return curve(result, by_level)
    if results.curves(result):
        return curve(result)
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.4), gridspec_kw={"width_ratios": [3, 2]})
    _trials_axes(left, result, result.get("primary_metric") or "throughput")
    _delta_axes(right, result)
    fig.tight_layout()
    return fig


def trials(result: dict, metric: str | None = None):
    result = results.upgrade(result)
    fig, ax = plt.subplots(figsize=(8, 3.2))
    _trials_axes(ax, result, metric or result.get("primary_metric") or "throughput")
    fig.tight_layout()
    return fig


# In a crossover the node that served a trial is its marker: the nodes' own difference shows as
# circles above triangles (or below) for both arms alike.
NODE_MARKERS = {"app-1": "o", "app-2": "^"}


def _trials_axes(ax, result: dict, metric: str) -> None:
    colours = _colours(result)
    crossover = (result.get("plan") or {}).get("layout") == "crossover"
    for arm, colour in colours.items():
        for node, marker in (NODE_MARKERS.items() if crossover else [(None, "o")]):
            points = [(t["index"] + 1, t["metrics"][metric]) for t in result["trials"]
                      if t["arm"] == arm and t.get("used", True)
                      and t["metrics"].get(metric) is not None
                      and (node is None or t.get("node") == node)]
            if points:
                xs, ys = zip(*points)
                label = _label(result, arm) + (f" on {node}" if node else "")
                ax.scatter(xs, ys, color=colour, marker=marker, label=label, s=18, zorder=3)
    for t in result["trials"]:
        if not t.get("used", True):
            ax.axvline(t["index"] + 1, color="#999999" if t.get("status") == "disturbed" else "red",
                       alpha=0.25, lw=4, zorder=1)
    unit = _unit(result, metric)
    ax.set_xlabel("trial, in run order (grey: disturbed, run again; red: errors)")
    ax.set_ylabel(f"{metric} ({unit})" if unit else metric)
    ax.set_title(f"{metric} of every trial")
    ax.grid(alpha=0.3)
    if len(colours) <= (4 if crossover else 8):
        ax.legend(fontsize=8, loc="best")


def _unit(result: dict, metric: str) -> str:
    from .analysis.trials import UNITS
    return UNITS.get(metric, "")


def _delta_axes(ax, result: dict) -> None:
    rows = []
    # A primary metric on the absolute scale (a recipe that measures its errors) is drawn
    # alone, in percentage points: relative deltas would not share its axis.
    kind = (results.primary_entry(result) or {}).get("delta_kind", "relative")
    names = ((result.get("primary_metric"),) if kind == "absolute"
             else ("throughput", "cpu_per_tx", "latency_p99"))
    for c in results.comparisons(result):
        for name in names:
            m = (c.get("metrics") or {}).get(name)
            if m and m.get("delta_kind") == kind:
                load = c.get("load")
                label = name + (" @ " + ", ".join(f"{k} {v}" for k, v in load.items()) if load else "")
                rows.append((label, m))
    if not rows:
        ax.text(0.5, 0.5, "no delta: the run is invalid" if not results.is_valid(result)
                else "no comparison", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return
    for y, (label, m) in enumerate(rows):
        low, high = _finite(m.get("ci_low"), -1.0), _finite(m.get("ci_high"), 5.0)
        detect = m.get("detectable")
        if detect is not None and math.isfinite(detect):
            ax.barh(y, 2 * detect * 100, left=-detect * 100, height=0.5, color="#dddddd", zorder=1)
        colour = PALETTE[0] if m.get("primary") else "#555555"
        ax.plot([low * 100, high * 100], [y, y], color=colour, lw=2.5, zorder=2)
        ax.scatter([m["delta"] * 100], [y], color=colour, zorder=3, s=30)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(range(len(rows)), [r[0] for r in rows], fontsize=8)
    ax.invert_yaxis()
    scale = "percentage points" if kind == "absolute" else "%"
    ax.set_xlabel(f"variant vs baseline ({scale}), 95 % interval\ngrey: smallest detectable "
                  f"effect (80 % power)", fontsize=8)
    ax.set_title(f"verdict: {result.get('verdict')}")
    ax.grid(axis="x", alpha=0.3)


def _finite(value, fallback: float) -> float:
    return value if isinstance(value, (int, float)) and math.isfinite(value) else fallback


def curve(result: dict, found: list[dict] | None = None):
    """A sweep's or a load curve's points with their 95 % bands; best, knee and the source.
    ``found``: the curves to draw (default: the analysis's ``curves``)."""
    result = results.upgrade(result)
    found = found or results.curves(result)
    load_curve = "latency_p99" in found[0]
    fig, axes = plt.subplots(1, 2 if load_curve else 1, figsize=(10 if load_curve else 7, 3.6))
    axes = list(axes) if load_curve else [axes]
    sweep = (result.get("change") or {}).get("sweep") or {}
    for i, c in enumerate(found):
        colour = PALETTE[i % len(PALETTE)]
        label = c.get("level") or ", ".join(
            f"{k} {v}" for k, v in (c.get("load") or {}).items()) or None
        _curve_axes(axes[0], c, c["points"], colour, label, mark=True)
        if load_curve:
            _curve_axes(axes[1], c, c["latency_p99"], colour, label, mark=False)
            if c.get("latency_knee"):
                point = next(p for p in c["latency_p99"] if p["arm"] == c["latency_knee"])
                axes[1].axvline(_x(point), color="grey", ls=":", lw=1)
                axes[1].annotate("latency knee", (_x(point), point["mean"]), fontsize=8,
                                 xytext=(4, 4), textcoords="offset points")
    source = (result.get("source") or {}).get("curve")
    if source and not load_curve:
        _source_points(axes[0], found[0], source)
    x_name = (found[0].get("key") or "load").replace("_", " ")
    unit = ""
    if sweep and not load_curve:
        x_name, unit = sweep.get("name") or x_name, sweep.get("unit") or ""
    for ax in axes:
        ax.set_xlabel(f"{x_name} ({unit})" if unit else x_name)
        ax.grid(alpha=0.3)
        numeric = all(isinstance(p.get("value") if p.get("value") is not None else _x(p), (int, float))
                      for p in found[0]["points"])
        if numeric and _spread(found[0]["points"]) > 8:
            ax.set_xscale("log")
            # The measured values as the ticks, in plain numbers: a log axis's own minor
            # labels ("3 x 10^0") collide and name values nobody measured.
            values = sorted({_x(p) for p in found[0]["points"] if _x(p)})
            ax.set_xticks(values, [_tick(v) for v in values])
            ax.minorticks_off()
    metric = found[0].get("metric") or "throughput"
    # From zero: a curve that is flat within its bands should look flat (a zoomed axis made a
    # 10 % dip inside the noise look like a cliff).
    axes[0].set_ylim(bottom=0)
    axes[0].set_ylabel(f"{metric} ({_unit(result, metric)})")
    axes[0].set_title(f"{result['recipe']}: {metric}")
    if load_curve:
        axes[1].set_ylabel("p99 latency (ms)")
        axes[1].set_title("p99 latency")
    if len(found) > 1 or source:
        axes[0].legend(fontsize=8)
    fig.tight_layout()
    return fig


def _x(point: dict):
    if point.get("value") is not None:
        return point["value"]
    return next(iter(point.get("load", {}).values()), None)


def _tick(value) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _spread(points: list[dict]) -> float:
    xs = [_x(p) for p in points if isinstance(_x(p), (int, float)) and _x(p) > 0]
    return max(xs) / min(xs) if xs else 1.0


def _curve_axes(ax, c: dict, points: list[dict], colour: str, label: str | None, mark: bool) -> None:
    usable = [p for p in points if p.get("mean") is not None and not p.get("failed")]
    xs = [_x(p) for p in usable]
    ax.plot(xs, [p["mean"] for p in usable], "o-", color=colour, label=label or "this lab", ms=4)
    band = [(x, p["ci_low"], p["ci_high"]) for x, p in zip(xs, usable) if p.get("ci_low") is not None]
    if band:
        bx, lo, hi = zip(*band)
        ax.fill_between(bx, lo, hi, color=colour, alpha=0.2, lw=0)
    for p in points:
        if p.get("failed"):
            ax.scatter([_x(p)], [p["mean"] or 0], marker="x", color="red", zorder=4)
    if not mark:
        return
    by_arm = {p["arm"]: p for p in usable}
    for key, text in (("best", "best"), ("knee", "knee"), ("saturation", "saturation")):
        arm = c.get(key)
        if arm in by_arm:
            p = by_arm[arm]
            ax.scatter([_x(p)], [p["mean"]], s=90, facecolors="none", edgecolors="black", zorder=5)
            ax.annotate(text, (_x(p), p["mean"]), fontsize=8, xytext=(5, -12 if key == "knee" else 6),
                        textcoords="offset points")


def _source_points(ax, c: dict, source: dict) -> None:
    xs, ys = source["x"], source["y"]
    ours = [p["mean"] for p in c["points"] if p.get("mean") is not None]
    if source.get("normalize", True) and ours:
        # Both on one axis: the source's curve scaled so its maximum meets ours (the units and
        # the hardware differ; the shape is what compares).
        scale = max(ours) / max(ys)
        ys = [y * scale for y in ys]
        label = f"{source['label']} (scaled: its maximum = ours)"
    else:
        label = source["label"]
    ax.plot(xs, ys, "s--", color=SOURCE_COLOUR, ms=4, lw=1, label=label)


def warmup(result: dict):
    """Each node's warm-up windows: throughput, and how busy the JIT compiler was."""
    result = results.upgrade(result)
    fig, ax = plt.subplots(figsize=(8, 3))
    for i, (node, w) in enumerate((result.get("warmup") or {}).items()):
        t, xs, ys = 0.0, [], []
        for window in w.get("windows", []):
            t += window["seconds"]
            xs.append(t)
            ys.append(window["throughput"])
        ax.plot(xs, ys, "o-", ms=3, color=PALETTE[i % len(PALETTE)],
                label=f"{node} ({'steady' if w.get('steady') else 'not steady'})")
    ax.set_xlabel("seconds of warm-up load")
    ax.set_ylabel("tx/s")
    ax.set_title("warm-up of each node")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def forest(rows: list[dict]):
    """Every recipe's headline: ``rows`` of {label, delta, ci_low, ci_high, source, verdict}."""
    fig, ax = plt.subplots(figsize=(8, 0.9 + 0.38 * max(len(rows), 1)))
    for y, row in enumerate(rows):
        if row.get("delta") is None:
            ax.text(0, y, f"  {row.get('verdict') or 'not measured'}", va="center", fontsize=8,
                    color="#777777")
            continue
        low, high = _finite(row.get("ci_low"), -1.0), _finite(row.get("ci_high"), 5.0)
        colour = PALETTE[0] if row.get("verdict") in ("better", "worse") else "#777777"
        ax.plot([low * 100, high * 100], [y, y], color=colour, lw=2.5)
        ax.scatter([row["delta"] * 100], [y], color=colour, s=25, zorder=3)
        if row.get("source") is not None:
            ax.scatter([row["source"] * 100], [y], marker="D", color=SOURCE_COLOUR, s=28, zorder=4)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(range(len(rows)), [r["label"] for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("effect on the primary metric (%), 95 % interval; ◆ the source's figure")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig
