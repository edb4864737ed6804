"""The parts of the engine that need no Docker: plan, trial order, warm-up rule, interference
rule, validity, analysis of A/B runs and curves, reports."""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from tuninglab import design, interference, layout, report
from tuninglab.analysis import analyse, trial_errors
from tuninglab.changes import parse_pg_fragment, same
from tuninglab.experiment import node_config
from tuninglab.plan import (AB, AB_BY_LOAD, CROSSOVER, LOAD, PER_LEVEL, SHARED, SWEEP,
                            compile_plan)
from tuninglab.recipe import Tolerance, load_recipe
from tuninglab.result import headline as result_headline
from tuninglab.stack import C1_ONLY, NodeConfig
from tuninglab.warmup import SteadyRule, Window


def _recipe(name="aa-noise", area="method"):
    return load_recipe(layout.recipes_dir() / area / name)


# --------------------------------------------------------------------------- plan


def test_an_ab_recipe_of_the_app_server_is_a_crossover_of_two_nodes_side_by_side():
    plan = compile_plan(_recipe("datasource-max-pool-size", "guide"), switch="reload")
    assert plan.kind == AB and plan.layout == CROSSOVER
    assert [(a.id, a.node) for a in plan.arms] == [("baseline", None), ("variant", None)]
    assert plan.nodes == ["app-1", "app-2"]
    assert plan.slots == (("baseline", "variant"),) and plan.concurrency == 2
    assert plan.assignment(1) == {"baseline": "app-1", "variant": "app-2"}
    assert plan.assignment(-1) == {"baseline": "app-2", "variant": "app-1"}
    assert plan.keeps_jvms
    assert not compile_plan(_recipe("datasource-max-pool-size", "guide"),
                            switch="restart").keeps_jvms


def test_an_in_place_change_shares_one_node_and_runs_one_arm_at_a_time():
    plan = compile_plan(_recipe("pg-synchronous-commit", "thesis"), switch="database")
    assert plan.layout == SHARED and {a.node for a in plan.arms} == {"app"}
    assert plan.slots == (("baseline",), ("variant",)) and plan.concurrency == 1


def test_a_cluster_change_that_needs_a_reload_takes_turns_on_the_cluster_from_the_first_window():
    """The arms share the cluster's nodes; the nodes start with the first window's arm, so the
    run does not open with a reload and a warm-up."""
    from tuninglab.design import Block
    from tuninglab import preflight
    from tuninglab.experiment import _first_arms
    recipe = _recipe("cluster-entity-cache", "thesis")
    assert preflight.problems(recipe) == []
    plan = compile_plan(recipe, switch="reload")
    assert plan.layout == SHARED and plan.nodes == ["lb"] and plan.takes_turns
    assert plan.slots == (("baseline",), ("variant",))
    opening = Block(0, (("variant",), ("baseline",)))
    assert {n: a.id for n, a in _first_arms(plan, opening).items()} == {"lb": "variant"}
    runtime = compile_plan(recipe, switch="runtime")  # a runtime switch keeps the plan's order
    assert not runtime.takes_turns
    assert {n: a.id for n, a in _first_arms(runtime, opening).items()} == {"lb": "baseline"}


def test_a_sweep_gets_a_node_per_value_unless_its_setting_switches_at_runtime():
    recipe = _recipe("jvm-heap-size", "thesis")
    plan = compile_plan(recipe, switch="restart")
    assert plan.kind == SWEEP and plan.layout == PER_LEVEL
    assert [a.value for a in plan.arms] == [96, 128, 192, 256, 1024]
    assert len(plan.nodes) == 5 and plan.arm("128").node == "app-128"
    assert plan.concurrency == 1
    threads = compile_plan(_recipe("io-task-max-threads", "guide"), switch="runtime")
    assert threads.layout == SHARED and threads.nodes == ["app"]


def test_the_ci_profile_keeps_only_the_two_ends():
    recipe = _recipe("jvm-heap-size", "thesis")
    plan = compile_plan(recipe, switch="restart", points="ends")
    values = recipe.sweep.values
    assert [a.value for a in plan.arms] == [values[0], values[-1]]
    # load levels crossed with a change: only the last; a curve of the load alone: both ends
    loads = compile_plan(_recipe("ejb3-pass-by-reference", "guide"), switch="runtime",
                         points="ends")
    assert loads.load_values == (1000,) and len(loads.arms) == 2
    curve = compile_plan(_recipe("users-load-curve", "guide"), switch="runtime", points="ends")
    assert curve.load_values == (1, 100) and len(curve.arms) == 2


def test_the_ci_profile_compiles_with_c1_only_and_the_published_one_with_both_tiers():
    recipe = _recipe("jvm-gc-collector", "guide")
    quick, full = recipe.profile("quick"), recipe.profile("full")
    ci = node_config(recipe, jit=quick.jit).jvm_command_line().split()
    published = node_config(recipe, jit=full.jit).jvm_command_line().split()
    assert "-XX:TieredStopAtLevel=1" in ci and not any("Tiered" in o for o in published)
    # ...and verifies only the JDK's own bytecode (a quicker boot); the published one all of it
    assert set(ci) - set(published) == {"-XX:TieredStopAtLevel=1", "-XX:+UnlockDiagnosticVMOptions",
                                        "-XX:-BytecodeVerificationRemote"}
    # a node whose own options set the tiers keeps them: the profile adds nothing
    own = NodeConfig(jvm_options="-Xmx1g -XX:-TieredCompilation", jit=C1_ONLY)
    assert own.jvm_command_line().split() == ["-Xmx1g", "-XX:-TieredCompilation",
                                              "-XX:ActiveProcessorCount=1"]


def test_nodes_of_a_reusing_stack_resolve_names_afresh_and_others_keep_the_jvm_default():
    """A claimed stack's databases come back at new addresses; a JVM that kept "db" for its
    default 30 s reached db2 under it (27 November 2026), so those nodes keep no name."""
    assert "-Dsun.net.inetaddr.ttl=0" in NodeConfig(dns_ttl_s=0).jvm_command_line().split()
    assert "inetaddr" not in NodeConfig().jvm_command_line()


def test_a_sweep_without_its_reference_still_has_a_curve_and_a_knee():
    recipe = _recipe("io-task-max-threads", "guide")  # reference 16, between the ends
    plan = compile_plan(recipe, switch="runtime", points="ends")
    assert [a.value for a in plan.arms] == [2, 64]
    trials = _run(plan, {"2": 300.0, "64": 545.0}, blocks=3, noise=0.005)
    [curve] = analyse(recipe, plan, trials)["curves"]
    assert curve["best"] == "64" and curve["headline"] is None


def test_load_levels_cross_the_change_levels_and_each_level_stays_together_on_a_node():
    plan = compile_plan(_recipe("ejb3-pass-by-reference", "guide"), switch="runtime")
    assert plan.kind == AB_BY_LOAD and plan.layout == CROSSOVER
    assert len(plan.arms) == 6 and plan.nodes == ["app-1", "app-2"]
    assert [a.id for a in plan.arms_at_load(100)] == ["baseline/note_chars=100",
                                                      "variant/note_chars=100"]
    assert plan.slots[1] == ("baseline/note_chars=100", "variant/note_chars=100")
    turned = plan.assignment(-1)
    assert {turned[a.id] for a in plan.arms if a.level == "baseline"} == {"app-2"}
    assert {turned[a.id] for a in plan.arms if a.level == "variant"} == {"app-1"}


def test_an_unknown_switch_is_refused():
    with pytest.raises(ValueError, match="allowed: runtime, reload, restart, database"):
        compile_plan(_recipe(), switch="hot")


# --------------------------------------------------------------------------- design


def test_blocks_are_random_orders_each_followed_by_its_mirror():
    blocks = design.blocks(["a", "b", "c"], 6, seed=7)
    assert [b.index for b in blocks] == list(range(6))
    for first, second in zip(blocks[::2], blocks[1::2]):
        assert second.slots == tuple(reversed(first.slots))
        assert sorted(first.arms) == ["a", "b", "c"]
    assert design.blocks(["a", "b", "c"], 6, seed=7) == blocks  # reproducible from the seed
    orders = {b.arms for seed in range(40) for b in design.blocks(["a", "b"], 2, seed)[:1]}
    assert orders == {("a", "b"), ("b", "a")}  # both orders occur
    # slots measured together keep their arms together
    together = design.blocks([("a", "b"), ("c", "d")], 2, seed=1)
    assert {s for b in together for s in b.slots} == {("a", "b"), ("c", "d")}


