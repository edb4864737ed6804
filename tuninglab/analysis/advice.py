"""What a curve lets us advise: each value ranked against the best, and the one sentence a page
puts in bold.

"Cannot be told apart from the best" is not "as good as the best": with a wide interval a
value can lose a fifth of the throughput and still have zero inside its interval. So a value is
**equivalent** to the best only when its whole 95 % interval against the best stays within the
recipe's margin (``margin``, a share of the best; 5 % unless the recipe says otherwise): an
equivalence test, not a failed difference test. The ranks:

- ``best``: the best mean of the primary metric;
- ``equivalent``: the whole interval against the best lies within the margin;
- ``worse``: the whole interval lies on the losing side of zero (measurably worse);
- ``cannot tell``: neither; the interval reaches past the margin and also past zero;
- ``unknown``: no interval (fewer than two blocks in common, as in the CI profile);
- ``errors``: the value's trials failed (errors of the system under test).

The advice, for values on an axis that costs more one way (``cheaper`` is ``lower`` or
``higher``): the cheapest value shown equivalent to the best. When that is the best itself and
some cheaper value cannot be told, the run cannot tell which to set, and says so with the
blocks that showing equivalence would need. Nor can it when another value's interval reaches a
gain of more than the margin over the best: the best itself is then in doubt (a sweep whose
best mean fell on a cheap value while dearer ones spread wide, mdb-delivery-threads of 29
November 2026). For unordered choices (``cheaper = "none"``:
collectors, balancing policies) there is no knee and no cheapest value: the values are ranked
against the best.

Everything here reads a curve's stored points and paired comparisons (``against_best``), so the
site applies today's rule to every stored result (``reread``) without touching the file.
"""
from __future__ import annotations

import math

from .. import result as results
from .. import stats
from ..numbers import fmt_delta
from ..plan import PER_LEVEL

__all__ = ["DEFAULT_MARGIN", "LATENCY_KNEE_FACTOR", "ORDERS", "RANKS", "REASON_METRICS",
           "cheap_first", "load_fields", "load_rule", "load_sentence", "rank", "read_load",
           "read_sweep", "reread"]

DEFAULT_MARGIN = 0.05
# sweep.cheaper of an axis that is no choice (a network's delay): read as costs, recommend none
CONDITION = "condition"
BEST, EQUIVALENT, WORSE, CANNOT_TELL, UNKNOWN, ERRORS = (
    "best", "equivalent", "worse", "cannot tell", "unknown", "errors")
RANKS = (BEST, EQUIVALENT, WORSE, CANNOT_TELL, UNKNOWN, ERRORS)
ORDERS = ("lower", "higher", "none")  # which end of the axis is cheaper; none: unordered choices

# Telemetry a recommendation may cite: words, format, and the least change that counts as a
# reason. Shares (fractions of time or of a quota) count by their absolute change: a GC share
# that doubles from 0.1 % to 0.2 % explains nothing. Amounts count by their relative change
# (at least 25 %) and must also move by their floor.
REASON_METRICS = {
    "gc_time": ("time in garbage collection", "{:.1%} of the time", "share", 0.02),
    "app_cpu": ("the application server's CPU use", "{:.0%} of its quota", "share", 0.05),
    "db_core_busy": ("the database core's load", "{:.0%} busy", "share", 0.05),
    "pool_wait_ms": ("waiting for a pooled connection", "{:.2f} ms per transaction", "amount", 0.5),
    "latency_p99": ("the 99th percentile of latency", "{:.1f} ms", "amount", 5.0),
}
RELATIVE_FLOOR = 0.25
# "About N blocks" is advice only while N is within reach; past this many times the run's
# blocks, the sentence says the estimate sits too close to the margin instead.
AFFORDABLE_BLOCKS = 10
# A load curve's latency knee: the lowest load whose p99 exceeds this many times the lowest's.
LATENCY_KNEE_FACTOR = 3.0


def rank(comparison: dict | None, higher_is_better: bool, margin: float) -> str:
    """A value's rank from its paired comparison against the best (module docstring)."""
    if comparison is None:
        return UNKNOWN
    if comparison.get("is_best"):
        return BEST
    low, high = _loss_interval(comparison, higher_is_better)
    if low is None:
        return UNKNOWN
    if high <= margin:
        return EQUIVALENT
    if low > 0:
        return WORSE
    return CANNOT_TELL


