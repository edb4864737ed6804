"""The pool of parked stacks (CI reuse): a claim takes a stack once, only of its own kind, and
clear removes what is parked."""
from __future__ import annotations

import docker.errors
import pytest

from tuninglab import experiment, layout, stackpool
from tuninglab.plan import CLUSTER_TARGET
from tuninglab.recipe import load_recipe
from tuninglab.stack import NodeConfig, StackConfig
from tuninglab.topology import topology_for


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TUNINGLAB_CACHE", str(tmp_path))


def _record(n: int) -> dict:
    return {"network": f"net{n}", "databases": {"db": f"db{n}"}, "loadgen": f"lg{n}",
            "nodes": {"app-1": f"a{n}", "app-2": f"b{n}"}}


def test_the_key_follows_the_stack_the_nodes_and_the_images():
    nodes = {"app-1": NodeConfig(), "app-2": NodeConfig()}
    key = stackpool.key(StackConfig(), nodes, {"wildfly": "sha:1"})
    assert key == stackpool.key(StackConfig(), dict(reversed(list(nodes.items()))),
                                {"wildfly": "sha:1"})
    assert key != stackpool.key(StackConfig(), nodes, {"wildfly": "sha:2"})
    assert key != stackpool.key(StackConfig(), {**nodes, "app-2": NodeConfig(memory="1g")},
                                {"wildfly": "sha:1"})
    # a claimant's databases are made anew from its own configuration: any number, any quota
    assert key == stackpool.key(StackConfig(databases=("db", "db2"), db_cpus=0.15), nodes,
                                {"wildfly": "sha:1"})
    assert key != stackpool.key(StackConfig(db_memory="1g"), nodes, {"wildfly": "sha:1"})


def test_a_parked_stack_s_databases_are_all_of_them_in_an_old_record_or_a_new_one():
    assert stackpool.database_ids({"db": "d1"}) == ["d1"]
    assert stackpool.database_ids({"databases": {"db": "d1", "db2": "d2"}}) == ["d1", "d2"]


def test_a_parked_stack_is_claimed_once_and_only_by_its_own_key():
    stackpool.park("k1", _record(1))
    assert stackpool.spared_ids() == {"net1", "db1", "lg1", "a1", "b1"}
    assert stackpool.claim("k2") is None
    assert stackpool.claim("k1")["databases"] == {"db": "db1"}
    assert stackpool.claim("k1") is None


def test_a_claimed_stack_is_spared_while_its_claimant_lives_and_no_longer():
    """Its containers carry the labels of the run that parked it, a process that has ended:
    a run starting beside the claimant must not sweep them as leftovers."""
    stackpool.park("k1", _record(1))
    stackpool.claim("k1")
    assert stackpool.spared_ids() == {"net1", "db1", "lg1", "a1", "b1"}  # this process holds it
    stackpool.park("k1", _record(1))  # parked again: one record, in the pool
    assert len(list(stackpool._claimed().glob("*.json"))) == 0
    stackpool.claim("k1")
    (held,) = stackpool._claimed().glob("*.json")
    held.rename(held.with_name("999999999-" + held.name.partition("-")[2]))  # a dead claimant
    assert stackpool.spared_ids() == set()
    assert list(stackpool._claimed().glob("*.json")) == []


DEFAULT, ODD = stackpool.node_key(NodeConfig()), stackpool.node_key(
    NodeConfig(jvm_options="-Xms1g -Xmx1g -XX:+UseParallelGC -XX:-DoEscapeAnalysis"))
OTHER = stackpool.node_key(NodeConfig(memory="1g"))


@pytest.mark.parametrize("parked, wanted, expected", [
    ({"app-1": DEFAULT, "app-2": DEFAULT}, {"app-1": DEFAULT, "app-2": ODD}, ["app-1"]),
    # the node that fits has the other name: not renamed (its alias is its address)
    ({"app-1": OTHER, "app-2": DEFAULT}, {"app-1": DEFAULT, "app-2": ODD}, []),
    ({"app-1": DEFAULT}, {"app": DEFAULT}, []),
    ({"app-1": DEFAULT, "app-2": DEFAULT}, {"app-1": ODD}, []),
    ({"app-1": DEFAULT, "app-2": ODD}, {"app-2": ODD, "app-1": DEFAULT}, ["app-1", "app-2"]),
])
def test_a_claim_uses_a_parked_node_of_the_same_name_and_kind(parked, wanted, expected):
    assert stackpool.fitting_nodes(parked, wanted) == expected


