"""What an arm did to the database, read back after every window: a change to the application
proves itself here (a listing that reads its lines in one query runs one statement a
transaction, not 22; a store that writes only what changed updates a tenth of a row, not one),
as a change to the server proves itself in the server's model. The recipe states the ranges
(``[change.database]``); the figures come from database_stats.py. The same ranges, read the
same way, hold what an arm's nodes sent and received on their networks (``[change.network]``,
``where`` "on the nodes' networks"; network_counters.py): a session written whole at every
request sends its large attribute, one written by its changed attributes does not. And what
the app's data-source pool held when a window began and opened during it
(``[change.pool]``, telemetry.py): a minimum pool size that holds through a quiet spell starts
the burst with its connections open, one that does not opens them again.
"""
from __future__ import annotations

from ..plan import BASELINE, VARIANT
from .checks import Check

# counted over the window; the others per transaction
WINDOW_FIGURES = ("deadlocks", "serialization_failures")
# the pool's figures are all the window's own (telemetry._pool_window)
POOL_FIGURES = ("active_at_start", "created")


def checks(ranges_by_arm: dict, variant: bool, database: dict | None,
           where: str = "in the database",
           window_figures: tuple[str, ...] = WINDOW_FIGURES) -> list[Check]:
    """One check per range the recipe gives the arm; none when it gives none. ``database``:
    the window's figures (its ``per_tx``, ``transactions`` and ``cut_off``), ``where`` they
    were read, for the checks' words; ``window_figures`` those counted over the window, not
    per transaction."""
    arm = VARIANT if variant else BASELINE
    ranges = ranges_by_arm.get(arm, {})
    if not ranges:
        return []
    if not database or "error" in database:
        why = (database or {}).get("error", "not read (shared by arms measured side by side)")
        return [Check(f"the window's figures {where} ({arm})", "read", why, False)]
    out = []
    for figure, (low, high) in ranges.items():
        if figure in window_figures:
            value = database.get(figure)
            out.append(Check(f"{figure} in the window, {where} ({arm})",
                             f"{low:g} to {high:g}", _shown(value),
                             value is not None and low <= value <= high))
            continue
        value = database.get("per_tx", {}).get(figure)
        least = _least(value, database)
        shown = _shown(value)
        if value is not None and least < value:
            shown += (f" (at least {_shown(least)}: {database['cut_off']:,} requests cut off at "
                      f"the window's edges, {database['transactions']:,} completed)")
        # the reading is the figure's most; the figure lies between its least and its most
        out.append(Check(f"{figure} per transaction, {where} ({arm})",
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
    """Three significant figures, or whole numbers from 100 up (bytes read 21,986, not 2.2e+04)."""
    if value is None:
        return "none (no transaction completed)"
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.3g}"
