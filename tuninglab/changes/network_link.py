"""The network between the nodes and a database, or between a cluster's nodes, as a change:
what the two network kinds share (network_delay.py, network_rate.py).

This machine's kernel has no netem queueing discipline, so the network is changed by a proxy
in the path (containers.LinkProxy, tl-net). In front of a database it takes the database's
name, so the nodes' data sources reach the database through it in every arm; between a
cluster's nodes ("nodes") there is one in front of each node, which the other nodes reach it
through (stack.Stack._linked), all set alike. Only what the proxies do to the traffic differs
between arms, set at runtime before every trial. Since the proxies serve every node, the arms
take turns on the same nodes (the shared layout, as a database setting does). A kind reads its
setting back twice before every trial: each proxy's own report, and a measurement taken from a
node through a proxy to the far end's echo server or sink (network.py): the database's, or
another node's.
"""
from __future__ import annotations

from .. import network
from ..plan import DATABASE, Arm
from .base import ChangeKind
from .checks import Check


class LinkChange(ChangeKind):
    switch = DATABASE
    warms_every_arm = False  # the network is no code path of the server's
    link_key = ""  # the recipe's change key naming the link: a database (absent: the first)
    unit = ""  # of the arm's value, as the recipe gives it
    maximum = 0.0

    def __init__(self, recipe):
        super().__init__(recipe)
        # the proxy's key in Stack.proxies: a database's name, or network.LINK (between the nodes)
        self.link = getattr(self.change, self.link_key) or recipe.stack.databases[0]

    @property
    def between_nodes(self) -> bool:
        return self.link == network.LINK

    def stack_needs(self) -> dict:
        # The proxy on the node's core, not the database's: beside the database and the load
        # generator it kept their core 85-93 % busy at 16 users, and 38 trials of the first
        # full delay run (5 December 2026) were disturbed by it; the node's quota leaves room.
        where = {"proxy_cpuset": self.recipe.stack.app_cpuset}
        if self.between_nodes:
            return {"linked_nodes": True, **where}
        return {"proxied": (self.link,), **where}

    def proxies(self, stack) -> dict:
        """The proxies that make the link, by what each stands in front of."""
        if self.between_nodes:
            return stack.link_proxies()
        return {self.link: stack.proxies[self.link]}

    def far_end(self, stack, node: str) -> tuple[object, str, str]:
        """What a measurement from ``node`` reaches across the link: the container at the far
        end, its address (around the proxy) and its name through the proxy."""
        if not self.between_nodes:
            return (stack.databases[self.link], stack.address_of(self.link), self.link)
        other = self.far_end_name(stack, node)
        return stack.nodes[other], stack.address_of(other), stack.link_name(other)

    def far_end_name(self, stack, node: str) -> str:
        """The far end's name: the database, or between the nodes another node (the last, or
        for the last the first)."""
        if not self.between_nodes:
            return self.link
        return [name for name in stack.link_proxies() if name != node][-1]

    def ends(self) -> str:
        """The link's two ends, in words."""
        return "the cluster's nodes" if self.between_nodes else f"the nodes and {self.link}"

    def proxy_checks(self, stack, what: str, key: str, wanted: int, unit: str) -> list[Check]:
        """Each proxy's own report of its setting ``key`` against ``wanted``; between the
        nodes also proof that the cluster's traffic crosses the proxies: they hold at least a
        connection per pair of nodes (JGroups keeps one open between two members, through the
        proxy of the one it was opened to). Each proxy's state is read once."""
        states = {where: proxy.state() for where, proxy in self.proxies(stack).items()}
        checks = [Check(f"the proxy before {where}: {what}", f"{wanted} {unit}",
                        f"{state[key]} {unit}", state[key] == wanted)
                  for where, state in states.items()]
        if self.between_nodes:
            held = sum(state["connections"] for state in states.values())
            wanted_held = len(states) * (len(states) - 1) // 2
            checks.append(Check("connections between the nodes through their link proxies",
                                f">= {wanted_held}", str(held), held >= wanted_held))
        return checks

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
        if self.between_nodes:
            nodes = self.recipe.cluster.nodes if self.recipe.cluster else 1
            if nodes < 2:
                raise ValueError(f"change.{self.link_key} = {network.LINK!r} needs a [cluster] "
                                 f"of two or more nodes (this recipe has {nodes})")
        elif self.link not in self.recipe.stack.databases:
            raise ValueError(f"change.{self.link_key} names {self.link!r}, not a database of "
                             f"the stack; allowed: {', '.join(self.recipe.stack.databases)}, "
                             f"or {network.LINK!r} (between a cluster's nodes)")
