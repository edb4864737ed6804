"""What an arm's client JVM reported of itself, read back after every window: a change made in
the client (its threads virtual or platform, kind workload with an app's parameter) proves
itself in the client's own figures, as a change to the application proves itself in the
database's (database_read_back.py). The recipe states the values (``[change.client]``); the
figures are the ``client`` part of the driver's summary (drivers/java_client.py).
"""
from __future__ import annotations

from ..plan import BASELINE, VARIANT
from .checks import Check


def checks(expected_by_arm: dict, variant: bool, client: dict | None) -> list[Check]:
    """One check per figure the recipe gives the arm; none when it gives none."""
    arm = VARIANT if variant else BASELINE
    expected = expected_by_arm.get(arm, {})
    if not expected:
        return []
    if not client:
        return [Check(f"the client's figures of the window ({arm})", "reported",
                      "none in the driver's summary", False)]
    out = []
    for figure, wanted in expected.items():
        value = client.get(figure)
        if isinstance(wanted, tuple):
            low, high = wanted
            ok = isinstance(value, (int, float)) and low <= value <= high
            shown = f"{low:g} to {high:g}"
        else:
            ok, shown = value == wanted, str(wanted)
        out.append(Check(f"the client's {figure} ({arm})", shown,
                         "not reported" if value is None else str(value), ok))
    return out
