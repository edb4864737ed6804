"""Arms taking turns on one cluster with a reload: the turns, not the blocks, are the units."""
from __future__ import annotations

from tuninglab import layout
from tuninglab.analysis import analyse
from tuninglab.analysis.comparisons import turn_pairs
from tuninglab.plan import compile_plan
from tuninglab.recipe import load_recipe


def _trial(index, block, turn, arm, throughput, used=True):
    return {"index": index, "block": block, "turn": turn, "arm": arm, "used": used,
            "status": "valid" if used else "disturbed",
            "metrics": {"throughput": throughput, "latency_p99": 100.0}}


# Mirrored blocks AB BA AB BA: the turns hold A, B B, A A, B B, A. Each turn has its own level
# (a reload's luck: 1.0, 1.3, 0.8, 1.2, 0.9), and B is 10 % above A within every turn.
LEVELS = [1.0, 1.3, 0.8, 1.2, 0.9]
SEQUENCE = [(0, 0, "baseline"), (0, 1, "variant"), (1, 1, "variant"), (1, 2, "baseline"),
            (2, 2, "baseline"), (2, 3, "variant"), (3, 3, "variant"), (3, 4, "baseline")]


def _trials():
    return [_trial(i, block, turn, arm, 400 * LEVELS[turn] * (1.1 if arm == "variant" else 1))
            for i, (block, turn, arm) in enumerate(SEQUENCE)]


def test_each_turn_is_averaged_once_and_paired_with_its_neighbour():
    trials = _trials()
    trials.append(_trial(8, 3, 4, "baseline", 1e6, used=False))  # set aside: not counted
    units = turn_pairs(trials)
    assert [(u["turn"], u["block"], u["arm"], u["windows"]) for u in units] == [
        (0, 0, "baseline", 1), (1, 0, "variant", 2), (2, 1, "baseline", 2),
        (3, 1, "variant", 2), (4, 2, "baseline", 1)]
    assert units[1]["metrics"]["throughput"] == 400 * 1.3 * 1.1


def test_a_run_whose_arms_take_turns_is_analysed_by_turns():
    recipe = load_recipe(layout.recipes_dir() / "thesis" / "cluster-entity-cache")
    plan = compile_plan(recipe, switch="reload")
    (c,) = analyse(recipe, plan, _trials())["comparisons"]
    assert c["pairing"] == "turns" and c["pairs"] == 2  # turns 0-1 and 2-3; turn 4 unpaired
    # Over blocks the same windows pair across turns, and the turns' levels pass for noise.
    blocks = analyse(recipe, compile_plan(recipe, switch="runtime"), _trials())["comparisons"][0]
    assert blocks["pairing"] == "blocks" and blocks["pairs"] == 4
