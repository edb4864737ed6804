"""A result's profiled pass as a table: the methods most often on top of a sampled stack in
each arm (profiling.py), so that a page shows where the time went instead of arguing it."""
from __future__ import annotations

from .. import profiling
from .text import cell, code

__all__ = ["render"]

ROWS = 10


def render(result: dict) -> list[str]:
    """Markdown lines for a stored profiled pass; none when the run made none."""
    record = result.get("profiled_pass")
    if not record:
        return []
    if record.get("error") or not record.get("arms"):
        return [f"*The profiled pass after the trials failed: {cell(record.get('error', 'no arm'))}. "
                f"The numbers above do not depend on it.*", ""]
    arms = list(record["arms"])
    lifted = ", CPU quotas lifted so that the sampler is not throttled" if record.get(
        "quota_lifted") else ""
    samples = ", ".join(f"{label} {arm['samples']:,}" for label, arm in record["arms"].items())
    lines = [f"**Where the time went.** After the trials, the last slot's arms ran once more for "
             f"{record['window_s']} s, side by side, while Java Flight Recorder sampled "
             f"each node ({record['settings']} settings{lifted}; samples: {samples}). The window is in "
             f"no number above. The methods most often on top of a sampled stack, as a share of "
             f"the arm's samples:", "",
             "| Method | " + " | ".join(cell(a) for a in arms) + " |",
             "|---|" + "---:|" * len(arms)]
    for row in profiling.hottest(record, "self", ROWS)[:ROWS]:
        shares = [f"{share:.1%}" if share is not None else "—"
                  for share in (row["shares"][a] for a in arms)]
        lines.append(f"| {code(profiling.short_method(row['method']))} | " + " | ".join(shares) + " |")
    differing = profiling.differing(record, ROWS)
    if differing:
        first, second = arms
        lines += ["", "The packages whose share of the samples (anywhere on the sampled stack) "
                      "differs most between the arms:", "",
                  f"| Package | {cell(first)} | {cell(second)} | difference |",
                  "|---|---:|---:|---:|"]
        for row in differing:
            a, b = row["shares"][first], row["shares"][second]
            lines.append(f"| {code(row['package'])} | {a:.1%} | {b:.1%} | "
                         f"{(b - a) * 100:+.1f} points |")
    return lines + [""]
