"""A change on the client's side: the load generator behaves differently in the variant arm,
the servers are configured alike (guide 2.1.1: how many requests an HTTP connection carries,
a server setting in JBoss EAP 5 that Undertow no longer has).

Nothing is written to a server, so the arms swap nodes every block (``runtime``). The proof
that the change took effect is read from the load itself after each window: the connections
the load generator had to open, against those its requests asked for (workloads/mix.js).
"""
from __future__ import annotations

from ..plan import RUNTIME, Arm
from .base import ChangeKind
from .checks import Check

# Connections that may open beyond what the requests asked for: a request that failed or timed
# out can take its connection with it.
SLACK = 2


class WorkloadChange(ChangeKind):
    name = "workload"
    switch = RUNTIME

    def load_for(self, arm: Arm) -> dict:
        return dict(self.change.workload) if self.applies(arm) else {}

    def read_back_load(self, arm: Arm, numbers: dict) -> list[Check]:
        opened, expected = numbers.get("connections"), numbers.get("connections_expected")
        if opened is None or expected is None:
            return [Check("connections the load generator opened", "a count", "none reported",
                          False)]
        allowed = SLACK + numbers.get("failed", 0)
        return [Check(f"connections opened in the window ({arm.label})",
                      f"{expected} (as the requests asked, +/- {allowed})", str(opened),
                      abs(opened - expected) <= allowed)]

    def describe(self, arm: Arm | None = None) -> str:
        if arm is not None and not self.applies(arm):
            return "the baseline workload"
        keys = ", ".join(f"{k}={v}" for k, v in self.change.workload.items())
        return f"workload (the load generator, not the servers): {keys}"
