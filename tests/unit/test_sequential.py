"""Sequential stopping (analysis/sequential.py) on simulated runs: A/A runs claim an effect no
more often than a fixed-length run would (5 %), while looking at the same data with plain 95 %
intervals at every look claims more often (the test that fails without the correction); a
real effect stops early; an A/A run with a margin stops early for equivalence."""
from __future__ import annotations

import numpy as np
import pytest

from tuninglab import stats
from tuninglab.analysis import sequential

BUDGET, AT = 20, [8, 12, 16, 20]
RUNS, SD = 20_000, 0.03  # simulated runs; block-to-block sd of the log ratio (A/A floor)


def _intervals(d: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    """The paired t interval stats.compare gives on log ratios, for many runs at once."""
    n = d.shape[1]
    half = stats.t_quantile(level, n - 1) * d.std(axis=1, ddof=1) / np.sqrt(n)
    mean = d.mean(axis=1)
    return np.expm1(mean - half), np.expm1(mean + half)


def _simulate(effect: float, levels: list[float], margin: float = 0.0, seed: int = 7,
              at: list[int] = AT):
    """(share of runs that claimed an effect, mean blocks used) with these levels per look
    (after ``at`` blocks)."""
    d = np.random.default_rng(seed).normal(effect, SD, (RUNS, BUDGET))
    open_runs = np.ones(RUNS, dtype=bool)
    claims, used = np.zeros(RUNS, dtype=bool), np.full(RUNS, BUDGET)
    for k, (blocks, level) in enumerate(zip(at, levels)):
        low, high = _intervals(d[:, :blocks], level)
        decisions = np.array([sequential.decide(lo, hi, margin, k == len(at) - 1)
                              for lo, hi in zip(low, high)])
        stop = open_runs & (decisions != sequential.CONTINUE)
        claims |= stop & (decisions == sequential.EFFECT)
        used[stop] = blocks
        open_runs &= ~stop
    return claims.mean(), used.mean()


def test_the_vectorized_interval_is_stats_compares():
    d = np.random.default_rng(1).normal(0.01, SD, (1, 12))
    base = np.full(12, 100.0)
    c = stats.compare(base, base * np.exp(d[0]), higher_is_better=True, confidence=0.99)
    low, high = _intervals(d, 0.99)
    assert (low[0], high[0]) == pytest.approx((c.ci_low, c.ci_high), rel=1e-9)


def test_the_levels_grow_towards_the_fixed_designs():
    found = sequential.looks(AT, BUDGET)
    levels = [look.confidence for look in found]
    assert levels == sorted(levels, reverse=True)
    assert levels[0] > 0.995 and 0.95 < levels[-1] < 0.97


def test_aa_runs_claim_no_more_than_five_percent_with_the_correction():
    levels = [look.confidence for look in sequential.looks(AT, BUDGET)]
    rate, _ = _simulate(0.0, levels)
    assert rate <= 0.05 + 2 * (0.05 * 0.95 / RUNS) ** 0.5, rate


def test_runs_short_of_blocks_spend_all_the_alpha_at_their_last_look():
    # Every look one block short (a block lost for good): held to the spending at the
    # fractions they have, the runs claim less than 5 %, and with the last look spending all
    # the alpha left (final), as often as 5 % (two standard errors either way).
    short, se = [7, 11, 15, 19], (0.05 * 0.95 / RUNS) ** 0.5
    by_share = [look.confidence for look in sequential.looks(short, BUDGET)]
    final = [look.confidence for look in sequential.looks(short, BUDGET, final=True)]
    assert final[:-1] == by_share[:-1] and final[-1] < by_share[-1]
    assert abs(_simulate(0.0, final, at=short)[0] - 0.05) < 2 * se
    assert _simulate(0.0, by_share, at=short)[0] < 0.05 - 2 * se


def test_plain_intervals_at_every_look_claim_too_often():
    """What the correction is for: the same looks at 95 % each."""
    rate, _ = _simulate(0.0, [0.95] * len(AT))
    assert rate > 0.08, rate


def test_a_real_effect_stops_early():
    levels = [look.confidence for look in sequential.looks(AT, BUDGET)]
    rate, blocks = _simulate(0.04, levels)
    assert rate > 0.95 and blocks < 13, (rate, blocks)


def test_an_aa_run_with_a_margin_stops_for_equivalence():
    levels = [look.confidence for look in sequential.looks(AT, BUDGET)]
    rate, blocks = _simulate(0.0, levels, margin=0.05)
    assert rate <= 0.05 and blocks < 12, (rate, blocks)


@pytest.mark.parametrize("low, high, last, expected", [
    (0.01, 0.05, False, sequential.EFFECT), (-0.05, -0.01, False, sequential.EFFECT),
    (-0.02, 0.03, False, sequential.EQUIVALENT), (-0.02, 0.08, False, sequential.CONTINUE),
    (-0.02, 0.08, True, sequential.BUDGET)])
def test_decide(low, high, last, expected):
    assert sequential.decide(low, high, 0.05, last) == expected


def test_bad_looks_are_refused():
    for at in ([], [12, 8], [1, 20], [10, 25]):
        with pytest.raises(ValueError):
            sequential.looks(at, BUDGET)


def test_a_crossover_looks_only_once_four_periods_have_run():
    four = [i // 5 for i in range(20)]  # 4 periods of 5 blocks: no look before the end
    eight = [i // 3 for i in range(24)]  # 8 periods of 3 blocks
    every = list(range(20))  # every block its own period (a runtime switch)
    assert sequential.look_points(four, True) == [20]
    assert sequential.look_points(eight, True) == [12, 18, 24]
    assert sequential.look_points(every, True) == [8, 12, 16, 20]


# Arms that take turns (plan.takes_turns): the looks count units of three turns.
MIRRORED = [("baseline", "variant") if k % 2 == 0 else ("variant", "baseline") for k in range(20)]


def test_a_unit_is_complete_only_when_its_third_turn_is_over():
    # b | v v | b b | ...: a turn that goes on into the next block is not over before it.
    counts = sequential.units_after(MIRRORED)
    assert counts[:6] == [0, 0, 1, 1, 1, 2] and counts[-1] == 7
    # every window its own turn (b v b v b v): a unit for every three windows
    assert sequential.units_after([("baseline", "variant")] * 3) == [0, 1, 2]


def test_taking_turns_looks_from_the_fourth_unit_and_after_the_last_block():
    found = sequential.turn_looks(MIRRORED)
    assert [(k.blocks, round(k.fraction * 7)) for k in found] == [(12, 4), (18, 6), (20, 7)]
    levels = [k.confidence for k in found]
    assert levels == sorted(levels, reverse=True) and levels[0] > 0.985
    # a run too short for a look before its end (the CI profile's few blocks) looks never
    assert sequential.turn_looks(MIRRORED[:6]) == []


def test_aa_runs_taking_turns_claim_no_more_than_five_percent():
    # The units' differences, simulated as the blocks' are above: with the units' levels an
    # A/A run claims at most 5 %; with a plain 95 % interval at each look, more.
    found = sequential.turn_looks(MIRRORED)
    at, total = [round(k.fraction * 7) for k in found], 7
    d = np.random.default_rng(11).normal(0.0, SD, (RUNS, total))

    def rate(levels):
        claimed = np.zeros(RUNS, dtype=bool)
        for units, level in zip(at, levels):
            low, high = _intervals(d[:, :units], level)
            claimed |= (low > 0) | (high < 0)
        return claimed.mean()
    noise = 2 * (0.05 * 0.95 / RUNS) ** 0.5
    assert rate([k.confidence for k in found]) <= 0.05 + noise
    assert rate([0.95] * len(found)) > 0.06
