"""A slower network between the nodes and a database: a round-trip delay added on the path,
the thesis's question of a real network (what a database round trip costs at 0.1, 1 or 5 ms).

This machine's kernel has no netem queueing discipline, so the delay is added by a proxy in
the path (containers.DelayProxy, tl-net): it takes the database's name, so the nodes' data
sources reach the database through it in every arm, and only its delay differs between arms,
set at runtime before every trial. Since the one proxy serves every node, the arms take turns
on one node (the shared layout, as a database setting does).

Read back before every trial, twice: the proxy's own report of the delay it adds, and a round
trip timed from the node through the proxy to the database's echo server (network.py), whose
excess over the direct path must be at least the delay (a sleep in the kernel wakes late, never
early; the excess is stored, so the result shows the delay the arm really had).
"""
from __future__ import annotations

from .. import network
from ..plan import DATABASE, Arm
from .base import ChangeKind
from .checks import Check

MAX_DELAY_MS = 1000.0
# A round trip's median excess over the direct path may fall short of the set delay by this
# much before the delay counts as not in effect (the two medians are read a moment apart).
SHORT_US = 30.0


class NetworkDelayChange(ChangeKind):
    name = "network-delay"
    switch = DATABASE
    warms_every_arm = False  # a delay is no code path of the server's

    def __init__(self, recipe):
        super().__init__(recipe)
        self.database = self.change.delayed or recipe.stack.databases[0]

    def stack_needs(self) -> dict:
        # The proxy on the node's core, not the database's: beside the database and the load
        # generator it kept their core 85-93 % busy at 16 users, and 38 trials of the first
        # full run (5 December 2026) were disturbed by it; the node's quota leaves room.
        return {"delayed": (self.database,), "proxy_cpuset": self.recipe.stack.app_cpuset}

    def role_inputs(self) -> dict[str, tuple[str, ...]]:
        return {"delay proxy": ("tools/tl-net/main.go", "tools/tl-net/go.mod")}

    def delay_ms(self, arm: Arm) -> float:
        """The round trip's added delay in the arm (the baseline: none)."""
        if not self.applies(arm):
            return 0.0
        return float(self.substitute(str(self.change.delay_ms), arm))

    def check_arm(self, arm: Arm) -> None:
        delay = self.delay_ms(arm)
        if not 0 <= delay <= MAX_DELAY_MS:
            raise ValueError(f"a delay of {delay:g} ms; allowed: 0 to {MAX_DELAY_MS:g} ms")
        if self.database not in self.recipe.stack.databases:
            raise ValueError(f"change.delayed names {self.database!r}, not a database of the "
                             f"stack; allowed: {', '.join(self.recipe.stack.databases)}")

    def apply_arm(self, stack, node: str, arm: Arm, state) -> list[Check]:
        stack.proxies[self.database].set_delay_us(round(self.delay_ms(arm) * 1000))
        return []

    def read_back(self, stack, node: str, arm: Arm) -> list[Check]:
        wanted_us = round(self.delay_ms(arm) * 1000)
        told = stack.proxies[self.database].state()["delay_us"]
        checks = [Check(f"the proxy before {self.database}: delay it adds", f"{wanted_us} us",
                        f"{told} us", told == wanted_us)]
        excess = self.measured_excess_us(stack, node)
        checks.append(Check(f"round trip {node} -> {self.database}: excess over the direct path",
                            f">= {wanted_us - SHORT_US:g} us", f"{excess:.0f} us",
                            excess >= wanted_us - SHORT_US))
        return checks

    def measured_excess_us(self, stack, node: str) -> float:
        """Median round trip through the proxy less the median to the database's address."""
        container = stack.nodes[node]
        network.serve(stack.databases[self.database])
        through = network.echo_round_trip(container, f"{self.database}:{network.ECHO_PORT}", 100)
        direct = network.echo_round_trip(
            container, f"{stack.address_of(self.database)}:{network.ECHO_PORT}", 100)
        return through["median_us"] - direct["median_us"]

    def describe(self, arm: Arm | None = None) -> str:
        if arm is None:
            return (f"network-delay: {self.change.delay_ms} ms added to the round trip between "
                    f"the nodes and {self.database}")
        return f"{self.delay_ms(arm):g} ms added between the nodes and {self.database}"
