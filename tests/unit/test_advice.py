"""advice.py and agreement.py: what a curve lets us recommend, and the one word for a result
against its source, on known curves: synthetic ones and the stored results the old rule read
wrongly (issue: "Advice a reader can act on")."""
from __future__ import annotations

from pathlib import Path

import pytest

from tuninglab import layout
from tuninglab.analysis import advice, read_stored
from tuninglab.analysis.agreement import agreement
from tuninglab.numbers import MINUS
from tuninglab.site.repository import Site

ROOT = layout.REPO_ROOT


def _c(delta, low, high, n=10):
    return {"delta": delta, "ci_low": low, "ci_high": high, "n_pairs": n}


def _points(values, means):
    return [{"arm": str(v), "value": v, "mean": m, "failed": False, "telemetry": {}}
            for v, m in zip(values, means)]


BEST = {"is_best": True, "delta": 0.0, "ci_low": 0.0, "ci_high": 0.0}


def _sweep(against, cheaper="lower", values=(2, 4, 8, 16), best="8"):
    points = _points(values, [100.0] * len(values))
    return advice.read_sweep(points, against, best=best, higher_is_better=True,
                             cheaper=cheaper, margin=0.05, name="pool", unit="connections")


def test_an_interval_that_contains_zero_is_not_equivalence():
    """The old knee rule took the cheapest value whose interval contains zero; an interval
    of [-18 %, +8 %] contains zero and allows an 18 % loss."""
    assert advice.rank(_c(-0.04, -0.18, 0.08), True, 0.05) == "cannot tell"
    assert advice.rank(_c(-0.01, -0.04, 0.02), True, 0.05) == "equivalent"
    assert advice.rank(_c(-0.10, -0.18, -0.02), True, 0.05) == "worse"
    # a metric where lower is better (CPU per transaction): a loss is a rise
    assert advice.rank(_c(0.10, 0.02, 0.18), False, 0.05) == "worse"
    assert advice.rank(_c(0.01, -0.02, 0.04), False, 0.05) == "equivalent"
    assert advice.rank(None, True, 0.05) == "unknown"


def test_the_cheapest_value_shown_equivalent_is_recommended():
    against = {"2": _c(-0.2, -0.3, -0.1), "4": _c(-0.01, -0.04, 0.02), "8": BEST,
               "16": _c(0.0, -0.02, 0.02)}
    read = _sweep(against)
    assert read["status"] == "firm" and read["recommended"] == "4"
    assert read["recommendation"].startswith("Set pool to 4 connections: the cheapest value "
                                             "shown within 5 % of the best")
    # the other end of the axis is cheap: 16 is the cheapest value shown equivalent
    assert _sweep(against, cheaper="higher")["recommended"] == "16"


def test_a_dearer_value_that_could_beat_the_best_leaves_the_best_in_doubt():
    """mdb-delivery-threads (29 November 2026): the best mean fell on 4 threads, 2 was
    measurably worse, and 8 read -5.6 % [-40.4, +49.5] against it. "Set 4" would have said
    more than the run: 8 could be half as good again."""
    against = {"2": _c(-0.43, -0.56, -0.26), "4": BEST, "8": _c(-0.056, -0.404, 0.495),
               "16": _c(-0.02, -0.04, 0.01)}
    read = _sweep(against, best="4")
    assert read["status"] == "cannot tell" and read["recommended"] is None
    assert read["recommendation"] == (
        f"This run cannot tell which pool to set: 2 connections was measurably worse than 4 "
        f"connections, which gave the best throughput; but 8 connections ({MINUS}5.6 % "
        f"[{MINUS}40.4, +49.5]) could be better than it by more than 5 %.")
    # the same value with an interval that allows at most a 5 % gain: the advice stands
    against["8"] = _c(-0.02, -0.06, 0.04)
    assert _sweep(against, best="4")["recommended"] == "4"


def test_a_cheaper_value_that_cannot_be_told_makes_the_run_say_so():
    against = {"2": _c(-0.2, -0.3, -0.1), "4": _c(-0.096, -0.185, 0.002), "8": BEST,
               "16": _c(0.0, -0.02, 0.02)}
    read = _sweep(against)
    assert read["status"] == "cannot tell" and read["recommended"] is None
    assert read["recommendation"].startswith("This run cannot tell which pool to set")
    assert (f"2 connections ({MINUS}20.0 % [{MINUS}30.0, {MINUS}10.0]) measurably worse"
            in read["recommendation"])
    # its estimate already lies past the margin: more blocks would not make it equivalent
    assert "already lies beyond the margin" in read["recommendation"]


