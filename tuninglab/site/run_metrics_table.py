"""``<!-- run-metrics: <recipe-id> <metric> [<metric> ...] -->``: every published run of one
recipe, newest first, with the named metrics of its comparison (each a delta and its interval,
in bold where that metric's verdict is a significant change) and the baseline arm's level in
each. The ``runs`` marker gives the primary metric alone, with each run's design; this one shows
whether several runs agree on more than the primary, and at what level of the host, from the
stored results rather than a table typed into the page."""
from __future__ import annotations

import re

from .. import result as results
from ..numbers import fmt_delta, fmt_time, fmt_value
from .text import cell, code, nowrap, rel

__all__ = ["SPEC", "render"]

SPEC = re.compile(r"^\s*(?P<id>[A-Za-z0-9._-]+)(?P<metrics>(?:\s+[a-z0-9_]+)+)\s*$")
SIGNIFICANT = ("better", "worse")


def render(site, spec: str, page: str) -> str:
    match = SPEC.match(spec)
    if not match:
        return (f'!!! danger "Marker not understood"\n\n    `run-metrics: {spec}`: allowed: '
                f'`run-metrics: <recipe> <metric> [<metric> ...]`\n')
    recipe_id, names = match["id"], match["metrics"].split()
    runs = site.runs(recipe_id)
    if not runs:
        return f'!!! info "No published run of `{recipe_id}` yet"\n'
    stored = {name for _, result in runs for name in _metrics(result)}
    unknown = [name for name in names if name not in stored]
    if unknown:
        return (f'!!! danger "Marker not understood"\n\n    `run-metrics: {spec}`: no run of '
                f'{code(recipe_id)} compares {", ".join(code(n) for n in unknown)}; allowed: '
                f'{", ".join(code(n) for n in sorted(stored))}\n')
    lines = ["| Run | " + " | ".join(f"{code(n)} [interval]" for n in names) + " | Baseline |",
             "|---|" + "---|" * len(names) + "---|"]
    for path, result in reversed(runs):
        started = (result.get("provenance") or {}).get("started")
        link = f"[{fmt_time(started)}]({rel(page, f'results/{recipe_id}/{path.name}')})"
        metrics = _metrics(result)
        if not metrics:
            lines.append(f"| {link} | " + " | ".join("—" for _ in names)
                         + f" | {cell(result.get('verdict') or 'no comparison')} |")
            continue
        level = results.interval_level(result)
        shown = [_delta(metrics.get(name), level) for name in names]
        baseline = ", ".join(fmt_value(m.get("baseline"), m.get("unit"), m.get("delta_kind"))
                             for m in (metrics.get(name) for name in names) if m)
        lines.append(f"| {link} | " + " | ".join(shown) + f" | {cell(baseline)} |")
    return "\n".join(lines + [
        "", f"{len(runs)} published run(s) of {code(recipe_id)}, newest first. Bold: a "
            f"significant change (a secondary metric after Holm's adjustment over the "
            f"secondaries); an interval is at 95 %, or, where the run looked at its interval "
            f"as it went (sequential stopping), at the level of the look it ended on, named "
            f"after it.", ""])


def _metrics(result: dict) -> dict:
    """The metrics of a valid run's first comparison ({} for an invalid run or a curve)."""
    if not results.is_valid(result):
        return {}
    return ((results.comparisons(result) or [{}])[0]).get("metrics") or {}


def _delta(metric: dict | None, level: str) -> str:
    if not metric:
        return "—"
    text = fmt_delta(metric.get("delta"), metric.get("ci_low"), metric.get("ci_high"),
                     metric.get("delta_kind", "relative"), metric.get("unit"))
    text = nowrap(text + (f" at {level}" if level != "95 %" else ""))
    return f"**{text}**" if metric.get("verdict") in SIGNIFICANT else text
