"""Our result against the source's claim, in one word that every page and the Results page
share (the site computes it from the recipe's claim and the stored result; a page writes
``<!-- agreement: <id> -->`` and never the word itself).

A recipe states the claim in a form this module can test (``[source]``):

- ``expected``: ``better``, ``worse``, ``no-change`` or ``none`` (no direction claimed);
- ``effect``: the source's own figure, where it gives one (a relative change);
- ``contrast``, for a sweep: which comparison the claim is about. ``best-vs-reference`` (the
  default: the best value against the recipe's reference) or ``best-vs-cheapest`` (the best
  against the cheapest value, for claims such as "too small a heap costs throughput").

The words:

- **agrees**: our interval lies on the side the source claims (or, for ``no-change``, within
  the margin of zero), and contains the source's own figure where it gives one;
- **agrees in direction, smaller than claimed** and **... larger than claimed**: our interval
  lies on the claimed side but leaves the source's figure out (pool-and-log-file-off read
  +3.3 % [+0.6, +6.1] against the thesis's +190 %: one word "agrees" said more than the run);
- **disagrees**: our interval lies on the other side; or it rules out an effect in the claimed
  direction as large as the margin (or the source's own figure, if smaller): "no effect of
  the claimed kind here"; for ``no-change``, a significant effect either way;
- **cannot tell**: the interval spans zero and still allows an effect of the claimed size;
- **no direction claimed** and **not comparable** (an invalid or mixed run, or nothing to
  compare).
"""
from __future__ import annotations

from .. import stats
from .advice import DEFAULT_MARGIN, cheap_first

__all__ = ["AGREES", "SMALLER", "LARGER", "DISAGREES", "CANNOT_TELL", "NO_DIRECTION",
           "NOT_COMPARABLE", "WORDS", "CONTRASTS", "agreement", "in_direction", "tested"]

AGREES, DISAGREES, CANNOT_TELL = "agrees", "disagrees", "cannot tell"
SMALLER = "agrees in direction, smaller than claimed"
LARGER = "agrees in direction, larger than claimed"
NO_DIRECTION, NOT_COMPARABLE = "no direction claimed", "not comparable"
WORDS = (AGREES, SMALLER, LARGER, DISAGREES, CANNOT_TELL, NO_DIRECTION, NOT_COMPARABLE)
CONTRASTS = ("best-vs-reference", "best-vs-cheapest")


def agreement(result: dict, *, expected: str | None = None, effect: float | None = None,
              contrast: str | None = None, margin: float = DEFAULT_MARGIN) -> str:
    """The word for ``result`` against the claim (the recipe's; the result's own stored claim
    where an argument is None)."""
    expected = expected if expected is not None else result.get("expected")
    if effect is None:
        effect = (result.get("source") or {}).get("effect")
    if expected in (None, "none"):
        return NO_DIRECTION
    entry = tested(result, contrast)
    if entry is None or entry.get("ci_low") is None or entry.get("ci_high") is None:
        return NOT_COMPARABLE
    return _word(expected, entry, effect, margin)


def in_direction(word: str) -> bool:
    """Whether the word says our interval lies on the side the source claims."""
    return word in (AGREES, SMALLER, LARGER)


def tested(result: dict, contrast: str | None = None) -> dict | None:
    """The comparison the claim is tested on, as {delta, ci_low, ci_high, higher_is_better},
    relative to the source's starting point (baseline, reference or cheapest value)."""
    validity = result.get("validity") or {}
    if not validity.get("valid", result.get("verdict") != "invalid"):
        return None
    analysis = result.get("analysis") or {}
    rule = stats.METRIC_RULES.get(result.get("primary_metric") or "throughput")
    higher = True if rule is None else rule.higher_is_better
    comparisons = analysis.get("comparisons") or []
    if comparisons:
        if analysis.get("verdict") == "mixed" or len(comparisons) > 1 and \
                len({c.get("verdict") for c in comparisons}) > 1:
            return None
        m = (comparisons[0].get("metrics") or {}).get(result.get("primary_metric")) or {}
        return {**m, "higher_is_better": higher}
    curves = analysis.get("curves") or []
    if not curves or "knee" not in curves[0]:
        return None  # a load curve claims no direction of its own
    curve = curves[0]
    if (contrast or "best-vs-reference") == "best-vs-reference":
        h = curve.get("headline")
        return None if h is None else {**h, "higher_is_better": higher}
    return _best_against_cheapest(curve, higher, result)


def _best_against_cheapest(curve: dict, higher: bool, result: dict) -> dict | None:
    """The best against the cheapest usable value: the inverse of the cheapest's stored
    comparison with the best (a ratio, so the interval's ends swap)."""
    points = [p for p in curve.get("points") or [] if not p.get("failed") and p.get("mean")]
    if not points:
        return None
    cheaper = ((result.get("change") or {}).get("sweep") or {}).get("cheaper", "lower")
    # Unordered choices have no cheap end: the first value listed stands for it, as before.
    cheapest = cheap_first(points, "higher" if cheaper == "higher" else "lower")[0]
    c = (curve.get("against_best") or {}).get(cheapest["arm"]) or {}
    if c.get("is_best") or c.get("ci_low") is None:
        return None
    return {"delta": 1 / (1 + c["delta"]) - 1, "ci_low": 1 / (1 + c["ci_high"]) - 1,
            "ci_high": 1 / (1 + c["ci_low"]) - 1, "higher_is_better": higher}


def _word(expected: str, entry: dict, effect: float | None, margin: float) -> str:
    low, high = entry["ci_low"], entry["ci_high"]
    # A gain as the source means it: positive for better, whatever the metric's direction.
    sign = 1 if entry["higher_is_better"] else -1
    gain_low, gain_high = sorted((sign * low, sign * high))
    if expected == "no-change":
        if gain_low > 0 or gain_high < 0:
            return DISAGREES
        return AGREES if -margin <= gain_low and gain_high <= margin else CANNOT_TELL
    claimed = 1 if expected == "better" else -1
    side_low, side_high = sorted((claimed * gain_low, claimed * gain_high))
    if side_low > 0:
        if effect and side_high < abs(effect):
            return SMALLER
        if effect and side_low > abs(effect):
            return LARGER
        return AGREES
    if side_high < 0:
        return DISAGREES
    size = min(margin, abs(effect)) if effect else margin
    return DISAGREES if side_high < size else CANNOT_TELL