def read_sweep(points: list[dict], against_best: dict[str, dict], *, best: str | None,
               higher_is_better: bool, cheaper: str, margin: float = DEFAULT_MARGIN,
               name: str, unit: str = "", metric: str = "throughput",
               unsteady: frozenset[str] = frozenset()) -> dict:
    """Ranks, the recommended value (or None) and the bold sentence of one sweep curve.
    ``unsteady``: the values whose own node ended its warm-up without a plateau; the sentence
    names them (their ranks stand: they are what the run measured)."""
    ranks = {p["arm"]: (ERRORS if p.get("failed") or p.get("mean") is None
                        else rank(against_best.get(p["arm"]), higher_is_better, margin))
             for p in points}
    out = {"ranks": ranks, "margin": margin, "ordered": cheaper not in ("none", CONDITION),
           "recommended": None, "knee": None, "status": "none",
           "rule": _rule_text(cheaper, margin)}
    if best is None:
        out["recommendation"] = "no value ran without errors: nothing to recommend"
        return out
    words = _Words(points, against_best, higher_is_better, name, unit, metric, margin, unsteady)
    if cheaper == CONDITION:
        out["recommendation"] = _costs(points, best, words)
    elif cheaper == "none":
        out.update(_ranked(points, ranks, best, words))
    else:
        out.update(_cheapest(points, ranks, best, cheaper, words))
        # The stored name of the recommended value on an ordered axis (the site and older
        # readers look for it); unordered choices have none.
        out["knee"] = out["recommended"]
    out["recommendation"] += words.unsteady_note()
    return out


def read_load(points: list[dict], against_best: dict[str, dict], *, best: str,
              margin: float = DEFAULT_MARGIN) -> dict:
    """Saturation on a load curve: the lowest load whose throughput is shown within the margin
    of the best; the lower loads are then worse or cannot be told. ``falls`` reads the highest
    load against the best: a significant fall, a hold within the margin, or neither."""
    ranks = {p["arm"]: (ERRORS if p.get("failed") or p.get("mean") is None
                        else rank(against_best.get(p["arm"]), True, margin)) for p in points}
    usable = [p for p in points if ranks[p["arm"]] != ERRORS]
    first = next((p for p in usable if ranks[p["arm"]] in (BEST, EQUIVALENT)), None)
    below = usable[:usable.index(first)] if first else []
    undecided = [p for p in below if ranks[p["arm"]] in (CANNOT_TELL, UNKNOWN)]
    last = usable[-1] if usable else None
    falls = None
    if last is not None and last["arm"] != best:
        falls = ranks[last["arm"]]
    # The best at the highest load tried, every lower load measurably below it: the curve was
    # still rising where the run stopped. That load is "within the margin of the best" only
    # because it is the best; calling it the plateau (as this rule did until 29 November 2026,
    # for the client-threads curves) said more than the run showed.
    rising = first is not None and first is last and len(usable) > 1 and not undecided
    return {"ranks": ranks, "margin": margin,
            "saturation": first["arm"] if first and not rising else None,
            "saturation_firm": bool(first) and not undecided and not rising,
            "undecided_below": [p["arm"] for p in undecided], "falls": falls,
            "still_rising": last["arm"] if rising else None}


def reread(result: dict, reading: dict | None = None) -> dict:
    """``result`` with every stored curve read by today's rule (ranks, recommendation); the
    stored points and intervals are untouched. ``reading``: the recipe's reading keys
    (``cheaper``, ``margin``), which win over what the run stored, so that a recipe can say
    how its curve is to be read without making its measurement stale."""
    analysis = result.get("analysis") or {}
    stored = ((result.get("change") or {}).get("sweep") or {})
    settings = {"cheaper": stored.get("cheaper", "lower"), "margin": DEFAULT_MARGIN,
                "name": stored.get("name") or "value", "unit": stored.get("unit") or ""}
    settings.update({k: v for k, v in (reading or {}).items() if v is not None})
    # Values with a node of their own: one whose warm-up found no plateau is named in the
    # sentence (in the other layouts the arms share their nodes' warm-up, and swaps cancel it).
    per_level = (result.get("plan") or {}).get("layout") == PER_LEVEL
    settings["unsteady"] = frozenset(results.unsteady_arms(result) if per_level else ())
    # A sweep's curves have a knee key; an A/B run by load keeps its load curves in "curves"
    # too, and a sweep by load its values' load curves in "load_curves".
    for curve in (analysis.get("curves") or []) + (analysis.get("load_curves") or []):
        if "knee" in curve:
            _reread_sweep(curve, settings)
        elif "saturation" in curve:
            _reread_load(curve, settings["margin"])
    return result