def test_mirrored_blocks_cancel_a_linear_drift():
    """Trials in run order get value = 100 + drift * position; paired analysis over mirrored
    couples then finds no difference between identical arms."""
    blocks = design.blocks(["a", "b"], 10, seed=3)
    position, values = 0, {"a": [], "b": []}
    for block in blocks:
        for arm in block.arms:
            values[arm].append(100 + 2.0 * position)
            position += 1
    diffs = [b - a for a, b in zip(values["a"], values["b"])]
    assert sum(diffs) == pytest.approx(0.0)


# --------------------------------------------------------------------------- warm-up rule


def _windows(values, jit=0.0, phase="plateau"):
    """Windows whose compiler used ``jit`` of the node's CPU (its wall time reads ten times
    that, as on a throttled node: no rule may read it)."""
    return [Window(phase, 5, v, 0.0, jit_busy=10 * jit, jit_cpu=jit / 4, jit_share=jit)
            for v in values]


def test_steady_means_a_plateau_with_a_quiet_compiler():
    rule = SteadyRule()
    assert not rule.steady(_windows([500] * 5))  # too few windows to tell
    assert not rule.steady(_windows([400, 420, 440, 460, 480, 500]))  # a 25 % climb
    # noisy but flat, as 5 s windows at a quarter of a core are (about 10 %)
    assert rule.steady(_windows([300, 72, 76, 59, 78, 68, 70, 74]))
    assert rule.trend(_windows([72, 76, 59, 78, 68, 70])) == pytest.approx(-0.02, abs=0.05)
    assert not rule.steady(_windows([500, 505, 498, 502, 500, 501], jit=0.08))  # JIT at work
    assert rule.steady(_windows([500, 505, 498, 502, 500, 501], jit=0.03))  # its wall time 30 %
    unread = [Window("plateau", 5, v, 0.0, jit_busy=2.0) for v in [500, 505, 498, 502, 500, 501]]
    assert rule.steady(unread)  # a compiler that cannot be read leaves the drift test alone
    assert not rule.steady(_windows([0, 0, 0, 0, 0, 0]))
    assert not rule.steady(_windows([500, 505, 498, 502, 500, 501], phase="compile"))


def test_a_rewarmed_jvm_needs_only_a_quiet_compiler():
    """After a reload the JVM keeps the server's compiled code: three windows with the
    compiler quiet end its plateau, however noisy their throughput."""
    rule = SteadyRule.rewarmed(3)
    assert not rule.steady(_windows([500, 505]))  # too few windows
    assert rule.steady(_windows([210, 120, 260]))  # the noise that failed the trend test
    assert not SteadyRule().steady(_windows([210, 120, 260, 110, 250, 115]))
    assert not rule.steady(_windows([500, 505, 498], jit=0.08))  # still compiling
    # only the last three windows count: a compiler that went quiet ends it
    assert rule.steady(_windows([500, 505], jit=0.3) + _windows([498, 502, 500]))
    assert not rule.steady(_windows([500, 0, 498]))  # a window that served nothing
    assert not rule.steady(_windows([500, 505, 498], phase="compile"))


# --------------------------------------------------------------------------- interference


def test_each_interference_rule_fires_alone_and_names_its_cause():
    tolerance = Tolerance(error_rate=0.0, loadgen_cpu=0.9, steal=0.02, outside_cpu=0.15,
                          db_core_busy=0.85)
    quiet = {"steal": 0.0, "outside_cpu": 0.05, "db_core_busy": 0.5}
    assert interference.problems(quiet, 0.4, tolerance) == []
    assert "steal 3.0%" in interference.problems({**quiet, "steal": 0.03}, 0.4, tolerance)[0]
    assert "0.40 cores used outside" in interference.problems(
        {**quiet, "outside_cpu": 0.4}, 0.4, tolerance)[0]
    assert "cores 95% busy" in interference.problems(
        {**quiet, "db_core_busy": 0.95}, 0.4, tolerance)[0]
    assert "load generator saturated" in interference.problems(quiet, 0.95, tolerance)[0]
    # On a remote engine the host is not measured: the host rules cannot fire.
    unknown = {"steal": None, "outside_cpu": None, "db_core_busy": None}
    assert interference.problems(unknown, None, tolerance) == []


def test_a_node_whose_compiler_was_busy_disturbs_its_trial():
    from tuninglab.analysis import trial_disturbances
    from tuninglab.analysis.trials import still_compiling
    telemetry = {"node": "app-2", "jit_busy": 0.3, "jit_cpu": 0.037, "jit_share": 0.148,
                 "containers": {"loadgen": {"cpu_utilisation": 0.2}},
                 "interference": {"steal": 0.0, "outside_cpu": 0.0, "db_core_busy": 0.4}}
    [reason] = trial_disturbances(_recipe(), telemetry)
    assert "app-2's JIT compiler used 15% of the node's CPU > tolerance 10%" in reason
    assert still_compiling(reason)
    # the wall time alone, however high, is not a disturbance: it stretches on a throttled node
    assert trial_disturbances(_recipe(), {**telemetry, "jit_busy": 2.7, "jit_share": 0.05}) == []
    assert trial_disturbances(_recipe(), {**telemetry, "jit_share": None}) == []


