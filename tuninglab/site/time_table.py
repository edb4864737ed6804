"""The ``<!-- time-phases -->`` block of the Method page: where a full run's time goes, over the
newest published result of every recipe that records its phases (provenance.phases)."""
from __future__ import annotations

import statistics

from .. import result as result_file
from ..analysis import sequential
from .text import cell

# The phases in running order, with how the page names them.
PHASES = {"preflight_s": "checks before the stack", "stack_s": "stack start",
          "configure_s": "configuration and read-back", "calibration_s": "host-speed index",
          "warmup_s": "first warm-up", "trials_s": "trial windows",
          "switches_s": "period switches (reloads or fresh JVMs, warm-ups)",
          "reruns_s": "re-run blocks", "waiting_s": "waiting for a quiet host",
          "teardown_s": "stack removed or parked", "analysis_s": "analysis"}


def render(site) -> str:
    runs, results = [], []
    for entry in site.entries:
        found = site.newest(entry.id)
        if found is not None:
            runs.append((found[1].get("provenance") or {}))
            results.append(found[1])
    timed = [p for p in runs if p.get("phases")]
    if not timed:
        return (f"None of the {len(runs)} newest published results records its phases yet (they "
                f"predate it); the next full runs will.\n")
    lines = [f"Over the newest published result of {len(timed)} of {len(runs)} recipes (the "
             f"others predate the record), in minutes:", "",
             "| Phase | Median | Min | Max | Share of the total |", "|---|--:|--:|--:|--:|"]
    total = sum(sum(p["phases"].values()) for p in timed) or 1.0
    for key, name in PHASES.items():
        values = [p["phases"].get(key, 0.0) for p in timed]
        lines.append(f"| {cell(name)} | {statistics.median(values) / 60:.1f} | "
                     f"{min(values) / 60:.1f} | {max(values) / 60:.1f} | "
                     f"{sum(values) / total:.0%} |")
    walls = [p.get("wall_s", 0.0) for p in timed]
    lines += ["", f"A whole run took {statistics.median(walls) / 60:.1f} min at the median "
                  f"({min(walls) / 60:.1f} to {max(walls) / 60:.1f})."]
    lines += _warm_lines(timed)
    lines += _ab_lines(results)
    lines += _catalogue_lines(runs)
    return "\n".join(lines) + "\n"


def _catalogue_lines(runs: list[dict]) -> list[str]:
    """What re-measuring every recipe one after another costs, at its newest run's time."""
    walls = [p["wall_s"] for p in runs if p.get("wall_s")]
    if not walls:
        return []
    return ["", f"Re-measuring all {len(walls)} recipes one after another would take about "
                f"{sum(walls) / 3600:.1f} h at the wall time of each one's newest published "
                f"run."]


def _ab_lines(results: list[dict]) -> list[str]:
    """The A/B runs alone (one change against the baseline, no curve): how long one took and
    how wide its primary interval was, the two figures a faster run must not trade against
    each other (a run that stops sooner has fewer blocks)."""
    ab = [(r, entry) for r in results if r.get("kind") == "ab"
          and (r.get("provenance") or {}).get("phases")
          for entry in [result_file.primary_entry(r)]
          if entry and entry.get("ci_low") is not None and entry.get("ci_high") is not None]
    if not ab:
        return []
    walls = [r["provenance"]["wall_s"] / 60 for r, _ in ab]
    halves = [(entry["ci_high"] - entry["ci_low"]) / 2 * 100 for _, entry in ab]
    early = sum(((r.get("design") or {}).get("sequential") or {}).get("stopped")
                in (sequential.EFFECT, sequential.EQUIVALENT) for r, _ in ab)
    return ["", f"The {len(ab)} A/B recipes among them (one change against the baseline, no "
                f"curve) took {statistics.median(walls):.1f} min at the median "
                f"({min(walls):.1f} to {max(walls):.1f}), with a median primary half-width of "
                f"{statistics.median(halves):.1f} %; {early} stopped at a look before their "
                f"last block." + _by_size(ab, walls, halves)]


# An estimate this large or larger usually stops at an early look, with that look's strict
# level and so a wide interval, whose width no longer changes what the run can say.
LARGE_EFFECT = 0.10


def _by_size(ab: list, walls: list[float], halves: list[float]) -> str:
    """The same two figures for small and for large effects apart: a large effect stops at an
    early look, whose level is strict, so it ends soon and wide, while a small one runs long
    and narrow; the medians over both mix the two."""
    large = [abs(entry.get("delta") or 0.0) >= LARGE_EFFECT for _, entry in ab]
    limit = f"{LARGE_EFFECT * 100:.0f} %"
    groups = [(f"under {limit}", [i for i, big in enumerate(large) if not big]),
              (f"{limit} or more", [i for i, big in enumerate(large) if big])]
    if not all(members for _, members in groups):
        return ""
    told = [f"the {len(members)} whose estimate was {name} took "
            f"{statistics.median(walls[i] for i in members):.1f} min with a half-width of "
            f"{statistics.median(halves[i] for i in members):.1f} %" for name, members in groups]
    return (f" Apart, since a large effect stops at an early look, whose strict level leaves its "
            f"interval wide: {told[0]}; {told[1]} (medians).")


def _warm_lines(timed: list[dict]) -> list[str]:
    """How the runs on a stack taken over warm (stackpool.py) compare with the others."""
    warm = [p for p in timed if (p.get("stack_origin") or {}).get("taken_over")]
    new = [p for p in timed if p not in warm]
    if not warm or not new:
        return []
    def median_min(group, key):
        return statistics.median(p["phases"].get(key, 0.0) for p in group) / 60
    return ["", f"{len(warm)} of them ran on a stack taken over warm from the run before it "
                f"(the publishing queue hands a stack on): stack start "
                f"{median_min(warm, 'stack_s'):.1f} min and first warm-up "
                f"{median_min(warm, 'warmup_s'):.1f} min at the median, against "
                f"{median_min(new, 'stack_s'):.1f} and {median_min(new, 'warmup_s'):.1f} min "
                f"on a new stack ({len(new)} runs)."]
