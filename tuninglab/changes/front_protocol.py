"""How the load reaches a node: through a web server in front of it, which passes requests on
over HTTP or AJP (the guide's 2.2), or directly. Every node gets a front of its own (front.py),
which takes the node's name; an arm that goes through it sends its load to the node's name,
an arm that goes directly sends it to the node behind the front (``target_for``), and closes
the front's route, so that a request that reaches the front all the same fails. Switched at
runtime: the front's route is rewritten and httpd restarts gracefully; the node is not touched.

Read back before every trial from both ends: the front's route, and the node's own listener
counters (Undertow's statistics, which the recipe's baseline enables, with the AJP listener
where an arm speaks AJP). Requests sent through the front to a path no app serves must arrive
on the arm's listener and on no other; in a direct arm they must fail at the front and reach
no listener, while the same requests sent to the node itself reach its HTTP listener."""
from __future__ import annotations

from ..front import CLOSED, PROTOCOLS, behind
from ..management import ManagementError
from ..plan import RUNTIME, Arm
from .base import ChangeKind
from .checks import Check

DIRECT = "direct"  # the load goes to the node itself
WAYS = (DIRECT, *PROTOCOLS)  # how an arm's load may reach its node
DEFAULT_BASELINE = "http"
# The node's listener for each protocol (the baseline's http-listener; the AJP listener the
# recipe's baseline.cli adds under this name).
LISTENERS = {"http": ("http-listener", "default"), "ajp": ("ajp-listener", "ajp")}
UNDERTOW = (("subsystem", "undertow"), ("server", "default-server"))
PROBES = 3  # requests sent at each read-back


class FrontProtocolChange(ChangeKind):
    name = "front-protocol"
    switch = RUNTIME
    # The node parses each protocol with code of its own (Undertow's AJP parser is not its
    # HTTP one): a node switched in place compiles both while it warms.
    warms_every_arm = True

    @property
    def baseline_way(self) -> str:
        return self.change.baseline_protocol or DEFAULT_BASELINE

    def way(self, arm: Arm) -> str:
        """How the arm's load reaches the node: direct, http or ajp."""
        return self.change.protocol if self.applies(arm) else self.baseline_way

    def route(self, arm: Arm) -> str:
        """The front's route in the arm: the arm's protocol, or closed when it goes direct."""
        way = self.way(arm)
        return CLOSED if way == DIRECT else way

    def target_for(self, arm: Arm, node: str) -> str:
        return behind(node) if self.way(arm) == DIRECT else node

    def stack_needs(self) -> dict:
        first = self.baseline_way
        return {"fronted_nodes": True,
                "front_protocol": first if first in PROTOCOLS else DEFAULT_BASELINE}

    def role_inputs(self) -> dict[str, tuple[str, ...]]:
        return {"front": ("images/front-httpd",)}

    def check_arm(self, arm: Arm) -> None:
        way = self.way(arm)
        if way not in WAYS:
            raise ValueError(f"front protocol {way!r}; allowed: {', '.join(WAYS)}")
        others = {self.way(other) for other in self.arms if other != arm}
        if self.applies(arm) and way in others:
            raise ValueError(f"front protocol {way!r} is the baseline's too; allowed: "
                             f"{', '.join(w for w in WAYS if w not in others)}")

    def configure_arm(self, stack, node: str, arm: Arm) -> None:
        self.apply_arm(stack, node, arm, None)

    def apply_arm(self, stack, node: str, arm: Arm, state) -> list[Check]:
        front, wanted = stack.front_of(node), self.route(arm)
        if front.protocol() != wanted:
            front.set_protocol(wanted)
        return []

    def read_back(self, stack, node: str, arm: Arm) -> list[Check]:
        front, way, wanted = stack.front_of(node), self.way(arm), self.route(arm)
        route = front.protocol()
        checks = [Check(f"front of {node}: its route", wanted, route, route == wanted)]
        management = stack.management_of(node)
        try:
            checks.append(_probe_check(management, front, node, way, direct=False))
            if way == DIRECT:
                checks.append(_probe_check(management, front, node, way, direct=True))
        except ManagementError as error:
            checks.append(Check(f"{node}: Undertow's listener statistics", "readable (the "
                                "recipe's baseline enables them, and adds the AJP listener "
                                "where an arm speaks AJP)", str(error), False))
        return checks

    def describe(self, arm: Arm | None = None) -> str:
        if arm is None:
            return (f"front-protocol: {_way_text(self.baseline_way)} -> "
                    f"{_way_text(self.change.protocol)}")
        return _way_text(self.way(arm))


def _way_text(way: str) -> str:
    return "straight to the node" if way == DIRECT else f"httpd in front, {way.upper()} to the node"


def _probe_check(management, front, node: str, way: str, direct: bool) -> Check:
    """PROBES requests to a path no app serves, through the front (or to the node itself) and
    the node's listeners that served them. Through the front, an arm that goes through it must
    see all of them on its listener and none on the other; a direct arm must see them fail at
    the front and reach nothing. Sent to the node itself, they must reach its HTTP listener."""
    before = _requests_by_listener(management)
    statuses = front.probe(PROBES, direct=direct)
    after = _requests_by_listener(management)
    arrived = {p: after[p] - before.get(p, 0) for p in after}
    expected_listener = "http" if direct else (None if way == DIRECT else way)
    if expected_listener is None:  # a direct arm's front: its route leads nowhere
        expected = "every request refused at the front (5xx), none on a listener"
        ok = all(s >= 500 for s in statuses) and not any(arrived.values())
    else:
        expected = f"{expected_listener} {PROBES}, any other 0"
        ok = (arrived.get(expected_listener, 0) >= PROBES
              and sum(arrived.values()) == arrived[expected_listener]
              and all(s < 500 for s in statuses))
    where = f"straight to {behind(node)}" if direct else f"through the front of {node}"
    shown = ", ".join(f"{p} {n}" for p, n in arrived.items())
    if expected_listener is not None and expected_listener not in arrived:
        shown += f"; the node has no {expected_listener} listener (the recipe's baseline adds it)"
    return Check(f"{PROBES} requests {where}: the node's listeners that served them", expected,
                 f"{shown} (statuses {', '.join(map(str, statuses))})", ok)


def _requests_by_listener(management) -> dict[str, int]:
    """Requests each of the node's listeners has served (Undertow's statistics); a listener
    the node does not have counts as absent, except the HTTP one every node has."""
    counts = {}
    for protocol, listener in LISTENERS.items():
        try:
            counts[protocol] = int(management.read_attribute((*UNDERTOW, listener),
                                                             "request-count") or 0)
        except ManagementError:
            if protocol == "http":
                raise
    return counts
