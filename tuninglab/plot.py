"""Figures of stored results, drawn the same way in notebooks and at site build.

- ``result_figure``: the picture a chapter page shows: for A/B the trials of each arm in run
  order beside the delta with its interval; for a sweep the curve with its 95 % band, the best
  value and the knee marked, and the source's points on the same axes; for a load curve,
  throughput and p99 latency over the load;
- ``trials``, ``warmup``: the raw evidence (drift, outliers, the warm-up's windows);
- ``courses``: what a figure did inside each window (a drain's bean instances in use);
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
# Several curves of a source (one a JVM, ...): one colour, a marker each.
SOURCE_MARKERS = ("s", "^", "v", "D", "o")
__all__ = ["result_figure", "trials", "warmup", "forest", "curve", "choices", "short_labels",
           "courses"]


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
    """A sweep's or a load curve's points with their 95 % bands; the best, the recommended
    value (when there is one) and the source. ``found``: the curves to draw (default: the
    analysis's ``curves``). A sweep over unordered choices (a curve's ``ordered`` is False:
    collectors, balancing policies) has no line to draw between its values: ``choices``
    draws it."""
    result = results.upgrade(result)
    found = found or results.curves(result)
    load_curve = "latency_p99" in found[0]
    if not load_curve and not _ordered(found):
        return choices(result, found)
    if load_curve:
        found = [_over_load(c) for c in found]
    fig, axes = plt.subplots(1, 2 if load_curve else 1, figsize=(10 if load_curve else 7, 3.6))
    axes = list(axes) if load_curve else [axes]
    sweep = (result.get("change") or {}).get("sweep") or {}
    knees: set = set()
    said: set = set()
    for i, c in enumerate(found):
        colour = PALETTE[i % len(PALETTE)]
        label = c.get("level") or ", ".join(
            f"{k} {v}" for k, v in (c.get("load") or {}).items()) or None
        _curve_axes(axes[0], c, c["points"], colour, label, mark=True, said=said)
        if load_curve:
            _curve_axes(axes[1], c, c["latency_p99"], colour, label, mark=False)
            point = next((p for p in c["latency_p99"] if p["arm"] == c.get("latency_knee")),
                         None)
            if point is not None and _x(point) not in knees:  # curves that bend together: once
                knees.add(_x(point))
                axes[1].axvline(_x(point), color="grey", ls=":", lw=1)
                axes[1].annotate("latency knee", (_x(point), point["mean"]), fontsize=8,
                                 xytext=(4, 4), textcoords="offset points")
    source = result.get("source") or {}
    sources = [c for c in [source.get("curve"), *(source.get("curves") or ())] if c]
    for i, theirs in enumerate(sources):
        _source_points(axes[0], found[0], theirs, SOURCE_MARKERS[i % len(SOURCE_MARKERS)])
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
    handles, labels = axes[0].get_legend_handles_labels()
    if len(labels) > 3:  # a source's several curves: a legend below the axes, not over them
        extra = 0.2 * len(labels)  # inches, a line each
        fig.set_size_inches(fig.get_figwidth(), fig.get_figheight() + extra)
        fig.legend(handles, labels, loc="lower left", fontsize=7, frameon=False)
        fig.tight_layout(rect=(0, (extra + 0.1) / fig.get_figheight(), 1, 1))
    else:
        if len(found) > 1 or sources:
            axes[0].legend(fontsize=8)
        fig.tight_layout()
    for ax in axes:
        _fit_tick_labels(ax)
    return fig


def _over_load(c: dict) -> dict:
    """A load curve drawn over its load: a ladder's load curves (one per configuration) keep
    the configuration as each point's ``value``, which put every point of a curve at one x."""
    key = c.get("key")

    def at_load(points):
        return [dict(p, value=(p.get("load") or {}).get(key, p.get("value"))) if key else p
                for p in points or []]
    return dict(c, points=at_load(c.get("points")), latency_p99=at_load(c.get("latency_p99")))


