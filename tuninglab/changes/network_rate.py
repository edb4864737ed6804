"""A narrower network between the nodes and a database, or between a cluster's nodes: the
link's rate capped, the thesis's network check (8.3: the busiest node, the database, moved
about 180 Mbit/s with 32 nodes, and its 100 Mbit/s network was judged not to be the limit)
asked of this stack's traffic.

The proxies in the path (network_link.py) send every connection's data through one link of
the rate in each direction, as a wire is shared: a statement waits for the bytes queued before
it, and a large result set for its own length at the rate. Read back before every trial, twice:
each proxy's own report of its cap, and a transfer pushed from the node through a proxy to the
far end's sink (network.py), whose rate must be the cap's (not above: the cap is not in
effect; far below: something else limits the arm, which is then not the arm the recipe
describes). The baseline's link has no cap; its push is stored too.
"""
from __future__ import annotations

from .. import network
from ..plan import Arm
from .checks import Check
from .network_link import LinkChange

# The pushed rate over the cap: TCP's slow start and the proxy's buffer of a few milliseconds
# make it a little lower; above the cap by more than the timer's slack it is not in effect.
RATE_BAND = (0.75, 1.05)
PUSH_S = 0.5  # a read-back pushes half a second's worth of the cap (at least PUSH_MIN_BYTES)
PUSH_MIN_BYTES = 256 << 10


class NetworkRateChange(LinkChange):
    name = "network-rate"
    link_key = "capped"
    unit = "Mbit/s"
    maximum = 100_000.0

    def setting(self, arm: Arm) -> str:
        return str(self.change.rate_mbit)

    def rate_mbit(self, arm: Arm) -> float:
        """The link's cap in the arm in Mbit/s (0 and the baseline: none)."""
        return self.value(arm)

    def apply_arm(self, stack, node: str, arm: Arm, state) -> list[Check]:
        for proxy in self.proxies(stack).values():
            proxy.set_rate_kbit(round(self.rate_mbit(arm) * 1000))
        return []

    def read_back(self, stack, node: str, arm: Arm) -> list[Check]:
        cap = self.rate_mbit(arm)
        checks = self.proxy_checks(stack, "its link's rate cap", "rate_kbit", round(cap * 1000),
                                   "kbit/s")
        pushed = self.pushed_mbit_s(stack, node, cap)
        what = f"push {node} -> {self.far_end_name(stack, node)} through the proxy: rate"
        if cap:
            low, high = (cap * bound for bound in RATE_BAND)
            checks.append(Check(what, f"{low:g} to {high:g} Mbit/s", f"{pushed:.3g} Mbit/s",
                                low <= pushed <= high))
        else:  # no cap: stored, with nothing to hold it to but that it flowed
            checks.append(Check(what, "> 0 Mbit/s (no cap)", f"{pushed:.3g} Mbit/s", pushed > 0))
        return checks

    def pushed_mbit_s(self, stack, node: str, cap: float) -> float:
        far, _, through_proxy = self.far_end(stack, node)
        network.serve(far)
        n_bytes = max(PUSH_MIN_BYTES, cap * 1e6 / 8 * PUSH_S) if cap else network.BANDWIDTH_BYTES
        return network.push_rate(stack.nodes[node], f"{through_proxy}:{network.SINK_PORT}",
                                 n_bytes)["mbit_s"]

    def describe(self, arm: Arm | None = None) -> str:
        if arm is None:
            return (f"network-rate: the link between {self.ends()} capped at "
                    f"{self.change.rate_mbit} Mbit/s each way")
        cap = self.rate_mbit(arm)
        return (f"the link between {self.ends()} capped at {cap:g} Mbit/s" if cap
                else f"no cap on the link between {self.ends()}")
