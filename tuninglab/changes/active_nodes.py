"""How many of a cluster's nodes take requests: the first N stay in the balancer's rotation,
the others are taken out (HAProxy's maintenance state), at runtime. Scaling out at a fixed
quota per node without starting or stopping a JVM between trials: every node stays up,
warm and in the JGroups view; only the balancer's choice changes, and each node's state is
read back from HAProxy before every trial."""
from __future__ import annotations

from ..plan import RUNTIME, Arm
from .base import ChangeKind
from .checks import Check


class ActiveNodesChange(ChangeKind):
    name = "active-nodes"
    switch = RUNTIME
    # The warm-up runs the plan's first arm, which must have every node in the rotation (a
    # sweep's first value is the cluster's size, checked in check_arm): every node compiles
    # under load before any is measured, and no level's turn leaves a node cold.
    warms_every_arm = False

    def count(self, arm: Arm) -> int:
        """Nodes in the rotation for this arm (the baseline of an A/B recipe: all of them)."""
        if self.applies(arm):
            return int(self.substitute(str(self.change.active_nodes), arm))
        return self.recipe.cluster.nodes

    def check_arm(self, arm: Arm) -> None:
        """The arm's count, checked against the cluster."""
        count, nodes = self.count(arm), self.recipe.cluster.nodes
        if not 1 <= count <= nodes:
            raise ValueError(f"{count} active node(s) in a cluster of {nodes}; allowed: 1 to "
                             f"{nodes} (cluster.nodes)")
        sweep = self.recipe.sweep
        if sweep is not None and int(sweep.values[0]) != nodes:
            raise ValueError(f"the sweep starts at {sweep.values[0]} node(s); the warm-up runs "
                             f"the first value, and every node must compile under load before "
                             f"it is measured; allowed: sweep.values starting at {nodes} "
                             f"(cluster.nodes), e.g. [{nodes}, ..., 1]")
        if sweep is None and count == nodes:
            raise ValueError(f"{count} active node(s) is every node of the cluster, which is the "
                             f"baseline; allowed: 1 to {nodes - 1}")

    def prepare(self, stack) -> list[Check]:
        """The rotation of the plan's first arm, before the nodes are verified (a new balancer
        has every node in it)."""
        for balancer in stack.balancers.values():
            for node in balancer.backends:
                self.apply_arm(stack, node, self.arms[0], None)
        return []

    def _wanted(self, stack, node: str, arm: Arm) -> str:
        balancer = stack.balancer_of(node)
        return "ready" if balancer.backends.index(node) < self.count(arm) else "maint"

    def apply_arm(self, stack, node: str, arm: Arm, state) -> list[Check]:
        """Called for each node of the cluster: puts this one in or out of the rotation."""
        balancer, wanted = stack.balancer_of(node), self._wanted(stack, node, arm)
        if balancer.node_states()[node].startswith("MAINT") != (wanted == "maint"):
            balancer.set_state(node, wanted)
        return []

    def read_back(self, stack, node: str, arm: Arm) -> list[Check]:
        expected = "MAINT" if self._wanted(stack, node, arm) == "maint" else "UP"
        actual = stack.balancer_of(node).node_states()[node]
        return [Check(f"{node} in the balancer's rotation", expected, actual,
                      actual.startswith(expected))]

    def describe(self, arm: Arm | None = None) -> str:
        if arm is None:
            return f"active-nodes: {self.change.active_nodes} of {self.recipe.cluster.nodes}"
        return f"{self.count(arm)} of {self.recipe.cluster.nodes} nodes in the rotation"