def _ordered(found: list[dict]) -> bool:
    """A curve says whether its values have an order (``ordered``); a result stored before
    curves said so has one when every value is a number."""
    said = [c["ordered"] for c in found if c.get("ordered") is not None]
    if said:
        return all(said)
    values = [p.get("value") for c in found for p in c.get("points") or []]
    return all(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool))
               for v in values)


def _x(point: dict):
    if point.get("value") is not None:
        return point["value"]
    return next(iter(point.get("load", {}).values()), None)


def _tick(value) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _spread(points: list[dict]) -> float:
    xs = [_x(p) for p in points if isinstance(_x(p), (int, float)) and _x(p) > 0]
    return max(xs) / min(xs) if xs else 1.0


def _curve_axes(ax, c: dict, points: list[dict], colour: str, label: str | None, mark: bool,
                said: set | None = None) -> None:
    """``said``: the marks already written on ``ax`` ((x, text)): curves marked at the same x
    (a ladder's configurations all saturating at one load) get their rings, and one text."""
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
    # The recommended value, not the old knee: a knee "within noise of the best" was no advice
    # when the interval was wide; the analysis recommends a value only when the run shows it.
    marks: dict[str, list[str]] = {}
    for key in ("best", "recommended", "saturation"):
        if c.get(key) in by_arm:
            marks.setdefault(c[key], []).append(key)
    for arm, keys in marks.items():
        p = by_arm[arm]
        ax.scatter([_x(p)], [p["mean"]], s=90, facecolors="none", edgecolors="black", zorder=5)
        text = ", ".join(keys)
        if said is not None:
            if (_x(p), text) in said:
                continue
            said.add((_x(p), text))
        ax.annotate(text, (_x(p), p["mean"]), fontsize=8,
                    xytext=(5, 6 if "best" in keys else -12), textcoords="offset points")


# A value's rank against the best (analysis.advice): its colour and what the legend says.
RANKS = {
    "best": ("#009E73", "best"),
    "equivalent": ("#56B4E9", "as good as the best (within {margin})"),
    "cannot tell": ("#E69F00", "cannot tell"),
    "worse": ("#D55E00", "worse than the best"),
    "unknown": ("#999999", "unknown (no interval)"),
    "errors": ("#CC0000", "errors"),
}
RANK_WORDS = {"equivalent": "as good as the best", "worse": "worse"}
CURVE_MARKERS = ("o", "s", "^", "D", "v", "P")


