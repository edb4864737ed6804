"""The crossover: two nodes side by side, the arms swapping nodes between periods.

Known data in, known answer out: a node that is faster than its twin for a whole run must not
read as an effect, periods with fresh JVMs must widen the interval as much as they vary, and
the design must put each arm on each node half of the time."""
from __future__ import annotations

import math

import numpy as np
import pytest

from tuninglab import design, stats


def _crossover_run(rng, *, blocks=20, period_blocks=1, effect=0.0, node=0.0, noise=0.03,
                   period_sd=0.0, keeps_jvms=True):
    """Per-block (baseline, variant) throughputs of a crossover whose app-2 is ``node`` (log)
    faster than app-1, plus a random offset per period (``period_sd``, a fresh JVM's luck)."""
    plan = design.blocks([("baseline", "variant")], blocks, int(rng.integers(1 << 30)),
                         period_blocks=period_blocks)
    luck = {p: rng.normal(0, period_sd) for p in {b.period for b in plan}}
    base, var, periods, turns = [], [], [], []
    for block in plan:
        # orientation +1: baseline on app-1, variant on app-2
        on_two = "variant" if block.orientation > 0 else "baseline"
        speed = {arm: (node + luck[block.period] if arm == on_two else 0.0)
                 for arm in ("baseline", "variant")}
        base.append(500 * math.exp(speed["baseline"] + rng.normal(0, noise)))
        var.append(500 * math.exp(effect + speed["variant"] + rng.normal(0, noise)))
        periods.append(block.period)
        turns.append(block.orientation)
    return base, var, periods, (turns if keeps_jvms else None)


def _compare(base, var, periods, turns):
    return stats.compare(base, var, higher_is_better=True, periods=periods, orientations=turns)


def test_a_node_faster_than_its_twin_is_estimated_and_not_read_as_an_effect():
    rng = np.random.default_rng(4)
    base, var, periods, turns = _crossover_run(rng, node=math.log(1.05), noise=0.02)
    c = _compare(base, var, periods, turns)
    assert c.verdict == stats.NO_CHANGE
    assert c.node_effect == pytest.approx(0.05, abs=0.01)
    # Without the node term the same data give a far wider interval: the 5 % node swings
    # every pair's difference by +/-5 %.
    naive = stats.compare(base, var, higher_is_better=True)
    assert (c.ci_high - c.ci_low) < 0.6 * (naive.ci_high - naive.ci_low)


def test_a_real_effect_is_found_beside_a_node_effect():
    rng = np.random.default_rng(5)
    base, var, periods, turns = _crossover_run(rng, effect=math.log(1.04),
                                               node=math.log(0.95), noise=0.02)
    c = _compare(base, var, periods, turns)
    assert c.verdict == stats.BETTER and c.delta == pytest.approx(0.04, abs=0.015)
    assert c.node_effect == pytest.approx(-0.05, abs=0.015)


def test_false_positives_stay_near_five_percent_with_a_random_node_effect_per_run():
    rng = np.random.default_rng(6)
    claims = 0
    runs = 400
    for _ in range(runs):
        base, var, periods, turns = _crossover_run(rng, node=rng.normal(0, 0.03))
        claims += _compare(base, var, periods, turns).verdict != stats.NO_CHANGE
    assert 0.02 <= claims / runs <= 0.09


def test_fresh_jvms_per_period_widen_the_interval_as_much_as_they_vary():
    """A restart switch: every period has JVMs of their own (a launch's luck of 3 %). The
    interval rests on the periods and keeps its 5 % error rate; one resting on the blocks
    would claim a change in a quarter of A/A runs."""
    rng = np.random.default_rng(7)
    on_periods = on_blocks = 0
    runs = 300
    for _ in range(runs):
        base, var, periods, _ = _crossover_run(rng, blocks=20, period_blocks=5, period_sd=0.03,
                                               noise=0.02, keeps_jvms=False)
        on_periods += _compare(base, var, periods, None).verdict != stats.NO_CHANGE
        on_blocks += stats.compare(base, var, higher_is_better=True).verdict != stats.NO_CHANGE
    assert on_periods / runs <= 0.09
    assert on_blocks / runs >= 0.2


