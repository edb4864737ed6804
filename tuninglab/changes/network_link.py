"""The network between the nodes and a database as a change: what the two network kinds share
(network_delay.py, network_rate.py).

This machine's kernel has no netem queueing discipline, so the network is changed by a proxy
in the path (containers.LinkProxy, tl-net): it takes the database's name, so the nodes' data
sources reach the database through it in every arm, and only what it does to the traffic
differs between arms, set at runtime before every trial. Since the one proxy serves every
node, the arms take turns on one node (the shared layout, as a database setting does). A kind
reads its setting back twice before every trial: the proxy's own report, and a measurement
taken from the node through the proxy to the database's echo server or sink (network.py).
"""
from __future__ import annotations

from ..plan import DATABASE, Arm
from .base import ChangeKind


class DatabaseLinkChange(ChangeKind):
    switch = DATABASE
    warms_every_arm = False  # the network is no code path of the server's
    database_key = ""  # the recipe's change key naming the database (absent: the first)
    unit = ""  # of the arm's value, as the recipe gives it
    maximum = 0.0

    def __init__(self, recipe):
        super().__init__(recipe)
        self.database = getattr(self.change, self.database_key) or recipe.stack.databases[0]

    def stack_needs(self) -> dict:
        # The proxy on the node's core, not the database's: beside the database and the load
        # generator it kept their core 85-93 % busy at 16 users, and 38 trials of the first
        # full delay run (5 December 2026) were disturbed by it; the node's quota leaves room.
        return {"proxied": (self.database,), "proxy_cpuset": self.recipe.stack.app_cpuset}

    def role_inputs(self) -> dict[str, tuple[str, ...]]:
        return {"link proxy": ("tools/tl-net/main.go", "tools/tl-net/go.mod")}

    def setting(self, arm: Arm) -> str:
        """The recipe's value for the arm, before {value} is substituted."""
        raise NotImplementedError

    def value(self, arm: Arm) -> float:
        """The arm's value (the baseline: 0, an untouched link)."""
        if not self.applies(arm):
            return 0.0
        return float(self.substitute(str(self.setting(arm)), arm))

    def check_arm(self, arm: Arm) -> None:
        value = self.value(arm)
        if not 0 <= value <= self.maximum:
            raise ValueError(f"{value:g} {self.unit}; allowed: 0 to {self.maximum:g} {self.unit}")
        if self.database not in self.recipe.stack.databases:
            raise ValueError(f"change.{self.database_key} names {self.database!r}, not a database "
                             f"of the stack; allowed: {', '.join(self.recipe.stack.databases)}")
