"""A slower network between the nodes and a database, or between a cluster's nodes: a
round-trip delay added on the path, the thesis's question of a real network (what a database
round trip or a replicated session write costs at 0.1, 1 or 5 ms).

The proxy in the path (network_link.py) delays each chunk by half the delay each way. Read
back before every trial, twice: the proxy's own report of the delay it adds, and a round trip
timed from the node through the proxy to the far end's echo server (network.py), whose excess
over the direct path must be at least the delay (a sleep in the kernel wakes late, never
early; the excess is stored, so the result shows the delay the arm really had). Between the
nodes, also that the cluster's connections cross the proxy.
"""
from __future__ import annotations

from .. import network
from ..plan import Arm
from .checks import Check
from .network_link import LinkChange

# A round trip's median excess over the direct path may fall short of the set delay by this
# much before the delay counts as not in effect (the two medians are read a moment apart).
SHORT_US = 30.0


class NetworkDelayChange(LinkChange):
    name = "network-delay"
    link_key = "delayed"
    unit = "ms"
    maximum = 1000.0

    def setting(self, arm: Arm) -> str:
        return str(self.change.delay_ms)

    def delay_ms(self, arm: Arm) -> float:
        """The round trip's added delay in the arm (the baseline: none)."""
        return self.value(arm)

    def apply_arm(self, stack, node: str, arm: Arm, state) -> list[Check]:
        for proxy in self.proxies(stack).values():
            proxy.set_delay_us(round(self.delay_ms(arm) * 1000))
        return []

    def read_back(self, stack, node: str, arm: Arm) -> list[Check]:
        wanted_us = round(self.delay_ms(arm) * 1000)
        checks = self.proxy_checks(stack, "delay it adds", "delay_us", wanted_us, "us")
        excess = self.measured_excess_us(stack, node)
        checks.append(Check(f"round trip {node} -> {self.far_end_name(stack, node)}: excess over "
                            f"the direct path",
                            f">= {wanted_us - SHORT_US:g} us", f"{excess:.0f} us",
                            excess >= wanted_us - SHORT_US))
        return checks

    def measured_excess_us(self, stack, node: str) -> float:
        """Median round trip through the proxy less the median to the far end's address."""
        container = stack.nodes[node]
        far, address, through_proxy = self.far_end(stack, node)
        network.serve(far)
        through = network.echo_round_trip(container, f"{through_proxy}:{network.ECHO_PORT}", 100)
        direct = network.echo_round_trip(container, f"{address}:{network.ECHO_PORT}", 100)
        return through["median_us"] - direct["median_us"]

    def describe(self, arm: Arm | None = None) -> str:
        if arm is None:
            return (f"network-delay: {self.change.delay_ms} ms added to the round trip between "
                    f"{self.ends()}")
        return f"{self.delay_ms(arm):g} ms added between {self.ends()}"