# --------------------------------------------------------------------------- sentences


class _Words:
    """How values and intervals are written in a recommendation."""

    def __init__(self, points, against_best, higher_is_better, name, unit, metric, margin,
                 unsteady=frozenset()):
        self.by_arm = {p["arm"]: p for p in points}
        self.against = against_best
        self.higher = higher_is_better
        self.name, self.unit, self.metric, self.margin = name, unit, metric.replace("_", " "), margin
        self.unsteady = [p["arm"] for p in points if p["arm"] in unsteady]

    def unsteady_note(self) -> str:
        """A sentence naming the values whose own node was still speeding up (a sweep with a
        node per value, where nothing cancels it): a rank that rests on them may be its
        warm-up's, which the bold sentence must not leave to the warning above it."""
        if not self.unsteady:
            return ""
        one = len(self.unsteady) == 1
        return (f" {_capital(self.listing(self.unsteady, False))} ran on "
                f"{'a node' if one else 'nodes'} that ended a warm-up without a plateau: "
                f"{'its' if one else 'their'} figures may include a JVM still speeding up.")

    def value(self, arm: str) -> str:
        return f"{_value_text(self.by_arm[arm]['value'])}{' ' + self.unit if self.unit else ''}"

    def delta(self, arm: str) -> str:
        c = self.against.get(arm) or {}
        if c.get("delta") is None or c.get("ci_low") is None:
            return "no interval"
        return fmt_delta(c["delta"], c["ci_low"], c["ci_high"])

    def listing(self, arms: list[str], with_delta: bool = True) -> str:
        parts = [f"{self.value(a)} ({self.delta(a)})" if with_delta else self.value(a)
                 for a in arms]
        return _join(parts)

    def needed(self, undecided: list[str]) -> str:
        """What more blocks could do: for the undecided value closest to being shown within
        the margin, the blocks that would show it (the interval narrows as 1/sqrt(n)), or
        that no number of blocks would, because its estimate is already a loss beyond it."""
        options = []
        for arm in undecided:
            if arm in self.unsteady:  # more blocks do not finish a warm-up
                continue
            c = self.against.get(arm) or {}
            low, high = _loss_interval(c, self.higher)
            n = c.get("n_pairs") or len(c.get("blocks") or [])
            if low is None or not n:
                continue
            point = -c["delta"] if self.higher else c["delta"]
            blocks = (math.ceil(n * ((high - point) / (self.margin - point)) ** 2)
                      if point < self.margin else None)
            options.append((blocks is None, blocks or 0, arm, point, n))
        if not options:
            return ""
        never, blocks, arm, point, n = min(options)
        if never:
            return (f" The estimate for {self.value(arm)}, a loss of {pct(point, 1)}, already "
                    f"lies beyond the margin: more blocks are unlikely to show it within.")
        if blocks > AFFORDABLE_BLOCKS * n:
            # Many blocks either because the estimate lies near the margin, or because the
            # interval is wide beside it (an estimate that is a gain is never near it).
            why = ("sits close to the margin" if point > self.margin / 2 else
                   f"lies well within it, but its interval reaches a loss of {pct(high, 1)}")
            estimate = (f"a loss of {pct(point, 1)}" if point > 0 else
                        f"a gain of {pct(-point, 1)}")
            return (f" Showing {self.value(arm)} within {pct(self.margin)} of the best would take "
                    f"more than {AFFORDABLE_BLOCKS} times this run's {n} blocks: its estimate, "
                    f"{estimate}, {why}.")
        return (f" Showing {self.value(arm)} within {pct(self.margin)} of the best would take "
                f"about {blocks} blocks where this run had {n}.")