def test_periods_come_in_mirrored_orientations_and_blocks_stay_in_their_period():
    blocks = design.blocks([("a", "b")], 20, seed=3, period_blocks=5)
    assert [b.period for b in blocks] == [i // 5 for i in range(20)]
    turns = [blocks[i * 5].orientation for i in range(4)]
    assert turns[0] == -turns[1] and turns[2] == -turns[3]
    assert all(b.orientation == turns[b.period] for b in blocks)
    every = design.blocks([("a", "b")], 20, seed=3, period_blocks=1)
    assert sum(b.orientation for b in every) == 0  # each arm half of the time on each node
    assert design.blocks([("a", "b")], 20, seed=3, period_blocks=1) == every


def test_one_period_or_one_orientation_cannot_separate_the_nodes_from_the_change():
    c = stats.compare([100, 101], [105, 104], higher_is_better=True, periods=[0, 0],
                      orientations=[1, 1])
    assert c.verdict == stats.NOT_ASSESSED and c.node_effect is None
    with pytest.raises(ValueError, match="both orientations"):
        stats.compare([100, 101], [105, 104], higher_is_better=True, periods=[0, 0],
                      orientations=[1, -1])


# --------------------------------------------------------------------------- periods or pairs


def _rate(rng, runs, **kwargs):
    claims, pooled, widths = 0, 0, []
    for _ in range(runs):
        base, var, periods, turns = _crossover_run(rng, **kwargs)
        c = _compare(base, var, periods, turns)
        claims += c.verdict != stats.NO_CHANGE
        pooled += "on the pairs" in c.method
        widths.append(c.ci_high - c.ci_low)
    return claims / runs, pooled / runs, float(np.median(widths))


def test_a_reload_crossover_whose_periods_do_not_differ_rests_on_its_pairs():
    """Four periods of five blocks, a node 5 % faster than its twin through every reload: the
    periods differ only as much as their pairs, so the interval rests on the 20 pairs and is
    far narrower than one resting on 4 periods (2 degrees of freedom) would be."""
    rng = np.random.default_rng(11)
    rate, pooled, width = _rate(rng, 300, blocks=20, period_blocks=5, node=math.log(1.05),
                                noise=0.03)
    assert rate <= 0.08 and pooled >= 0.6 and width < 0.06


def test_launch_to_launch_differences_keep_the_interval_on_the_periods():
    """A restart crossover: each period's fresh JVMs differ by their own luck (3 %). The test
    for a difference between periods sees it, and the error rate stays near 5 %."""
    rng = np.random.default_rng(12)
    rate, pooled, _ = _rate(rng, 300, blocks=20, period_blocks=5, period_sd=0.03,
                            noise=0.03, keeps_jvms=False)
    assert rate <= 0.09 and pooled <= 0.4


def test_small_period_differences_do_not_inflate_the_error_rate_much():
    """The hard case for a preliminary test: periods that differ a little (1 %), too little
    to be seen every time."""
    rng = np.random.default_rng(13)
    rate, _, _ = _rate(rng, 400, blocks=20, period_blocks=5, period_sd=0.01, noise=0.03,
                       keeps_jvms=False)
    assert rate <= 0.09


def test_the_f_distribution():
    assert stats.f_cdf(1.0, 10, 10) == pytest.approx(0.5, abs=1e-9)
    assert stats.f_cdf(3.4903, 3, 12) == pytest.approx(0.95, abs=1e-3)  # F(0.95; 3, 12)


# --------------------------------------------------------------------------- switching arms


class _Kind:
    warms_every_arm = True

    def __init__(self):
        self.applied = []

    def apply_arm(self, stack, node, arm, state):
        self.applied.append((node, arm.id))
        return []


class _Members:
    """What the switcher asks of a stack: the nodes behind a target ("lb": a cluster)."""

    def members(self, target):
        return ["app-1", "app-2"] if target == "lb" else [target]


class _FakeRun:
    def __init__(self, holding):
        self.kind, self.stack, self.holding = _Kind(), _Members(), dict(holding)
        self.states = {"app": None, "app-1": None, "app-2": None}


def test_a_cluster_switches_every_node_behind_its_balancer_once_per_change():
    from tuninglab.plan import Arm
    from tuninglab.swaps import InPlaceSwitcher
    run = _FakeRun({"lb": "baseline"})
    switcher = InPlaceSwitcher(run)
    change = Arm("variant", "Variant", "variant", None, node="lb")
    switcher.before_slot("lb", change)
    switcher.before_slot("lb", change)
    assert run.kind.applied == [("app-1", "variant"), ("app-2", "variant")]


def test_a_cluster_change_that_needs_a_reload_reloads_and_warms_every_node_at_each_turn():
    """A cluster has one set of nodes, so its arms take turns on them: a window whose arm the
    nodes hold costs nothing; any other gets the setting on every node, a reload of each, the
    cluster verified as formed again and a warm-up, in that order, and the turn recorded."""
    from tuninglab.plan import Arm
    from tuninglab.swaps import ReloadEverywhereSwitcher
    done = []

    class Stack(_Members):
        def widen(self, node):
            done.append(("widen", node))

        def management_of(self, node):
            return type("M", (), {"reload": lambda _self: done.append(("reload", node)) or 4.0})()

    run = _FakeRun({"lb": "baseline"})
    run.stack, run.trials, run.say = Stack(), [{}, {}], lambda text: None
    run.spent = {"switches": 0.0}
    run.servers = type("S", (), {"verify": lambda _self, stack: done.append("verify") or ["ok"]})()
    run.warm_up = lambda arms, compiled_before: done.append(("warm", *arms, compiled_before)) or {
        "lb": {"steady": True}}
    switcher = ReloadEverywhereSwitcher(run)
    base = Arm("baseline", "Baseline", "baseline", None, node="lb")
    change = Arm("variant", "Variant", "variant", None, node="lb")
    assert switcher.before_slot("lb", base) == [] and done == [] and switcher.records == []
    assert switcher.before_slot("lb", change) == ["ok"]
    assert run.kind.applied == [("app-1", "variant"), ("app-2", "variant")]
    assert done[:4] == [("widen", "app-1"), ("reload", "app-1"), ("widen", "app-2"),
                        ("reload", "app-2")]  # one after the other: each rejoins a live view
    assert done[4:] == ["verify", ("warm", "lb", True)]  # warmed as JVMs that compiled before
    assert switcher.records == [{"before_trial": 2, "target": "lb", "level": "variant",
                                 "reload_s": {"app-1": 4.0, "app-2": 4.0},
                                 "warmup": {"lb": {"steady": True}}}]
    assert switcher.before_slot("lb", change) == [] and len(switcher.records) == 1
    assert run.spent["switches"] > 0  # the turn's time is a switch's in the result's phases


def test_a_node_that_already_holds_the_arm_is_not_written_again():
    """An arm that adds a resource (an async handler) must not be added twice: the runtime
    switch writes a node only when its arm changes."""
    from tuninglab.plan import Arm
    from tuninglab.swaps import InPlaceSwitcher
    base = Arm("baseline", "Baseline", "baseline", None)
    change = Arm("variant", "Variant", "variant", None)
    run = _FakeRun({"app-1": "baseline", "app-2": "variant"})  # node -> change level
    switcher = InPlaceSwitcher(run)
    switcher.before_slot("app-1", base)
    switcher.before_slot("app-2", change)
    assert run.kind.applied == []
    switcher.before_slot("app-1", change)
    switcher.before_slot("app-1", change)
    switcher.before_slot("app-1", base)
    assert run.kind.applied == [("app-1", "variant"), ("app-1", "baseline")]
    # Arms of one change level at two loads share the server's setting: nothing to write.
    switcher.before_slot("app-2", Arm("variant@users=32", "Variant, 32 users", "variant", None,
                                      load={"users": 32}))
    assert run.kind.applied == [("app-1", "variant"), ("app-1", "baseline")]


def test_a_warm_up_that_switches_in_place_takes_every_arm_in_turn():
    """Each arm's setting has code paths of its own; a node that will serve all of them in the
    trials serves them in turn while it warms, and a node that cannot switch keeps its arm."""
    from types import SimpleNamespace

    from tuninglab.experiment import _Run
    from tuninglab.plan import Arm
    from tuninglab.swaps import InPlaceSwitcher, ReloadSwitcher
    arms = tuple(Arm(f"t{n}", f"{n} threads", str(n), n, node="app") for n in (2, 16, 64))
    run = _FakeRun({"app": "2"})
    run.plan = SimpleNamespace(arms=arms, switch="runtime")
    run.switcher = InPlaceSwitcher(run)
    served = [_Run._warm_arm(run, "app", arms[0]).id for _ in range(4)]
    assert served == ["t16", "t64", "t2", "t16"]
    assert run.kind.applied == [("app", "t16"), ("app", "t64"), ("app", "t2"), ("app", "t16")]

    run = _FakeRun({"app": "2"})
    run.plan = SimpleNamespace(arms=arms, switch="reload")
    run.switcher = ReloadSwitcher(run)
    assert _Run._warm_arm(run, "app", arms[0]).id == "t2" and run.kind.applied == []


def test_the_plateau_phase_holds_the_first_arm_and_a_limit_never_rotates():
    """Steadiness compares window with window, so the plateau runs one arm; and a CPU limit
    is no code path: rotating it would throttle the compile phase meant to run without one."""
    from types import SimpleNamespace

    from tuninglab.experiment import _Run
    from tuninglab.plan import Arm
    from tuninglab.swaps import InPlaceSwitcher
    arms = tuple(Arm(f"q{n}", f"{n} CPUs", str(n), n, node="app") for n in (0.25, 0.5, 1))
    run = _FakeRun({"app": "0.25"})
    run.plan = SimpleNamespace(arms=arms, switch="runtime")
    run.switcher = InPlaceSwitcher(run)
    assert _Run._warm_arm(run, "app", arms[0], "compile").id == "q0.5"
    assert _Run._warm_arm(run, "app", arms[0], "plateau").id == "q0.25"
    assert _Run._warm_arm(run, "app", arms[0], "plateau").id == "q0.25"
    assert run.kind.applied == [("app", "q0.5"), ("app", "q0.25")]  # back once, then held

    run = _FakeRun({"app": "0.25"})
    run.kind.warms_every_arm = False
    run.plan = SimpleNamespace(arms=arms, switch="runtime")
    run.switcher = InPlaceSwitcher(run)
    assert _Run._warm_arm(run, "app", arms[0], "compile").id == "q0.25"
    assert run.kind.applied == []


def test_a_warm_up_window_runs_the_load_of_the_arm_the_node_serves(monkeypatch):
    """A change made by the client (another deployment's URL) is warmed with each arm's own
    load: the hook between windows returns the load of the arm the node serves next, and the
    next window (and the plateau) runs it."""
    from types import SimpleNamespace

    from tuninglab import warmup
    sent = []
    monkeypatch.setattr(warmup, "_compiler_reading", lambda stack, member: None)
    monkeypatch.setattr(warmup, "compiler_figures", lambda *args: None)
    monkeypatch.setattr(warmup, "busiest", lambda figures: {"jit_busy": 0.0, "jit_cpu": 0.5,
                                                            "jit_share": 0.5})
    monkeypatch.setattr(warmup.load, "run", lambda loadgen, spec, seconds, tag: sent.append(
        spec) or {})
    monkeypatch.setattr(warmup.load, "load_metrics", lambda summary: {
        "throughput": 10.0, "error_rate": 0.0, "requests": 10, "failed": 0})
    stack = SimpleNamespace(members=lambda node: [node], widen=lambda m: None,
                            restore=lambda m: None, allowed_cpus=lambda m, widened: 2.0,
                            loadgen=None)
    turns = iter(["replicated", "own", "replicated", "own"])
    hooks = []

    def between(node, phase):
        hooks.append(phase)
        return "first" if phase == "plateau" else next(turns)

    records = warmup.warm_up(stack, {"lb": "own"}, compile_max_s=15, plateau_max_s=5,
                             say=lambda m: None, between_windows=between)
    # three compile windows (never quiet: the cap), then one plateau window on the first arm
    assert sent == ["own", "replicated", "own", "first"]
    assert hooks == ["compile", "compile", "compile", "plateau", "plateau"]
    assert len(records["lb"]["windows"]) == 4


def test_the_warm_up_load_of_an_arm_is_what_the_change_has_the_client_do():
    from types import SimpleNamespace

    from tuninglab import changes, layout
    from tuninglab.experiment import _Run
    from tuninglab.load import LoadSpec
    from tuninglab.plan import compile_plan
    from tuninglab.recipe import load_recipe
    recipe = load_recipe(layout.recipes_dir() / "guide" / "http-session-replication")
    kind = changes.kind_for(recipe)
    plan = compile_plan(recipe, switch=kind.switch)
    run = SimpleNamespace(spec=LoadSpec.from_workload(recipe.workload), kind=kind.bind(plan.arms),
                          streams={"lb": 0})
    baseline, variant = plan.arms
    urls = [_Run._warm_spec(run, "lb", arm).base_url for arm in plan.arms]
    assert urls == ["http://lb:8080/sessioncart", "http://lb:8080/sessioncart-replicated"]
    assert _Run._warm_spec(run, "lb", variant).users == recipe.workload.users


def test_nodes_reloaded_between_periods_compile_side_by_side_and_fresh_jvms_one_at_a_time(
        monkeypatch):
    """A reload keeps the server's compiled code (over the stored runs a median of 4 compile
    windows a node after a reload, 18 after a fresh start), so a crossover's reload warms its
    two nodes' compile phases together; fresh JVMs (a run's first warm-up, a restart) still
    compile one at a time, where two at once starve each other's compiler threads."""
    from types import SimpleNamespace

    from tuninglab import experiment
    from tuninglab.experiment import _Run
    from tuninglab.plan import CROSSOVER, Arm
    from tuninglab.swaps import ReloadSwitcher
    asked, rules = [], []
    monkeypatch.setattr(experiment.warmup, "warm_up", lambda stack, specs, **kw: asked.append(
        (tuple(specs), kw["compile_side_by_side"])) or rules.append(kw["rule"])
        or {n: {} for n in specs})
    monkeypatch.setattr(experiment, "_say_warm", lambda *args: None)
    base = Arm("baseline", "Baseline", "baseline", None)
    change = Arm("variant", "Variant", "variant", None)
    arms = {"app-1": base, "app-2": change}
    profile = SimpleNamespace(compile_side_by_side=False, recompile_side_by_side=True,
                              compile_max_s=180, plateau_max_s=60, rewarm_windows=3)
    run = _FakeRun({"app-1": "baseline", "app-2": "variant"})
    run.prof, run.say, run.rng = profile, lambda text: None, __import__("random").Random(1)
    run.plan = SimpleNamespace(concurrency=2, layout=CROSSOVER,
                               arms_by_node=lambda orientation: arms)
    run._warm_spec = lambda node, arm: arm.id
    run._between, run._warm_arm = (lambda node, arm: None), (lambda node, arm, phase: arm)
    run.warm_up = lambda arms, compiled_before=False: _Run.warm_up(run, arms, compiled_before)
    run.stack = SimpleNamespace(widen=lambda node: None, management_of=lambda node: (
        SimpleNamespace(reload=lambda: 1.0)))

    _Run.warm_up(run, arms)  # the run's first warm-up on a new stack
    ReloadSwitcher(run).begin_period(-1)  # a reload between periods
    assert asked == [(tuple(asked[0][0]), False), (tuple(asked[1][0]), True)]
    assert set(asked[0][0]) == set(asked[1][0]) == {"app-1", "app-2"}
    # a fresh JVM's plateau has the trend test; a reloaded one's only the quiet compiler
    assert rules[0] == experiment.warmup.SteadyRule()
    assert rules[1] == experiment.warmup.SteadyRule.rewarmed(3)

    asked.clear()  # the published design without the knob: one node at a time after a reload
    run.prof = SimpleNamespace(**{**vars(profile), "recompile_side_by_side": False})
    ReloadSwitcher(run).begin_period(1)
    assert [side for _, side in asked] == [False]
