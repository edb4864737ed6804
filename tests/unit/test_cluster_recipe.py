"""A recipe with [cluster]: its arms run on one cluster through the balancer, its change must
switch on running nodes, and a cluster that cannot be formed is refused with the recipe's file
and key before anything starts."""
from __future__ import annotations

import re
import shutil

import pytest

from tuninglab import changes, layout, preflight
from tuninglab.plan import CLUSTER_TARGET, SHARED, SWEEP, compile_plan
from tuninglab.recipe import RecipeError, load_recipe
from tuninglab.stack import NodeConfig
from tuninglab.topology import Cluster, Nodes, topology_for

RECIPE = "cluster-balancing-policy"
TOML = f"recipes/thesis/{RECIPE}/recipe.toml"


def _copy(root, recipe_id: str):
    """A thesis recipe in a throw-away repository root; returns its recipe.toml."""
    shutil.copytree(layout.recipes_dir() / "thesis" / recipe_id,
                    root / "recipes" / "thesis" / recipe_id)
    (root / "workloads").mkdir(exist_ok=True)
    shutil.copy(layout.REPO_ROOT / "workloads" / "mixes.json", root / "workloads")
    return root / "recipes" / "thesis" / recipe_id / "recipe.toml"


@pytest.fixture
def repo(tmp_path):
    _copy(tmp_path, RECIPE)
    return tmp_path


def _edit(repo, old: str, new: str):
    path = repo / TOML
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


def _load(repo):
    return load_recipe(repo / TOML)


def test_every_arm_goes_to_the_balancer_of_one_cluster(repo):
    recipe = _load(repo)
    kind = changes.kind_for(recipe)
    plan = compile_plan(recipe, switch=kind.switch)
    kind.bind(plan.arms)
    assert plan.kind == SWEEP and plan.layout == SHARED
    assert plan.nodes == [CLUSTER_TARGET] and {a.node for a in plan.arms} == {CLUSTER_TARGET}
    assert [kind.policy(a) for a in plan.arms] == ["roundrobin", "random", "leastconn"]
    servers = topology_for(recipe)
    assert isinstance(servers, Cluster) and servers.reuses_stacks
    assert servers.spec.cpus == (0.3, 0.6) and servers.spec.names == ["app-1", "app-2"]
    # The stack starts the cluster's nodes: standalone-ha with DNS discovery, each with its
    # quota and its name.
    nodes = servers.initial_nodes({CLUSTER_TARGET: NodeConfig()})
    assert {n: (c.cpus, c.server_config, c.network_aliases) for n, c in nodes.items()} == {
        "app-1": (0.3, "standalone-ha-dns.xml", ("cluster",)),
        "app-2": (0.6, "standalone-ha-dns.xml", ("cluster",))}
    assert "-Djboss.node.name=app-2" in nodes["app-2"].jvm_options
    assert preflight.problems(recipe) == []


def test_a_recipe_without_a_cluster_keeps_its_nodes():
    recipe = load_recipe(layout.recipes_dir() / "guide" / "logging-async-handler")
    assert isinstance(topology_for(recipe), Nodes) and not isinstance(topology_for(recipe), Cluster)
    assert compile_plan(recipe, switch="runtime").nodes == ["app-1", "app-2"]


@pytest.mark.parametrize("old, new, message", [
    ("cpus = [0.3, 0.6]", "cpus = [0.6, 0.6]",
     "cluster.cpus: 2 node\\(s\\) with 0.6 CPU need 1.2 CPUs, more than the nodes' cpuset 1 "
     "holds \\(1\\)"),
    ("cpus = [0.3, 0.6]", "cpus = [0.3, 0.3, 0.3]", "cluster.cpus lists 3 quota\\(s\\) for 2"),
    ('values = ["roundrobin", "random", "leastconn"]', 'values = ["roundrobin", "first"]',
     "policy first fills one node up to cluster.server_maxconn"),
    ('kind = "balancer-policy"\npolicy = "{value}"',
     'kind = "jvm-options"\njvm_options = "-Xms1g -Xmx1g -XX:+UseSerialGC {value}"',
     "change.kind: jvm-options switches by restart, and a cluster's arms share its nodes"),
    ('kind = "balancer-policy"\npolicy = "{value}"',
     'kind = "app-properties"\n\n[change.properties]\n"tl.app.quote_view" = "{value}"',
     "\\[sweep\\] with change.kind app-properties: on a cluster a change that needs a reload "
     "compares two arms"),
])
def test_a_cluster_that_cannot_work_is_refused_before_anything_starts(repo, old, new, message):
    _edit(repo, old, new)
    found = "\n".join(preflight.problems(_load(repo)))
    assert TOML in found  # the file is named
    assert re.search(message, found), found


def test_a_balancer_policy_without_a_cluster_is_refused_when_the_recipe_loads(repo):
    text = (repo / TOML).read_text()
    start = text.index("[cluster]")
    (repo / TOML).write_text(text[:start] + text[text.index("[change]"):])
    with pytest.raises(RecipeError, match="change.kind: balancer-policy changes the balancer in "
                                          "front of a cluster, and the recipe has no \\[cluster\\]"):
        _load(repo)


