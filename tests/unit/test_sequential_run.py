"""Sequential stopping inside the engine's trial loop (experiment._Run.blocks), with the
stack's part (a slot's trials) simulated: in a runtime crossover (every block its own period,
as the A/A recipe runs) a clear effect stops at the first look, a null effect inside the
margin stops for equivalence, an unclear one runs every block; the result says why, and its
intervals carry the stopping look's level. A reload crossover of four periods has no look
before its end."""
from __future__ import annotations

import dataclasses
import json
import math
import random
from types import SimpleNamespace

import numpy as np
import pytest

from tuninglab import design, experiment, layout, result
from tuninglab.analysis import sequential
from tuninglab.plan import compile_plan
from tuninglab.recipe import load_recipe


def _simulated_run(where: str, switch: str):
    """The engine's trial loop for a stored recipe's full profile, with nothing of the stack:
    the caller sets ``run.slot``. Returns the recipe, its plan, the planned blocks and the run."""
    recipe = load_recipe(layout.recipes_dir() / where)
    prof = recipe.profile("full")
    plan = compile_plan(recipe, switch=switch)
    blocks = design.blocks(plan.slots, prof.blocks, 11,
                           period_blocks=experiment.period_blocks(plan, prof))
    run = experiment._Run.__new__(experiment._Run)
    run.recipe, run.plan, run.prof, run.trials, run.periods = recipe, plan, prof, [], []
    run.looks = experiment._looks(plan, prof, blocks)
    run.say, run.retry_periods = (lambda text: None), []
    run.spent = {"switches": 0.0, "reruns": 0.0, "waiting": 0.0}
    run.clock = SimpleNamespace(total=len(blocks), done=lambda s: None)
    run.switcher = SimpleNamespace(begin_period=lambda orientation: None)
    return recipe, plan, blocks, run


def _trial(run, block, arm: str, value: float, disturbed: bool = False, **extra) -> dict:
    """A simulated trial of ``arm`` in ``block``, kept in the run's trials as the engine's
    slot keeps its own: usable unless disturbed (then run again at the end)."""
    trial = {"block": block.index, "arm": arm, "period": block.period,
             "orientation": block.orientation, "status": "disturbed" if disturbed else "valid",
             "used": not disturbed, "disturbances": [], "metrics": {"throughput": value},
             **extra}
    run.trials.append(trial)
    return trial


def _run(effect: float, sd: float, seed: int = 3):
    recipe, plan, blocks, run = _simulated_run("method/aa-noise", "runtime")
    rng = np.random.default_rng(seed)

    def slot(block, arm_ids):
        base = 400 * float(np.exp(rng.normal(0, sd)))
        return [_trial(run, block, arm, base * (float(np.exp(effect + rng.normal(0, sd)))
                                                if arm == "variant" else 1))
                for arm in arm_ids]
    run.slot = slot
    trials, log = run.blocks(blocks)
    return recipe, plan, blocks, trials, log


def test_the_published_profile_looks_every_four_blocks_from_the_eighth():
    recipe, plan, blocks, _, _ = _run(0.0, 0.02)
    looks = experiment._looks(plan, recipe.profile("full"), blocks)
    assert [k.blocks for k in looks] == [8, 12, 16, 20]
    assert experiment._looks(plan, recipe.profile("quick"), blocks) == []


def test_a_reload_crossover_of_four_periods_has_no_interim_look():
    # The profile's four periods (datasource-max-pool-size itself asks for eight since
    # 29 November 2026): two periods less the nodes' difference leave no look before the end.
    recipe = load_recipe(layout.recipes_dir() / "guide" / "datasource-max-pool-size")
    prof = dataclasses.replace(recipe.profile("full"), blocks=20, periods=4)
    plan = compile_plan(recipe, switch="reload")
    blocks = design.blocks(plan.slots, prof.blocks, 11,
                           period_blocks=experiment.period_blocks(plan, prof))
    assert experiment._looks(plan, prof, blocks) == []


def test_a_clear_effect_stops_at_the_first_look():
    _, _, _, trials, log = _run(0.10, 0.02)
    record = log["sequential"]
    assert record["stopped"] == sequential.EFFECT and record["blocks"] == 8
    assert len(trials) == 16 and record["looks"][0]["ci_low"] > 0
    assert record["confidence"] > 0.99


def test_no_effect_within_the_margin_stops_for_equivalence():
    _, _, _, trials, log = _run(0.0, 0.005)
    assert log["sequential"]["stopped"] == sequential.EQUIVALENT and len(trials) == 16


