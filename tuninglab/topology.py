"""What a run's application server is made of, and how its load reaches it.

- **Nodes** (every recipe without ``[cluster]``): each of the plan's targets is one node the
  stack starts with; the load goes to the node's name.
- **Cluster** (``[cluster]``): the plan has one target, the balancer (plan.CLUSTER_TARGET);
  the stack starts N standalone-ha nodes, and the run forms a cluster of them behind the
  balancer (cluster.py): nodes that found each other, verified before anything is measured.
  In CI a parked cluster of as many nodes is taken over instead (stackpool.py). The engine reaches a
  target's nodes through ``Stack.members``, so configuration, read-back, warm-up and telemetry
  work on every node of it, and the load goes to the balancer.

A later topology (a second database, a remote EJB client in front of the nodes) is another
small class here and a recipe key; the engine asks only these four questions.
"""
from __future__ import annotations

from . import cluster
from .changes.checks import ChangeNotEffective, Check
from .plan import CLUSTER_TARGET
from .recipe import Recipe, RecipeError
from .stack import NodeConfig, Stack

__all__ = ["Nodes", "Cluster", "topology_for", "cluster_spec"]


class Nodes:
    """One node per target, started with the stack."""

    reuses_stacks = True  # a parked stack of the same nodes can serve the next run (CI)
    # Whether verify() smoke-tests every target through the way the load reaches it, after
    # configuration: then the engine's own smoke test before configuration adds nothing.
    smoke_tests = False

    def initial_nodes(self, configs: dict[str, NodeConfig]) -> dict[str, NodeConfig]:
        """The nodes the stack starts with, from each target's configuration."""
        return configs

    def start(self, stack: Stack, configs: dict[str, NodeConfig]) -> None:
        """Whatever the stack does not start by itself."""

    def pool_extra(self) -> dict:
        """What this topology adds to a stack's kind in the pool of parked stacks."""
        return {}

    def verify(self, stack: Stack) -> list[Check]:
        """Checks of the whole, after every node was configured and verified."""
        return []

    def provenance(self) -> dict:
        return {}


class Cluster(Nodes):
    """N nodes behind a balancer, formed on the started stack."""

    reuses_stacks = True  # a parked cluster of as many nodes serves the next run (CI)
    smoke_tests = True  # every transaction type through the balancer, each node served some

    def __init__(self, spec: cluster.ClusterSpec):
        self.spec = spec
        self.report = cluster.ClusterReport()

    def initial_nodes(self, configs):
        """The cluster's nodes start with the stack (they boot beside the database), and find
        each other once it has started."""
        return self.spec.node_configs(configs[CLUSTER_TARGET])

    def pool_extra(self):
        return {"balancer": {"server_maxconn": self.spec.server_maxconn}}

    def start(self, stack, configs):
        self.report.stack_started_s = stack.started_in_s
        if stack.reused:  # its nodes found each other before, and were reloaded since
            cluster.rejoin(stack, self.spec, self.report)
            started = [name for name in stack.nodes if name not in stack.kept_nodes]
            if started:  # a parked cluster grown: the new members' configuration with discovery
                stack.save_pristine(started)
            return
        cluster.form(stack, self.spec, self.report, base=configs[CLUSTER_TARGET])
        if stack.reuse:
            stack.save_pristine()  # with discovery: what the next run's reset goes back to

    def verify(self, stack):
        """One view of all N nodes on each of them, the balancer's policy, and every node
        answered requests sent through the balancer (after configuration, which may have
        reloaded the nodes)."""
        try:
            cluster.wait_until_formed(stack, self.spec)
            cluster.verify(stack, self.spec, self.report)
        except cluster.ClusterError as error:
            raise ChangeNotEffective(f"cluster: {error}") from error
        r = self.report
        return ([Check(f"{node}'s JGroups view", f"all {self.spec.nodes} nodes", view, True)
                 for node, view in r.views.items()]
                + [Check("balancer policy (HAProxy's algo)", self.spec.policy, r.policy, True)]
                + [Check(f"{node} served requests through the balancer", "at least one",
                         str(count), True) for node, count in r.requests_by_node.items()])

    def provenance(self):
        return {"cluster": {"spec": {"nodes": self.spec.nodes, "cpus": list(self.spec.cpus),
                                     "policy": self.spec.policy,
                                     "server_maxconn": self.spec.server_maxconn,
                                     "cpuset": self.spec.cpuset},
                            "formed": self.report.as_dict()}}


def cluster_spec(recipe: Recipe) -> cluster.ClusterSpec | None:
    """The recipe's ``[cluster]`` as a checked spec (RecipeError naming the file and key)."""
    table = recipe.cluster
    if table is None:
        return None
    try:
        return cluster.ClusterSpec.of(table.nodes, table.cpus, table.policy, table.server_maxconn,
                                      cpuset=recipe.stack.app_cpuset)
    except cluster.ClusterInputError as error:
        raise RecipeError(f"{recipe.toml_path.relative_to(recipe.repo_root)}: {error}") from None


def topology_for(recipe: Recipe) -> Nodes:
    spec = cluster_spec(recipe)
    return Nodes() if spec is None else Cluster(spec)
