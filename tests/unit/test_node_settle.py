"""What a configured node needs before its settings take effect (changes/nodes.py): a reload
only where WildFly asks for one, a redeployment of the apps where a tl.* property was written
(they read them when they deploy) or a line had the server restart services, else nothing. A cluster's nodes then need not reload one
after the other for a setting the server applies at once."""
from __future__ import annotations

from types import SimpleNamespace

from tuninglab.changes import nodes
from tuninglab.jboss_cli import Operation
from tuninglab.recipe import Setup


class _Management:
    """A node's management API: which writes WildFly applies on a reload (``on_reload``: the
    attribute names), and what was reloaded or redeployed."""

    def __init__(self, on_reload=()):
        self.on_reload = set(on_reload)
        self.state = "running"
        self.calls: list[str] = []

    def execute(self, operation, address=(), **params):
        needs = operation == "write-attribute" and params["name"] in self.on_reload
        if params.get("operation-headers", {}).get("allow-resource-service-restart"):
            needs = False  # the server restarts the resource's services instead
        if needs:
            self.state = "reload-required"
        if operation == "redeploy":
            self.calls.append(f"redeploy {dict(address)['deployment']}")
        return SimpleNamespace(needs_reload=needs)

    def resource_exists(self, address):
        return False

    def read_attribute(self, address, name, include_defaults=True):
        return None

    def server_state(self):
        return self.state

    def reload(self):
        self.calls.append("reload")
        self.state = "running"


def _kind(ops, switch="runtime"):
    """A change kind whose one arm applies ``ops``, swapping arms by ``switch``."""
    arm = SimpleNamespace(id="variant")
    return SimpleNamespace(arms=[arm], operations=lambda a: (ops, True), switch=switch,
                           operation_groups=lambda a: [(ops, True)],
                           configure_arm=lambda stack, node, a: None), arm


def _configure(m, setup, ops=(), switch="runtime"):
    stack = SimpleNamespace(management_of=lambda node: m,
                            property_readers=lambda: ["orderentry.war", "shop.war"])
    kind, arm = _kind(list(ops), switch)
    state = nodes.configure(stack, "app-1", kind, arm, setup)
    pending = state.pending
    nodes.settle(stack, "app-1", state)
    return pending, m.calls


LEVEL = Operation((("subsystem", "logging"), ("console-handler", "CONSOLE")), "write-attribute",
                  {"name": "level", "value": "ERROR"}, "change.cli:1")
THREADS = Operation((("subsystem", "io"), ("worker", "default")), "write-attribute",
                    {"name": "task-max-threads", "value": 4}, "change.cli:1")


def test_a_setting_the_server_applies_at_once_needs_no_reload():
    assert _configure(_Management(), Setup(None, None), [LEVEL]) == (None, [])


def test_a_setting_the_server_applies_on_a_reload_reloads_the_node_once():
    m = _Management(on_reload={"task-max-threads"})
    assert _configure(m, Setup(None, None), [LEVEL, THREADS]) == (nodes.RELOAD, ["reload"])


def test_an_earlier_write_that_left_the_server_reload_required_reloads_it():
    m = _Management()
    m.state = "reload-required"
    assert _configure(m, Setup(None, None), [LEVEL])[0] == nodes.RELOAD


def test_a_property_redeploys_every_app_that_reads_it_and_reloads_nothing():
    setup = Setup(None, None, properties={"tl.app.log_each_transaction": "true"})
    assert _configure(_Management(), setup) == (
        nodes.REDEPLOY, ["redeploy orderentry.war", "redeploy shop.war"])


def test_a_write_whose_services_restart_redeploys_the_apps_instead_of_a_reload():
    """{allow-resource-service-restart=true}: no reload, but the apps that use the restarted
    services are deployed again (a session cache's restart left sessioncart failing every
    request until then, 7 December 2026)."""
    from dataclasses import replace
    m = _Management(on_reload={"task-max-threads"})
    restarted = replace(THREADS, headers={"allow-resource-service-restart": True})
    assert _configure(m, Setup(None, None), [restarted]) == (
        nodes.REDEPLOY, ["redeploy orderentry.war", "redeploy shop.war"])
    assert m.state == "running"


def test_a_reload_covers_a_property_written_beside_it():
    setup = Setup(None, None, properties={"tl.app.log_each_transaction": "true"})
    m = _Management(on_reload={"task-max-threads"})
    assert _configure(m, setup, [THREADS]) == (nodes.RELOAD, ["reload"])


def test_a_change_declared_to_swap_with_a_reload_is_reloaded_in_whatever_the_server_says():
    """WildFly applies the EJB pass-by-value flag by redeploying the app on its own, without
    asking for a reload; the recipe declares switch = "reload", and that is honoured (a
    read-back during the redeployment found the app gone, 28 November 2026)."""
    assert _configure(_Management(), Setup(None, None), [LEVEL], switch="reload") == (
        nodes.RELOAD, ["reload"])
