"""The balancer's policy in front of a cluster ([cluster]): how HAProxy picks the node for each
request. Switched at runtime (the balancer reloads its configuration; the nodes are not
touched) and read back from HAProxy's own statistics before every trial."""
from __future__ import annotations

from ..containers import Balancer
from ..plan import RUNTIME, Arm
from .base import ChangeKind
from .checks import Check


class BalancerPolicyChange(ChangeKind):
    name = "balancer-policy"
    switch = RUNTIME
    warms_every_arm = False  # no code path of the servers' own: the same app serves each arm

    def policy(self, arm: Arm) -> str:
        if self.applies(arm):
            return self.substitute(self.change.policy, arm)
        return self.recipe.cluster.policy

    def check_arm(self, arm: Arm) -> None:
        policy = self.policy(arm)
        if policy not in Balancer.POLICIES:
            raise ValueError(f"balancer policy {policy!r}; allowed: "
                             f"{', '.join(Balancer.POLICIES)}")
        if policy == "first" and self.recipe.cluster.server_maxconn < 1:
            raise ValueError("policy first fills one node up to cluster.server_maxconn before it "
                             "uses the next; allowed: cluster.server_maxconn of 1 or more")

    def apply_arm(self, stack, node: str, arm: Arm, state) -> list[Check]:
        """Called for each node of the cluster: the balancer in front of them switches once."""
        balancer, wanted = stack.balancer_of(node), self.policy(arm)
        if balancer.policy() != wanted:
            balancer.set_policy(wanted)
        return []

    def read_back(self, stack, node: str, arm: Arm) -> list[Check]:
        wanted, actual = self.policy(arm), stack.balancer_of(node).policy()
        return [Check("balancer policy (HAProxy's algo)", wanted, actual, actual == wanted)]

    def describe(self, arm: Arm | None = None) -> str:
        if arm is None:
            return (f"balancer-policy: {self.recipe.cluster.policy} -> {self.change.policy}")
        return f"balancer policy {self.policy(arm)}"
