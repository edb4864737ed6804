"""The Results page, read at a glance: the figures' labels and intervals can be read.

Until 2026-11-27 the forest plot put every recipe on one per-cent axis running to +250 %, so
the 1-25 % effects most recipes measure sat in a few pixels beside zero; three of its rows read
"configuration-ladder (best vs reference)"; and a sweep over collectors was drawn as a line
with a "knee", its tick labels printed over each other ("-XX:+UseSerialGC-XX:+UseParallelGC").
"""
from __future__ import annotations

import itertools
from pathlib import Path
from types import SimpleNamespace

import matplotlib.pyplot as plt
import pytest

from tuninglab import plot
from tuninglab.site import results_table

# The site saves its figures at 110 dpi (site/figures.py); pixels are counted at that size.
SITE_DPI = 110
# The narrowest interval a reader can still see as a bar with two ends, in pixels. On the old
# shared per-cent axis a +2 % effect's 3-point-wide interval spanned about 5 px.
MIN_INTERVAL_PX = 15

COLLECTORS = ["-XX:+UseSerialGC", "-XX:+UseParallelGC", "-XX:+UseG1GC",
              "-XX:+UseZGC -XX:+ZGenerational", "-XX:+UseShenandoahGC"]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _point(arm, value, mean, half=20.0, load=None):
    return {"arm": arm, "label": f"collector {value}", "value": value, "load": load or {},
            "mean": mean, "ci_low": mean - half, "ci_high": mean + half, "failed": False}


def _sweep(values, means, *, ordered=None, ranks=None, recommended=None, extra=None,
           name="collector"):
    points = [_point(str(v), v, m) for v, m in zip(values, means)]
    curve = {"metric": "throughput", "points": points,
             "best": str(values[means.index(max(means))]), "knee": str(values[0]),
             "headline": None, "reference": str(values[1])}
    for key, value in (("ordered", ordered), ("ranks", ranks), ("recommended", recommended)):
        if value is not None:
            curve[key] = value
    curve.update(extra or {})
    if "recommended" in (extra or {}):
        curve["recommended"] = extra["recommended"]
    return {"format": 4, "recipe": "fixture-sweep", "kind": "sweep", "verdict": "better",
            "primary_metric": "throughput",
            "change": {"kind": "jvm-options", "sweep": {"name": name, "unit": "",
                                                        "values": list(values),
                                                        "reference": values[1],
                                                        "cheaper": "none"}},
            "source": {}, "plan": {"arms": []}, "trials": [],
            "validity": {"valid": True}, "analysis": {"kind": "sweep", "curves": [curve]}}


def _tick_boxes(fig, ax):
    fig.set_dpi(SITE_DPI)
    fig.canvas.draw()
    return [t.get_window_extent() for t in ax.get_xticklabels() if t.get_text()]


def _texts(ax) -> list[str]:
    return [t.get_text() for t in ax.texts]


def _drawn_lines(ax):
    """Lines that join points (an errorbar's caps are markers without a line)."""
    return [line for line in ax.lines
            if line.get_linestyle() not in ("None", "", " ") and len(line.get_xdata()) > 1]


# ----------------------------------------------------------------------------- sweep curves


def test_unordered_choices_have_labels_that_do_not_overlap():
    result = _sweep(COLLECTORS, [272, 279, 239, 248, 214], ordered=False, recommended=None,
                    ranks={"-XX:+UseSerialGC": "cannot tell", "-XX:+UseParallelGC": "best",
                           "-XX:+UseG1GC": "worse", "-XX:+UseZGC -XX:+ZGenerational": "worse",
                           "-XX:+UseShenandoahGC": "equivalent"},
                    extra={"margin": 0.05})
    fig = plot.curve(result)
    ax = fig.axes[0]
    boxes = _tick_boxes(fig, ax)
    assert len(boxes) == len(COLLECTORS)
    for a, b in itertools.combinations(boxes, 2):
        assert not a.overlaps(b), (a, b)
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels[0] == "SerialGC" and labels[3] == "ZGC", labels  # prefix and trailing option off
    assert "-XX:+Use" in ax.get_xlabel()  # the prefix left out is named once
    assert not _drawn_lines(ax), "unordered choices drawn as a line"
    texts = _texts(ax)
    assert "best" in texts and "knee" not in " ".join(texts)
    assert {"worse", "cannot tell", "as good as the best"} <= set(texts)


def test_long_unordered_labels_are_wrapped_or_turned_until_they_clear():
    values = [f"a rather long configuration name number {i} with words" for i in range(8)]
    result = _sweep(values, [100 + i for i in range(8)], ordered=False)
    fig = plot.curve(result)
    boxes = _tick_boxes(fig, fig.axes[0])
    for a, b in itertools.combinations(boxes, 2):
        assert not a.overlaps(b), (a, b)


def test_a_stored_sweep_without_the_new_keys_reads_its_order_from_its_values():
    unordered = plot.curve(_sweep(COLLECTORS, [272, 279, 239, 248, 214]))
    assert not _drawn_lines(unordered.axes[0])
    ordered = plot.curve(_sweep([96, 128, 192, 256, 1024], [189, 217, 218, 236, 198],
                                name="heap"))
    assert _drawn_lines(ordered.axes[0])