def test_an_unclear_effect_runs_every_block():
    _, _, _, trials, log = _run(0.03, 0.06)
    assert log["sequential"]["stopped"] == sequential.BUDGET and len(trials) == 40
    assert [k["decision"] for k in log["sequential"]["looks"]][-1] == sequential.BUDGET


def test_the_stored_result_says_why_and_at_which_level():
    stored = {"design": {"confidence": 0.99446, "blocks": [{}] * 20,
                         "sequential": {"stopped": "effect", "blocks": 10, "margin": 0.05,
                                        "alpha": 0.05, "looks": [{}]}}}
    assert result.interval_level(stored) == "99.4 %"
    assert "stopped after 10 of 20 planned blocks" in result.stopping_text(stored)
    assert result.interval_level({"design": {"confidence": 0.95}}) == "95 %"
    assert result.stopping_text({"design": {}}) is None


def _turns_run(effect: float, sd_turn: float, seed: int = 5):
    """A run whose arms take turns with a reload (jms-xa-two-phase), each turn landing at a
    level of its own (sd_turn), its windows close to it."""
    _, plan, blocks, run = _simulated_run("guide/jms-xa-two-phase", "reload")
    assert plan.takes_turns
    rng = np.random.default_rng(seed)
    turn = {"n": 0, "arm": None, "level": 1.0}

    def slot(block, arm_ids):
        (arm,) = arm_ids
        if arm != turn["arm"]:  # a reload: the target lands at a level of its own
            turn.update(n=turn["n"] + (turn["arm"] is not None), arm=arm,
                        level=float(np.exp(rng.normal(0, sd_turn))))
        value = 400 * turn["level"] * float(np.exp(rng.normal(0, 0.005)))
        value *= float(np.exp(effect)) if arm == "variant" else 1
        return [_trial(run, block, arm, value, turn=turn["n"])]
    run.slot = slot
    trials, log = run.blocks(blocks)
    return run, blocks, trials, log


def test_arms_taking_turns_stop_at_a_look_counted_in_units():
    run, blocks, trials, log = _turns_run(-0.40, 0.03)
    record = log["sequential"]
    assert [k.blocks for k in run.looks][-1] == len(blocks) and len(run.looks) >= 2
    assert record["stopped"] == sequential.EFFECT
    assert record["blocks"] == run.looks[0].blocks < len(blocks)
    assert len(trials) == 2 * record["blocks"] and record["looks"][0]["pairs"] >= 4


def test_arms_taking_turns_without_a_clear_effect_run_every_block():
    run, blocks, trials, log = _turns_run(0.02, 0.08)
    assert log["sequential"]["stopped"] == sequential.BUDGET and len(trials) == 2 * len(blocks)


def test_the_last_look_comes_once_after_the_re_runs():
    # A disturbed trial in the last planned block is run again at the end: the last look
    # waits for it, and is made once.
    _, _, blocks, run = _simulated_run("method/aa-noise", "runtime")
    run.looks = run.looks[-1:]  # the last look alone: no early stop
    rng = np.random.default_rng(9)
    run.stack = SimpleNamespace(local_engine=False)
    run._retry = lambda block, index, queue: dataclasses.replace(block, index=index)

    def slot(block, arm_ids):
        return [_trial(run, block, arm, 400 * float(np.exp(rng.normal(0, 0.2))),
                       disturbed=block.index in (len(blocks) - 1, len(blocks)))
                for arm in arm_ids]
    run.slot = slot
    _, log = run.blocks(blocks)
    last = [look for look in log["sequential"]["looks"] if look["blocks"] == len(blocks)]
    assert len(log["retried"]) == 2 and len(last) == 1


def test_a_look_with_fewer_usable_blocks_than_planned_is_held_to_their_level():
    # A clear effect, but the variant's node still compiling in most early blocks (their
    # trials disturbed, run again only at the end): the looks planned after 8, 12 and 16
    # blocks find 2, 3 and 7 usable ones, and each is held to the level the blocks it has
    # earn (the 12-block level on 3 blocks let a run claim on 6 December 2026).
    _, _, blocks, run = _simulated_run("method/aa-noise", "runtime")
    planned = {k.blocks: k.confidence for k in run.looks}
    rng = np.random.default_rng(4)
    run.stack = SimpleNamespace(local_engine=False)
    run._retry = lambda block, index, queue: dataclasses.replace(block, index=index)

    def slot(block, arm_ids):
        return [_trial(run, block, arm,
                       400 * float(np.exp(rng.normal(0, 0.05))) * (1.3 if arm == "variant" else 1),
                       disturbed=arm == "variant" and block.index < 12 and block.index % 4 != 3)
                for arm in arm_ids]
    run.slot = slot
    _, log = run.blocks(blocks)
    looks = log["sequential"]["looks"]
    # 2 usable: no interval, nothing decided; 3: the level 3 blocks of 20 earn, which the
    # spending leaves at nothing (a level of 1: no claim possible)
    assert [(k["blocks"], k["usable_blocks"], k["decision"]) for k in looks[:2]] == [
        (8, 0, sequential.CONTINUE), (12, 3, sequential.CONTINUE)]
    assert looks[1]["confidence"] == 1.0 > planned[12]
    # 7 usable at the look planned after 16: the level for 3 then 7 blocks, still stricter
    assert looks[2]["usable_blocks"] == 7 and looks[2]["confidence"] > planned[16]
    assert log["sequential"]["stopped"] == sequential.EFFECT