def choices(result: dict, found: list[dict] | None = None):
    """A sweep over unordered choices: each value's mean with its 95 % interval, side by side
    on a categorical axis (no line: there is nothing between two collectors), coloured by its
    rank against the best (``ranks``), the best and the recommended value marked. Several
    curves (a sweep at several load levels) sit side by side in each category, one marker
    each."""
    result = results.upgrade(result)
    found = found or results.curves(result)
    sweep = (result.get("change") or {}).get("sweep") or {}
    values = []
    for c in found:
        for p in c.get("points") or []:
            key = _choice(p)
            if key not in values:
                values.append(key)
    names, prefix = short_labels(values)
    reference = sweep.get("reference")
    names = [n + ("\n(reference)" if reference is not None and str(v) == str(reference) else "")
             for n, v in zip(names, values)]
    fig, ax = plt.subplots(figsize=(max(7.0, 1.3 * len(values) + 1.5), 3.8))
    width = 0.5 / max(len(found), 1)
    seen_ranks: list[str] = []
    for i, c in enumerate(found):
        ranks = c.get("ranks") or {}
        offset = (i - (len(found) - 1) / 2) * width
        marker = CURVE_MARKERS[i % len(CURVE_MARKERS)]
        own = PALETTE[i % len(PALETTE)]
        for p in c.get("points") or []:
            x = values.index(_choice(p)) + offset
            rank = ranks.get(p["arm"]) or ("errors" if p.get("failed") else None)
            if rank and rank not in seen_ranks:
                seen_ranks.append(rank)
            colour = RANKS.get(rank, (own, ""))[0]
            if p.get("failed") or p.get("mean") is None:
                ax.scatter([x], [0], marker="x", color=RANKS["errors"][0], s=40, zorder=4)
                ax.annotate("errors", (x, 0), fontsize=7, xytext=(0, 5), ha="center",
                            textcoords="offset points", color=RANKS["errors"][0])
                continue
            low, high = p.get("ci_low"), p.get("ci_high")
            if low is not None and high is not None:
                ax.errorbar([x], [p["mean"]], yerr=[[p["mean"] - low], [high - p["mean"]]],
                            fmt="none", ecolor=colour, elinewidth=2, capsize=4, zorder=2)
            ax.scatter([x], [p["mean"]], marker=marker, color=colour, s=36, zorder=3,
                       edgecolors="black" if rank else "none", linewidths=0.5)
            if rank and rank != "best" and len(found) == 1:  # the rank in words, beside it
                ax.annotate(RANK_WORDS.get(rank, rank), (x, p["mean"]), xytext=(8, 0),
                            textcoords="offset points", va="center", fontsize=7.5, color=colour)
        by_arm = {p["arm"]: p for p in c.get("points") or [] if p.get("mean") is not None}
        marks: dict[str, list[str]] = {}
        for key in ("best", "recommended"):
            if c.get(key) in by_arm:
                marks.setdefault(c[key], []).append(key)
        for arm, keys in marks.items():
            p = by_arm[arm]
            x = values.index(_choice(p)) + offset
            ax.scatter([x], [p["mean"]], s=150, facecolors="none", edgecolors="black", zorder=5)
            ax.annotate(", ".join(keys), (x, p.get("ci_high") or p["mean"]), fontsize=8,
                        ha="center", xytext=(0, 5), textcoords="offset points",
                        fontweight="bold")
    ax.set_xticks(range(len(values)), names)
    ax.set_xlim(-0.6, len(values) - 0.4)
    # From zero, as the ordered curves: a difference inside the noise should look small.
    ax.set_ylim(bottom=0, top=ax.get_ylim()[1] * 1.08)
    metric = found[0].get("metric") or "throughput"
    name = sweep.get("name") or "value"
    ax.set_xlabel(f"{name} ({prefix}\u2026)" if prefix else name)
    ax.set_ylabel(f"{metric} ({_unit(result, metric)})")
    ax.set_title(f"{result['recipe']}: {metric} (95 % intervals)")
    ax.grid(axis="y", alpha=0.3)
    from matplotlib.lines import Line2D
    handles = []
    margin = next((c.get("margin") for c in found if c.get("margin") is not None), None)
    for rank in RANKS:
        if rank in seen_ranks:
            colour, text = RANKS[rank]
            text = text.format(margin=f"{margin:.0%}" if margin is not None else "the margin")
            handles.append(Line2D([], [], marker="o", ls="", color=colour, label=text))
    if len(found) > 1:
        for i, c in enumerate(found):
            label = c.get("level") or ", ".join(
                f"{k} {v}" for k, v in (c.get("load") or {}).items())
            handles.append(Line2D([], [], marker=CURVE_MARKERS[i % len(CURVE_MARKERS)], ls="",
                                  color="#555555", label=label or f"curve {i + 1}"))
    if handles:
        # Below the points: the axis starts at zero, and the means sit well above it.
        ax.legend(handles=handles, fontsize=7, loc="lower right", framealpha=0.9,
                  title="rank against the best", title_fontsize=7)
    fig.tight_layout()
    _fit_tick_labels(ax)
    return fig


def _choice(point: dict):
    value = point.get("value")
    return value if value is not None else point.get("label") or point["arm"]


