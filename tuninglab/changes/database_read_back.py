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
        if figure in WINDOW_FIGURES:
            value = database.get(figure)
            out.append(Check(f"{figure} in the window, in the database ({arm})",
                             f"{low:g} to {high:g}", _shown(value),
                             value is not None and low <= value <= high))
            continue
        value = database.get("per_tx", {}).get(figure)
        least = _least(value, database)
        shown = _shown(value)
        if value is not None and least < value:
            shown += (f" (at least {least:,.3g}: {database['cut_off']:,} requests cut off at "
                      f"the window's edges, {database['transactions']:,} completed)")
        # the reading is the figure's most; the figure lies between its least and its most
        out.append(Check(f"{figure} per transaction, in the database ({arm})",
                         f"{low:g} to {high:g}", shown,
                         value is not None and least <= high and value >= low))
    return out


def _least(value: float | None, database: dict) -> float | None:
    """A per-transaction figure's least value: the window's statements and rows may include
    those of ``cut_off`` requests that k6 did not count (database_stats.window)."""
    transactions, cut_off = database.get("transactions"), database.get("cut_off") or 0
    if value is None or not transactions:
        return value
    return value * transactions / (transactions + cut_off)


def _shown(value: float | None) -> str:
    return "none (no transaction completed)" if value is None else f"{value:,.3g}"