def _cheapest(points, ranks, best, cheaper, w: _Words) -> dict:
    ordered = cheap_first([p for p in points if ranks[p["arm"]] != ERRORS], cheaper)
    arms = [p["arm"] for p in ordered]
    pick = next(a for a in arms if ranks[a] in (BEST, EQUIVALENT))
    cheaper_ones = arms[:arms.index(pick)]
    every = [p["arm"] for p in cheap_first(points, cheaper)]
    failed = [a for a in every[:every.index(pick)] if ranks[a] == ERRORS]
    unknown = [a for a in cheaper_ones if ranks[a] == UNKNOWN]
    undecided = [a for a in cheaper_ones if ranks[a] == CANNOT_TELL]
    worse = [a for a in cheaper_ones if ranks[a] == WORSE]
    if unknown and pick == best:
        return {"status": "none", "recommendation": (
            f"nothing to recommend: {w.value(unknown[0])} and the best ({w.value(best)}) share "
            f"fewer than two blocks, so they cannot be compared")}
    if pick == best and undecided:
        return {"status": "cannot tell", "recommendation": (
            f"This run cannot tell which {w.name} to set: {w.value(best)} gave the best "
            f"{w.metric}, but {w.listing(undecided)} could be as good or worse by more than "
            f"{pct(w.margin)}; "
            + (f"{w.listing(worse)} measurably worse." if worse else "no cheaper value was "
               "measurably worse.")
            + w.needed(undecided))}
    # A value that could beat the best by more than the margin leaves the best itself in doubt:
    # the pick would be within the margin of a best this run may not have found.
    rivals = [a for a in arms if a != best and a in w.against
              and (_loss_interval(w.against[a], w.higher)[0] or 0) < -w.margin]
    if rivals:
        return {"status": "cannot tell", "recommendation": (
            f"This run cannot tell which {w.name} to set: "
            + (f"{w.listing(worse, False)} {'was' if len(worse) == 1 else 'were'} measurably "
               f"worse than {w.value(best)}, which gave the best {w.metric}; but "
               if worse else f"{w.value(best)} gave the best {w.metric}, but ")
            + f"{w.listing(rivals)} could be better than it by more than {pct(w.margin)}.")}
    head = f"Set {w.name} to {w.value(pick)}"
    if pick != best:
        why = (f"the cheapest value shown within {pct(w.margin)} of the best "
               f"({w.value(best)}): {w.delta(pick)}")
    elif not cheaper_ones and not failed:
        why = f"the cheapest value tried gave the best {w.metric}"
    elif not cheaper_ones:  # every cheaper value failed requests: no rank, and not "cheapest"
        why = (f"it gave the best {w.metric}, and every cheaper value failed requests "
               f"({w.listing(failed, False)})")
    else:
        why = (f"it gave the best {w.metric}, and every cheaper value was measurably worse"
               + (f" or failed requests ({w.listing(failed, False)})" if failed else ""))
    tail = ""
    if undecided:
        tail = (f"; {w.listing(undecided, False)}, cheaper still, could not be shown within "
                f"{pct(w.margin)}")
    reason = _reason(w, arms, pick)
    return {"status": "firm", "recommended": pick,
            "recommendation": f"{head}: {why}{tail}{reason}."}


def _costs(points, best, w: _Words) -> str:
    """A condition's reading: what each value costs against the first (the reference, no
    condition), with its interval, and no recommendation: a reader does not choose it."""
    first = points[0]["arm"]
    if best != first:  # the intervals are against the best, which is then not the reference
        return (f"{w.value(best)} gave the best {w.metric}, not {w.value(first)}; against it: "
                f"{w.listing([p['arm'] for p in points if p['arm'] != best])}. A condition, "
                f"not a setting: nothing to recommend.")
    return (f"{w.metric.capitalize()} against {w.name} {w.value(first)}: "
            f"{w.listing([p['arm'] for p in points[1:]])}. A condition, not a setting: "
            f"nothing to recommend.")