def short_labels(values: list) -> tuple[list[str], str]:
    """Tick labels for unordered choices, and the prefix they share that was left out:
    "-XX:+UseSerialGC", "-XX:+UseZGC -XX:+ZGenerational" -> "SerialGC", "ZGC" (prefix
    "-XX:+Use"). A prefix is left out only up to a word's start (an upper-case letter after a
    lower-case one, or anything after a non-letter), and trailing options (" -XX:...") only
    when the labels stay distinct."""
    texts = [" ".join(str(v).split()) for v in values]
    prefix = ""
    if len(texts) > 1:
        common = os.path.commonprefix(texts)
        for cut in range(len(common), 0, -1):
            rests = [t[cut:] for t in texts]
            before = common[cut - 1]
            boundary = not before.isalnum() or (before.islower()
                                                and all(r[:1].isupper() for r in rests))
            if boundary and all(rests):
                prefix = common[:cut]
                break
    rests = [t[len(prefix):] for t in texts]
    heads = [r.split(" -", 1)[0] for r in rests]
    if len(set(heads)) == len(heads):
        rests = heads
    return rests, prefix


def _fit_tick_labels(ax) -> None:
    """Tick labels that would print over each other are wrapped at spaces, then turned."""
    import textwrap
    labels = [t for t in ax.get_xticklabels() if t.get_text()]
    if len(labels) < 2:
        return
    fig = ax.figure
    for step in ("wrap", "turn", "upright"):
        if not _overlap(fig, labels):
            return
        if step == "wrap":
            for t in labels:
                t.set_text("\n".join(textwrap.wrap(t.get_text(), 14, break_long_words=False)
                                      if "\n" not in t.get_text() else [t.get_text()]))
        elif step == "turn":
            for t in labels:
                t.set_rotation(30)
                t.set_horizontalalignment("right")
                t.set_rotation_mode("anchor")
        else:
            for t in labels:
                t.set_rotation(90)
                t.set_horizontalalignment("center")
                t.set_rotation_mode("default")
        fig.tight_layout()


def _overlap(fig, labels) -> bool:
    fig.draw_without_rendering()
    boxes = sorted((t.get_window_extent() for t in labels if t.get_visible()), key=lambda b: b.x0)
    return any(a.x1 + 2 > b.x0 for a, b in zip(boxes, boxes[1:]))


def _source_points(ax, c: dict, source: dict, marker: str = "s") -> None:
    xs, ys = source["x"], source["y"]
    ours = [p["mean"] for p in c["points"] if p.get("mean") is not None]
    if source.get("normalize", True) and ours:
        # Both on one axis: the source's curve scaled so that one of its points meets ours (the
        # units and the hardware differ; the shape is what compares): its maximum ours, or its
        # first point our first (a load curve's single user: the shapes from the same start).
        first = source.get("scale_to") == "first"
        scale = ours[0] / ys[0] if first else max(ours) / max(ys)
        ys = [y * scale for y in ys]
        label = f"{source['label']} (scaled: its {'first point' if first else 'maximum'} = ours)"
    else:
        label = source["label"]
    ax.plot(xs, ys, f"{marker}--", color=SOURCE_COLOUR, ms=4, lw=1, label=label)


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


# What a course figure draws of each source (courses.py): the figure, summed over the source's
# members (beans, queues), and its axis label.
COURSE_FIGURES = {"mdb-pool": ("in_use", "bean instances in use"),
                  "queue-depth": ("messages", "messages in the queue")}


