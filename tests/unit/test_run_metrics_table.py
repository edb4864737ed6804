"""Every published run of a recipe with several metrics of its comparison
(site/run_metrics_table.py): newest first, each delta with its interval, bold only where that
metric's verdict is significant, a sequential run's level named, the baseline's level in each
run, and a marker that names a metric no run compares refused with the metrics allowed."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from tuninglab.site import run_metrics_table
from tuninglab.site.markers import find_markers


def _metric(delta, low, high, verdict, baseline, unit):
    return {"delta": delta, "ci_low": low, "ci_high": high, "verdict": verdict,
            "baseline": baseline, "unit": unit, "delta_kind": "relative"}


def _run(started, throughput, cpu, confidence=0.95, valid=True):
    return {"provenance": {"started": started}, "validity": {"valid": valid},
            "verdict": "worse" if valid else "invalid", "design": {"confidence": confidence},
            "analysis": {"comparisons": [{"metrics": {"throughput": throughput,
                                                      "cpu_per_tx": cpu}}]}}


RUNS = [
    ("20261127T071213Z-vm.json", _run("2026-11-27T07:12:13+00:00",
                                      _metric(-0.176, -0.209, -0.142, "worse", 700.0, "tx/s"),
                                      _metric(0.187, 0.14, 0.235, "worse", 1.41, "ms CPU/tx"))),
    ("20261201T000000Z-vm.json", _run("2026-12-01T00:00:00+00:00", None, None, valid=False)),
    ("20261207T143655Z-vm.json", _run("2026-12-07T14:36:55+00:00",
                                      _metric(-0.167, -0.267, -0.055, "worse", 1701.0, "tx/s"),
                                      _metric(0.159, -0.004, 0.349, "no significant change",
                                              0.55, "ms CPU/tx"), confidence=0.9996)),
]


def _site(runs=RUNS):
    return SimpleNamespace(runs=lambda rid: [(Path("results") / rid / name, r)
                                             for name, r in runs])


def test_every_run_newest_first_with_its_metrics_levels_and_baseline():
    text = run_metrics_table.render(_site(), "session-replication throughput cpu_per_tx",
                                    "guide/03-servlet-container.md")
    rows = [line for line in text.splitlines() if line.startswith("| [")]
    assert [r.split("](")[1].split(")")[0] for r in rows] == [
        "../results/session-replication/20261207T143655Z-vm.json",
        "../results/session-replication/20261201T000000Z-vm.json",
        "../results/session-replication/20261127T071213Z-vm.json"]
    newest, invalid, oldest = rows
    # significant: bold; not significant: plain; an early look's level said after the interval
    assert "**−16.7\u00a0%\u00a0[−26.7,\u00a0−5.5]\u00a0at\u00a099.96\u00a0%**" in newest
    assert "| +15.9\u00a0%\u00a0[−0.4,\u00a0+34.9]\u00a0at\u00a099.96\u00a0% |" in newest
    assert "1,701 tx/s, 0.55 ms CPU/tx" in newest
    assert "**+18.7\u00a0%\u00a0[+14.0,\u00a0+23.5]**" in oldest and "at\u00a0" not in oldest
    assert invalid.endswith("| — | — | invalid |")
    assert "3 published run(s) of `session-replication`, newest first" in text


def test_a_metric_no_run_compares_is_refused_with_the_allowed_ones():
    text = run_metrics_table.render(_site(), "session-replication throughput latency_p50",
                                    "guide/x.md")
    assert "Marker not understood" in text and "`latency_p50`" in text
    assert "allowed: `cpu_per_tx`, `throughput`" in text
    assert "Marker not understood" in run_metrics_table.render(_site(), "only-an-id", "guide/x.md")
    assert "No published run" in run_metrics_table.render(_site([]), "x throughput", "guide/x.md")


def test_the_marker_is_found_and_a_strict_look_never_reads_as_certainty():
    from tuninglab import result
    assert [result.level_text(x) for x in (0.95, 0.979, 0.9996, 0.99999)] == [
        "95 %", "97.9 %", "99.96 %", "99.999 %"]
    assert find_markers("<!-- run-metrics: http-session-replication throughput cpu_per_tx -->") \
        == [(0, "run-metrics", "http-session-replication throughput cpu_per_tx")]
