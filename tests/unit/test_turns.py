"""Arms taking turns on one cluster with a reload: the turns, not the blocks, are the units."""
from __future__ import annotations

from tuninglab import layout
from tuninglab.analysis import analyse
from tuninglab.analysis.comparisons import turn_triples
from tuninglab.plan import compile_plan
from tuninglab.recipe import load_recipe


def _trial(index, block, turn, arm, throughput, used=True):
    return {"index": index, "block": block, "turn": turn, "arm": arm, "used": used,
            "status": "valid" if used else "disturbed",
            "metrics": {"throughput": throughput, "latency_p99": 100.0}}


# Mirrored blocks AB BA AB BA AB BA AB: the turns hold A, B B, A A, B B, A A, B B, A A, B.
# Each turn has its own level (a reload's luck), and B is 10 % above A within every turn.
LEVELS = [1.0, 1.3, 0.8, 1.2, 0.9, 1.1, 1.0, 0.85]


def _sequence(blocks=7):
    """(block, turn, arm) in run order: blocks AB, BA, AB, ...; a turn ends where the arm
    changes."""
    out, turn, previous = [], -1, None
    for block in range(blocks):
        for arm in (("baseline", "variant") if block % 2 == 0 else ("variant", "baseline")):
            if arm != previous:
                turn, previous = turn + 1, arm
            out.append((block, turn, arm))
    return out


def _trials(drift=0.0):
    """Every turn at its level, the variant 10 % above; ``drift``: each turn that much above
    the one before (a steady drift, in parts of the level)."""
    return [_trial(i, block, turn, arm, 400 * (LEVELS[turn] + drift * turn)
                   * (1.1 if arm == "variant" else 1))
            for i, (block, turn, arm) in enumerate(_sequence())]


def test_each_turn_is_averaged_once_and_the_middle_one_meets_the_mean_of_its_neighbours():
    trials = _trials()
    trials.append(_trial(99, 6, 7, "baseline", 1e6, used=False))  # set aside: not counted
    units = turn_triples(trials)
    assert [(u["block"], u["turns"], u["arm"], u["windows"]) for u in units] == [
        (0, [1], "variant", 2), (0, [0, 2], "baseline", 3),
        (1, [4], "baseline", 2), (1, [3, 5], "variant", 4)]  # turns 6-7 left over
    assert units[0]["metrics"]["throughput"] == 400 * 1.3 * 1.1
    assert units[1]["metrics"]["throughput"] == 400 * (1.0 + 0.8) / 2


def test_a_turn_with_nothing_usable_starts_the_count_again_after_it():
    trials = [t for t in _trials() if t["turn"] != 1]  # turn 1's windows all set aside
    units = turn_triples(trials)
    assert [u["turns"] for u in units] == [[3], [2, 4], [6], [5, 7]]


def test_a_steady_drift_cancels_within_a_unit():
    """A drift of 5 % of the level per turn, and turn levels all alike: every unit still reads
    the variant 10 % above the baseline, whichever arm sits in the middle."""
    global LEVELS
    saved, LEVELS = LEVELS, [1.0] * 8
    try:
        units = turn_triples(_trials(drift=0.05))
    finally:
        LEVELS = saved
    for unit in range(2):
        a, b = (u["metrics"]["throughput"] for u in units if u["block"] == unit)
        ratio = a / b if units[2 * unit]["arm"] == "variant" else b / a
        assert abs(ratio - 1.1) < 1e-9


def test_a_run_whose_arms_take_turns_is_analysed_by_turns():
    recipe = load_recipe(layout.recipes_dir() / "thesis" / "cluster-entity-cache")
    plan = compile_plan(recipe, switch="reload")
    (c,) = analyse(recipe, plan, _trials())["comparisons"]
    assert c["pairing"] == "turn-triples" and c["pairs"] == 2  # turns 0-2 and 3-5
    # Over blocks the same windows pair across turns, and the turns' levels pass for noise.
    blocks = analyse(recipe, compile_plan(recipe, switch="runtime"), _trials())["comparisons"][0]
    assert blocks["pairing"] == "blocks" and blocks["pairs"] == 7


def test_two_turns_make_no_unit_and_no_verdict():
    """The CI profile's one block makes two turns: nothing to compare, said so."""
    recipe = load_recipe(layout.recipes_dir() / "thesis" / "cluster-entity-cache")
    plan = compile_plan(recipe, switch="reload")
    analysis = analyse(recipe, plan, _trials()[:2])
    assert analysis["comparisons"][0]["pairs"] == 0
    assert analysis["verdict"] == "not assessed"


def test_at_several_loads_a_unit_holds_only_the_two_arms_compared():
    """An A/B run at two loads taking turns: every turn holds one design at both loads, and the
    loads differ fivefold in throughput. Over all arms, a unit's outer turns mixed the two loads
    (blog-notifier-sessions, 2 December 2026: -39.5 % between two arms that both served 146
    pages a second); with the two arms only, each unit compares one load with itself."""
    trials, turn = [], 0
    for block in range(6):
        design = "baseline" if block % 2 == 0 else "variant"
        loads = (100, 500) if block % 3 else (500, 100)  # the loads' order varies in a turn
        for load in loads:
            trials.append(_trial(len(trials), block, turn, f"{design}/users={load}",
                                 load * (1.1 if design == "variant" else 1.0)))
        turn += 1
    for load in (100, 500):
        arms = (f"baseline/users={load}", f"variant/users={load}")
        units = turn_triples(trials, arms)
        assert len(units) == 4 and {u["arm"] for u in units} == set(arms)
        for unit in range(2):
            middle, outer = (u for u in units if u["block"] == unit)
            ratio = middle["metrics"]["throughput"] / outer["metrics"]["throughput"]
            assert abs(ratio - (1.1 if "variant" in middle["arm"] else 1 / 1.1)) < 1e-9
