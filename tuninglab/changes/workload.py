"""A change on the client's side: the load generator behaves differently in the variant arm,
the servers are configured alike (guide 2.1.1: how many requests an HTTP connection carries,
a server setting in JBoss EAP 5 that Undertow no longer has; article 004: a client JVM's
threads virtual or platform, one of its app's workload parameters).

Nothing is written to a server, so the arms swap nodes every block (``runtime``). The proof
that the change took effect is read from the load itself after each window: for a limit of
requests a connection, the connections the load generator had to open against those its
requests asked for (workloads/mix.js); for an app's parameter, what the client reports of
itself, as the recipe's ``[change.client]`` states it (client_read_back.py).
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
        if "requests_per_connection" not in self.change.workload:
            return []  # an app's parameter: proven by [change.client], which the rules ask for
        opened, expected = numbers.get("connections"), numbers.get("connections_expected")
        if opened is None or expected is None:
            return [Check("connections the load generator opened", "a count", "none reported",
                          False)]
        allowed = SLACK + numbers.get("failed", 0)
        checks = [Check(f"connections opened in the window ({arm.label})",
                        f"{expected} (as the requests asked, +/- {allowed})", str(opened),
                        abs(opened - expected) <= allowed)]
        limit = self.requests_per_connection(arm)
        users = self.recipe.workload.users if self.recipe.workload.model == "closed" else None
        if limit and users:
            # Each window is a new k6 run whose users open their first connection afresh: a
            # limit that no user reached in the window never closed anything, and the arms
            # would not differ at all (found the hard way: 22 requests a user against 100).
            checks.append(Check(f"the limit of {limit} requests a connection was reached "
                                f"({arm.label})", f"more connections than the {users} users",
                                f"{expected} connections for {numbers.get('requests', 0)} "
                                f"requests", expected > users))
        return checks

    def requests_per_connection(self, arm: Arm) -> int:
        key = "requests_per_connection"
        if self.applies(arm) and key in self.change.workload:
            return self.change.workload[key]
        return getattr(self.recipe.workload, key, 0)

    def describe(self, arm: Arm | None = None) -> str:
        if arm is not None and not self.applies(arm):
            return "the baseline workload"
        keys = ", ".join(f"{k}={v}" for k, v in self.change.workload.items())
        return f"workload (the load generator, not the servers): {keys}"
