"""window_length.py and the engine's slot: a CI window that completes too few transactions is
measured again, twice as long, up to the profile's cap, and that length holds for the rest of
the run; the published profile keeps its windows fixed; an app too slow even at the cap is
named once, and the run goes on."""
from __future__ import annotations

from types import SimpleNamespace

from tuninglab import design, experiment, layout
from tuninglab.recipe import load_recipe
from tuninglab.window_length import WindowLength


def test_a_window_that_completed_enough_is_kept():
    length = WindowLength(3, min_transactions=10, max_s=24)
    assert length.grow({"baseline": 300, "variant": 12}) is None
    assert length.seconds == 3


def test_a_short_arm_doubles_the_window_up_to_the_cap():
    length = WindowLength(3, min_transactions=10, max_s=24)
    assert [length.grow({"baseline": 300, "variant": 0}) for _ in range(4)] == [6, 12, 24, None]
    assert length.seconds == 24


def test_the_cap_need_not_be_a_doubling_of_the_window():
    length = WindowLength(3, min_transactions=10, max_s=20)
    assert [length.grow({"a": 1}) for _ in range(4)] == [6, 12, 20, None]


def test_too_slow_is_said_once_and_only_at_the_cap():
    length = WindowLength(3, min_transactions=10, max_s=6)
    assert length.too_slow({"variant": 2}) is None  # it can still grow
    length.grow({"variant": 2})
    said = length.too_slow({"baseline": 40, "variant": 2})
    assert "too slow for this profile" in said and "variant 2" in said and "6 s" in said
    assert "baseline" not in said
    assert length.too_slow({"variant": 2}) is None


def test_without_min_transactions_the_window_is_fixed():
    length = WindowLength(10)
    assert length.grow({"baseline": 0}) is None and length.too_slow({"baseline": 0}) is None


def test_the_profiles_ci_grows_and_the_published_one_does_not():
    recipe = load_recipe(layout.recipes_dir() / "method" / "aa-noise")
    quick, full = recipe.profile("quick"), recipe.profile("full")
    assert quick.min_transactions > 0 and quick.window_max_s > quick.window_s
    assert full.min_transactions == 0


def _slot_run(rates: dict[str, float], monkeypatch):
    """An engine run whose stack answers every call; the load window completes ``rate`` x its
    length transactions per arm. Returns the run, what it said, the windows the load ran, and
    the first block."""
    recipe = load_recipe(layout.recipes_dir() / "method" / "aa-noise")
    prof = recipe.profile("quick")
    run = experiment._Run.__new__(experiment._Run)
    run.recipe, run.prof, run.trials = recipe, prof, []
    run.window = WindowLength(prof.window_s, prof.min_transactions, prof.window_max_s)
    said, ran = [], []
    run.say = said.append
    run.clock = SimpleNamespace(done=lambda s: None)
    arms = {a: SimpleNamespace(id=a, label=a, load={}) for a in rates}
    run.plan = SimpleNamespace(assignment=lambda o: {"baseline": "app-1", "variant": "app-2"},
                               arm=lambda a: arms[a])
    run.rng = __import__("random").Random(1)
    run.switcher = SimpleNamespace(before_slot=lambda node, arm: [])
    run.verify = lambda node, arm: []
    # each arm's load: the node it is sent to, and the four requests it can have in flight
    spec = SimpleNamespace(with_load=lambda load: SimpleNamespace(
        at=lambda *a: SimpleNamespace(node=a[0], concurrency=4)))
    run.spec, run.streams = spec, {"app-1": 0, "app-2": 1}
    run.kind = SimpleNamespace(load_for=lambda arm: {}, target_for=lambda arm, node: node)
    run.stack = SimpleNamespace(loadgen=None)

    def fake_run(loadgen, load, seconds, tag):
        arm = "baseline" if load.node == "app-1" else "variant"
        ran.append((arm, seconds))
        n = int(rates[arm] * seconds)
        return {"transactions": {"Browse": {"count": n, "failed": 0, "latency_ms": {}}},
                "trial_s": seconds}
    # a trial is its summary, and the requests the window may have cut off (its last argument)
    run._trial = lambda block, arm, node, started, checks, summary, *rest: \
        {**summary, "cut_off": rest[-1]}
    monkeypatch.setattr(experiment.load, "run", fake_run)
    run.drains = []  # the longest wait the slot allowed for each node's last requests
    monkeypatch.setattr(experiment.telemetry, "wait_until_idle",
                        lambda stack, node, timeout_s: run.drains.append(timeout_s) or 0.0)
    monkeypatch.setattr(experiment.telemetry, "snapshot", lambda *a, **k: {})
    return run, said, ran, design.Block(0, (("baseline", "variant"),), period=0, orientation=1)


def test_the_slot_waits_for_the_last_windows_requests_as_long_as_its_profile_says(monkeypatch):
    run, said, ran, block = _slot_run({"baseline": 100.0, "variant": 100.0}, monkeypatch)
    summaries = run.slot(block, ("baseline", "variant"))
    assert run.drains == [run.prof.drain_max_s] * 2
    # no settling run here (the quick profile): only the window's own last requests are cut off
    assert run.prof.settle_s == 0 and [s["cut_off"] for s in summaries] == [4, 4]
    recipe = load_recipe(layout.recipes_dir() / "method" / "aa-noise")
    # CI makes no claim and waits briefly; a published window never starts behind another's work
    assert recipe.profile("quick").drain_max_s < recipe.profile("full").drain_max_s


def test_the_slot_measures_again_with_longer_windows_and_keeps_them(monkeypatch):
    run, said, ran, block = _slot_run({"baseline": 100.0, "variant": 1.0}, monkeypatch)
    summaries = run.slot(block, ("baseline", "variant"))
    # 1/s completes 3, 6 (short), then 12 (enough) transactions
    assert sorted({s for _, s in ran if s != run.prof.settle_s}) == [3, 6, 12]
    assert all(s["trial_s"] == 12 for s in summaries)
    # a window measured again follows one whose last requests the server may still finish
    assert all(s["cut_off"] == 2 * 4 for s in summaries)
    assert run.window.seconds == 12 and len(said) == 2
    assert "measuring again with 6 s windows" in said[0]
    ran.clear()
    run.slot(design.Block(1, (("baseline", "variant"),), period=0, orientation=1),
             ("baseline", "variant"))
    assert {s for _, s in ran if s != run.prof.settle_s} == {12}  # kept for the rest of the run


def test_an_app_too_slow_at_the_cap_is_named_and_the_run_goes_on(monkeypatch):
    run, said, ran, block = _slot_run({"baseline": 100.0, "variant": 0.0}, monkeypatch)
    summaries = run.slot(block, ("baseline", "variant"))
    assert [s["trial_s"] for s in summaries] == [24, 24]
    assert "too slow for this profile" in said[-1] and "variant 0" in said[-1]