def test_a_look_at_a_level_with_no_finite_interval_decides_nothing():
    # A reload crossover's look on few usable blocks: an interval on period means with one
    # degree of freedom at a level near 1 has no finite ratio bounds, and computing it raised
    # (hibernate-bulk-load-cache's run of 6 December 2026 failed there, OverflowError). The
    # comparison now reports the unbounded end as such; the look decides nothing, stores it
    # as None (the result store writes strict JSON), and the run goes on.
    _, plan, blocks, run = _simulated_run("guide/hibernate-bulk-load-cache", "reload")
    for block in blocks[:8]:  # log ratios of +-400: an interval end beyond a float's range
        swing = 400 if block.index % 2 else -400
        for arm, value in (("baseline", 10.0), ("variant", 10.0 * math.exp(swing))):
            _trial(run, block, arm, value)
    c = run._primary_so_far(1 - 1e-12)
    assert c is not None and c.ci_high == math.inf and c.ci_low >= -1
    run.looks = [sequential.Look(blocks=8, fraction=0.4, confidence=1 - 1e-12),
                 sequential.Look(blocks=20, fraction=1.0, confidence=0.95)]
    record = {"looks": []}
    assert run._look(8, record) is False
    look = record["looks"][0]
    assert look["decision"] == sequential.CONTINUE and look["ci_high"] is None
    json.dumps(record, allow_nan=False)


def _run_with_variant_disturbed(disturbed, sd: float, seed: int):
    """aa-noise's trial loop, the variant's trials disturbed where ``disturbed(block index)``
    says (re-runs included: their index follows the planned blocks')."""
    _, _, blocks, run = _simulated_run("method/aa-noise", "runtime")
    rng = np.random.default_rng(seed)
    run.stack = SimpleNamespace(local_engine=False)
    run._retry = lambda block, index, queue: dataclasses.replace(block, index=index)

    def slot(block, arm_ids):
        return [_trial(run, block, arm, 400 * float(np.exp(rng.normal(0, sd))),
                       disturbed=arm == "variant" and disturbed(block.index))
                for arm in arm_ids]
    run.slot = slot
    _, log = run.blocks(blocks)
    return blocks, run, log["sequential"]


def test_a_last_look_short_of_blocks_spends_all_the_alpha_left():
    # One block of 20 lost for good (its re-runs disturbed too): the last look, on 19, is the
    # run's final analysis and spends what the looks before it left (on 7, 11 and 15 blocks
    # they spent a little less than planned), close to the planned last level, not the share
    # of 19/20 (96.7 %, stricter); the run's intervals carry that level.
    blocks, run, record = _run_with_variant_disturbed(lambda i: i == 5 or i >= 20, 0.3, 7)
    planned_last = run.looks[-1].confidence
    last = record["looks"][-1]
    assert last["usable_blocks"] == 19 and last["decision"] == sequential.BUDGET
    share = sequential.looks([7, 11, 15, 19], 20)[-1].confidence
    assert abs(last["confidence"] - planned_last) < 0.005 < share - last["confidence"]
    assert record["confidence"] == pytest.approx(last["confidence"], abs=1e-6)


def test_a_last_look_with_no_block_since_the_look_before_takes_its_place():
    # Every variant trial from block 12 on disturbed, re-runs too: the looks planned after 16
    # and 20 find the same 12 usable blocks. The one after 16 decides nothing; the last
    # replaces the look after 12 and spends all the alpha left (asking the spending for looks
    # after 8, 12 and 12 blocks raised before).
    _, _, record = _run_with_variant_disturbed(lambda i: i >= 12, 0.3, 7)
    looks = record["looks"]
    assert [k.get("usable_blocks") for k in looks] == [8, 12, 0, 12]
    assert looks[-1]["confidence"] == pytest.approx(
        sequential.looks([8, 12], 20, final=True)[-1].confidence, abs=1e-6)