def _ranked(points, ranks, best, w: _Words) -> dict:
    others = [p["arm"] for p in points if p["arm"] != best]
    equivalent = [a for a in others if ranks[a] == EQUIVALENT]
    worse = [a for a in others if ranks[a] == WORSE]
    undecided = [a for a in others if ranks[a] in (CANNOT_TELL, UNKNOWN)]
    failed = [a for a in others if ranks[a] == ERRORS]
    if len(others) == len(failed) + len([a for a in others if ranks[a] == UNKNOWN]) and \
            any(ranks[a] == UNKNOWN for a in others):
        return {"status": "none", "recommendation": (
            f"nothing to recommend: {w.value(best)} had the best mean, but no other value "
            f"shares two blocks with it")}
    parts = []
    if equivalent:
        parts.append(f"within {pct(w.margin)} of it: {w.listing(equivalent)}")
    if worse:
        parts.append(f"measurably worse: {w.listing(worse)}")
    if undecided:
        parts.append(f"neither shown within {pct(w.margin)} nor measurably worse: "
                     f"{w.listing(undecided)}")
    if failed:
        parts.append(f"failed: {w.listing(failed, False)}")
    firm = not undecided
    if firm and not equivalent and not failed:
        return {"status": "firm", "recommended": best, "recommendation": (
            f"Set {w.name} to {w.value(best)}: every other value was measurably worse, "
            f"{w.listing(worse)}.")}
    head = (f"Set {w.name} to {w.value(best)}" + (f" or {w.listing(equivalent, False)}"
                                                  if equivalent else "")
            if firm else f"{w.value(best)} gave the best {w.metric}")
    body = f"{head}; " + "; ".join(parts) + "."
    if not firm:
        body += w.needed([a for a in undecided if ranks[a] == CANNOT_TELL])
    return {"status": "firm" if firm else "cannot tell",
            "recommended": best if firm else None, "recommendation": body}


def _reason(w: _Words, arms: list[str], pick: str) -> str:
    """What the telemetry shows just below the recommended value, when a signal moved."""
    index = arms.index(pick)
    at = w.by_arm[pick].get("telemetry") or {}
    if index == 0:
        cpu = at.get("app_cpu")
        return f" (the application server used {cpu:.0%} of its CPU quota there)" if cpu else ""
    below = w.by_arm[arms[index - 1]]
    signal = _largest_shift(below.get("telemetry") or {}, at)
    if signal is None:
        return ""
    words, fmt, _, _ = REASON_METRICS[signal]
    return (f"; at {w.value(below['arm'])} {words} was {fmt.format(below['telemetry'][signal])}, "
            f"against {fmt.format(at[signal])} at {w.value(pick)}")


def _largest_shift(below: dict, at: dict) -> str | None:
    """The telemetry signal that moved most between two neighbouring points, measured against
    the least change that counts for it (REASON_METRICS); None when none moved that much."""
    best, score = None, 1.0
    for key, (_, _, kind, floor) in REASON_METRICS.items():
        a, b = below.get(key), at.get(key)
        if a is None or b is None:
            continue
        change = abs(a - b)
        if kind == "share":
            this = change / floor
        else:
            relative = change / max(abs(a), abs(b)) if max(abs(a), abs(b)) > 0 else 0.0
            this = min(change / floor, relative / RELATIVE_FLOOR)
        if this >= score:
            best, score = key, this
    return best


# --------------------------------------------------------------------------- re-reading


def _reread_sweep(curve: dict, settings: dict) -> None:
    metric = curve.get("metric") or "throughput"
    rule = stats.METRIC_RULES[metric]
    read = read_sweep(curve.get("points") or [], curve.get("against_best") or {},
                      best=curve.get("best"), higher_is_better=rule.higher_is_better,
                      cheaper=settings["cheaper"], margin=settings["margin"],
                      name=settings["name"], unit=settings["unit"], metric=metric,
                      unsteady=settings["unsteady"])
    curve.update(read)


def _reread_load(curve: dict, margin: float) -> None:
    if not curve.get("best") or "against_best" not in curve:
        return
    read = read_load(curve.get("points") or [], curve["against_best"], best=curve["best"],
                     margin=margin)
    curve.update(load_fields(read))
    curve["recommendation"] = load_sentence(curve, read)


def load_fields(read: dict) -> dict:
    """What a load curve stores of ``read_load``'s reading (the engine's and the site's)."""
    return {"ranks": read["ranks"], "margin": read["margin"], "saturation": read["saturation"],
            "saturation_firm": read["saturation_firm"], "still_rising": read["still_rising"],
            "falls_past_saturation": read["falls"] == WORSE, "rule": load_rule(read["margin"])}


def load_rule(margin: float) -> str:
    return (f"saturation: the lowest load whose throughput's paired 95 % interval against the "
            f"best lies within {pct(margin)} of it; latency knee: the lowest load whose p99 "
            f"exceeds {LATENCY_KNEE_FACTOR:g} x the p99 of the lowest load")


