"""Sequential stopping: look at the primary interval at a few planned points of a run, and stop
as soon as the answer is known, without claiming more often than a fixed-length run would.

Looking at a 95 % interval after every block and stopping the first time it excludes zero
claims an effect in an A/A run far more often than 5 % of the time (each look is another
chance). A group sequential design spends the 5 % over the looks instead: the
O'Brien-Fleming-type spending function of Lan and DeMets,

    alpha(t) = 2 - 2 * Phi(z_{1 - alpha/2} / sqrt(t)),   t = blocks so far / block budget,

gives early looks almost nothing (an interval at 99.9 % or more) and leaves the last look
close to the fixed design's 95 %, so a run that goes to its budget loses little precision.
The boundaries come from the joint law of the looks' paired t statistics, simulated once with
a fixed seed, and become the confidence level each look's interval uses
(``Look.confidence``): the engine asks stats.compare for that level.

A run stops at a look when its interval at that look's level
- excludes zero: the effect and its sign are settled (``EFFECT``);
- lies within +-margin: any effect is smaller than the recipe's margin (``EQUIVALENT``);
and otherwise goes on; at the last look it stops with whatever the interval says
(``BUDGET``). Stopping for equivalence only ever removes claims of an effect, so it needs no
alpha of its own; its own error (calling equivalent what is not) is held by the same levels,
since an interval inside the margin at level 1 - a rejects both one-sided hypotheses of an
effect beyond the margin at a / 2.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist

import numpy as np

from ..stats import t_cdf

__all__ = ["Look", "EFFECT", "EQUIVALENT", "BUDGET", "CONTINUE", "RULE", "looks", "look_points",
           "turn_looks", "units_after", "decide", "spent"]

EFFECT, EQUIVALENT, BUDGET, CONTINUE = "effect", "equivalent", "budget", "continue"
RULE = "group sequential, O'Brien-Fleming-type alpha spending (Lan-DeMets)"
_NORMAL = NormalDist()
_PATHS, _SEED = 200_000, 20261128  # simulation of the looks' joint law (fixed: same boundaries)


@dataclass(frozen=True)
class Look:
    blocks: int  # usable blocks at this look
    fraction: float  # of the block budget
    confidence: float  # the level of this look's interval (two-sided)

    def as_dict(self) -> dict:
        return {"blocks": self.blocks, "fraction": round(self.fraction, 4),
                "confidence": round(self.confidence, 6)}


def spent(fraction: float, alpha: float = 0.05) -> float:
    """The alpha spent up to ``fraction`` of the budget (O'Brien-Fleming type)."""
    if fraction <= 0:
        return 0.0
    z = _NORMAL.inv_cdf(1 - alpha / 2)
    return float(min(alpha, 2 - 2 * _NORMAL.cdf(z / math.sqrt(min(fraction, 1.0)))))


def looks(at_blocks: list[int], budget: int, alpha: float = 0.05, final: bool = False
          ) -> list[Look]:
    """The looks at these block counts (ascending, the last normally ``budget``), each with the
    level its interval must reach so that the chance of any false claim stays ``alpha``.
    ``final``: the last of them ends the run whatever it has (a run left with fewer usable
    blocks than its budget), so it spends all the alpha the earlier looks left, as a group
    sequential design's final analysis does, instead of the share of its fraction (which would
    leave part of the alpha unspent: a run that lost a block for good, stricter than planned)."""
    if not at_blocks or sorted(set(at_blocks)) != list(at_blocks) or at_blocks[0] < 2:
        raise ValueError(f"looks must be ascending block counts of at least 2, got {at_blocks}")
    if at_blocks[-1] > budget:
        raise ValueError(f"a look after {at_blocks[-1]} blocks is beyond the budget of {budget}")
    levels = _levels(tuple(at_blocks), budget, alpha, final)
    return [Look(b, b / budget, level) for b, level in zip(at_blocks, levels)]


@lru_cache(maxsize=64)
def _levels(at_blocks: tuple[int, ...], budget: int, alpha: float, final: bool = False
            ) -> tuple[float, ...]:
    """Each look's level, such that P(first claim at look k | no effect) is the alpha spent
    between looks k-1 and k. The paired t statistics of simulated runs give the boundaries
    (their joint law does not depend on the blocks' spread, so the simulation is exact for
    paired blocks with normal noise); each boundary becomes the two-sided level of a t
    interval with that look's degrees of freedom."""
    rng = np.random.default_rng(_SEED)
    x = rng.standard_normal((_PATHS, at_blocks[-1]))
    sums, squares = np.cumsum(x, axis=1), np.cumsum(x * x, axis=1)
    alive = np.ones(_PATHS, dtype=bool)
    levels, before = [], 0.0
    for k, n in enumerate(at_blocks):
        mean = sums[:, n - 1] / n
        sd = np.sqrt(np.maximum(squares[:, n - 1] - n * mean ** 2, 1e-300) / (n - 1))
        t = np.abs(mean) / (sd / math.sqrt(n))
        ends = final and k == len(at_blocks) - 1
        share = (alpha if ends else spent(n / budget, alpha)) - before  # to claim first here
        before += share
        wanted = int(round(share * _PATHS))
        candidates = np.sort(t[alive])[::-1]
        c = float(candidates[wanted - 1]) if 0 < wanted <= len(candidates) else math.inf
        levels.append(1.0 if math.isinf(c) else 2 * t_cdf(c, n - 1) - 1)
        alive &= t < c
    return tuple(levels)


def decide(ci_low: float, ci_high: float, margin: float, last: bool) -> str:
    """What a look's interval (at the look's level) says: stop for an effect, stop for
    equivalence within +-margin, stop at the budget, or go on."""
    if ci_low > 0 or ci_high < 0:
        return EFFECT
    if margin > 0 and -margin < ci_low and ci_high < margin:
        return EQUIVALENT
    return BUDGET if last else CONTINUE


# A crossover's interval may rest on its period means (stats.compare), whose fit has the
# periods less two degrees of freedom: at two periods none. A look before four periods spends
# alpha on an interval that cannot settle anything (a reload crossover's look after 2 of 4
# periods read [-98 %, +10,764 %] on 28 November 2026).
MIN_PERIODS = 4


def look_points(periods: list[int], crossover: bool, *, first: int = 8, every: int = 4
                ) -> list[int]:
    """Where a run of these blocks (each block's period, in running order) looks: in a
    crossover only where a couple of periods ends (each arm has then run as long on each node,
    so a node's speed cancels) and at least MIN_PERIODS periods have run, elsewhere after any
    block; from the ``first``-th block on, at least ``every`` blocks apart, and always at the
    end."""
    n = len(periods)
    if crossover:
        ends = [i + 1 for i in range(n) if i + 1 == n or periods[i + 1] != periods[i]]
        candidates = [end for k, end in enumerate(ends, start=1) if k % 2 == 0
                      and k >= MIN_PERIODS]
    else:
        candidates = list(range(1, n + 1))
    points: list[int] = []
    for count in candidates:
        if count >= first and (not points or count - points[-1] >= every):
            points.append(count)
    if not points or points[-1] != n:
        points.append(n)
    return [p for p in points if p >= 2]


# Arms that take turns on one target, each turn a reload and a warm-up (plan.takes_turns), are
# compared by units of three consecutive turns (comparisons.turn_triples), not by blocks: the
# units are what the interval's pairs are, so the looks and their levels count units. A look
# comes after the block that completes a unit, from FIRST_UNITS units on (the interval over
# fewer has two degrees of freedom or none) and at least EVERY_UNITS units apart, and always
# after the last block. Until 6 December 2026 such runs had no look at all and ran every
# block: 28 to 34 minutes each for the four published (blog-notifier, blog-virtual-threads,
# jms-xa-two-phase, jms-jdbc-journal), whatever their effect.
FIRST_UNITS, EVERY_UNITS = 4, 2


def units_after(block_arms: list[tuple[str, ...]]) -> list[int]:
    """For each block in running order (its trials' arms, in the order they run), how many
    units of three turns are complete once it has run, if every trial is usable. A turn is a
    run of one arm's trials (the switcher reloads only where the arm changes); it ends where
    the next trial is another arm's, so a turn that goes on into the next block is not over
    until that block has run."""
    owner = [k for k, arms in enumerate(block_arms) for _ in arms]
    flat = [arm for arms in block_arms for arm in arms]
    turn_ends = [owner[i] for i in range(len(flat))
                 if i + 1 == len(flat) or flat[i + 1] != flat[i]]
    unit_ends = turn_ends[2::3]  # a unit is complete when its third turn is
    return [sum(end <= k for end in unit_ends) for k in range(len(block_arms))]


def turn_looks(block_arms: list[tuple[str, ...]], alpha: float = 0.05) -> list[Look]:
    """The looks of a run whose arms take turns: ``Look.blocks`` the planned blocks after which
    it looks, its level from the units complete then against the units of the whole run (the
    error spending of ``looks``, with units for blocks); none where the run has fewer than
    two looks to make. The units are counted as planned: a trial set aside that breaks a unit
    leaves fewer at the look, whose interval then has fewer degrees of freedom at the same
    level (wider; that look's own chance of a false claim stays its level's)."""
    counts = units_after(block_arms)
    total = counts[-1] if counts else 0
    points: list[tuple[int, int]] = []  # (blocks run, units complete)
    for k, units in enumerate(counts, start=1):
        completes = units > (counts[k - 2] if k > 1 else 0)
        apart = not points or units - points[-1][1] >= EVERY_UNITS
        if completes and units >= FIRST_UNITS and apart:
            points.append((k, units))
    if points and points[-1][1] == total:
        points.pop()  # the last look belongs after the last block (below)
    points.append((len(counts), total))
    if len(points) < 2 or points[0][1] < 2:
        return []
    levels = _levels(tuple(units for _, units in points), total, alpha)
    return [Look(k, units / total, level) for (k, units), level in zip(points, levels)]
