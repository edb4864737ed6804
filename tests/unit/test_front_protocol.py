"""A web server in front of each node (front.py, change kind front-protocol): the recipe, the
stack it asks for, and the read-back that proves which protocol carried the requests."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from tuninglab import changes, front, layout, stats
from tuninglab.changes.front_protocol import LISTENERS, PROBES, UNDERTOW
from tuninglab.management import ManagementError
from tuninglab.plan import compile_plan
from tuninglab.recipe import RecipeError, load_recipe

RECIPE = layout.recipes_dir() / "guide" / "httpd-ajp-connector"
DIRECT_RECIPE = layout.recipes_dir() / "guide" / "httpd-front-cost"


class _Front:
    """httpd as the change kind sees it: a route, and probes that reach the node's listener
    of that route (or, ``stale``, still the listener of the route before); a closed route
    refuses them, and a direct probe reaches the node's HTTP listener."""

    def __init__(self, node, protocol="http", stale=False, status=404):
        self.node, self.route, self.stale, self.status = node, protocol, stale, status
        self.routed_before, self.switches = protocol, 0

    def protocol(self):
        return self.route

    def set_protocol(self, protocol):
        self.routed_before, self.route = self.route, protocol
        self.switches += 1

    def probe(self, requests, direct=False):
        listener = "http" if direct else self.routed_before if self.stale else self.route
        if listener not in self.node.counts:  # closed, or a listener the node lacks
            return [503] * requests
        self.node.counts[listener] += requests
        return [self.status] * requests


class _Management:
    def __init__(self, counts, missing=()):
        self.counts, self.missing = counts, missing

    def read_attribute(self, address, name):
        assert name == "request-count" and address[:2] == UNDERTOW
        protocol = next(p for p, listener in LISTENERS.items() if listener == address[2])
        if protocol in self.missing:
            raise ManagementError(f"{address}: WFLYCTL0216: resource not found")
        return self.counts[protocol]


def _stack(missing=(), **front_options):
    node = SimpleNamespace(counts={p: n for p, n in (("http", 120), ("ajp", 0))
                                   if p not in missing})
    fronts = {"app-1": _Front(node, **front_options)}
    management = _Management(node.counts, missing)
    return SimpleNamespace(front_of=lambda name: fronts[name],
                           management_of=lambda name: management, node=node, fronts=fronts)


def _kind_and_arms(folder=RECIPE):
    recipe = load_recipe(folder)
    kind = changes.kind_for(recipe)
    plan = compile_plan(recipe, switch=kind.switch)
    kind.bind(plan.arms)
    return kind, plan


def test_the_recipe_puts_a_front_before_every_node_and_swaps_arms_every_block():
    kind, plan = _kind_and_arms()
    assert kind.switch == "runtime" and plan.layout == "crossover"
    assert kind.stack_needs() == {"fronted_nodes": True, "front_protocol": "http"}
    assert kind.role_inputs() == {"front": ("images/front-httpd",)}
    baseline, variant = plan.arms
    assert (kind.way(baseline), kind.way(variant)) == ("http", "ajp")
    assert kind.target_for(variant, "app-1") == kind.target_for(baseline, "app-1") == "app-1"
    assert kind.warms_every_arm  # the node parses AJP with code of its own
    assert "front_cpu_per_tx" in stats.METRIC_RULES


def test_a_switch_rewrites_the_route_once_and_the_probes_prove_it():
    kind, plan = _kind_and_arms()
    baseline, variant = plan.arms
    stack = _stack()
    kind.configure_arm(stack, "app-1", variant)  # the node's first arm, when it is configured
    kind.apply_arm(stack, "app-1", variant, None)  # already routed: no second restart
    assert stack.fronts["app-1"].switches == 1
    checks = kind.read_back(stack, "app-1", variant)
    assert all(c.ok for c in checks), checks
    assert checks[-1].actual.startswith(f"http 0, ajp {PROBES}")
    kind.apply_arm(stack, "app-1", baseline, None)
    assert all(c.ok for c in kind.read_back(stack, "app-1", baseline))


@pytest.mark.parametrize("stack_options, what", [
    ({"stale": True}, "the node's listeners"),  # the route says ajp, the requests came by http
    ({"status": 503}, "the node's listeners"),  # the front could not reach the node
    ({"missing": ("ajp",)}, "the node's listeners"),  # no AJP listener on the node
    ({"missing": ("http", "ajp")}, "Undertow's listener statistics"),  # statistics unreadable
])
def test_a_front_that_does_not_route_as_asked_fails_the_read_back(stack_options, what):
    kind, plan = _kind_and_arms()
    variant = plan.arms[1]
    stack = _stack(**stack_options)
    kind.apply_arm(stack, "app-1", variant, None)
    failed = [c for c in kind.read_back(stack, "app-1", variant) if not c.ok]
    assert len(failed) == 1 and what in failed[0].what, failed
    if stack_options.get("missing") == ("ajp",):
        assert "the node has no ajp listener" in failed[0].actual


def test_a_direct_arm_sends_its_load_behind_the_front_and_closes_the_front():
    kind, plan = _kind_and_arms(DIRECT_RECIPE)
    baseline, variant = plan.arms
    assert (kind.way(baseline), kind.way(variant)) == ("direct", "http")
    assert kind.stack_needs() == {"fronted_nodes": True, "front_protocol": "http"}
    assert kind.target_for(baseline, "app-1") == "app-1-direct"
    assert kind.target_for(variant, "app-1") == "app-1"
    stack = _stack()
    kind.apply_arm(stack, "app-1", baseline, None)
    assert stack.fronts["app-1"].route == front.CLOSED
    checks = kind.read_back(stack, "app-1", baseline)
    assert [c.ok for c in checks] == [True, True, True], checks
    assert "refused at the front" in checks[1].expected and "http 3" in checks[2].actual
    kind.apply_arm(stack, "app-1", variant, None)
    assert all(c.ok for c in kind.read_back(stack, "app-1", variant))
    # a front that still routes to the node while the arm goes direct is caught
    stack.fronts["app-1"].route = "http"
    stack.fronts["app-1"].protocol = lambda: "closed"  # its configuration says otherwise
    assert not all(c.ok for c in kind.read_back(stack, "app-1", baseline))


def test_a_variant_that_is_the_baseline_or_a_cluster_is_refused(tmp_path):
    kind, plan = _kind_and_arms()
    kind.change = SimpleNamespace(protocol="http", baseline_protocol=None)
    with pytest.raises(ValueError, match="is the baseline's too; allowed: direct, ajp"):
        kind.check_arm(plan.arms[1])
    folder = tmp_path / "front-on-a-cluster"
    folder.mkdir()
    (folder / "baseline.cli").write_text((RECIPE / "baseline.cli").read_text())
    (folder / "recipe.toml").write_text((RECIPE / "recipe.toml").read_text().replace(
        'id = "httpd-ajp-connector"', 'id = "front-on-a-cluster"').replace(
        "[change]", "[cluster]\nnodes = 2\ncpus = 0.25\n\n[change]"))
    with pytest.raises(RecipeError, match="front-protocol puts a web server in front of each "
                                          "node"):
        load_recipe(folder)


def test_the_status_page_and_the_names():
    status = front.parse_status("ServerVersion: Apache/2.4.65 (Debian)\n"
                                "ParentServerConfigGeneration: 2\nTotal Accesses: 17\n")
    assert status["ParentServerConfigGeneration"] == "2" and status["Total Accesses"] == "17"
    assert front.behind("app-1") == "app-1-direct"
    with pytest.raises(ValueError, match="allowed: http, ajp, closed"):
        front.HttpdFront._check("h2c")
