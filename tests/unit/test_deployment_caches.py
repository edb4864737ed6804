"""The read-back of a deployment's own cache on a cluster (changes/deployment.py cache_checks):
its sessions' cache in the "web" container, its stateful beans' in the "ejb" one, a replicated
one holding every entry on every node."""
from types import SimpleNamespace

from tuninglab.apps import Deployment
from tuninglab.changes.deployment import cache_checks
from tuninglab.management import ManagementError

NODES = ("app-1", "app-2", "app-3")


class _Management:
    def __init__(self, counts: dict, node: str):
        self.counts, self.node = counts, node

    def execute(self, operation, address, **params):
        assert operation == "read-children-names" and params == {"child-type": "cache"}
        container = dict(address)["cache-container"]
        return SimpleNamespace(result=[cache for (where, cache) in self.counts
                                       if where == container])

    def read_attribute(self, address, name):
        container, cache = dict(address)["cache-container"], dict(address)["cache"]
        value = self.counts.get((container, cache), {}).get(self.node, "missing")
        if value == "missing":
            raise ManagementError(f"no cache {cache} in {container}")
        return value


def _stack(counts: dict):
    return SimpleNamespace(
        balancers={"lb": object()},
        balancer_of=lambda node: SimpleNamespace(backends=NODES),
        management_of=lambda node: _Management(counts, node))


REPLICATED = Deployment("stateful-replicated", "paging-stateful-replicated.war", "/x",
                        "stateful-replicated", bean_cache="replicated")


def test_a_replicated_bean_cache_must_hold_every_bean_on_every_node():
    # the ejb container names a deployment's cache after the WAR and its bean management
    war = f"{REPLICATED.war_name}/replicated"
    same = _stack({("ejb", war): dict.fromkeys(NODES, 8)})
    [check] = cache_checks(same, "app-1", REPLICATED, "bean_cache")
    assert check.ok and "stateful-bean cache" in check.what and "app-3 8" in check.actual
    # two owners a bean among three nodes: what the default (distributed) cache would show
    spread = _stack({("ejb", war): {"app-1": 6, "app-2": 5, "app-3": 5}})
    [check] = cache_checks(spread, "app-1", REPLICATED, "bean_cache")
    assert not check.ok
    # counted in the web container's cache of that name, it would not be the beans'
    wrong_container = _stack({("web", REPLICATED.war_name): dict.fromkeys(NODES, 8)})
    [check] = cache_checks(wrong_container, "app-1", REPLICATED, "bean_cache")
    assert not check.ok and "its statistics" in check.expected


def test_only_the_first_node_reads_and_a_deployment_that_says_nothing_is_not_read():
    counts = _stack({("ejb", f"{REPLICATED.war_name}/replicated"): dict.fromkeys(NODES, 8)})
    assert cache_checks(counts, "app-2", REPLICATED, "bean_cache") == []
    assert cache_checks(counts, "app-1", REPLICATED, "session_cache") == []
