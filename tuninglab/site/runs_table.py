"""Every published run of one recipe, one row each (the ``runs`` marker): how a page shows the
history of a calibration, so that a reader sees each protocol's runs and their spread, drawn
from the stored results rather than retyped."""
from __future__ import annotations

from .. import result as results
from ..numbers import fmt_delta, fmt_pct, fmt_time
from .text import cell, code, nowrap, rel

__all__ = ["render", "differing_inputs"]

# The inputs of a run that can move its verdict, by how the page names them: the recipe as
# measured, the stack's build inputs, the software versions, the profile's repetitions.
INPUTS = {"the recipe": ("provenance", "measured_hash"),
          "the stack's inputs": ("provenance", "stack_inputs"),
          "the library": ("provenance", "versions", "tuninglab"),
          "WildFly": ("provenance", "versions", "wildfly"),
          "the JDK": ("provenance", "versions", "jdk"),
          "PostgreSQL": ("provenance", "versions", "postgresql"),
          "the blocks": ("design", "profile", "blocks"),
          "a stack taken over warm": ("provenance", "stack_origin", "taken_over")}


def _at(result: dict, path: tuple[str, ...]):
    for key in path:
        result = result.get(key) if isinstance(result, dict) else None
    return result


def _short(value) -> str:
    """A hash shortened as Git shortens one; any other value as it is."""
    text = str(value)
    return text[:8] if len(text) >= 32 and all(c in "0123456789abcdef" for c in text) else text


def differing_inputs(a: dict, b: dict) -> str:
    """Which inputs two runs did not share (a rerun of the same inputs: none, the noise)."""
    found = []
    for name, path in INPUTS.items():
        x, y = _at(a, path), _at(b, path)
        if x != y and x is not None and y is not None:
            found.append(f"{name} ({_short(x)} → {_short(y)})")
    return ", ".join(found) or "no input (the same recipe, stack and versions: the noise of one run against another)"


def render(site, recipe_id: str, page: str) -> str:
    runs = site.runs(recipe_id)
    if not runs:
        return f'!!! info "No published run of `{recipe_id}` yet"\n'
    lines = ["| Run | Commit | Design | Primary delta (95 % interval) | Detectable | "
             "Nodes' own difference | Verdict |", "|---|---|---|---|--:|--:|---|"]
    changes = []
    previous = None
    for path, result in runs:
        prov = result.get("provenance") or {}
        link = f"[{fmt_time(prov.get('started'))}]({rel(page, 'results/' + path.parent.name + '/' + path.name)})"
        design = results.layout_text(result) or "one node, arms one after the other"
        origin = prov.get("stack_origin") or {}
        if origin.get("taken_over"):  # stackpool.py: the JVMs were warm from earlier runs
            design += (f"; a warm stack, its run {len(origin.get('served_before') or ()) + 1} "
                       f"(after {origin['served_before'][-1]})" if origin.get("served_before")
                       else "; a warm stack")
        entry = results.primary_entry(result) if results.is_valid(result) else None
        comparison = (results.comparisons(result) or [{}])[0]
        if entry:
            delta = nowrap(fmt_delta(entry["delta"], entry.get("ci_low"), entry.get("ci_high")))
            if results.interval_level(result) != "95 %":  # a sequential run that stopped early
                delta += f" at {results.interval_level(result)}"
            detect = fmt_pct(entry.get("detectable"))
        else:
            delta, detect = "—", "—"
        node = comparison.get("node_effect")
        verdict = cell(result.get("verdict") or "?")
        if previous is not None and previous.get("verdict") != result.get("verdict"):
            verdict = f"**{verdict}** (changed)"
            changes.append(f"{fmt_time(prov.get('started'))}: {cell(previous.get('verdict'))} → "
                           f"{cell(result.get('verdict'))}; what differed: "
                           f"{cell(differing_inputs(previous, result))}")
        lines.append(f"| {link} | {code(str(prov.get('git_commit', '?'))[:7])} | {cell(design)} | "
                     f"{delta} | {detect} | {fmt_delta(node) if node is not None else '—'} | "
                     f"{verdict} |")
        previous = result
    lines.append("")
    if changes:
        lines += ["The verdict changed between runs:", "", *(f"- {c}" for c in changes), ""]
    lines.append(f"{len(runs)} published run(s) of {code(recipe_id)}; the nodes' own difference is "
                 f"how much faster `app-2` ran than `app-1` in a crossover, removed from the delta.")
    return "\n".join(lines) + "\n"