def test_an_ordered_curve_marks_the_recommended_value_and_never_the_knee():
    values, means = [96, 128, 192, 256, 1024], [189, 217, 218, 236, 198]
    fig = plot.curve(_sweep(values, means, ordered=True, extra={"recommended": None}))
    texts = " ".join(_texts(fig.axes[0]))
    assert "knee" not in texts and "recommended" not in texts and "best" in texts
    fig = plot.curve(_sweep(values, means, ordered=True, extra={"recommended": "128"}))
    assert "recommended" in _texts(fig.axes[0])


def test_short_labels():
    assert plot.short_labels(COLLECTORS) == (
        ["SerialGC", "ParallelGC", "G1GC", "ZGC", "ShenandoahGC"], "-XX:+Use")
    # no prefix cut inside a word, and labels that would collide keep their options
    assert plot.short_labels(["roundrobin", "random"]) == (["roundrobin", "random"], "")
    assert plot.short_labels(["-XX:+UseZGC", "-XX:+UseZGC -XX:+ZGenerational"])[0] == [
        "ZGC", "ZGC -XX:+ZGenerational"]


# ----------------------------------------------------------------------------- forest plot


def _row(label, delta, half, **more):
    return {"label": label, "delta": delta, "ci_low": delta - half, "ci_high": delta + half,
            "verdict": "better", "source": None, **more}


def _span_px(fig, label) -> float:
    line = next(line for ax in fig.axes for line in ax.lines
                if line.get_gid() == f"interval:{label}")
    xs = line.get_xdata()
    ax = line.axes
    left, right = (ax.transData.transform((x, 0))[0] for x in (xs[0], xs[-1]))
    return abs(right - left)


def test_small_and_large_effects_both_have_readable_intervals():
    rows = [_row("small", 0.02, 0.015), _row("large", 2.5, 0.3),
            _row("middling", 0.25, 0.05), _row("a loss", -0.3, 0.06),
            {"label": "not yet", "delta": None, "verdict": "not measured", "source": 0.1},
            _row("errors [percentage points]", 0.15, 0.02, scale="points")]
    fig = plot.forest(rows)
    fig.set_dpi(SITE_DPI)
    fig.canvas.draw()
    for label in ("small", "large"):
        assert _span_px(fig, label) >= MIN_INTERVAL_PX, label
    # the error rate is not put on a ratio axis
    points = next(line for ax in fig.axes for line in ax.lines
                  if line.get_gid() == "interval:errors [percentage points]").axes
    assert "percentage points" in points.get_title(loc="left")
    assert all(line.get_gid() != "interval:small" for line in points.lines)


def test_ratio_ticks_are_labelled_in_per_cent():
    fig = plot.forest([_row("small", 0.02, 0.015), _row("loss", -0.3, 0.06)])
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert "0" in labels and any(t.endswith(" %") and t.startswith("+") for t in labels)
    assert any(t.startswith("\u2212") for t in labels), labels


# ----------------------------------------------------------------------------- forest rows


def _ladder_result():
    curves = []
    for users in (1, 10, 100):
        curves.append({"load": {"users": users}, "metric": "throughput", "points": [],
                       "headline": {"delta": 0.1 * users ** 0.1, "ci_low": 0.0, "ci_high": 0.3,
                                    "verdict": "better", "scale": "ratio"}})
    return {"format": 4, "recipe": "ladder", "kind": "sweep-by-load", "verdict": "better",
            "primary_metric": "throughput", "validity": {"valid": True},
            "analysis": {"kind": "sweep", "curves": curves}}


def test_forest_rows_of_a_sweep_at_three_load_levels_are_unique():
    entry = SimpleNamespace(id="ladder", source={"effect": 0.78})
    site = SimpleNamespace(entries=[entry], pages={"ladder": ["guide/11.md"]},
                           newest=lambda _id: (Path("results/ladder/x.json"), _ladder_result()))
    labels = [row["label"] for row in results_table.forest_rows(site)]
    assert len(labels) == 3 and len(set(labels)) == 3, labels
    for users in (1, 10, 100):
        assert any(f"users {users}" in label for label in labels), labels


def test_compact_claim():
    short = "Batching cut the inserts' time by half."
    assert results_table.compact_claim(short) == short
    long = ("Against the all profile, peak throughput rose 39.13 % with the production profile "
            "and 77.82 % with the optimized one; the production profile with a 12 GB heap "
            "gained 4.14 %, and response time fell.")
    first = results_table.compact_claim(long)
    assert first.endswith(" …") and "77.82 %" in first and len(first) <= 125
    words = results_table.compact_claim("word " * 60)
    assert words.endswith(" …") and len(words) <= 125


def test_each_of_a_source_s_curves_is_drawn_scaled_to_the_point_it_names():
    """The client-threads note's four JVMs on one axis with ours: each scaled so that its first
    point meets our first (a load curve's single thread), or its maximum our maximum."""
    result = _sweep([1, 2, 4], [100, 150, 160], ordered=True, name="threads")
    result["source"] = {"curves": [
        {"x": [1, 2, 4], "y": [400, 800, 1200], "label": "linear", "scale_to": "first"},
        {"x": [1, 2, 4], "y": [50, 80, 40], "label": "peaked"}]}
    drawn = {line.get_label(): list(line.get_ydata()) for line in plot.curve(result).axes[0].lines}
    assert drawn["linear (scaled: its first point = ours)"] == [100, 200, 300]
    assert drawn["peaked (scaled: its maximum = ours)"] == [100, 160, 80]
