"""The A/A runs counted (the ``aa-claims`` marker): how often a full run of a recipe whose arms
are the same configuration claimed a difference between them, per way of switching, with the
claim rate's exact 95 % interval beside the 5 % the intervals promise. A sentence on a page
that says "no more than one claim in twenty" reads its numbers here, so it cannot fall behind
the stored runs.

Only valid runs of the crossover count (plan.layout "crossover"): the earlier designs left the
two nodes' own difference inside the delta, which the pages explain on their own.
"""
from __future__ import annotations

from ..numbers import fmt_pct
from ..stats import binomial_interval
from .text import cell

__all__ = ["render", "claims"]

CLAIMS = ("better", "worse")  # a verdict that says the arms differ
PROMISED = 0.05  # a 95 % interval's share of false claims between identical arms
SWITCH_NAMES = {"runtime": "runtime (arms swap every block)",
                "reload": "reload between periods", "restart": "fresh JVMs every period"}


def _is_aa(result: dict) -> bool:
    """A valid run of identical arms in the crossover (an invalid run reads no interval, so it
    can neither claim nor count towards the runs that could have)."""
    plan = result.get("plan") or {}
    return ((result.get("change") or {}).get("kind") == "none" and result.get("kind") == "ab"
            and plan.get("layout") == "crossover"
            and (result.get("validity") or {}).get("valid") is True)


def claims(site) -> dict[str, dict]:
    """Per recipe with identical arms: its switch, the crossover runs and those that claimed."""
    found = {}
    for entry in site.entries:
        runs = [result for _, result in site.runs(entry.id) if _is_aa(result)]
        if runs:
            found[entry.id] = {
                "switch": (runs[-1].get("plan") or {}).get("switch", "runtime"),
                "runs": len(runs),
                "claims": sum(result.get("verdict") in CLAIMS for result in runs)}
    return found


def _rate(claims: int, runs: int) -> str:
    """A claim rate and its exact 95 % interval, as a table cell."""
    low, high = binomial_interval(claims, runs)
    return f"{fmt_pct(claims / runs)} [{fmt_pct(low)}, {fmt_pct(high)}]"


def render(site) -> str:
    counted = claims(site)
    if not counted:
        return '!!! info "No published A/A run of the crossover yet"\n'
    lines = ["| A/A recipe | How the arms switch | Full runs | Claimed a difference | "
             "Claim rate (exact 95 % interval) |", "|---|---|--:|--:|---|"]
    total_runs = total_claims = 0
    for recipe_id, row in counted.items():
        lines.append(f"| `{cell(recipe_id)}` | {SWITCH_NAMES.get(row['switch'], row['switch'])} "
                     f"| {row['runs']} | {row['claims']} | {_rate(row['claims'], row['runs'])} |")
        total_runs += row["runs"]
        total_claims += row["claims"]
    lines.append(f"| **all** | | {total_runs} | {total_claims} | "
                 f"{_rate(total_claims, total_runs)} |")
    low, high = binomial_interval(total_claims, total_runs)
    if low <= PROMISED <= high:
        reading = (f"The interval of the rate holds the {fmt_pct(PROMISED)} that 95 % intervals "
                   f"promise: these runs do not show the intervals claiming too often.")
    elif high < PROMISED:
        reading = (f"The whole interval of the rate lies below {fmt_pct(PROMISED)}: the intervals "
                   f"are, if anything, wider than they need to be.")
    else:
        reading = (f"The whole interval of the rate lies above {fmt_pct(PROMISED)}: the intervals "
                   f"claim too often, and a single run's verdict near its interval's edge is "
                   f"not to be trusted until the cause is found.")
    return "\n".join(lines) + (
        f"\n\nCounted from the stored valid full runs of the crossover ({total_runs} runs, "
        f"{total_claims} claiming a difference between identical arms). {reading}\n")