def test_an_unknown_policy_is_refused_by_the_schema(repo):
    _edit(repo, 'policy = "roundrobin"', 'policy = "weighted"')
    with pytest.raises(RecipeError, match="cluster.policy: 'weighted'; allowed: roundrobin, "
                                          "leastconn, random, first"):
        _load(repo)


class _Balancer:
    """The balancer's runtime API as the active-nodes change uses it."""

    def __init__(self, backends):
        self.backends = list(backends)
        self.states = dict.fromkeys(backends, "UP")
        self.calls = []

    def node_states(self):
        return dict(self.states)

    def set_state(self, node, state):
        self.calls.append((node, state))
        self.states[node] = "MAINT" if state == "maint" else "UP"


def test_active_nodes_keeps_the_first_ones_in_the_rotation_and_reads_each_back():
    from types import SimpleNamespace
    recipe = load_recipe(layout.recipes_dir() / "thesis" / "cluster-node-count")
    kind = changes.kind_for(recipe)
    plan = compile_plan(recipe, switch=kind.switch)
    kind.bind(plan.arms)
    balancer = _Balancer(["app-1", "app-2", "app-3", "app-4"])
    stack = SimpleNamespace(balancer_of=lambda node: balancer, balancers={"lb": balancer})
    kind.prepare(stack)  # the first arm: every node, which the warm-up runs
    assert set(balancer.states.values()) == {"UP"} and balancer.calls == []
    for node in balancer.backends:
        kind.apply_arm(stack, node, plan.arm("1"), None)
    assert balancer.states == {"app-1": "UP", "app-2": "MAINT", "app-3": "MAINT", "app-4": "MAINT"}
    three = plan.arm("3")
    for node in balancer.backends:
        kind.apply_arm(stack, node, three, None)
    assert balancer.states["app-3"] == "UP" and balancer.states["app-4"] == "MAINT"
    assert all(c.ok for node in balancer.backends for c in kind.read_back(stack, node, three))
    balancer.states["app-4"] = "UP"  # taken back into the rotation behind the run's back
    failed = [c for c in kind.read_back(stack, "app-4", three) if not c.ok]
    assert failed and failed[0].expected == "MAINT" and failed[0].actual == "UP"


def test_more_active_nodes_than_the_cluster_has_are_refused(tmp_path):
    toml = _copy(tmp_path, "cluster-node-count")
    toml.write_text(toml.read_text().replace("values = [4, 3, 2, 1]", "values = [4, 5, 1]"))
    found = "\n".join(preflight.problems(load_recipe(toml)))
    assert "change (active nodes 5): 5 active node(s) in a cluster of 4; allowed: 1 to 4" in found, found


def test_a_node_count_sweep_must_warm_up_with_every_node(tmp_path):
    toml = _copy(tmp_path, "cluster-node-count")
    toml.write_text(toml.read_text().replace("values = [4, 3, 2, 1]", "values = [1, 2, 3, 4]"))
    found = "\n".join(preflight.problems(load_recipe(toml)))
    assert "the sweep starts at 1 node(s); the warm-up runs the first value" in found, found


class _Management:
    """A node's management answers as the deployment change reads them."""

    def __init__(self, entries: dict[str, int | None], status: str = "OK"):
        self.entries, self.status = entries, status

    def read_attribute(self, address, name):
        war = dict(address).get("deployment") or dict(address).get("cache")
        if name == "status":
            return self.status
        if name == "context-root":  # sessioncart-<name>.war is at /sessioncart-<name>
            return "/" + war.removesuffix(".war")
        return self.entries[war]

    def execute(self, operation, address, **params):
        """The caches of a container, as the change lists them to find the deployment's own
        (the web container names them after the WAR)."""
        from types import SimpleNamespace
        assert operation == "read-children-names" and params == {"child-type": "cache"}
        return SimpleNamespace(result=list(self.entries))


def _session_stack(entries_by_node, status="OK"):
    from types import SimpleNamespace
    balancer = _Balancer(list(entries_by_node))
    nodes = {n: _Management(e, status) for n, e in entries_by_node.items()}
    return SimpleNamespace(balancer_of=lambda node: balancer, balancers={"lb": balancer},
                           management_of=nodes.__getitem__)


