"""Change kinds network-delay and network-rate: a proxy in front of the database changes the
link in every arm, set before each trial; each arm's setting is read back from the proxy's own
report and from a measurement through it, so a proxy that did not take the setting, or a link
that something else limits, fails before anything is measured."""
from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

from tuninglab import changes, layout, network
from tuninglab.plan import compile_plan
from tuninglab.recipe import load_recipe

THESIS = layout.recipes_dir() / "thesis"


def _kind(name: str):
    recipe = load_recipe(THESIS / name)
    kind = changes.kind_for(recipe)
    plan = compile_plan(recipe, switch=kind.switch)
    kind.bind(plan.arms)
    return recipe, kind, plan


class _Proxy:
    def __init__(self):
        self.told = {"delay_us": 0, "rate_kbit": 0}

    def set_rate_kbit(self, kbit):
        self.told["rate_kbit"] = kbit

    def set_delay_us(self, us):
        self.told["delay_us"] = us

    def state(self):
        return dict(self.told)


def _stack(proxy):
    return SimpleNamespace(proxies={"db": proxy}, nodes={"app": object()},
                           databases={"db": object()}, address_of=lambda name: "10.0.0.2")


def _arm(plan, value):
    return next(arm for arm in plan.arms if arm.value == value)


@pytest.fixture
def measured(monkeypatch):
    """What the node's measurements through the proxy find: {"push": Mbit/s, "rtt": {to: us}}."""
    found = {"push": 0.0, "rtt": {}, "pushed": []}
    monkeypatch.setattr(network, "serve", lambda container: None)

    def push(container, to, n_bytes=network.BANDWIDTH_BYTES):
        found["pushed"].append((to, n_bytes))
        return {"mbit_s": found["push"], "bytes": n_bytes, "seconds": 1.0}
    monkeypatch.setattr(network, "push_rate", push)
    monkeypatch.setattr(network, "echo_round_trip",
                        lambda container, to, n=200: {"median_us": found["rtt"][to.split(":")[0]]})
    return found


def test_each_kind_puts_one_proxy_before_the_database_on_the_nodes_core():
    for name in ("network-rate-database", "network-delay-database"):
        recipe, kind, _ = _kind(name)
        assert kind.switch == "database"  # one proxy serves the node: the arms take turns
        assert kind.stack_needs() == {"proxied": ("db",), "proxy_cpuset": recipe.stack.app_cpuset}


def test_between_the_nodes_the_link_needs_a_cluster():
    _, kind, plan = _kind("network-delay-database")
    kind.link = "nodes"
    assert kind.stack_needs()["linked_nodes"] is True
    with pytest.raises(ValueError, match=r"change.delayed = 'nodes' needs a \[cluster\] of two or "
                                         r"more nodes \(this recipe has 1\)"):
        kind.check_arm(plan.arms[0])


@pytest.mark.parametrize("pushed, ok", [(2.99, True), (2.3, True), (3.3, False), (2.0, False)])
def test_a_capped_arm_is_in_effect_only_at_its_rate(measured, pushed, ok):
    _, kind, plan = _kind("network-rate-database")
    proxy, arm = _Proxy(), _arm(plan, 3)
    kind.apply_arm(_stack(proxy), "app", arm, None)
    assert proxy.told["rate_kbit"] == 3000
    measured["push"] = pushed
    told, push = kind.read_back(_stack(proxy), "app", arm)
    assert told.ok and push.ok is ok
    # through the proxy (the database's name, not its address); at 3 Mbit/s half a second's
    # worth of the cap is less than the least a push sends
    assert measured["pushed"] == [(f"db:{network.SINK_PORT}", 256 << 10)]


def test_a_proxy_that_kept_another_cap_fails_the_arm(measured):
    _, kind, plan = _kind("network-rate-database")
    proxy = _Proxy()
    kind.apply_arm(_stack(proxy), "app", _arm(plan, 10), None)
    measured["push"] = 10.0
    told, _ = kind.read_back(_stack(proxy), "app", _arm(plan, 100))
    assert not told.ok and told.actual == "10000 kbit/s"


def test_the_reference_has_no_cap_and_stores_what_flowed(measured):
    _, kind, plan = _kind("network-rate-database")
    proxy = _Proxy()
    kind.apply_arm(_stack(proxy), "app", _arm(plan, 0), None)
    measured["push"] = 4450.0
    told, push = kind.read_back(_stack(proxy), "app", _arm(plan, 0))
    assert told.ok and push.ok and push.actual == "4.45e+03 Mbit/s"
    assert kind.describe(_arm(plan, 0)) == "no cap on the link between the nodes and db"
    assert kind.describe(_arm(plan, 10)) == "the link between the nodes and db capped at 10 Mbit/s"


@pytest.mark.parametrize("excess_us, ok", [(1080, True), (975, True), (960, False)])
def test_a_delay_is_in_effect_only_if_the_round_trip_grew_by_it(measured, excess_us, ok):
    _, kind, plan = _kind("network-delay-database")
    proxy, arm = _Proxy(), _arm(plan, 1)
    kind.apply_arm(_stack(proxy), "app", arm, None)
    measured["rtt"] = {"db": 60 + excess_us, "10.0.0.2": 60}
    told, excess = kind.read_back(_stack(proxy), "app", arm)
    assert told.ok and told.actual == "1000 us" and excess.ok is ok


@pytest.mark.parametrize("name, value, message", [
    ("network-rate-database", -1, "-1 Mbit/s; allowed: 0 to 100000 Mbit/s"),
    ("network-rate-database", 200000, "200000 Mbit/s; allowed: 0 to 100000 Mbit/s"),
    ("network-delay-database", 1001, "1001 ms; allowed: 0 to 1000 ms")])
def test_a_value_outside_the_kinds_range_is_refused(name, value, message):
    _, kind, plan = _kind(name)
    arm = dataclasses.replace(plan.arms[-1], value=value)
    with pytest.raises(ValueError, match=message.replace("+", r"\+")):
        kind.check_arm(arm)


def test_a_database_the_stack_does_not_have_is_refused():
    recipe, kind, plan = _kind("network-rate-database")
    kind.link = "db-2"
    with pytest.raises(ValueError, match="change.capped names 'db-2', not a database of the stack; "
                                         "allowed: db, or 'nodes'"):
        kind.check_arm(plan.arms[0])


def test_linked_nodes_hand_their_cluster_name_to_a_proxy_each():
    """Between a cluster's nodes, each node's proxy answers to the name DNS_PING asks for, in
    the node's place, and the node advertises its proxy: no node reaches another directly."""
    from tuninglab import cluster
    from tuninglab.placement import LocalPlacement
    from tuninglab.stack import NodeConfig, Stack, StackConfig
    nodes = cluster.ClusterSpec.of(2, 0.4).node_configs(NodeConfig())
    linked = Stack(StackConfig(linked_nodes=True), nodes=nodes, progress=lambda _: None,
                   placement=LocalPlacement()).initial_nodes
    for name, config in linked.items():
        assert config.network_aliases == () and config.link_aliases == (cluster.CLUSTER_ALIAS,)
        assert config.jvm_options.endswith(f" -Djgroups.external_addr={name}-link")
    plain = Stack(StackConfig(), nodes=nodes, progress=lambda _: None,
                  placement=LocalPlacement()).initial_nodes
    assert plain == nodes