def _record_with_keys(n: int, node_keys: dict, common: str = "c", **extra) -> dict:
    return {"network": f"net{n}", "db": f"db{n}", "loadgen": f"lg{n}",
            "nodes": {name: f"{name}-{n}" for name in node_keys}, "common": common,
            "node_keys": node_keys, **extra}


def test_the_nearest_claim_takes_the_stack_with_most_nodes_that_fit_and_nothing_else():
    stackpool.park("k1", _record_with_keys(1, {"app-1": ODD, "app-2": ODD}))
    stackpool.park("k2", _record_with_keys(2, {"app-1": DEFAULT, "app-2": ODD}))
    stackpool.park("k3", _record_with_keys(3, {"app-1": DEFAULT, "app-2": DEFAULT}))
    stackpool.park("k4", _record_with_keys(4, {"app-1": DEFAULT, "app-2": DEFAULT}, "other"))
    stackpool.park("k5", _record_with_keys(5, {"app-1": DEFAULT, "app-2": DEFAULT},
                                           balancers={"lb": {"id": "h5"}}))
    stackpool.park("k6", {"network": "net6", "db": "db6", "loadgen": "lg6",
                          "nodes": {"app-1": "a6", "app-2": "b6"}})  # parked before node keys
    wanted = {"app-1": DEFAULT, "app-2": DEFAULT}
    assert stackpool.claim_nearest("c", wanted)["network"] == "net3"  # two fit
    assert stackpool.claim_nearest("c", wanted)["network"] == "net2"  # one fits
    assert stackpool.claim_nearest("c", wanted) is None  # k1: none fits; k4-k6 never
    assert stackpool.claim_nearest("other", {"app-2": DEFAULT})["network"] == "net4"


def test_a_cluster_takes_the_nearest_cluster_and_a_plain_stack_never_one():
    stackpool.park("k1", _record_with_keys(1, {"app-1": DEFAULT, "app-2": DEFAULT}))
    stackpool.park("k2", _record_with_keys(2, {"app-1": DEFAULT, "app-2": DEFAULT},
                                           balancers={"lb": {"id": "h2"}}))
    four = {f"app-{i}": DEFAULT for i in range(1, 5)}
    assert stackpool.best_fit("c", four) == 2  # the plain stack, not the cluster
    taken = stackpool.claim_nearest("c", four, balanced=True)
    assert taken["network"] == "net2"  # grows the two-node cluster
    assert stackpool.claim_nearest("c", four, balanced=True) is None  # k1 is no cluster
    assert stackpool.claim_nearest("c", four)["network"] == "net1"


def test_the_key_is_its_common_part_and_its_nodes_by_name():
    nodes = {"app-1": NodeConfig(), "app-2": NodeConfig(jvm_options="-Xmx2g")}
    swapped = {"app-1": nodes["app-2"], "app-2": nodes["app-1"]}
    assert stackpool.key(StackConfig(), nodes, {}) != stackpool.key(StackConfig(), swapped, {})
    assert stackpool.node_key(NodeConfig(cpus=0.3)) == stackpool.node_key(NodeConfig(cpus=0.6))
    assert stackpool.common_key(StackConfig(), {}, {"balancer": 1}) != stackpool.common_key(
        StackConfig(), {}, None)


def test_reuse_is_off_unless_the_environment_asks(monkeypatch):
    monkeypatch.delenv(stackpool.ENV, raising=False)
    assert not stackpool.enabled()
    monkeypatch.setenv(stackpool.ENV, "1")
    assert stackpool.enabled()
    monkeypatch.setenv(stackpool.ENV, "0")
    assert not stackpool.enabled()


class _Object:
    def __init__(self, removed, name):
        self.removed, self.name = removed, name

    def remove(self, **_):
        self.removed.append(self.name)


class _Collection:
    def __init__(self, removed, known):
        self.removed, self.known = removed, known

    def get(self, name):
        if name not in self.known:
            raise docker.errors.NotFound(name)
        return _Object(self.removed, name)


class _Client:
    def __init__(self, known):
        self.removed = []
        self.containers = _Collection(self.removed, known)
        self.networks = _Collection(self.removed, known)