def load_sentence(curve: dict, read: dict) -> str:
    """One sentence on a load curve: where it saturates (or that the run cannot tell), where
    p99 bends, and what happens past saturation, each no firmer than its interval."""
    key = curve.get("key") or "load"
    label = key.replace("_", " ")
    tput = {p["arm"]: p for p in curve.get("points") or []}
    p99 = {p["arm"]: p for p in curve.get("latency_p99") or []}
    margin = read["margin"]
    sat = read["saturation"]
    if read.get("still_rising"):
        top = tput[read["still_rising"]]
        parts = [f"No plateau within the loads tried: throughput was still rising at the "
                 f"highest, {label} {_value_text(top['load'][key])} ({top['mean']:,.0f} tx/s); "
                 f"every lower load was more than {pct(margin)} below it"]
    elif sat is None:
        parts = ["No saturation point was found"]
    elif read["saturation_firm"]:
        parts = [f"Throughput reaches its plateau (within {pct(margin)} of the best) at {label} "
                 f"{_value_text(tput[sat]['load'][key])} ({tput[sat]['mean']:,.0f} tx/s)"]
    else:
        lower = _join([f"{label} {_value_text(tput[a]['load'][key])}"
                       for a in read["undecided_below"]])
        parts = [f"Throughput is within {pct(margin)} of the best from {label} "
                 f"{_value_text(tput[sat]['load'][key])} ({tput[sat]['mean']:,.0f} tx/s); "
                 f"this run cannot tell whether {lower} already reached the plateau"]
    factor = curve.get("latency_knee_factor") or LATENCY_KNEE_FACTOR
    if curve.get("latency_knee") and curve["latency_knee"] in p99:
        knee = p99[curve["latency_knee"]]
        parts.append(f"p99 latency passes {factor:g} x its low-load value at {label} "
                     f"{_value_text(knee['load'][key])} ({knee['mean']:,.1f} ms)")
    else:
        parts.append(f"p99 latency stays within {factor:g} x its low-load value")
    falls = curve.get("past_saturation")
    if falls and falls.get("delta") is not None and falls.get("ci_low") is not None:
        number = fmt_delta(falls["delta"], falls["ci_low"], falls["ci_high"])
        if read["falls"] == WORSE:
            parts.append(f"past saturation throughput falls: {number} at the highest load")
        elif read["falls"] == EQUIVALENT:
            parts.append(f"past saturation throughput holds within {pct(margin)}: {number}")
        else:
            parts.append(f"past saturation no significant fall, but a fall of up to "
                         f"{pct(-falls['ci_low'])} is not ruled out: {number}")
    return "; ".join(parts) + "."


# --------------------------------------------------------------------------- helpers


def cheap_first(points: list[dict], cheaper: str) -> list[dict]:
    """Points from the cheap end of the axis: by value when every value is a number (a recipe
    may list them in any order, as cluster-node-count lists 4 to 1), else as listed."""
    numeric = all(isinstance(p.get("value"), (int, float)) for p in points)
    ordered = sorted(points, key=lambda p: p["value"]) if numeric else list(points)
    return ordered if cheaper == "lower" else list(reversed(ordered))


def _loss_interval(c: dict, higher_is_better: bool) -> tuple[float | None, float | None]:
    """The comparison's interval as a loss against the best (positive: worse than the best)."""
    low, high = c.get("ci_low"), c.get("ci_high")
    if low is None or high is None:
        return None, None
    return (-high, -low) if higher_is_better else (low, high)


def _rule_text(cheaper: str, margin: float) -> str:
    equivalent = (f"a value is as good as the best only when its whole paired 95 % interval "
                  f"against the best lies within {pct(margin)} of it")
    if cheaper == "none":
        return f"{equivalent}; unordered choices are ranked against the best, with no knee"
    if cheaper == CONDITION:
        return ("a condition of the environment, not a setting: each value's cost against the "
                "first, with its paired 95 % interval, and no recommendation")
    return f"{equivalent}; the recommendation is the cheapest such value"


def pct(share: float, digits: int = 0) -> str:
    """A share as the site writes it: 5 %, 21.6 %."""
    return f"{share * 100:.{digits}f} %"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _value_text(value) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
