"""``<!-- parts: <a> + <b> = <both> -->``: two recipes that each make one change, beside a
recipe that makes both, read from their newest results (analysis/parts.py): each part, what the
parts predict for the pair, the pair as measured, and their interaction."""
from __future__ import annotations

import re

from .. import result as results
from ..analysis import parts as combining
from ..numbers import fmt_delta
from .text import cell, code

__all__ = ["SPEC", "render"]

SPEC = re.compile(r"^\s*(?P<a>[A-Za-z0-9._-]+)\s*\+\s*(?P<b>[A-Za-z0-9._-]+)\s*=\s*"
                  r"(?P<both>[A-Za-z0-9._-]+)\s*$")


def render(site, spec: str, page: str) -> str:
    match = SPEC.match(spec)
    if not match:
        return (f'!!! danger "Marker not understood"\n\n    `parts: {spec}`: allowed: '
                f'`parts: <recipe> + <recipe> = <recipe>`\n')
    ids = [match["a"], match["b"], match["both"]]
    entries, missing = [], []
    for recipe_id in ids:
        found = site.newest(recipe_id)
        entry = results.primary_entry(found[1]) if found and results.is_valid(found[1]) else None
        if entry is None:
            missing.append(recipe_id)
        entries.append((recipe_id, found[1] if found else None, entry))
    if missing:
        return ('!!! info "The parts cannot be compared yet"\n\n    No valid full result of '
                + ", ".join(code(m) for m in missing) + " is stored yet.\n")
    metrics = {result.get("primary_metric") for _, result, _ in entries}
    if len(metrics) > 1:
        return ('!!! info "The parts cannot be compared"\n\n    Their primary metrics differ: '
                + ", ".join(sorted(cell(m) for m in metrics if m)) + ".\n")
    try:
        found = combining.combine([entries[0][2], entries[1][2]], entries[2][2])
    except ValueError as error:
        return f'!!! info "The parts cannot be compared"\n\n    {cell(error)}\n'
    metric = metrics.pop() or "primary metric"
    rows = [f"| | recipe | {cell(metric)}: change [interval] | level |", "|---|---|---|---|"]
    for label, (recipe_id, result, entry) in zip(("the first change alone",
                                                   "the second change alone",
                                                   "both changes, measured"), entries):
        rows.append(f"| {label} | {code(recipe_id)} | "
                    f"{fmt_delta(entry['delta'], entry['ci_low'], entry['ci_high'])} | "
                    f"{results.level_text(entry.get('confidence', combining.LEVEL))} |")
    combined = f"{combining.LEVEL * 100:.0f} %, combined"
    rows.insert(4, f"| what the parts predict for both, (1 + a)(1 + b) − 1 | | "
                   f"{fmt_delta(*found.predicted.interval())} | {combined} |")
    rows.append(f"| interaction: both, against the prediction | | "
                f"{fmt_delta(*found.interaction.interval())} | {combined} |")
    note = ("Each measured row comes from a run of its own, at the level its run stored (a "
            "run that stopped at a look keeps that look's level). The prediction and the "
            "interaction combine the runs' intervals as independent errors on the log-ratio "
            "scale (a normal approximation), so they are only as firm as the three runs "
            "together.")
    return "\n".join(rows + ["", found.reading() + " " + note, ""])