def test_the_blocks_needed_to_show_equivalence_follow_the_square_root_rule():
    against = {"2": _c(-0.01, -0.07, 0.05, n=10), "8": BEST}
    read = _sweep(against, values=(2, 8))
    # half-width on the losing side 6 points; room to the margin 4 points: (6/4)^2 x 10 = 23
    assert "about 23 blocks where this run had 10" in read["recommendation"]


def test_a_value_out_of_reach_says_why_in_the_direction_of_its_estimate():
    """An estimate that is a gain is not "a loss of -0.4 %" (the pool sweep of 29 November
    2026 read so): a wide interval, not the margin, is what more blocks cannot close."""
    gain = {"4": _c(0.004, -0.32, 0.481, n=6), "8": BEST}
    text = _sweep(gain, values=(4, 8))["recommendation"]
    assert "its estimate, a gain of 0.4 %, lies well within it, but its interval reaches a " \
           "loss of 32.0 %" in text and "a loss of -" not in text
    near = {"4": _c(-0.04, -0.30, 0.22, n=6), "8": BEST}  # a loss near the 5 % margin
    assert "its estimate, a loss of 4.0 %, sits close to the margin" in \
        _sweep(near, values=(4, 8))["recommendation"]


def test_unordered_choices_are_ranked_without_a_knee():
    against = {"serial": _c(-0.037, -0.148, 0.089), "parallel": BEST,
               "g1": _c(-0.139, -0.22, -0.05)}
    points = _points(["serial", "parallel", "g1"], [271.6, 279.1, 239.1])
    for p in points:
        p["arm"] = p["value"]
    read = advice.read_sweep(points, against, best="parallel", higher_is_better=True,
                             cheaper="none", margin=0.05, name="collector")
    assert read["ordered"] is False and read["recommended"] is None
    assert read["recommendation"].startswith("parallel gave the best throughput")
    assert "measurably worse: g1" in read["recommendation"]
    assert "neither shown within 5 % nor measurably worse: serial" in read["recommendation"]
    against["serial"] = _c(-0.3, -0.4, -0.2)
    firm = advice.read_sweep(points, against, best="parallel", higher_is_better=True,
                             cheaper="none", margin=0.05, name="collector")
    assert firm["recommended"] == "parallel"
    assert firm["recommendation"].startswith("Set collector to parallel: every other value")


def test_values_listed_from_dear_to_cheap_are_ordered_by_value():
    """cluster-node-count lists 4, 3, 2, 1 nodes: the cheap end is still the lowest."""
    against = {"4": BEST, "3": _c(-0.2, -0.28, -0.13), "2": _c(-0.4, -0.47, -0.34),
               "1": _c(-0.7, -0.72, -0.68)}
    read = _sweep(against, values=(4, 3, 2, 1), best="4")
    assert read["recommended"] == "4"
    assert "every cheaper value was measurably worse" in read["recommendation"]


# The five sweeps whose bold line advised what their page argues against (commit 577ca92),
# with the stored run each was read from.
OLD_ADVICE = {
    "jvm-gc-collector": ("20261126T041911Z-vm.json", "Set collector to -XX:+UseSerialGC"),
    "configuration-ladder": ("20261126T003934Z-vm.json", "Set configuration to out of the box"),
    "io-task-max-threads": ("20261126T094904Z-vm.json", "Set task-max-threads to 2 threads"),
    "datasource-pool-size-sweep": ("20261125T173926Z-vm.json",
                                   "Set max-pool-size to 4 connections"),
    "jvm-heap-size": ("20261125T181201Z-vm.json", "Set heap to 128 MB"),
}


@pytest.fixture(scope="module")
def site():
    return Site(ROOT)


@pytest.mark.parametrize("recipe_id", sorted(OLD_ADVICE))
def test_the_five_stored_sweeps_no_longer_advise_a_value_the_interval_does_not_support(
        site, recipe_id):
    import json
    name, old = OLD_ADVICE[recipe_id]
    stored = json.loads(Path(ROOT, "results", recipe_id, name).read_text())
    assert stored["analysis"]["curves"][0]["recommendation"].startswith(old)  # the old rule
    read = site.read(recipe_id, stored)
    for curve in read["analysis"]["curves"]:
        assert not curve["recommendation"].startswith(old)
        assert curve["status"] != "firm"  # each of them: the run cannot tell


def test_no_published_recommendation_names_a_value_whose_interval_reaches_past_the_margin(site):
    """The rule on every stored result the site shows: a recommended value other than the
    best has its whole interval against the best within the margin."""
    checked = 0
    for entry in site.entries:
        found = site.newest(entry.id)
        if found is None:
            continue
        for curve in found[1].get("analysis", {}).get("curves") or []:
            pick = curve.get("recommended")
            if not pick or pick == curve.get("best"):
                continue
            c = curve["against_best"][pick]
            assert c["ci_low"] >= -curve["margin"], (entry.id, pick, c["ci_low"])
            checked += 1
        if found[1].get("analysis", {}).get("curves"):
            checked += 1
    assert checked >= 5


