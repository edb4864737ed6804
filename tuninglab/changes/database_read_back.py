"""What an arm did to the database, read back after every window: a change to the application
proves itself here (a listing that reads its lines in one query runs one statement a
transaction, not 22; a store that writes only what changed updates a tenth of a row, not one),
as a change to the server proves itself in the server's model. The recipe states the ranges
(``[change.database]``); the figures come from database_stats.py.
"""
from __future__ import annotations

from ..plan import BASELINE, VARIANT
from .checks import Check

# counted over the window; the others per transaction
WINDOW_FIGURES = ("deadlocks", "serialization_failures")


def checks(ranges_by_arm: dict, variant: bool, database: dict | None) -> list[Check]:
    """One check per range the recipe gives the arm; none when it gives none."""
    arm = VARIANT if variant else BASELINE
    ranges = ranges_by_arm.get(arm, {})
    if not ranges:
        return []
    if not database or "error" in database:
        why = (database or {}).get("error", "not read (shared by arms measured side by side)")
        return [Check(f"the database's figures of the window ({arm})", "read", why, False)]
    out = []
    for figure, (low, high) in ranges.items():
        value = (database.get(figure) if figure in WINDOW_FIGURES
                 else database.get("per_tx", {}).get(figure))
        unit = "in the window" if figure in WINDOW_FIGURES else "per transaction"
        shown = "none (no transaction completed)" if value is None else f"{value:,.3g}"
        out.append(Check(f"{figure} {unit}, in the database ({arm})", f"{low:g} to {high:g}",
                         shown, value is not None and low <= value <= high))
    return out
