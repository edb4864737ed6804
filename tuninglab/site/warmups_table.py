"""The warm-up of every node in every published run of one recipe (the ``warmups`` marker): how
long each JVM took to compile and to reach its plateau, drawn from the stored windows."""
from __future__ import annotations

from .. import result as results
from ..numbers import fmt_time
from .text import cell, rel

__all__ = ["render", "render_summary", "node_rows"]


def node_rows(result: dict) -> list[dict]:
    """One row per node: seconds in each phase, whether the rule held, the last windows."""
    rows = []
    for node, w in (result.get("warmup") or {}).items():
        windows = w.get("windows") or []
        compile_w = [x for x in windows if x.get("phase") == "compile"]
        plateau_w = [x for x in windows if x.get("phase") == "plateau"]
        rows.append({
            "node": node, "steady": bool(w.get("steady")),
            "compile_s": sum(x.get("seconds") or 0 for x in compile_w),
            "plateau_s": sum(x.get("seconds") or 0 for x in plateau_w),
            "compile_end": compile_w[-1] if compile_w else None,
            "plateau_end": plateau_w[-1] if plateau_w else None,
        })
    return rows


def render(site, recipe_id: str, page: str) -> str:
    runs = site.runs(recipe_id)
    lines = ["| Run | Node | Compile phase | At its end | Plateau phase | At its end | Steady |",
             "|---|---|--:|---|--:|---|---|"]
    count = 0
    for path, result in runs:
        when = (result.get("provenance") or {}).get("started")
        link = f"[{fmt_time(when)}]({rel(page, 'results/' + path.parent.name + '/' + path.name)})"
        for row in node_rows(result):
            count += 1
            lines.append(f"| {link} | {row['node']} | {row['compile_s']:.0f} s | "
                         f"{_window(row['compile_end'])} | {row['plateau_s']:.0f} s | "
                         f"{_window(row['plateau_end'])} | {'yes' if row['steady'] else 'no'} |")
    if not count:
        return f'!!! info "No published warm-up of `{recipe_id}` yet"\n'
    lines += ["", f"{count} JVM starts in {len(runs)} published run(s) of `{cell(recipe_id)}`; "
                  f"each window is 5 s of the recipe's own load."]
    return "\n".join(lines) + "\n"


def render_summary(site) -> str:
    """The Method page's statement on the warm-up rule, counted from the newest published
    result of every recipe (a sentence, so that it never outruns the stored runs)."""
    checked = steady = 0
    affected = []
    for entry in site.entries:
        found = site.newest(entry.id)
        if found is None:
            continue
        unsteady, count = results.unsteady_nodes(found[1])
        checked += count
        steady += count - len(unsteady)
        if unsteady:
            affected.append(f"`{entry.id}` ({len(unsteady)} of {count})")
    if not checked:
        return "No published result has a node warm-up with a plateau check yet.\n"
    text = (f"In the newest published result of each recipe, **{steady} of {checked} JVM "
            f"warm-ups ended steady** ({steady / checked * 100:.0f} %; a node started anew in a later "
            f"period, as a restart crossover or a sweep's launches do, warms up again and "
            f"counts again).")
    if affected:
        text += (f" {checked - steady} ended without a plateau, in {len(affected)} recipes: "
                 f"{', '.join(affected)}. Each of their pages says so beside its numbers: a "
                 f"node still speeding up adds drift that a crossover's swaps cancel only in "
                 f"part, and that nothing cancels where each value of a sweep has a node of "
                 f"its own.")
    return text + "\n"


def _window(window: dict | None) -> str:
    if not window:
        return "—"
    if window.get("jit_share") is not None:
        return f"{window['throughput']:,.0f} tx/s, compiler {window['jit_share']:.0%} of CPU"
    # Runs before 26 November 2026 have the compiler's wall time only.
    return f"{window['throughput']:,.0f} tx/s, JIT {window['jit_busy']:.0%} (wall)"
