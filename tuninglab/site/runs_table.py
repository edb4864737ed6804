"""Every published run of one recipe, one row each (the ``runs`` marker): how a page shows the
history of a calibration, so that a reader sees each protocol's runs and their spread, drawn
from the stored results rather than retyped."""
from __future__ import annotations

from .. import result as results
from ..numbers import fmt_delta, fmt_pct, fmt_time
from .text import cell, code, nowrap, rel

__all__ = ["render"]


def render(site, recipe_id: str, page: str) -> str:
    runs = site.runs(recipe_id)
    if not runs:
        return f'!!! info "No published run of `{recipe_id}` yet"\n'
    lines = ["| Run | Design | Primary delta (95 % interval) | Detectable | Nodes' own difference | "
             "Verdict |", "|---|---|---|--:|--:|---|"]
    for path, result in runs:
        prov = result.get("provenance") or {}
        link = f"[{fmt_time(prov.get('started'))}]({rel(page, 'results/' + path.parent.name + '/' + path.name)})"
        design = results.layout_text(result) or "one node, arms one after the other"
        entry = results.primary_entry(result) if results.is_valid(result) else None
        comparison = (results.comparisons(result) or [{}])[0]
        if entry:
            delta = nowrap(fmt_delta(entry["delta"], entry.get("ci_low"), entry.get("ci_high")))
            detect = fmt_pct(entry.get("detectable"))
        else:
            delta, detect = "—", "—"
        node = comparison.get("node_effect")
        lines.append(f"| {link} | {cell(design)} | {delta} | {detect} | "
                     f"{fmt_delta(node) if node is not None else '—'} | "
                     f"{cell(result.get('verdict') or '?')} |")
    lines.append("")
    lines.append(f"{len(runs)} published run(s) of {code(recipe_id)}; the nodes' own difference is "
                 f"how much faster `app-2` ran than `app-1` in a crossover, removed from the delta.")
    return "\n".join(lines) + "\n"