def courses(result: dict, source: str = "mdb-pool"):
    """Each arm's course of one figure through its windows (``metrics.courses``): a panel an
    arm, a thin line for every valid window over the seconds since its load started (a
    drain's fill, then the drain), so that a pattern common to the windows stands out from
    one window's luck. None when the result has no course of ``source``."""
    figure, label = COURSE_FIGURES[source]
    by_arm: dict[str, list[list[tuple[float, float]]]] = {}
    for trial in result.get("trials") or ():
        samples = (trial.get("telemetry") or {}).get("courses") or []
        line = [(s["t"], sum(member.get(figure) or 0 for member in s[source].values()))
                for s in samples if isinstance(s.get(source), dict) and "error" not in s[source]]
        if trial.get("used") and line:
            by_arm.setdefault(trial["arm"], []).append(line)
    if not by_arm:
        return None
    arms = [a["id"] for a in (result.get("plan") or {}).get("arms", []) if a["id"] in by_arm]
    columns = min(3, len(arms))
    rows = math.ceil(len(arms) / columns)
    fig, axes = plt.subplots(rows, columns, figsize=(3.4 * columns, 2.4 * rows), sharey=True,
                             squeeze=False)
    colours = _colours(result)
    for ax, arm in zip(axes.flat, arms):
        for line in by_arm[arm]:
            ax.plot([t for t, _ in line], [v for _, v in line], lw=0.8, alpha=0.6,
                    color=colours.get(arm, PALETTE[0]))
        ax.set_title(_label(result, arm), fontsize=9)
        ax.grid(alpha=0.3)
        ax.set_xlabel("seconds since the load started", fontsize=8)
    for ax in axes.flat[len(arms):]:
        ax.set_visible(False)
    for ax in axes[:, 0]:
        ax.set_ylabel(label, fontsize=8)
    fig.suptitle(f"{result['recipe']}: {label}, every valid window", fontsize=10)
    fig.tight_layout()
    return fig


# ----------------------------------------------------------------------------- forest plot

# A ratio effect beyond x2 or /2 (+100 %, -50 %) goes to a panel of its own: on one axis with
# them, the 1-25 % effects most recipes measure sat in a few pixels beside zero.
LARGE_RATIO = math.log(2.0)
# Tick candidates, in per cent on a log-ratio axis and in points on a points axis, roundest
# first: an axis keeps each that lies a label's width away from those it already has.
RATIO_TICKS = (100, -50, 50, 10, -10, 200, 20, -20, 500, 5, -5, 30, -30, 300, 150, 250, 75,
               -75, -25, 25, -40, 2, -2, 1, -1, 400, 700, 900, -90, -60, -80)
POINT_TICKS = tuple(sign * m * 10.0 ** e for m in (1, 5, 2) for e in (0, 1, -1, 2, -2)
                    for sign in (1, -1))
SIGNIFICANT_COLOUR, QUIET_COLOUR = PALETTE[0], "#777777"
ROW_INCHES, PANEL_INCHES = 0.25, 0.95


def forest(rows: list[dict]):
    """Every recipe's headline: ``rows`` of {label, delta, ci_low, ci_high, source, verdict},
    and ``scale`` ("ratio", the default, or "points" for a share's difference in percentage
    points; a label ending in "[percentage points]" says the same).

    Ratio effects are drawn on a log-ratio axis labelled in per cent (the intervals are
    computed on log ratios, so each is symmetric around its estimate there); effects beyond
    +100 % or -50 % get a panel and an axis of their own, and so do rows in percentage points,
    which cannot share a ratio axis. Each row's delta and interval, and the source's figure,
    are also written beside it."""
    panels = _forest_panels(rows)
    heights = [max(len(panel["rows"]), 1) * ROW_INCHES for panel in panels]
    fig = plt.figure(figsize=(9.5, sum(heights) + PANEL_INCHES * len(panels) + 0.3),
                     layout="constrained")
    grid = fig.add_gridspec(len(panels), 1, height_ratios=[h + 0.25 for h in heights])
    axes = []
    for i, panel in enumerate(panels):
        ax = fig.add_subplot(grid[i])
        _forest_axes(ax, **panel, headers=i == 0)
        axes.append((ax, panel["scale"]))
    fig.supxlabel("\u25cf our delta and its 95 % interval (blue: a significant change; grey: "
                  "no significant change)    \u25c6 the source's figure", fontsize=8)
    # The ticks once the layout has placed the axes: as many round values as fit apart.
    fig.draw_without_rendering()
    for ax, scale in axes:
        _spaced_ticks(ax, RATIO_TICKS if scale == "ratio" else POINT_TICKS, scale)
    return fig