# --------------------------------------------------------------------------- agreement


def _ab(expected, delta, low, high, effect=None, metric="throughput"):
    return {"expected": expected, "primary_metric": metric, "validity": {"valid": True},
            "source": {"effect": effect},
            "analysis": {"comparisons": [{"verdict": "x", "metrics": {
                metric: {"delta": delta, "ci_low": low, "ci_high": high}}}]}}


def test_agreement_words():
    assert agreement(_ab("better", 0.1, 0.05, 0.15)) == "agrees"
    # on the claimed side, but the source's own figure lies outside the interval
    assert agreement(_ab("better", 0.1, 0.05, 0.15, effect=0.12)) == "agrees"
    assert agreement(_ab("better", 0.033, 0.006, 0.061, effect=1.902)) == \
        "agrees in direction, smaller than claimed"
    assert agreement(_ab("better", 0.42, 0.30, 0.55, effect=0.0233)) == \
        "agrees in direction, larger than claimed"
    assert agreement(_ab("worse", -0.08, -0.10, -0.06, effect=-0.30)) == \
        "agrees in direction, smaller than claimed"
    assert agreement(_ab("better", -0.1, -0.15, -0.05)) == "disagrees"
    # no significant change, but a gain of the claimed kind is not ruled out
    assert agreement(_ab("better", 0.04, -0.01, 0.09)) == "cannot tell"
    # no significant change, and a gain as large as the margin is ruled out
    assert agreement(_ab("better", 0.0, -0.02, 0.02)) == "disagrees"
    # ... unless the source itself claims less than the interval rules out
    assert agreement(_ab("better", 0.0, -0.02, 0.02, effect=0.01)) == "cannot tell"
    assert agreement(_ab("worse", -0.05, -0.15, 0.07)) == "cannot tell"
    assert agreement(_ab("no-change", 0.0, -0.02, 0.02)) == "agrees"
    assert agreement(_ab("no-change", 0.0, -0.08, 0.08)) == "cannot tell"
    assert agreement(_ab("no-change", 0.1, 0.05, 0.15)) == "disagrees"
    assert agreement(_ab("none", 0.1, 0.05, 0.15)) == "no direction claimed"
    # CPU per transaction: lower is better, so a fall is "better"
    assert agreement(_ab("better", -0.1, -0.15, -0.05, metric="cpu_per_tx")) == "agrees"
    invalid = {**_ab("better", 0.1, 0.05, 0.15), "validity": {"valid": False}}
    assert agreement(invalid) == "not comparable"


def test_a_sweep_claim_about_the_smallest_value_is_tested_on_it():
    """jvm-heap-size: the thesis compares its too-small default heap with the peak; the best
    size against the lab's 1 GB reference says nothing about that. A stored run whose smallest
    size was measurably worse than its best (25 November; a later run need not be)."""
    import json
    stored = json.loads(Path(ROOT, "results", "jvm-heap-size",
                             "20261125T181201Z-vm.json").read_text())
    assert agreement(stored, contrast="best-vs-reference") == "cannot tell"
    assert agreement(stored, contrast="best-vs-cheapest") == "agrees"


def test_read_stored_leaves_the_stored_numbers_alone():
    import json
    path = sorted(Path(ROOT, "results", "jvm-gc-collector").glob("*.json"))[-1]
    stored = json.loads(path.read_text())
    before = json.dumps(stored, sort_keys=True)
    read = read_stored(stored)
    assert json.dumps(stored, sort_keys=True) == before
    assert read["agreement"] == "no direction claimed"


def test_a_count_stored_without_its_unit_is_read_as_a_count_not_a_share():
    """ecperf-sorted-access stored its database counts with no unit, which the formatter read
    as shares: 0.021 rollbacks a transaction printed as "2.13 pp"."""
    from tuninglab.numbers import fmt_delta
    entry = {"delta": -0.021, "ci_low": -0.035, "ci_high": -0.008, "delta_kind": "absolute",
             "unit": ""}
    stored = {"analysis": {"comparisons": [{"metrics": {"db_rollbacks_per_tx": entry}}]},
              "verdict": "better"}
    read = read_stored(stored)["analysis"]["comparisons"][0]["metrics"]["db_rollbacks_per_tx"]
    assert read["unit"] == "rollbacks per tx"
    assert entry["unit"] == ""  # the stored result is left alone
    shown = fmt_delta(read["delta"], read["ci_low"], read["ci_high"], "absolute", read["unit"])
    assert "pp" not in shown and shown.startswith(f"{MINUS}0.02")