def test_host_window_separates_stack_cpu_from_the_rest():
    ticks = interference._ticks_per_second()
    before = interference.HostSnapshot(0.0, {0: (0, 0, 0, 0), 1: (0, 0, 0, 0)})
    # 10 s: cpu0 60 % busy (1 s of it interrupts: the stack's packets), cpu1 80 % busy with
    # 2 % stolen; the stack's containers used 1.2 CPU-s per s
    after = interference.HostSnapshot(10.0, {0: (6 * ticks, 10 * ticks, 0, ticks),
                                             1: (8 * ticks, 10 * ticks, ticks // 5, 0)})
    window = interference.host_window(before, after, stack_cpu_s=12.0, shared_cpus={0})
    assert window["db_core_busy"] == pytest.approx(0.6)
    assert window["irq"] == pytest.approx(0.1)
    assert window["outside_cpu"] == pytest.approx(0.1)  # 14 busy - 1 interrupts - 12 stack
    assert window["steal"] == pytest.approx(0.01)
    assert interference.cpuset_cpus("0-2,5") == {0, 1, 2, 5}


# --------------------------------------------------------------------------- validity


def test_errors_and_dropped_iterations_are_errors_of_the_system_under_test():
    load = {"requests": 1000, "failed": 3, "error_rate": 0.003, "dropped_iterations": 7,
            "fail_reasons": {"status": 3}}
    errors = trial_errors(_recipe(), load)
    assert any("3 failed requests of 1,000" in e for e in errors)
    assert any("7 dropped iterations" in e for e in errors)
    clean = {"requests": 1000, "failed": 0, "error_rate": 0.0, "dropped_iterations": 0,
             "fail_reasons": {}}
    assert trial_errors(_recipe(), clean) == []


def test_a_recipe_that_measures_errors_keeps_its_failed_trials_but_not_dropped_arrivals():
    recipe = _recipe()
    measuring = dataclasses.replace(recipe, metrics=dataclasses.replace(recipe.metrics,
                                                                         primary="error_rate"))
    load = {"requests": 1000, "failed": 300, "error_rate": 0.3, "dropped_iterations": 0,
            "fail_reasons": {"status": 300}}
    assert trial_errors(recipe, load) and trial_errors(measuring, load) == []
    dropped = {**load, "dropped_iterations": 50}
    [error] = trial_errors(measuring, dropped)
    assert "50 dropped iterations" in error


# --------------------------------------------------------------------------- analysis


def _trial(index, block, arm, throughput, status="valid", **metrics):
    values = {"throughput": throughput, "cpu_per_tx": 500.0 / throughput,
              "latency_p50": 10.0, "latency_p90": 20.0, "latency_p99": 40.0, "error_rate": 0.0,
              "gc_time": 0.01, **metrics}
    return {"index": index, "block": block, "arm": arm, "status": status,
            "used": status == "valid", "metrics": values,
            "telemetry": {"containers": {"app": {"cpu_utilisation": 1.0}},
                          "interference": {"db_core_busy": 0.5}}}


def _run(plan, values_by_arm, blocks, seed=1, noise=0.01):
    rng = np.random.default_rng(seed)
    trials, index = [], 0
    for block in design.blocks(plan.slots, blocks, seed):
        for arm in block.arms:
            trials.append(_trial(index, block.index, arm,
                                 values_by_arm[arm] * math.exp(rng.normal(0, noise))))
            index += 1
    return trials


def test_ab_analysis_gives_the_primary_verdict_and_holm_adjusted_secondaries():
    recipe = _recipe("datasource-max-pool-size", "guide")
    plan = compile_plan(recipe, switch="database")
    trials = _run(plan, {"baseline": 500.0, "variant": 550.0}, blocks=10)
    analysis = analyse(recipe, plan, trials)
    [c] = analysis["comparisons"]
    assert analysis["verdict"] == c["verdict"] == "better"
    assert c["metrics"]["throughput"]["primary"] and c["pairs"] == 10
    assert c["metrics"]["throughput"]["delta"] == pytest.approx(0.10, abs=0.02)
    assert 0 < c["metrics"]["throughput"]["detectable"] < 0.05
    assert "p_holm" in c["metrics"]["cpu_per_tx"] and "p_holm" not in c["metrics"]["throughput"]


def test_errors_as_the_primary_metric_give_a_verdict_in_percentage_points():
    recipe = _recipe("datasource-max-pool-size", "guide")
    recipe = dataclasses.replace(recipe, metrics=dataclasses.replace(recipe.metrics,
                                                                     primary="error_rate"))
    plan = compile_plan(recipe, switch="database")
    trials = _run(plan, {"baseline": 500.0, "variant": 450.0}, blocks=8)
    rng = np.random.default_rng(2)
    for t in trials:  # the variant fails about 5 % of its requests, the baseline none
        t["metrics"]["error_rate"] = 0.05 + rng.normal(0, 0.005) if t["arm"] == "variant" else 0.0
    analysis = analyse(recipe, plan, trials)
    [c] = analysis["comparisons"]
    entry = c["metrics"]["error_rate"]
    assert analysis["verdict"] == "worse" and entry["primary"]
    assert entry["delta_kind"] == "absolute" and entry["delta"] == pytest.approx(0.05, abs=0.01)
    line = result_headline({"validity": {"valid": True}, "verdict": "worse",
                            "primary_metric": "error_rate", "analysis": analysis})
    assert line.startswith("verdict: worse (error_rate +5.") and " pp [" in line
    assert "smallest detectable effect" in line and "%" not in line
    table = report._comparison_lines(c)
    assert table[2].startswith("*error_rate")  # errors first, before any latency


def test_an_unusable_trial_drops_only_its_pair():
    recipe = _recipe("datasource-max-pool-size", "guide")
    plan = compile_plan(recipe, switch="database")
    trials = _run(plan, {"baseline": 500.0, "variant": 550.0}, blocks=6)
    trials[0]["status"], trials[0]["used"] = "disturbed", False
    [c] = analyse(recipe, plan, trials)["comparisons"]
    assert c["pairs"] == 5


# --------------------------------------------------------------------------- curves: the knee


def test_sweep_analysis_finds_best_knee_and_recommends_with_a_reason():
    recipe = _recipe("jvm-heap-size", "thesis")
    plan = compile_plan(recipe, switch="restart")
    true = {"96": 300.0, "128": 480.0, "192": 544.5, "256": 545.0, "1024": 544.0}
    trials = _run(plan, true, blocks=12, noise=0.005)
    for t in trials:  # time in GC falls as the heap grows: the reason the knee cites
        t["metrics"]["gc_time"] = {"96": 0.3, "128": 0.12}.get(t["arm"], 0.02)
    [curve] = analyse(recipe, plan, trials)["curves"]
    assert curve["best"] in ("192", "256", "1024")
    assert curve["knee"] == "192"
    # the headline: the best against the reference (1024 MB): no real difference; none when
    # the reference is the best (a value against itself says nothing about the source)
    assert curve["best"] != "1024" and abs(curve["headline"]["delta"]) < 0.02
    true["1024"] = 600.0  # now the reference is the best
    analysis = analyse(recipe, plan, _run(plan, true, blocks=12, noise=0.005))
    assert analysis["curves"][0]["best"] == "1024"
    assert analysis["curves"][0]["headline"] is None and analysis["verdict"] is None
    assert curve["recommendation"].startswith("Set heap to 192 MB")
    assert "garbage collection" in curve["recommendation"]
    assert "cannot tell" not in curve["recommendation"]  # 192 MB is shown within 5 %


def test_one_block_recommends_nothing_rather_than_calling_cheaper_values_worse():
    """The CI profile's single block compares no value with the best: the highest mean is
    not a recommendation, and no value is called measurably worse."""
    recipe = _recipe("jvm-heap-size", "thesis")
    plan = compile_plan(recipe, switch="restart")
    true = {"96": 300.0, "128": 480.0, "192": 544.5, "256": 545.0, "1024": 600.0}
    curve = analyse(recipe, plan, _run(plan, true, blocks=1))["curves"][0]
    assert curve["best"] == "1024" and curve["knee"] is None and curve["status"] == "none"
    assert curve["recommendation"].startswith("nothing to recommend: 96 MB and the best")
    assert "measurably worse" not in curve["recommendation"]
    many = analyse(recipe, plan, _run(plan, true, blocks=12, noise=0.005))["curves"][0]
    assert "every cheaper value was measurably worse" in many["recommendation"]


def test_a_value_whose_interval_reaches_past_the_margin_is_not_recommended():
    """With 10 % noise a trial, a size 4 % below the best cannot be told apart from it, and
    its interval reaches far past 5 %: under the old rule it was "the knee"; now the run says
    it cannot tell, and no cheaper value than the best is recommended."""
    recipe = _recipe("jvm-heap-size", "thesis")
    plan = compile_plan(recipe, switch="restart")
    true = {"96": 300.0, "128": 522.0, "192": 544.5, "256": 545.0, "1024": 544.0}
    curve = analyse(recipe, plan, _run(plan, true, blocks=6, noise=0.10, seed=4))["curves"][0]
    wide = [a for a, rank in curve["ranks"].items() if rank == "cannot tell"]
    assert wide and all(curve["against_best"][a]["ci_low"] < -0.05 for a in wide)
    assert curve["status"] == "cannot tell" and curve["recommended"] is None
    assert curve["recommendation"].startswith("This run cannot tell which heap to set")


def test_load_curve_saturation_latency_knee_and_the_fall_past_saturation():
    recipe = _recipe()
    from dataclasses import replace
    from tuninglab.recipe import LoadLevels
    recipe = replace(recipe, load_levels=LoadLevels("users", (1, 2, 4, 8, 16, 32)))
    plan = compile_plan(recipe, switch="runtime")
    assert plan.kind == LOAD and plan.nodes == ["app"]
    true = {"users=1": 150.0, "users=2": 290.0, "users=4": 520.0, "users=8": 560.0,
            "users=16": 558.0, "users=32": 500.0}
    p99 = {"users=1": 8.0, "users=2": 9.0, "users=4": 12.0, "users=8": 20.0,
           "users=16": 40.0, "users=32": 90.0}
    trials = _run(plan, true, blocks=8, noise=0.005)
    for t in trials:
        t["metrics"]["latency_p99"] = p99[t["arm"]]
    [curve] = analyse(recipe, plan, trials)["curves"]
    assert curve["saturation"] == "users=8"
    assert curve["latency_knee"] == "users=16"  # the first p99 above 3 x 8 ms
    assert curve["falls_past_saturation"] is True
    assert "past saturation throughput falls" in curve["recommendation"]


def test_a_load_curve_still_rising_at_its_highest_load_is_not_said_to_plateau_there():
    """The client-threads curves (29 November 2026): the best at 16 threads, every lower level
    more than 5 % below it. The highest load is within the margin of the best only because it
    is the best; the sentence says the curve was still rising, and no saturation is marked."""
    recipe = _recipe()
    from dataclasses import replace
    from tuninglab.recipe import LoadLevels
    recipe = replace(recipe, load_levels=LoadLevels("users", (1, 2, 4, 8, 16)))
    plan = compile_plan(recipe, switch="runtime")
    true = {"users=1": 6000.0, "users=2": 10000.0, "users=4": 14000.0, "users=8": 16900.0,
            "users=16": 19000.0}
    [curve] = analyse(recipe, plan, _run(plan, true, blocks=6, noise=0.005))["curves"]
    assert curve["saturation"] is None and curve["still_rising"] == "users=16"
    assert curve["recommendation"].startswith(
        "No plateau within the loads tried: throughput was still rising at the highest, users 16")
    flat = {**true, "users=16": 17000.0}  # within 5 % of 8 users: a plateau from 8
    [curve] = analyse(recipe, plan, _run(plan, flat, blocks=6, noise=0.005))["curves"]
    assert curve["saturation"] == "users=8" and curve["still_rising"] is None


# --------------------------------------------------------------------------- small pieces


def test_values_read_back_compare_across_types():
    assert same(32, "32") and same(True, "true") and same("off", "OFF")
    assert not same(4, "40") and not same(None, "0")


def test_pg_fragment_parser():
    text = "# comment\nsynchronous_commit = off  # trailing\nwork_mem='8MB'\n"
    assert parse_pg_fragment(text, "change.conf") == {"synchronous_commit": "off", "work_mem": "8MB"}
    with pytest.raises(ValueError, match="change.conf:1"):
        parse_pg_fragment("this is not a setting\n", "change.conf")


def test_report_puts_problems_first():
    result = {"format": 2, "recipe": "x", "title": "t", "profile": "full", "kind": "ab",
              "plan": {"arms": []}, "design": {"profile": {"blocks": 1, "window_s": 3}},
              "provenance": {"started": "s", "host": "h"}, "validity": {
                  "valid": False, "problems": ["trial 2 (variant): 5 failed requests"]},
              "verdict": "invalid", "primary_metric": "throughput", "expected": "better",
              "agrees_with_source": None, "analysis": {"kind": "ab", "verdict": "invalid"},
              "trials": [], "change": {"description": "d"}, "verified": {}}
    text = report.summary(result)
    assert text.index("INVALID MEASUREMENT") < text.index("source expected")
    # failed requests come with the server's own ERROR lines, before any number
    result["trials"] = [{"server_errors": ["12:00:01 ERROR [io.undertow] UT005023: boom"]},
                        {"server_errors": ["12:00:01 ERROR [io.undertow] UT005023: boom"]}]
    text = report.summary(result)
    assert text.count("UT005023: boom") == 1
    assert text.index("UT005023") < text.index("source expected")


def test_a_quick_run_reports_what_it_proved_and_the_published_measurement_not_a_verdict(
        monkeypatch, tmp_path):
    """The CI profile's windows support no claim: its report names the checks, the arms served
    and the failed requests, then the recipe's published full result; no verdict, interval or
    agreement of its own (until 28 November 2026 it printed "no significant change (throughput
    -27.6 % [-96.9 %, +1581.0 %])")."""
    from tuninglab import result as results
    trial = {"arm": "baseline", "load": {"requests": 120, "failed": 0}}
    result = {"format": 4, "recipe": "aa-noise", "title": "t", "profile": "quick", "kind": "ab",
              "plan": {"arms": [{"id": "baseline"}, {"id": "variant"}]},
              "design": {"profile": {"blocks": 1, "window_s": 3, "claims": False}},
              "provenance": {"started": "s", "host": "h"}, "validity": {"valid": True},
              "verdict": "no significant change", "primary_metric": "throughput",
              "expected": "no-change", "agreement": "agrees",
              "analysis": {"kind": "ab", "verdict": "no significant change"},
              "trials": [trial, {**trial, "arm": "variant", "load": {"requests": 80, "failed": 2}}],
              "change": {"description": "d"},
              "verified": {"app-1": [{"ok": True}, {"ok": True}], "app-2": [{"ok": True}]}}
    line = results.headline(result)
    assert line == ("quick run, no claim: the change applied and read back (3/3 checks), 2/2 "
                    "arms served 200 requests, 2 failed")
    text = report.summary(result)
    own, published = text.split("the published measurement (results/aa-noise/")
    assert "verdict" not in own and "%" not in own and "source expected" not in text
    assert "verdict:" in published
    # run in a workspace of one's own, a recipe ported from the catalogue keeps its id: the
    # catalogue's result measured the lab's app, so it is not this recipe's published one
    monkeypatch.setenv("TUNINGLAB_WORKSPACE", str(tmp_path))
    text = report.summary(result)
    assert "results/aa-noise/" not in text
    assert (f"no full-profile measurement of aa-noise in {tmp_path.resolve()} yet: tuninglab run "
            f"aa-noise --profile full") in text
    result["trials"] = [trial]
    assert results.headline(result).endswith("1/2 arms served 120 requests, 0 failed; never "
                                             "served: variant")
    # a result that stored no ``claims``: the CI profile made none, the others did
    del result["design"]["profile"]["claims"]
    assert not results.makes_claims(result)
    assert results.makes_claims({**result, "profile": "full"})


# --------------------------------------------------------------------------- telemetry


class _Meter:
    def memory(self) -> dict:
        return {"memory_bytes": 1, "memory_peak_bytes": 1}


class _Stack:
    """What telemetry.window reads of a stack: two nodes on half a CPU each, or a cluster of
    them behind the balancer "lb"."""

    def __init__(self, balancers=None, db_cpus=None, fronts=()):
        from types import SimpleNamespace
        self.config = SimpleNamespace(db_cpuset="0", loadgen_cpuset="0", shared_cpus={0})
        self.fronts = dict.fromkeys(fronts)  # nodes with a web server in front (front.py)
        self.node_configs = {n: SimpleNamespace(cpus=0.5, cpuset="1")
                             for n in ("app-baseline", "app-variant")}
        self.nodes = dict.fromkeys(self.node_configs)
        self.balancers = balancers or {}
        self.databases = dict.fromkeys(db_cpus or {"db": None})
        self.db_cpus = db_cpus or {"db": None}

    def proxy_roles(self):
        return []

    def front_roles(self):
        return [f"{node} front" for node in self.fronts]

    def meter_roles(self):
        return [*self.databases, "loadgen", *self.balancers, *self.front_roles(), *self.nodes]

    def machines(self):
        from tuninglab.interference import THIS_MACHINE, Machine
        return [Machine(THIS_MACHINE, tuple(self.meter_roles()), frozenset({0}))]

    def check_hosts(self):
        return None

    def limits_of(self, name):
        return {"cpus": self.db_cpus[name]}

    def allowed_cpus(self, name, widened=False):
        return 2.0 if widened else self.node_configs[name].cpus

    def members(self, target):
        return list(self.balancers[target]) if target in self.balancers else [target]

    def meter(self, role):
        return _Meter()


def _snapshot(t: float, cpu: float, members=("app-baseline",), jit=(0.0,), requests=None) -> dict:
    out = {"t": t, "host": {},
           "members": {m: {"gc": {"time_ms": 0, "count": 0, "collectors": []}, "jit_s": j}
                       for m, j in zip(members, jit)},
           "cpu_s": {"db": cpu, "db2": cpu / 2, "loadgen": cpu, "app-baseline": cpu,
                     "app-variant": cpu, "app-baseline front": cpu / 4,
                     "app-variant front": cpu / 8}}
    if requests is not None:
        out["requests_by_node"] = requests
    return out


@pytest.mark.parametrize("shared_by, expected", [(1, 200.0), (2, None)])
def test_database_cpu_per_transaction_only_when_the_arm_had_the_database_to_itself(shared_by, expected):
    from tuninglab import telemetry
    window = telemetry.window(_Stack(), "app-baseline", _snapshot(0, 0.0), _snapshot(10, 2.0),
                              transactions=10, load_s=10, shared_by=shared_by)
    assert window["db_cpu_per_tx_ms"] == expected
    assert window["cpu_per_tx_ms"] == 200.0  # the node's own CPU is its own either way
    assert "members" not in window


def test_a_front_counts_its_own_nodes_web_server_per_transaction():
    """A node behind a web server of its own (front.py): the window holds that front's CPU per
    transaction, not the other node's front's, and its utilisation beside the load generator;
    a node without a front has no such figure."""
    from tuninglab import telemetry
    stack = _Stack(fronts=("app-baseline", "app-variant"))
    window = telemetry.window(stack, "app-baseline", _snapshot(0, 0.0), _snapshot(10, 2.0),
                              transactions=10, load_s=10)
    assert window["front_cpu_per_tx_ms"] == 50.0  # 0.5 s over 10 transactions
    assert window["containers"]["app-variant front"]["cpu_s"] == 0.25
    assert "front_cpu_per_tx_ms" not in telemetry.window(
        _Stack(), "app-baseline", _snapshot(0, 0.0), _snapshot(10, 2.0), transactions=10,
        load_s=10)


def test_two_databases_count_together_each_against_its_own_quota():
    """The database CPU per transaction is every database's; each one's utilisation is its
    CPU over its quota (a database without one: over its cpuset)."""
    from tuninglab import telemetry
    stack = _Stack(db_cpus={"db": 0.25, "db2": None})
    window = telemetry.window(stack, "app-baseline", _snapshot(0, 0.0), _snapshot(10, 2.0),
                              transactions=10, load_s=10)
    assert window["db_cpu_per_tx_ms"] == 300.0  # 2 s + 1 s over 10 transactions
    assert window["containers"]["db"]["cpu_utilisation"] == pytest.approx(0.8)  # 0.2 of 0.25
    assert window["containers"]["db2"]["cpu_utilisation"] == pytest.approx(0.1)  # 0.1 of 1 CPU


def test_a_cluster_reads_as_one_server_with_each_nodes_share():
    """Its nodes' CPU together (per transaction and against their quotas together), the
    busiest compiler for the JIT rule, and what each node did, requests included."""
    from tuninglab import telemetry
    nodes = ("app-baseline", "app-variant")
    stack = _Stack(balancers={"lb": nodes})
    window = telemetry.window(stack, "lb", _snapshot(0, 0.0, nodes, (0.0, 0.0), {"app-baseline": 5,
                                                                                  "app-variant": 0}),
                              _snapshot(10, 2.0, nodes, (1.0, 4.0), {"app-baseline": 15,
                                                                     "app-variant": 30}),
                              transactions=20, load_s=10)
    assert window["cpu_per_tx_ms"] == 200.0  # 4 s of CPU over 20 transactions
    assert window["containers"]["app"]["allowed_cpus"] == 1.0
    assert window["containers"]["app"]["cpu_utilisation"] == pytest.approx(0.4)
    assert window["jit_busy"] == pytest.approx(0.4)
    assert {n: m["requests"] for n, m in window["members"].items()} == {"app-baseline": 10,
                                                                         "app-variant": 30}
    assert window["other_nodes_cpu_s"] == 0


# --------------------------------------------------------------------------- validity of a run


def _error_free_run():
    """A valid 20-block database-switch run: the recipe, its plan and its trials."""
    recipe = _recipe("datasource-max-pool-size", "guide")
    plan = compile_plan(recipe, switch="database")
    trials = _run(plan, {"baseline": 500.0, "variant": 500.0}, blocks=20)
    for t in trials:
        t["errors"] = []
    return recipe, plan, trials


def test_a_run_stays_valid_while_ninety_percent_of_its_blocks_are_usable():
    from tuninglab.experiment import _analyse
    recipe, plan, trials = _error_free_run()
    log = {"retried": [{"block": b, "as": 20 + b} for b in range(10)], "unresolved": [3, 7]}
    _, validity = _analyse(recipe, plan, trials, log, planned=20, min_usable_share=0.9)
    assert validity["valid"] and validity["unresolved_blocks"] == [3, 7]
    log["unresolved"] = [3, 7, 11]
    _, validity = _analyse(recipe, plan, trials, log, planned=20, min_usable_share=0.9)
    assert not validity["valid"]
    assert "3 of 20 block(s) still disturbed" in validity["problems"][0]


def test_an_ab_run_over_an_arrival_rate_also_gets_each_configurations_load_curve():
    recipe = _recipe("arrival-rate-admission", "thesis")
    plan = compile_plan(recipe, switch="reload")
    assert plan.kind == AB_BY_LOAD and plan.load_key == "rate"
    capacity = {"baseline": 80.0, "variant": 85.0}
    values = {}
    for arm in plan.arms:
        offered = arm.load["rate"]
        served = min(offered, capacity[arm.level])
        if arm.level == "baseline" and offered > 100:
            served = 60.0  # the unbounded queue collapses past saturation
        values[arm.id] = served
    trials = _run(plan, values, blocks=8, noise=0.005)
    analysis = analyse(recipe, plan, trials)
    assert len(analysis["comparisons"]) == 6
    curves = {c["level"]: c for c in analysis["curves"]}
    assert curves["baseline"]["falls_past_saturation"] is True
    assert curves["variant"]["falls_past_saturation"] is False
    assert curves["variant"]["saturation"] == "variant/rate=100"


def test_dropped_arrivals_are_an_error_unless_the_recipe_allows_them():
    load = {"requests": 900, "failed": 0, "error_rate": 0.0, "dropped_iterations": 100,
            "fail_reasons": {}}
    [error] = trial_errors(_recipe(), load)
    assert "100 dropped iterations (10.0% of the arrivals)" in error
    assert trial_errors(_recipe("arrival-rate-admission", "thesis"), load) == []


# --------------------------------------------------------------------------- client-side change


def test_a_workload_change_is_proven_by_the_connections_its_window_opened():
    """Requests that asked for a new connection every 100 must have opened them: a server that
    ignored Connection: close would keep them open and the count would fall short."""
    from types import SimpleNamespace

    from tuninglab.changes.workload import WorkloadChange
    from tuninglab.plan import Arm
    recipe = SimpleNamespace(change=SimpleNamespace(workload={"requests_per_connection": 0}),
                             workload=SimpleNamespace(model="closed", users=32,
                                                      requests_per_connection=5))
    kind = WorkloadChange(recipe)
    baseline = Arm("baseline", "Baseline", "baseline", None)
    variant = Arm("variant", "Variant", "variant", None)
    assert kind.load_for(baseline) == {} and kind.load_for(variant) == {"requests_per_connection": 0}

    honoured = {"connections": 57, "connections_expected": 57, "failed": 0}
    ignored = {"connections": 32, "connections_expected": 57, "failed": 0}
    missing = {"connections": None, "connections_expected": None, "failed": 0}
    assert all(c.ok for c in kind.read_back_load(baseline, honoured))
    assert not all(c.ok for c in kind.read_back_load(baseline, ignored))
    assert not any(c.ok for c in kind.read_back_load(variant, missing))
    # A limit no user reached in the window closed nothing: the arms would be the same.
    unreached = {"connections": 32, "connections_expected": 32, "failed": 0, "requests": 700}
    assert all(c.ok for c in kind.read_back_load(variant, unreached))
    assert not all(c.ok for c in kind.read_back_load(baseline, unreached))


def test_a_recommendation_cites_only_telemetry_that_moved_enough_to_explain_something():
    """The io sweep of 25 November cited 'GC 0.1 % against 0.2 %' as its reason: a share that
    doubles from nothing explains nothing. Shares count by percentage points, amounts by a
    relative change and an absolute floor."""
    from tuninglab.analysis.advice import _largest_shift
    assert _largest_shift({"gc_time": 0.001}, {"gc_time": 0.002}) is None
    assert _largest_shift({"gc_time": 0.02, "app_cpu": 0.70}, {"gc_time": 0.03, "app_cpu": 0.98}) \
        == "app_cpu"
    assert _largest_shift({"pool_wait_ms": 0.01}, {"pool_wait_ms": 0.03}) is None
    assert _largest_shift({"pool_wait_ms": 120.0}, {"pool_wait_ms": 0.0}) == "pool_wait_ms"
    assert _largest_shift({"latency_p99": 300.0}, {"latency_p99": 310.0}) is None


# --------------------------------------------------------------------------- launches


def _launched_run(plan, true, launch_luck, blocks=12, launches=3, noise=0.01, seed=3):
    """A node-per-value sweep whose nodes start anew in each of ``launches`` periods; each
    launch of each node draws its own speed (``launch_luck``: the spread between launches)."""
    rng = np.random.default_rng(seed)
    per = -(-blocks // launches)
    luck = {(arm.id, p): math.exp(rng.normal(0, launch_luck))
            for arm in plan.arms for p in range(launches)}
    trials, index = [], 0
    for block in design.blocks(plan.slots, blocks, seed, period_blocks=per):
        for arm in block.arms:
            value = true[arm] * luck[(arm, block.period)] * math.exp(rng.normal(0, noise))
            trial = _trial(index, block.index, arm, value)
            trial["period"] = block.period
            trials.append(trial)
            index += 1
    return trials


def test_launches_divide_a_node_per_value_sweep_into_periods_and_nothing_else():
    from types import SimpleNamespace

    from tuninglab.experiment import period_blocks
    from tuninglab.swaps import ReloadSwitcher, RestartSwitcher, Switcher, switcher_for
    heap = compile_plan(_recipe("jvm-heap-size", "thesis"), switch="restart")
    assert period_blocks(heap, SimpleNamespace(blocks=12, launches=3, periods=4)) == 4
    assert period_blocks(heap, SimpleNamespace(blocks=12, launches=1, periods=4)) is None
    threads = compile_plan(_recipe("io-task-max-threads", "guide"), switch="runtime")
    assert period_blocks(threads, SimpleNamespace(blocks=12, launches=3, periods=4)) is None
    run = lambda plan: SimpleNamespace(plan=plan)  # noqa: E731
    assert type(switcher_for(run(heap))) is RestartSwitcher
    pool = compile_plan(_recipe("datasource-pool-size-sweep", "guide"), switch="reload")
    assert type(switcher_for(run(pool))) is ReloadSwitcher
    assert type(switcher_for(run(threads))) is not RestartSwitcher
    assert isinstance(switcher_for(run(threads)), Switcher)


def test_launch_luck_widens_a_sweeps_intervals_instead_of_reading_as_an_effect():
    """Five heap sizes with the same true throughput, each launch of each node 5 % lucky or
    unlucky (sd): pairing by block alone calls values apart that are not; counting the
    launches keeps false claims near the 5 % the interval promises, and its bands are wider."""
    recipe = _recipe("jvm-heap-size", "thesis")
    plan = compile_plan(recipe, switch="restart")
    true = {a.id: 500.0 for a in plan.arms}
    naive_claims = launch_claims = 0
    for seed in range(20):
        trials = _launched_run(plan, true, launch_luck=0.05, seed=seed)
        [launched] = analyse(recipe, plan, trials)["curves"]
        for t in trials:
            t["period"] = 0  # the same trials read as one launch per value
        [naive] = analyse(recipe, plan, trials)["curves"]
        claims = lambda curve: sum(c["verdict"] != "no significant change"  # noqa: E731
                                   for c in curve["against_best"].values())
        naive_claims += claims(naive)
        launch_claims += claims(launched)
        if seed == 0:
            point = launched["points"][0]
            assert point["launches"] == 3
            assert (point["ci_high"] - point["ci_low"]) > (
                naive["points"][0]["ci_high"] - naive["points"][0]["ci_low"])
    # 20 runs x 4 comparisons with the best, none of them real: with 40 runs, block pairing
    # claimed 54 % of them, the launches 5-6 % (2026-11-25)
    assert naive_claims > 30
    assert launch_claims < 12


def test_launches_need_a_sweep(tmp_path):
    from tuninglab.recipe import RecipeError
    text = (layout.recipes_dir() / "method" / "aa-noise" / "recipe.toml").read_text()
    target = tmp_path / "recipes" / "method" / "aa-noise"
    target.mkdir(parents=True)
    (target / "recipe.toml").write_text(text + "\n[profiles.full]\nlaunches = 3\n")
    with pytest.raises(RecipeError, match=r"profiles\.full\.launches: 3 without a \[sweep\]"):
        load_recipe(target)


def test_a_run_left_disturbed_says_whether_its_nodes_or_the_machine_disturbed_it():
    from tuninglab.experiment import _analyse
    recipe, plan, trials = _error_free_run()
    trials[0].update(status="disturbed", used=False,
                     disturbances=["app's JIT compiler busy 40% of the window > tolerance 30%"])
    trials[1].update(status="disturbed", used=False, disturbances=["db core busy 95%"])
    log = {"retried": [], "unresolved": [0, 1, 2]}
    _, validity = _analyse(recipe, plan, trials, log, planned=20, min_usable_share=0.9)
    assert validity["problems"][0].endswith("(1 disturbed trial(s) had a node still compiling, "
                                            "1 were disturbed by the machine)")


# --------------------------------------------------------------------------- compiler CPU


def test_the_compiler_threads_cpu_is_summed_from_their_stat_lines():
    from tuninglab.jvm_threads import parse_task_stats
    rest = "S 1 1 1 0 -1 4194624 10 0 0 0 {utime} {stime} 0 0 20 0 30 0 100 0 0"
    lines = [f"7 (java) {rest.format(utime=900, stime=100)}",
             f"12 (C2 CompilerThre) {rest.format(utime=250, stime=50)}",
             f"13 (C1 CompilerThre) {rest.format(utime=40, stime=10)}",
             f"14 (G1 (odd) name) {rest.format(utime=5000, stime=0)}"]
    threads = parse_task_stats("\n".join(lines) + "\nnot a stat line", 100)
    assert [(t.tid, t.name, t.cpu_s) for t in threads] == [
        (7, "java", pytest.approx(10.0)), (12, "C2 CompilerThre", pytest.approx(3.0)),
        (13, "C1 CompilerThre", pytest.approx(0.5)), (14, "G1 (odd) name", pytest.approx(50.0))]


def test_a_window_counts_the_task_threads_a_burst_found_and_left():
    """task-threads is read at both edges: after a pause, the start says how many threads the
    worker kept; a cluster has the count per node."""
    from tuninglab import telemetry
    before, after = _snapshot(0, 0.0), _snapshot(10, 2.0)
    before["members"]["app-baseline"]["task-threads"] = {"alive": 2}
    after["members"]["app-baseline"]["task-threads"] = {"alive": 16}
    window = telemetry.window(_Stack(), "app-baseline", before, after, transactions=10, load_s=10)
    assert window["task_threads"] == {"at_start": 2, "at_end": 16}
    nodes = ("app-baseline", "app-variant")
    before, after = _snapshot(0, 0.0, nodes, (0.0, 0.0)), _snapshot(10, 2.0, nodes, (0.0, 0.0))
    for snap, counts in ((before, (2, 16)), (after, (16, 16))):
        for node, count in zip(nodes, counts):
            snap["members"][node]["task-threads"] = {"alive": count}
    window = telemetry.window(_Stack(balancers={"lb": nodes}), "lb", before, after,
                              transactions=10, load_s=10)
    assert "task_threads" not in window
    assert window["members"]["app-baseline"]["task_threads"] == {"at_start": 2, "at_end": 16}


def test_the_cpu_counters_are_read_nearest_the_load(monkeypatch):
    """At a window's start the management calls and the docker exec come first and the CPU
    counters last; at its end the CPU counters come first: neither costs the node CPU inside
    the window."""
    from types import SimpleNamespace

    from tuninglab import telemetry
    calls = []
    monkeypatch.setattr(telemetry, "_gc_totals", lambda m: calls.append("node") or {})
    monkeypatch.setattr(telemetry, "read_threads",
                        lambda c, meter=None: calls.append("node") or None)
    monkeypatch.setattr(telemetry, "compiler_reading", lambda stack, node, threads: {})
    monkeypatch.setattr(telemetry.interference, "host_snapshot",
                        lambda local=True, read_stat=None: None)
    stack = _Stack()
    stack.meter = lambda role: SimpleNamespace(cpu_seconds=lambda: calls.append("cpu") or 0.0)
    stack.management_of = lambda node: None
    stack.local_engine = True
    telemetry.snapshot(stack, "app-baseline", (), edge="start")
    assert calls[0] == "node" and calls[-1] == "cpu"
    calls.clear()
    telemetry.snapshot(stack, "app-baseline", ())
    assert calls[0] == "cpu" and calls[-1] == "node"
    # the JVM's thread list is read once a node, for the compiler and the task threads alike
    reads = []
    monkeypatch.setattr(telemetry, "read_threads", lambda c, meter=None: reads.append(c) or [])
    snap = telemetry.snapshot(stack, "app-baseline", ("task-threads",))
    assert len(reads) == 1 and snap["members"]["app-baseline"]["task-threads"] == {"alive": 0}


def test_the_compilers_cpu_is_summed_thread_by_thread():
    """The JVM starts and retires compiler threads: a retired thread must not make the window
    read less than what the others used, and a new one counts from zero."""
    from tuninglab.compiler_cpu import compiler_cores
    before = {12: 30.0, 13: 5.0, 14: 2.0}
    after = {12: 31.0, 13: 5.5, 15: 0.5}  # 14 retired, 15 born in the window
    assert compiler_cores(before, after, 10) == pytest.approx(0.2)
    assert compiler_cores(None, after, 10) is None and compiler_cores(before, None, 10) is None


def test_a_window_records_the_busiest_compilers_cpu_next_to_its_wall_time():
    from tuninglab import telemetry
    nodes = ("app-baseline", "app-variant")
    before, after = _snapshot(0, 0.0, nodes, (0.0, 0.0)), _snapshot(10, 2.0, nodes, (3.0, 1.0))
    for snap, cpu in ((before, (5.0, 9.0)), (after, (5.5, 9.2))):
        for node, seconds in zip(nodes, cpu):
            snap["members"][node]["jit_cpu_s"] = {7: seconds}  # one compiler thread
    window = telemetry.window(_Stack(balancers={"lb": nodes}), "lb", before, after,
                              transactions=10, load_s=10)
    assert window["jit_busy"] == pytest.approx(0.3) and window["jit_cpu"] == pytest.approx(0.05)
    assert window["jit_share"] == pytest.approx(0.1)  # of the half CPU the node may use
    assert window["members"]["app-variant"]["jit_cpu"] == pytest.approx(0.02)
    assert window["members"]["app-variant"]["jit_share"] == pytest.approx(0.04)
    after["members"]["app-variant"]["jit_cpu_s"] = None  # unreadable on one node
    assert telemetry.window(_Stack(balancers={"lb": nodes}), "lb", before, after,
                            transactions=10, load_s=10)["jit_cpu"] == pytest.approx(0.05)


def test_the_engine_s_own_sql_waits_for_a_free_slot_and_fails_on_anything_else(monkeypatch):
    """A server whose slots are all taken by clients it is turning away is asked again; any
    other failure, or a server still full after SLOT_WAIT_S, is an error at once."""
    from tuninglab.containers import PostgresNode
    db = PostgresNode.__new__(PostgresNode)
    answers = ["FATAL:  sorry, too many clients already"] * 2 + ["t"]

    def run(command, user=""):
        answer = answers.pop(0)
        if answer.startswith("FATAL"):
            raise RuntimeError(f"db: psql exited 2: {answer}")
        return answer + "\n"

    monkeypatch.setattr(db, "run", run, raising=False)
    monkeypatch.setattr("tuninglab.containers.time.sleep", lambda s: None)
    assert db.sql("SELECT pg_reload_conf()") == "t" and answers == []
    answers[:] = ["FATAL:  password authentication failed"]
    with pytest.raises(RuntimeError, match="password"):
        db.sql("SELECT 1")
    db.SLOT_WAIT_S = 0.0
    answers[:] = ["FATAL:  sorry, too many clients already"] * 5
    with pytest.raises(RuntimeError, match="too many clients"):
        db.sql("SELECT 1")


def test_the_statement_cache_window_sums_the_nodes_counters_and_reads_the_apps_data_source():
    """The window's cache hits and misses are the counters' growth over every measured node,
    per completed transaction; a node whose statistics could not be read makes the block an
    error, not zeros. Both data-source readers ask the app's own data source, each its kind."""
    from types import SimpleNamespace

    from tuninglab import telemetry
    names = telemetry.CACHE_COUNTERS
    pairs = [({names["hits"]: 10, names["misses"]: 5, names["accesses"]: 15},
              {names["hits"]: 90, names["misses"]: 5, names["accesses"]: 95,
               "PreparedStatementCacheCurrentSize": 40}),
             ({names["hits"]: 0, names["misses"]: 0, names["accesses"]: 0},
              {names["hits"]: 20, names["misses"]: 2, names["accesses"]: 22,
               "PreparedStatementCacheCurrentSize": 30})]
    window = telemetry._statement_cache_window(pairs, transactions=50)
    assert (window["hits"], window["misses"], window["accesses"]) == (100, 2, 102)
    assert window["hits_per_tx"] == 2.0 and window["size"] == 70
    assert telemetry._statement_cache_window([({}, {"error": "no such resource"})], 50) == {
        "error": "no such resource"}

    asked = []
    management = SimpleNamespace(read_resource=lambda address, runtime: asked.append(address))
    stack = SimpleNamespace(management_of=lambda node: management,
                            app_under_test=SimpleNamespace(datasource=lambda: "ShopDS"))
    for name in ("datasource-pool", "statement-cache"):
        telemetry.RUNTIME_SOURCES[name](stack, "app", None)
    assert [dict(a)["data-source"] for a in asked] == ["ShopDS", "ShopDS"]
    assert [dict(a)["statistics"] for a in asked] == ["pool", "jdbc"]


def test_the_wait_for_the_last_windows_requests_ends_at_its_limit(monkeypatch):
    """A node whose task threads stay busy (requests deadlocking among themselves) is waited
    for up to the limit, then the window goes on; an idle node is not waited for."""
    from types import SimpleNamespace

    from tuninglab import telemetry
    stack = SimpleNamespace(members=lambda target: [target], management_of=lambda node: node)
    busy = {"busy-task-thread-count": 8, "queue-size": 0}
    monkeypatch.setattr(telemetry, "_runtime", lambda management, address: busy)
    waited = telemetry.wait_until_idle(stack, "app-1", timeout_s=0.3, poll_s=0.05)
    assert waited == 0.3
    busy["busy-task-thread-count"] = 0
    assert telemetry.wait_until_idle(stack, "app-1", timeout_s=0.3, poll_s=0.05) < 0.1


def test_a_clusters_smoke_test_sends_every_node_its_share_whatever_the_apps_size():
    from types import SimpleNamespace

    from tuninglab import cluster
    four, two = SimpleNamespace(nodes=4), SimpleNamespace(nodes=2)
    nine = SimpleNamespace(transactions=tuple("abcdefghi"))  # orderentry's smoke list
    one = SimpleNamespace(transactions=("List",))  # a user's app with one transaction
    assert cluster.smoke_rounds(four, nine) == 4 and cluster.smoke_rounds(two, nine) == 2
    assert cluster.smoke_rounds(four, one) == 36  # 9 requests a node either way
    assert cluster.smoke_rounds(two, SimpleNamespace(transactions=tuple("abcd"))) == 5


def _by_load_result() -> dict:
    """An A/B result at three load levels whose first level's interval excludes zero but whose
    Holm-adjusted p does not (the analysis called it no significant change)."""
    def level(users, verdict, delta, low, high, p_holm):
        return {"load": {"users": users}, "verdict": verdict, "baseline": "baseline",
                "variant": "variant", "pairs": 10,
                "metrics": {"throughput": {"primary": True, "delta": delta, "ci_low": low,
                                           "ci_high": high, "verdict": "worse",
                                           "p_holm": p_holm, "detectable": 0.08,
                                           "baseline": 100.0, "variant": 93.0}}}
    return {"validity": {"valid": True}, "verdict": "mixed", "primary_metric": "throughput",
            "profile": "full", "kind": "ab-by-load",
            "analysis": {"kind": "ab-by-load", "verdict": "mixed", "comparisons": [
                level(1, "no significant change", -0.068, -0.123, -0.009, 0.057),
                level(16, "worse", -0.113, -0.161, -0.061, 0.003)]}}


def test_a_run_at_several_loads_says_each_level_s_verdict_and_its_primary_row_says_the_same():
    result = _by_load_result()
    line = result_headline(result)
    assert line.startswith("verdict: mixed (throughput at users 1: no significant change, ")
    assert "users 16: worse, -11.3 % [-16.1 %, -6.1 %]" in line and "Holm over" in line
    first = report._comparison_lines(result["analysis"]["comparisons"][0])
    row = next(line for line in first if line.startswith("*throughput"))
    # the level's verdict (adjusted), not the unadjusted interval's "worse"
    assert row.endswith("no significant change (Holm over the load levels)")


@pytest.mark.parametrize("shared_by", [1, 2])
def test_a_window_counts_the_node_s_and_the_database_s_network_bytes_per_transaction(shared_by):
    """metrics.runtime "network": the measured node's bytes, and the database's beside them
    where the arm had the database to itself (the tier behind the nodes: thesis 8.3)."""
    from tuninglab import telemetry
    before, after = _snapshot(0, 0.0), _snapshot(10, 2.0)
    before["members"]["app-baseline"]["network"] = {"sent_bytes": 0, "received_bytes": 0}
    after["members"]["app-baseline"]["network"] = {"sent_bytes": 50_000, "received_bytes": 30_000}
    before["database_networks"] = {"db": {"sent_bytes": 100, "received_bytes": 100}}
    after["database_networks"] = {"db": {"sent_bytes": 20_100, "received_bytes": 8_100}}
    window = telemetry.window(_Stack(), "app-baseline", before, after, transactions=10, load_s=10,
                              shared_by=shared_by)
    assert window["network"]["per_tx"] == {"sent_bytes": 5_000.0, "received_bytes": 3_000.0}
    databases = window["network"]["databases"]
    if shared_by == 1:
        assert databases["db"]["per_tx"] == {"sent_bytes": 2_000.0, "received_bytes": 800.0}
    else:
        assert databases == {"error": "shared by 2 arms measured side by side"}


def test_a_clusters_smoke_test_runs_the_rest_of_its_share_only_when_a_node_served_none(
        monkeypatch):
    from types import SimpleNamespace

    from tuninglab import cluster, load
    names = ["app-1", "app-2", "app-3"]
    served = dict.fromkeys(names, 0)
    calls = []

    def smoke(loadgen, rounds, target, app, to=names):  # each round: one request per node in to
        calls.append(rounds)
        for name in to:
            served[name] += rounds

    balancer = SimpleNamespace(policy=lambda: "roundrobin", requests_by_node=lambda: dict(served))
    app = SimpleNamespace(transactions=("Search", "Page"))
    stack = SimpleNamespace(balancers={cluster.BALANCER_NAME: balancer}, loadgen=None,
                            app_under_test=app)
    spec = cluster.ClusterSpec.of(3, 0.33)
    monkeypatch.setattr(cluster, "_view", lambda stack, name: f"[{name}|1] (3) [{', '.join(names)}]")
    monkeypatch.setattr(cluster, "smoke_test", smoke)
    report = cluster.verify(stack, spec, cluster.ClusterReport())
    assert calls == [load.SMOKE_ROUNDS]  # every node served: no more rounds
    assert report.requests_by_node == dict.fromkeys(names, 2)

    # A sticky first pass that reached two nodes: the rest of the share, then every node.
    calls.clear()
    passes = iter([names[:2], names])
    monkeypatch.setattr(cluster, "smoke_test",
                        lambda *a, **k: smoke(*a, **k, to=next(passes)))
    report = cluster.verify(stack, spec, cluster.ClusterReport())
    assert calls == [2, cluster.smoke_rounds(spec, app) - 2] and calls[1] > 0
    assert min(report.requests_by_node.values()) > 0

    # A node that serves none even then fails the cluster.
    calls.clear()
    monkeypatch.setattr(cluster, "smoke_test", lambda *a, **k: smoke(*a, **k, to=names[:2]))
    with pytest.raises(cluster.ClusterError, match="app-3 served no request"):
        cluster.verify(stack, spec, cluster.ClusterReport())
    assert len(calls) == 2


class _ScriptedNodes:
    """Stands in for warmup._windows: each node's compiler share, window after window, from a
    script; a stack with one member per node whose widening is counted."""

    def __init__(self, compile_shares: dict[str, list[float]],
                 plateau_shares: dict[str, list[float]] | None = None):
        self.script = {"compile": compile_shares, "plateau": plateau_shares or {}}
        self.widened = 0

    def members(self, node):
        return [node]

    def widen(self, member):
        self.widened += 1

    def restore(self, member):
        self.widened -= 1

    def windows(self, stack, specs, phase, windows, say, between_windows=None, seconds=5):
        found = {}
        for node in specs:
            done = sum(1 for w in windows[node] if w.phase == phase)
            share = self.script[phase][node][done]
            found[node] = Window(phase, seconds, 100.0, 0.0, jit_busy=share, jit_share=share)
            windows[node].append(found[node])
        return found


def _phase_lengths(records, phase):
    return {node: sum(1 for w in r["windows"] if w["phase"] == phase)
            for node, r in records.items()}


def test_reloaded_nodes_warming_side_by_side_end_when_each_has_passed(monkeypatch):
    """Two reloaded nodes whose compilers hover around the quiet threshold: with the rule for
    JVMs that compiled before, a node that was quiet for two windows stays done, so the phase
    ends when the other is quiet too; a fresh JVM's rule (no latch) waits for a window where
    both are quiet at once. The same holds for the plateau's quiet windows."""
    from tuninglab import warmup
    # app-1 is quiet in windows 2-3, busy in 4; app-2 quiet in 4-5: together never twice in a row
    compile_shares = {"app-1": [0.2, 0.01, 0.01, 0.03, 0.01, 0.03] + [0.01] * 6,
                      "app-2": [0.2, 0.05, 0.05, 0.01, 0.01, 0.03, 0.01, 0.03] + [0.01] * 4}
    # plateau: app-1 quiet over windows 1-3, then a burst; app-2 quiet over windows 2-4
    plateau_shares = {"app-1": [0.0, 0.0, 0.0, 0.3] + [0.0] * 8,
                      "app-2": [0.3, 0.0, 0.0, 0.0, 0.0, 0.3] + [0.0] * 6}
    specs = {"app-1": None, "app-2": None}

    def run(rule):
        nodes = _ScriptedNodes(compile_shares, plateau_shares)
        monkeypatch.setattr(warmup, "_windows", nodes.windows)
        records = warmup.warm_up(nodes, dict(specs), compile_max_s=60, plateau_max_s=60,
                                 rule=rule, say=lambda _: None, compile_side_by_side=True)
        assert nodes.widened == 0  # every widened member restored
        return records

    latched = run(SteadyRule.rewarmed(3))
    assert _phase_lengths(latched, "compile") == {"app-1": 5, "app-2": 5}
    assert _phase_lengths(latched, "plateau") == {"app-1": 4, "app-2": 4}
    assert all(r["steady"] for r in latched.values())
    assert latched["app-1"]["rule"]["latch"] is True
    together = run(dataclasses.replace(SteadyRule.rewarmed(3), latch=False))
    # both quiet twice in a row first in windows 9-10; both steady at once first in window 9
    assert _phase_lengths(together, "compile") == {"app-1": 10, "app-2": 10}
    assert _phase_lengths(together, "plateau") == {"app-1": 9, "app-2": 9}
    assert SteadyRule().latch is False  # a fresh JVM's rule