def _forest_scale(row: dict) -> str:
    if row.get("scale") == "points" or "[percentage points]" in str(row.get("label", "")):
        return "points"
    return "ratio"


def _log_ratio(value) -> float | None:
    if not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return math.log1p(value) if value > -1 else -math.inf


def _forest_panels(rows: list[dict]) -> list[dict]:
    """Each panel's title, scale, rows (in their given order) and reach: how far its axis may
    go for a source's figure (the main panel's stops at x2 or /2: a source's +300 % must not
    squeeze our +2 % back into a few pixels; beyond, the figure sits at the edge)."""
    main, large, points = [], [], []
    for row in rows:
        if _forest_scale(row) == "points":
            points.append(row)
            continue
        ends = [_log_ratio(row.get(k)) for k in ("delta", "ci_low", "ci_high")]
        # An unbounded interval (fewer than two pairs) is no large effect: its finite ends decide.
        large_effect = any(e is not None and math.isfinite(e) and abs(e) > LARGE_RATIO
                           for e in ends)
        (large if large_effect else main).append(row)
    panels = []
    if main or not (large or points):
        panels.append({"title": "Effect on the primary metric" + (
            ", within \u221250 % and +100 %" if large else ""), "scale": "ratio", "rows": main,
            "reach": LARGE_RATIO})
    if large:
        panels.append({"title": "Large effects, beyond +100 % or \u221250 %: an axis of their "
                                "own", "scale": "ratio", "rows": large, "reach": math.inf})
    if points:
        panels.append({"title": "Error rates, in percentage points: not a ratio, an axis of "
                                "their own", "scale": "points", "rows": points,
                       "reach": math.inf})
    return panels