@pytest.mark.parametrize("replicated, ok", [
    ((24, 24, 24), True),
    ((24, 23, 24), True),  # a session expiring between two reads
    ((16, 20, 12), False),  # distributed after all: the descriptor did not take effect
    ((0, 0, 0), False),  # nothing to prove it by
    ((24, None, 24), False),  # statistics off on one node
])
def test_the_deployment_change_proves_every_session_is_on_every_node(replicated, ok):
    recipe = load_recipe(layout.recipes_dir() / "guide" / "http-session-replication")
    kind = changes.kind_for(recipe)
    plan = compile_plan(recipe, switch=kind.switch)
    kind.bind(plan.arms)
    stack = _session_stack({
        f"app-{i + 1}": {"sessioncart.war": 10, "sessioncart-replicated.war": count}
        for i, count in enumerate(replicated)})
    baseline, variant = plan.arms
    assert kind.load_for(baseline) == {"deployment": ""}
    assert kind.load_for(variant) == {"deployment": "replicated"}
    checks = kind.read_back(stack, "app-1", variant)
    assert [c.ok for c in checks[:2]] == [True, True]  # deployed, at its context root
    assert checks[-1].ok is ok, checks[-1]
    # the cluster's cache is read once per verification, with its first node
    assert [c.ok for c in kind.read_back(stack, "app-2", variant)] == [True, True]
    # the baseline's distributed cache is shown, not judged: where keys hash decides its counts
    assert all(c.ok for c in kind.read_back(stack, "app-1", baseline))


def test_the_deployment_change_fails_a_war_that_is_not_running():
    recipe = load_recipe(layout.recipes_dir() / "guide" / "http-session-replication")
    kind = changes.kind_for(recipe)
    plan = compile_plan(recipe, switch=kind.switch)
    kind.bind(plan.arms)
    stack = _session_stack({"app-1": {"sessioncart-replicated.war": 2}}, status="FAILED")
    failed = [c for c in kind.read_back(stack, "app-1", plan.arms[1]) if not c.ok]
    assert failed[0].expected == "OK" and failed[0].actual == "FAILED"


@pytest.mark.parametrize("arm_index, sessions, routed, ok", [
    (0, 12, 12, True),  # with affinity: every session id names its primary owner
    (0, 12, 11, False),  # one id without a route: the descriptor's affinity is not in force
    (1, 12, 0, True),  # without: no id names a node
    (1, 12, 12, False),  # every id routed: the no-affinity WAR behaves like the baseline
    (1, 0, 0, False),  # no session opened: nothing proves it
    (1, None, None, False),  # a workload that does not count sessions
])
def test_the_deployment_change_proves_session_affinity_from_the_answers(arm_index, sessions,
                                                                       routed, ok):
    recipe = load_recipe(layout.recipes_dir() / "guide" / "http-session-affinity")
    kind = changes.kind_for(recipe)
    plan = compile_plan(recipe, switch=kind.switch)
    kind.bind(plan.arms)
    assert kind.load_for(plan.arms[1]) == {"deployment": "anywhere"}
    checks = kind.read_back_load(plan.arms[arm_index],
                                 {"sessions": sessions, "sessions_routed": routed})
    assert [c.ok for c in checks] == [ok], checks


def test_a_distributed_cache_without_statistics_is_shown_not_failed():
    recipe = load_recipe(layout.recipes_dir() / "guide" / "http-session-affinity")
    kind = changes.kind_for(recipe)
    plan = compile_plan(recipe, switch=kind.switch)
    kind.bind(plan.arms)
    stack = _session_stack({f"app-{i}": {"sessioncart-anywhere.war": None} for i in (1, 2, 3)})
    checks = kind.read_back(stack, "app-1", plan.arms[1])
    assert all(c.ok for c in checks) and checks[-1].actual == "not counted (statistics off)"


def test_a_profile_may_run_a_cluster_recipe_on_fewer_nodes_and_says_so():
    """profiles.<name>.cluster_nodes and cluster_cpus: the stack a run builds
    (Recipe.as_run_in) has that many nodes at that quota (else the first ones' quotas where the
    table gives each its own); the notebook says so; another profile, or a recipe without them,
    runs the table's nodes at the table's quotas."""
    from dataclasses import replace

    from tuninglab.narrative import introduction
    recipe = load_recipe(layout.recipes_dir() / "guide" / "ejb3-stateful-replication")
    quick, full = recipe.profile("quick"), recipe.profile("full")
    assert (quick.cluster_nodes, full.cluster_nodes, recipe.cluster.nodes) == (2, 0, 3)
    assert (quick.cluster_cpus, full.cluster_cpus, recipe.cluster.cpus) == (0.5, 0, 0.33)
    small = recipe.as_run_in(quick)
    assert small.cluster.nodes == 2 and small.cluster.cpus == 0.5
    assert len(topology_for(small).initial_nodes({"lb": NodeConfig()})) == 2
    assert recipe.as_run_in(full) is recipe
    assert "on 2 of its 3 nodes" in introduction(recipe, "quick")
    assert "of its 3 nodes" not in introduction(recipe, "full")
    assert "each node 0.5 CPU (`cluster_cpus`), not the 0.33 CPU" in introduction(recipe, "quick")
    assert "cluster_cpus" not in introduction(recipe, "full")
    uneven = replace(recipe, cluster=replace(recipe.cluster, cpus=(0.5, 0.25, 0.25)))
    assert uneven.as_run_in(replace(quick, cluster_cpus=0)).cluster.cpus == (0.5, 0.25)
    assert uneven.as_run_in(quick).cluster.cpus == 0.5
    assert "not the 0.5/0.25/0.25 CPU" in introduction(uneven, "quick")