def test_clear_removes_every_parked_container_and_network_even_if_some_are_gone():
    stackpool.park("k1", _record(1))
    stackpool.park("k2", _record(2))
    client = _Client(known={"net1", "db1", "lg1", "a1", "b1", "net2", "a2"})
    stackpool.clear(client)
    assert sorted(client.removed) == ["a1", "a2", "b1", "db1", "lg1", "net1", "net2"]
    assert stackpool.spared_ids() == set()


def test_trim_removes_the_stacks_parked_longest_ago_and_keeps_the_newest(tmp_path):
    """Parked in the order 1, 2, 3, then 1 again: 1 is the newest, so trimming to two removes
    only 2's containers and network; 0 keeps every stack."""
    import os
    import time
    for n in (1, 2, 3):
        stackpool.park(f"k{n}", _record(n))
    paths = {p.name[:2]: p for p in (tmp_path / "stackpool").glob("*.json")}
    now = time.time()
    for age, name in ((30, "k1"), (20, "k2"), (10, "k3")):
        os.utime(paths[name], (now - age, now - age))
    stackpool.park("k1", _record(1))  # parked again: the newest
    client = _Client(known={f"{kind}{n}" for kind in ("net", "db", "lg", "a", "b")
                            for n in (1, 2, 3)})
    assert stackpool.trim(client, 0) == []
    stackpool.trim(client, 2)
    assert sorted(client.removed) == ["a2", "b2", "db2", "lg2", "net2"]
    assert stackpool.claim("k2") is None
    assert stackpool.claim("k1")["network"] == "net1"
    assert stackpool.claim("k3")["network"] == "net3"


def _cluster_key(recipe_id: str) -> str:
    """The pool key the engine gives the stack of a cluster recipe (experiment.run)."""
    recipe = load_recipe(layout.recipes_dir() / "thesis" / recipe_id)
    servers = topology_for(recipe)
    nodes = servers.initial_nodes({CLUSTER_TARGET: experiment.node_config(recipe)})
    return stackpool.key(experiment.stack_config(recipe), nodes, {"wildfly": "sha:1"},
                         servers.pool_extra())


def test_two_node_clusters_of_different_quotas_share_a_kind_and_four_nodes_do_not():
    """The CI profile forms one two-node cluster for the four two-node recipes; each puts its
    own quotas on the nodes (0.3/0.6, 0.5, 0.35), which the JVM's command line does not see."""
    two = {_cluster_key(r) for r in ("cluster-balancing-policy", "cluster-entity-cache",
                                     "cluster-log-files-off", "cluster-max-connections")}
    assert len(two) == 1
    assert _cluster_key("cluster-node-count") not in two


def test_a_quota_is_not_part_of_the_kind_but_the_processors_the_jvm_is_told_are():
    base = {"app-1": NodeConfig(cpuset="0-1", cpus=0.5)}
    key = stackpool.key(StackConfig(), base, {})
    assert key == stackpool.key(StackConfig(), {"app-1": NodeConfig(cpuset="0-1", cpus=0.25)}, {})
    # 1.5 CPUs: the JVM is told of 2 processors, and sizes its threads so
    assert key != stackpool.key(StackConfig(), {"app-1": NodeConfig(cpuset="0-1", cpus=1.5)}, {})
    assert key != stackpool.key(StackConfig(), base, {}, {"balancer": {"server_maxconn": 0}})


def test_a_parked_cluster_spares_and_clears_its_balancer_too():
    record = {**_record(3), "balancers": {"lb": {"id": "lb3", "backends": ["app-1", "app-2"],
                                                 "server_maxconn": 0}}}
    stackpool.park("k3", record)
    assert "lb3" in stackpool.spared_ids()
    assert "lb3" in stackpool.container_ids(record)


def _node_keys(recipe_id: str, orientation: int = 1) -> dict[str, str]:
    """The kind of each node a guide recipe's CI run starts with (experiment.run_recipe)."""
    from tuninglab import changes
    from tuninglab.plan import compile_plan
    recipe = load_recipe(layout.recipes_dir() / "guide" / recipe_id)
    kind = changes.kind_for(recipe)
    plan = compile_plan(recipe, switch=kind.switch, points=recipe.profile("quick").points)
    kind.bind(plan.arms)
    base = experiment.node_config(recipe, share=plan.concurrency)
    return {node: stackpool.node_key(kind.node_config(base, arm))
            for node, arm in plan.arms_by_node(orientation).items()}


@pytest.mark.parametrize("recipe_id", ["jvm-compressed-oops", "jvm-escape-analysis",
                                       "jvm-transparent-huge-pages", "jfr-default-overhead"])