def _forest_axes(ax, rows: list[dict], scale: str, title: str, reach: float,
                 headers: bool) -> None:
    from .numbers import fmt_delta
    to = _log_ratio if scale == "ratio" else (
        lambda v: v * 100 if isinstance(v, (int, float)) and math.isfinite(v) else None)
    kind = "relative" if scale == "ratio" else "absolute"
    # The axis spans every interval and zero; a source's figure too, unless it lies beyond this
    # panel's reach (then it is drawn at the edge, its number beside the row says where).
    values = [0.0]
    for row in rows:
        for key in ("delta", "ci_low", "ci_high"):
            v = to(row.get(key))
            if v is not None and math.isfinite(v):
                values.append(v)
        s = to(row.get("source"))
        if s is not None and math.isfinite(s) and abs(s) <= reach:
            values.append(s)
    sizes = [abs(v) for v in values if v]
    if scale == "points" and sizes and max(sizes) > 20 * min(sizes):
        # Differences of 0.1 and of 15 points: linear up to the smallest (to one significant
        # digit), logarithmic beyond, so that both intervals have a width.
        threshold = float(f"{min(sizes):.0e}")  # one significant digit: 0.096 -> 0.1
        ax.set_xscale("symlog", linthresh=threshold, linscale=0.5)
        ax.set_xlabel(f"percentage points: linear up to {threshold:g}, logarithmic beyond",
                      fontsize=8)
    forward = ax.xaxis.get_transform()
    ends = forward.transform([[min(values)], [max(values)]]).ravel()
    span = (ends[1] - ends[0]) or 0.1
    low, high = forward.inverted().transform(
        [[ends[0] - 0.06 * span], [ends[1] + 0.06 * span]]).ravel()
    for y, row in enumerate(rows):
        label = row.get("label") or ""
        if row.get("delta") is None:
            ax.text(0, y, f"  {row.get('verdict') or 'not measured'}", va="center", fontsize=8,
                    color=QUIET_COLOUR)
        else:
            significant = row.get("verdict") in ("better", "worse")
            colour = SIGNIFICANT_COLOUR if significant else QUIET_COLOUR
            lo, hi = to(row.get("ci_low")), to(row.get("ci_high"))
            bounded = lo is not None and hi is not None and math.isfinite(lo) and math.isfinite(hi)
            ends = (max(lo, low), min(hi, high)) if bounded else (low, high)
            line, = ax.plot(ends, [y, y], color=colour, lw=2.5 if bounded else 1,
                            ls="-" if bounded else ":", solid_capstyle="butt", zorder=2)
            line.set_gid(f"interval:{label}")
            ax.scatter([to(row["delta"])], [y], color=colour, s=25, zorder=3)
            ax.annotate(fmt_delta(row["delta"], row.get("ci_low"), row.get("ci_high"), kind,
                                  row.get("unit") or ("fraction" if kind == "absolute" else None)),
                        (1, y), xycoords=("axes fraction", "data"), xytext=(8, 0),
                        textcoords="offset points", va="center", fontsize=7.5, color="#333333")
        s = to(row.get("source"))
        if s is not None and math.isfinite(s):
            ax.scatter([min(max(s, low), high)], [y], marker="D" if low <= s <= high else
                       (">" if s > high else "<"), color=SOURCE_COLOUR, s=28, zorder=4)
            ax.annotate("\u25c6 " + fmt_delta(row["source"], delta_kind=kind, unit="fraction"),
                        (1, y), xycoords=("axes fraction", "data"), xytext=(128, 0),
                        textcoords="offset points", va="center", fontsize=7.5,
                        color=SOURCE_COLOUR)
    ax.set_xlim(low, high)
    ax.set_ylim(max(len(rows), 1) - 0.5, -0.5)
    ax.axvline(0, color="black", lw=0.8, zorder=1)
    ax.set_yticks(range(len(rows)), [r.get("label") or "" for r in rows], fontsize=8)
    for tick, row in zip(ax.get_yticklabels(), rows):
        if row.get("delta") is None:
            tick.set_color(QUIET_COLOUR)
    if scale == "ratio":
        ax.set_xlabel("change against the baseline: a log-ratio axis, labelled in %", fontsize=8)
    ax.tick_params(axis="x", labelsize=8)
    ax.tick_params(axis="y", length=0)
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(title, fontsize=9, loc="left")
    if headers:
        for x, text, colour in ((8, "ours [95 % interval]", "#333333"),
                                (128, "source", SOURCE_COLOUR)):
            ax.annotate(text, (1, 1), xycoords="axes fraction", xytext=(x, 3),
                        textcoords="offset points", va="bottom", fontsize=7.5, color=colour,
                        style="italic")


def _spaced_ticks(ax, candidates, scale: str) -> None:
    """Zero and the round values (per cent on a log-ratio axis, percentage points otherwise),
    roundest first, each placed where its label keeps clear of the others'."""
    unit = "%" if scale == "ratio" else "pp"
    at = (lambda v: math.log1p(v / 100)) if scale == "ratio" else (lambda v: v)
    low, high = ax.get_xlim()
    px_per_char = 0.6 * 8 * ax.figure.dpi / 72  # the tick labels' size, 8 points

    def place(value):
        return ax.transData.transform((at(value), 0))[0], len(_pct_tick(value, unit)) * px_per_char

    chosen = {0.0: place(0.0)}
    for value in candidates:
        if not low <= at(value) <= high:
            continue
        x, w = place(value)
        if all(abs(x - x2) >= (w + w2) / 2 + 10 for x2, w2 in chosen.values()):
            chosen[float(value)] = (x, w)
    ticks = sorted(chosen)
    ax.set_xticks([at(v) for v in ticks], [_pct_tick(v, unit) for v in ticks])
    from matplotlib.ticker import NullLocator
    ax.xaxis.set_minor_locator(NullLocator())


def _pct_tick(value: float, unit: str = "%") -> str:
    if abs(value) < 1e-9:
        return "0"
    sign = "+" if value > 0 else "\u2212"
    return f"{sign}{abs(value):g} {unit}"
