"""How long a measured window lasts: long enough for the app to complete some transactions.

A fixed 3 s window suits the lab's own app (a hundred or more transactions a second on a
quarter core) and holds no completed transaction of a heavier one: a user's app whose requests
take seconds, or a 20-line order on a node straight after boot (hibernate-batch-inserts failed
CI that way on 25 November 2026 with "no request completed in the measured window", which says
nothing about the change). So a profile may ask for ``min_transactions`` completed in each
arm's window (the CI profile does): a slot that falls short on any arm is measured again with
windows twice as long, up to ``window_max_s``. The longer length then holds for the rest of the
run, so the arms of every later slot are measured over the same length. At the cap the run goes
on with what it has and says that the app is too slow for the profile: its windows still prove
that the change applied and every arm served, which is all a run of that profile claims.

The published profile keeps its windows fixed (``min_transactions = 0``): its trials are paired
across the run, and a window length that changed halfway would be a second change.
"""
from __future__ import annotations

__all__ = ["WindowLength"]


class WindowLength:
    """The window length of one run, grown when the app completes too few transactions."""

    def __init__(self, window_s: int, min_transactions: int = 0, max_s: int = 0):
        self.seconds = window_s
        self.min_transactions = min_transactions
        self.max_s = max(max_s, window_s)
        self.too_slow_said = False

    def short(self, completed: dict[str, int]) -> dict[str, int]:
        """The arms whose window completed fewer transactions than the profile asks for."""
        if not self.min_transactions:
            return {}
        return {arm: n for arm, n in completed.items() if n < self.min_transactions}

    def grow(self, completed: dict[str, int]) -> int | None:
        """The longer window to measure the slot again with (it becomes the run's window), or
        None: the window was long enough, or is already as long as the profile allows."""
        if not self.short(completed) or self.seconds >= self.max_s:
            return None
        self.seconds = min(self.seconds * 2, self.max_s)
        return self.seconds

    def too_slow(self, completed: dict[str, int]) -> str | None:
        """Once per run, the sentence for an app that stays short at the longest window."""
        short = self.short(completed)
        if not short or self.seconds < self.max_s or self.too_slow_said:
            return None
        self.too_slow_said = True
        counts = ", ".join(f"{arm} {n}" for arm, n in sorted(short.items()))
        return (f"the app is too slow for this profile: {counts} transaction(s) completed in a "
                f"{self.seconds} s window, the longest it allows, and it asks for "
                f"{self.min_transactions}; the run goes on (its windows still show the change "
                f"applied and every arm served), and the full profile's longer windows suit "
                f"this app")
