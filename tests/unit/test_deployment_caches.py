"""The read-back of a deployment's own cache on a cluster (changes/deployment.py cache_checks):
its sessions' cache in the "web" container, its stateful beans' in the "ejb" one, a replicated
one holding every entry on every node, and a bean cache made from the kind of cache (replicated
or distributed) that the app says its descriptor names."""
from types import SimpleNamespace

from tuninglab.apps import Deployment
from tuninglab.changes.deployment import cache_checks
from tuninglab.management import ManagementError

NODES = ("app-1", "app-2", "app-3")
# The server's side of a bean cache (the HA profile's default, and the replicated one a
# recipe's baseline adds): bean management -> its cache in the ejb container -> that cache's kind.
MANAGEMENTS = {"default": {"cache-container": "ejb", "cache": None},
               "replicated": {"cache-container": "ejb", "cache": "repl"}}
KINDS = {"replicated-cache": ["repl"], "distributed-cache": ["dist"]}


class _Management:
    def __init__(self, counts: dict, node: str):
        self.counts, self.node = counts, node

    def execute(self, operation, address, **params):
        assert operation == "read-children-names"
        container = dict(address)["cache-container"]
        if params["child-type"] in KINDS:
            return SimpleNamespace(result=KINDS[params["child-type"]] if container == "ejb" else [])
        assert params == {"child-type": "cache"}
        return SimpleNamespace(result=[cache for (where, cache) in self.counts
                                       if where == container])

    def read_resource(self, address):
        name = dict(address)["infinispan-bean-management"]
        if name not in MANAGEMENTS:
            raise ManagementError(f"no bean management {name}")
        return MANAGEMENTS[name]

    def read_attribute(self, address, name):
        if name == "default-cache":
            return "dist"
        container, cache = dict(address)["cache-container"], dict(address)["cache"]
        value = self.counts.get((container, cache), {}).get(self.node, "missing")
        if value == "missing":
            raise ManagementError(f"no cache {cache} in {container}")
        return value


def _stack(counts: dict, nodes=NODES):
    return SimpleNamespace(
        balancers={"lb": object()},
        balancer_of=lambda node: SimpleNamespace(backends=nodes),
        management_of=lambda node: _Management(counts, node))


REPLICATED = Deployment("stateful-replicated", "paging-stateful-replicated.war", "/x",
                        "stateful-replicated", bean_cache="replicated")
DISTRIBUTED = Deployment("stateful-distributed", "paging-stateful-distributed.war", "/y",
                         "stateful-distributed", bean_cache="distributed")


def _failed(checks):
    return [check for check in checks if not check.ok]


def test_a_replicated_bean_cache_must_hold_every_bean_on_every_node():
    # the ejb container names a deployment's cache after the WAR and its bean management
    war = f"{REPLICATED.war_name}/replicated"
    same = _stack({("ejb", war): dict.fromkeys(NODES, 8)})
    checks = cache_checks(same, "app-1", REPLICATED, "bean_cache")
    assert not _failed(checks) and len(checks) == len(NODES) + 1
    assert "stateful-bean cache" in checks[-1].what and "app-3 8" in checks[-1].actual
    # two owners a bean among three nodes: what the default (distributed) cache would show
    spread = _stack({("ejb", war): {"app-1": 6, "app-2": 5, "app-3": 5}})
    [check] = _failed(cache_checks(spread, "app-1", REPLICATED, "bean_cache"))
    assert "every entry on every node" in check.what
    # counted in the web container's cache of that name, it would not be the beans'
    wrong_container = _stack({("web", REPLICATED.war_name): dict.fromkeys(NODES, 8)})
    [*_, check] = cache_checks(wrong_container, "app-1", REPLICATED, "bean_cache")
    assert not check.ok and "its statistics" in check.expected


def test_on_two_nodes_the_cache_a_bean_cache_is_made_from_is_what_fails_a_descriptor_ignored():
    # The replicated WAR's descriptor not taken: its beans in the default bean management's
    # cache, the distributed one. With two owners on two nodes it too holds every bean on both,
    # so the counts pass; the cache it is made from does not.
    two = ("app-1", "app-2")
    ignored = _stack({("ejb", f"{REPLICATED.war_name}/default"): dict.fromkeys(two, 8)}, two)
    failed = _failed(cache_checks(ignored, "app-1", REPLICATED, "bean_cache"))
    assert [c.what for c in failed] == [
        f"{REPLICATED.war_name}'s stateful-bean cache on {n}: made from a replicated-cache"
        for n in two]
    assert "distributed-cache dist in ejb (bean management default)" in failed[0].actual
    # the distributed arm is judged by it too (its counts never are)
    both = _stack({("ejb", f"{DISTRIBUTED.war_name}/default"): {"app-1": 3, "app-2": 5}}, two)
    assert not _failed(cache_checks(both, "app-1", DISTRIBUTED, "bean_cache"))
    wrong = _stack({("ejb", f"{DISTRIBUTED.war_name}/replicated"): {"app-1": 3, "app-2": 5}}, two)
    assert len(_failed(cache_checks(wrong, "app-1", DISTRIBUTED, "bean_cache"))) == 2


def test_a_bean_cache_named_after_no_bean_management_or_an_unknown_one_fails():
    plain = _stack({("ejb", REPLICATED.war_name): dict.fromkeys(NODES, 8)})
    checks = _failed(cache_checks(plain, "app-1", REPLICATED, "bean_cache"))
    assert len(checks) == len(NODES) and "none such" in checks[0].actual
    unknown = _stack({("ejb", f"{REPLICATED.war_name}/other"): dict.fromkeys(NODES, 8)})
    checks = _failed(cache_checks(unknown, "app-1", REPLICATED, "bean_cache"))
    assert len(checks) == len(NODES) and "no bean management other" in checks[0].actual


def test_only_the_first_node_reads_and_a_deployment_that_says_nothing_is_not_read():
    counts = _stack({("ejb", f"{REPLICATED.war_name}/replicated"): dict.fromkeys(NODES, 8)})
    assert cache_checks(counts, "app-2", REPLICATED, "bean_cache") == []
    assert cache_checks(counts, "app-1", REPLICATED, "session_cache") == []