def test_a_jvm_option_recipe_can_use_one_node_of_a_plain_crossovers_stack(recipe_id):
    """The premise of claim_nearest: a JVM-option crossover's baseline node is of the kind a
    crossover of runtime settings starts with, so it boots one JVM, not two."""
    plain = _node_keys("logging-console-handler")
    for orientation in (1, -1):
        odd = _node_keys(recipe_id, orientation)
        assert len(stackpool.fitting_nodes(plain, odd)) == 1


def test_a_crossover_runs_its_mirror_when_only_the_mirror_finds_its_default_node(monkeypatch):
    """CI: a JVM-option crossover whose drawn design puts its default node where a parked
    stack has the odd one runs the mirrored design (equally likely), so the claim keeps a
    node instead of starting two."""
    from tuninglab import changes, design, images
    from tuninglab.plan import compile_plan
    monkeypatch.setattr(images, "require_images", lambda client: {"wildfly": "sha:1"})
    monkeypatch.setattr(experiment.placement, "local_client", lambda: None)
    recipe = load_recipe(layout.recipes_dir() / "guide" / "jvm-escape-analysis")
    kind = changes.kind_for(recipe)
    plan = compile_plan(recipe, switch=kind.switch, points="ends")
    kind.bind(plan.arms)
    base = experiment.node_config(recipe, share=plan.concurrency)
    servers = topology_for(recipe)
    blocks = design.blocks(plan.slots, 1, seed=5, period_blocks=1)
    drawn = {node: stackpool.node_key(kind.node_config(base, arm))
             for node, arm in plan.arms_by_node(blocks[0].orientation).items()}
    default_node = next(n for n, k in drawn.items() if k == stackpool.node_key(base))
    other = {"app-1": "app-2", "app-2": "app-1"}[default_node]
    common = stackpool.common_key(experiment.stack_config(recipe), {"wildfly": "sha:1"}, {})
    args = (recipe, plan, kind, base, servers, blocks)
    assert not experiment._mirror_fits_the_pool_better(*args)  # nothing parked
    stackpool.park("k", _record_with_keys(1, {default_node: "odd", other: drawn[default_node]},
                                          common))
    assert stackpool.best_fit(common, drawn) == 0
    assert experiment._mirror_fits_the_pool_better(*args)
    mirrored = design.mirror(blocks)
    assert [b.orientation for b in mirrored] == [-b.orientation for b in blocks]
    assert [b.slots for b in mirrored] == [b.slots for b in blocks]


def test_a_stack_serves_at_most_its_runs_and_names_the_runs_it_served():
    """The published profile hands a warm stack on a bounded number of times (reuse_runs):
    a stack that has served them all is not taken, by its own kind or as the nearest."""
    served = {**_record_with_keys(1, {"app-1": DEFAULT}), "served": ["aa-noise/1", "aa-noise/2"]}
    stackpool.park("k1", served)
    assert stackpool.claim("k1", runs=2) is None
    assert stackpool.claim_nearest("c", {"app-1": DEFAULT}, runs=2) is None
    assert stackpool.best_fit("c", {"app-1": DEFAULT}, runs=2) == 0
    taken = stackpool.claim("k1", runs=3)
    assert taken["served"] == ["aa-noise/1", "aa-noise/2"]
    stackpool.park("k1", served)
    assert stackpool.claim("k1")["network"] == "net1"  # 0: no limit (CI)


def test_a_stack_that_served_its_last_run_is_not_parked_again():
    from tuninglab.stack import Stack
    stack = Stack.__new__(Stack)  # only the bookkeeping: no engine
    stack.served, stack.run_label = ["a/1", "a/2", "a/3"], "a/4"
    stack.reuse_runs = 4
    assert not stack._serves_again()
    stack.reuse_runs = 5
    assert stack._serves_again()
    stack.reuse_runs = 0
    assert stack._serves_again()


def test_the_published_profile_hands_over_a_bounded_number_of_times_and_measures_alone():
    recipe = load_recipe(layout.recipes_dir() / "method" / "aa-noise")
    full, quick = recipe.profile("full"), recipe.profile("quick")
    assert full.reuse_stack and full.reuse_alone and full.reuse_runs >= 2
    assert quick.reuse_stack and not quick.reuse_alone and quick.reuse_runs == 0
    assert 0 < quick.reuse_parked <= 6  # CI keeps a few stacks, not every kind it met