def test_a_value_whose_cheaper_values_failed_is_not_called_the_cheapest_tried():
    """datasource-pool-nested-transactions (29 November 2026): pools of 8, 12 and 16 failed
    requests and only 32 served cleanly; the sentence said 32 was "the cheapest value tried"."""
    points = _points((8, 12, 16, 32), [0.25, 981.7, 1009.0, 1334.0])
    for p in points[:3]:
        p["failed"] = True
    read = advice.read_sweep(points, {"32": BEST}, best="32", higher_is_better=True,
                             cheaper="lower", margin=0.05, name="pool", unit="connections")
    assert read["recommended"] == "32"
    assert "cheapest value tried" not in read["recommendation"]
    assert ("every cheaper value failed requests (8 connections, 12 connections and "
            "16 connections)") in read["recommendation"]


def test_a_condition_is_read_as_costs_against_its_first_value_and_recommends_nothing():
    from tuninglab.analysis.advice import read_sweep
    points = [{"arm": a, "value": v, "mean": m} for a, v, m in
              (("0", 0, 350.0), ("1", 1, 300.0), ("5", 5, 240.0))]
    against = {"0": {"delta": 0.0, "ci_low": 0.0, "ci_high": 0.0, "is_best": True},
               "1": {"delta": -0.12, "ci_low": -0.18, "ci_high": -0.06},
               "5": {"delta": -0.3, "ci_low": -0.34, "ci_high": -0.24}}
    read = read_sweep(points, against, best="0", higher_is_better=True, cheaper="condition",
                      name="added delay", unit="ms")
    assert read["recommended"] is None and read["knee"] is None and not read["ordered"]
    assert read["recommendation"].startswith("Throughput against added delay 0 ms: 1 ms (−12")
    assert "nothing to recommend" in read["recommendation"]
    assert "Set " not in read["recommendation"]


def test_a_value_whose_own_node_never_reached_its_plateau_is_named_in_the_sentence():
    """jvm-gc-collector's G1 and Shenandoah nodes ended their warm-up still speeding up, and
    each collector had a node of its own: the bold sentence names them (their ranks stand),
    and offers no count of blocks for a value that more blocks would not settle."""
    against = {"serial": _c(-0.037, -0.148, 0.089), "parallel": BEST,
               "g1": _c(-0.139, -0.22, -0.05), "shenandoah": _c(-0.02, -0.3, 0.3)}
    points = _points(["serial", "parallel", "g1", "shenandoah"], [271.6, 279.1, 239.1, 270.0])
    for p in points:
        p["arm"] = p["value"]

    def read(unsteady):
        return advice.read_sweep(points, against, best="parallel", higher_is_better=True,
                                 cheaper="none", margin=0.05, name="collector",
                                 unsteady=frozenset(unsteady))

    steady = read(())["recommendation"]
    assert "warm-up" not in steady and "Showing serial within 5 %" in steady  # the nearest
    marked = read({"g1", "serial", "not-a-point"})
    assert marked["ranks"]["g1"] == "worse"  # what the run measured
    assert marked["recommendation"].endswith(
        " Serial and g1 ran on nodes that ended a warm-up without a plateau: their figures may "
        "include a JVM still speeding up.")  # in the points' order, with a capital
    assert "Showing serial" not in marked["recommendation"]
    assert "Showing shenandoah within 5 %" in marked["recommendation"]
    assert read({"g1"})["recommendation"].endswith(
        " G1 ran on a node that ended a warm-up without a plateau: its figures may include a "
        "JVM still speeding up.")


def test_the_site_names_a_sweeps_unsteady_values_only_where_each_value_had_its_own_node(site):
    """Read from the stored results: jvm-gc-collector measured a node per collector, one at a
    time; app-cpu-quota switched its values in place on shared nodes."""
    import json
    gc = json.loads(Path(ROOT, "results", "jvm-gc-collector",
                         "20261126T041911Z-vm.json").read_text())
    sentence = site.read("jvm-gc-collector", gc)["analysis"]["curves"][0]["recommendation"]
    assert sentence.endswith("-XX:+UseG1GC and -XX:+UseShenandoahGC ran on nodes that ended a "
                             "warm-up without a plateau: their figures may include a JVM still "
                             "speeding up.")
    found = site.newest("app-cpu-quota")
    assert found is not None and found[1]["plan"]["layout"] != "per-level"
    assert "warm-up" not in found[1]["analysis"]["curves"][0]["recommendation"]
