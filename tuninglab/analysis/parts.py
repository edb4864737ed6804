"""Two changes measured alone against the same two changes measured together, each in a stored
run of its own: do the parts add up? (The thesis's Helix result, 7.4, is such a pair: a larger
pool and the log file off at once, +190.2 %, with no part measured alone.)

Each run stores its primary metric's relative change with a t interval on the log-ratio scale
(comparisons.py), so the interval's half-width over its t quantile gives the run's standard
error of the log ratio. Independent effects multiply: the parts predict the pair's change as
(1 + a)(1 + b) - 1, a sum on the log scale; the pair's measured change against that prediction
is their **interaction** (zero when each change does what it did alone). The runs are separate
(other JVMs, often other days), so their errors are independent and add in quadrature; the
combined interval uses the normal quantile, an approximation the page states.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .. import stats
from ..numbers import fmt_delta

__all__ = ["LogEffect", "Parts", "log_effect", "combine"]

LEVEL = 0.95
_Z = stats.t_quantile(LEVEL, math.inf)


@dataclass(frozen=True)
class LogEffect:
    """A relative change as a log ratio with its standard error."""
    centre: float
    se: float

    def interval(self) -> tuple[float, float, float]:
        """(change, low, high) as relative changes, at LEVEL (normal quantile)."""
        return (math.expm1(self.centre), math.expm1(self.centre - _Z * self.se),
                math.expm1(self.centre + _Z * self.se))


@dataclass(frozen=True)
class Parts:
    parts: tuple[LogEffect, ...]
    together: LogEffect
    predicted: LogEffect    # what the parts predict for the pair
    interaction: LogEffect  # the pair against that prediction

    def reading(self) -> str:
        """One sentence: whether the pair measured as its parts predict."""
        change, low, high = self.interaction.interval()
        span = fmt_delta(change, low, high)
        if low > 0:
            return (f"Together the changes gave more than their parts predict: the interaction "
                    f"is {span}.")
        if high < 0:
            return (f"Together the changes gave less than their parts predict: the interaction "
                    f"is {span}.")
        return (f"Together the changes measured as their parts predict: the interaction, "
                f"{span}, includes no change, though one as large as its interval's ends is "
                f"not ruled out.")


def log_effect(entry: dict) -> LogEffect:
    """A stored comparison entry (a metric of ``analysis.comparisons``) as a LogEffect. Only a
    relative change with a finite interval can be combined."""
    if entry.get("delta_kind") != "relative":
        raise ValueError(f"a relative change is required, got {entry.get('delta_kind')!r}")
    low, high = entry.get("ci_low"), entry.get("ci_high")
    if low is None or high is None or not (low > -1 and high > -1):
        raise ValueError("the stored interval is unbounded")
    quantile = stats.t_quantile(entry.get("confidence", LEVEL), entry["df"])
    lo, hi = math.log1p(low), math.log1p(high)
    return LogEffect(centre=(lo + hi) / 2, se=(hi - lo) / (2 * quantile))


def combine(parts: list[dict], together: dict) -> Parts:
    """The parts' prediction for the pair, and the pair's interaction, from stored entries."""
    alone = tuple(log_effect(p) for p in parts)
    both = log_effect(together)
    predicted = LogEffect(sum(p.centre for p in alone),
                          math.sqrt(sum(p.se ** 2 for p in alone)))
    interaction = LogEffect(both.centre - predicted.centre,
                            math.sqrt(both.se ** 2 + predicted.se ** 2))
    return Parts(alone, both, predicted, interaction)
