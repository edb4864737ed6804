"""A miniature cluster: N WildFly nodes (standalone-ha) behind an HAProxy balancer, on one stack.

The cluster is made of the stack's roles, not a special stack: nodes are ordinary nodes
(stack.py) started from standalone-ha with DNS discovery (below) and one more network alias
(``cluster``), and the balancer is a role of its own (containers.Balancer). The load
generator sends its load to the balancer's name instead of a node's.

How the nodes find each other: JGroups over TCP, with DNS_PING asking the stack's DNS for the
``cluster`` alias, which resolves to every node's address (Docker's embedded DNS on a
user-defined network). No multicast: the same discovery works on a Docker Swarm overlay
network (``tasks.<service>``) and on Kubernetes (a headless service), where multicast does not.
The nodes boot with it: their configuration (``standalone-ha-dns.xml``) is made from the
image's ``standalone-ha.xml`` when each node is created and copied in before it starts
(containers.DerivedConfig), so no node reloads to change its discovery, and the image, which
every recipe uses, stays as it is.

WildFly opens its JGroups channel only when a clustered service needs it; a tiny distributable
web application (``tl-cluster-probe.war``, a web.xml that says <distributable/>) boots beside
the app so that the channel starts and the view can be read back, without touching the
application under test.

Verified before use (``verify``): every node's view lists all N members, and every node served
requests that went through the balancer (the balancer's own per-node counters).
"""
from __future__ import annotations

import io
import os
import re
import time
import zipfile
from dataclasses import dataclass, field

from . import cluster_quotas, network
from .containers import DERIVED_CONFIGS, Balancer, DerivedConfig
from .load import SMOKE_ROUNDS, smoke_test
from .plan import CLUSTER_TARGET
from .stack import NodeConfig, Stack

__all__ = ["ClusterError", "ClusterInputError", "ClusterSpec", "ClusterReport", "form",
           "rejoin", "verify", "wait_until_formed", "probe", "store", "MAX_NODES",
           "CLUSTER_ALIAS", "BALANCER_NAME"]

MAX_NODES = 8
MIN_CPUS = 0.05  # below this a node cannot boot within its start-up timeout
CLUSTER_ALIAS = "cluster"  # every node's extra name on the network; DNS_PING asks for it
BALANCER_NAME = CLUSTER_TARGET
PROBE_NAME = "cluster"  # results/probes/cluster/
EE_CHANNEL = (("subsystem", "jgroups"), ("channel", "ee"))
SERVER_CONFIG = "standalone-ha-dns.xml"  # what a cluster node boots from (made at start)
PROBE = "tl-cluster-probe.war"
DEPLOYMENTS_DIR = "/opt/wildfly/standalone/deployments"
PROBE_WEB_XML = """<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
    <distributable/>
</web-app>
"""


class ClusterInputError(ValueError):
    """A cluster that cannot be formed as asked: its message names the key and what is allowed."""


class ClusterError(RuntimeError):
    """A cluster that did not form: a view short of members, a node that served nothing."""


@dataclass(frozen=True)
class ClusterSpec:
    """What a cluster is made of: its nodes' quotas on the nodes' cpuset, the balancer's
    policy. Built with ``ClusterSpec.of`` (which checks it) from a recipe's or a command's
    keys; ``key`` spells a key as its input names it, for error messages."""

    cpus: tuple[float, ...]
    policy: str = "roundrobin"
    server_maxconn: int = 0
    cpuset: str = "1"

    @property
    def nodes(self) -> int:
        return len(self.cpus)

    @property
    def names(self) -> list[str]:
        return [f"app-{i + 1}" for i in range(self.nodes)]

    @classmethod
    def of(cls, nodes: int, cpus, policy: str = "roundrobin", server_maxconn: int = 0,
           cpuset: str = "1", key=lambda name: f"cluster.{name}") -> "ClusterSpec":
        if not isinstance(nodes, int) or isinstance(nodes, bool) or nodes < 1:
            raise ClusterInputError(f"{key('nodes')} is {nodes!r}: a balancer needs at least "
                                    f"one node behind it; allowed: a whole number from 1 to "
                                    f"{MAX_NODES}")
        if nodes > MAX_NODES:
            raise ClusterInputError(f"{key('nodes')} is {nodes}; allowed: 1 to {MAX_NODES}")
        quotas = list(cpus) if isinstance(cpus, (list, tuple)) else [cpus] * nodes
        if len(quotas) != nodes:
            raise ClusterInputError(f"{key('cpus')} lists {len(quotas)} quota(s) for {nodes} "
                                    f"node(s); allowed: one number for every node, or one per "
                                    f"node")
        for q in quotas:
            if isinstance(q, bool) or not isinstance(q, (int, float)) or q < MIN_CPUS:
                raise ClusterInputError(f"{key('cpus')} has {q!r}; allowed: numbers of CPUs of "
                                        f"at least {MIN_CPUS}")
        too_much = cluster_quotas.overflow(quotas, cpuset)
        if too_much:
            raise ClusterInputError(f"{key('cpus')}: {too_much}")
        if policy not in Balancer.POLICIES:
            raise ClusterInputError(f"{key('policy')} {policy!r} is not a balancing policy; "
                                    f"allowed: {', '.join(Balancer.POLICIES)}")
        if isinstance(server_maxconn, bool) or not isinstance(server_maxconn, int) \
                or server_maxconn < 0:
            raise ClusterInputError(f"{key('server_maxconn')} is {server_maxconn!r}; allowed: "
                                    f"a whole number, 0 for no limit")
        if policy == "first" and server_maxconn < 1:
            raise ClusterInputError(f"{key('policy')} first fills one node up to its "
                                    f"{key('server_maxconn')} before it uses the next; allowed: "
                                    f"{key('server_maxconn')} of 1 or more")
        return cls(cpus=tuple(float(q) for q in quotas), policy=policy,
                   server_maxconn=server_maxconn, cpuset=cpuset)

    def node_configs(self, base: NodeConfig = NodeConfig()) -> dict[str, NodeConfig]:
        """Each node's configuration: standalone-ha, its quota, its JGroups name, the alias."""
        return {name: base.with_changes(
            cpuset=self.cpuset, cpus=cpus, server_config=SERVER_CONFIG,
            jvm_options=f"{base.jvm_options} -Djboss.node.name={name}",
            network_aliases=(CLUSTER_ALIAS,))
            for name, cpus in zip(self.names, self.cpus)}


@dataclass
class ClusterReport:
    """What forming the cluster took and what the verification read back."""

    stack_started_s: float = 0.0  # network, database and load generator
    nodes_started_s: float = 0.0
    view_formed_s: float = 0.0
    balancer_started_s: float = 0.0
    ready_s: float = 0.0
    views: dict[str, str] = field(default_factory=dict)
    reloaded_to_join: list[str] = field(default_factory=list)  # a parked cluster's split (rejoin)
    policy: str = ""
    requests_by_node: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def form(stack: Stack, spec: ClusterSpec, report: ClusterReport | None = None,
         view_timeout_s: float = 90.0, base: NodeConfig = NodeConfig()) -> ClusterReport:
    """Start the spec's nodes on ``stack`` (those it did not start itself), let them find each
    other, and put the balancer in front of them. ``base``: what the nodes have in common
    (JVM options, memory) before the spec gives each its quota. Timings go into ``report``."""
    report = report or ClusterReport()
    began = time.monotonic()
    say = stack.progress
    missing = {name: config for name, config in spec.node_configs(base).items()
               if name not in stack.nodes}  # a run's stack starts them itself (topology.py)
    if missing:
        say(f"cluster: starting {len(missing)} standalone-ha node(s) "
            f"({cluster_quotas.cpus_text(spec.cpus)} CPU each on cpuset {spec.cpuset})")
        report.nodes_started_s = stack.add_nodes(missing)
    step = time.monotonic()
    report.views = _wait_for_view(stack, spec.names, view_timeout_s)
    report.view_formed_s = time.monotonic() - step
    say(f"cluster: JGroups view of {spec.nodes} on every node after "
        f"{report.view_formed_s:.1f} s")
    step = time.monotonic()
    stack.add_balancer(BALANCER_NAME, Balancer(spec.names, spec.policy, spec.server_maxconn))
    report.balancer_started_s = time.monotonic() - step
    # The nodes stay wide, as a stack's nodes do after boot: the engine configures and
    # verifies them so and puts them under their quotas before measuring (experiment.py).
    report.ready_s = time.monotonic() - began
    nodes = f"nodes {report.nodes_started_s:.1f} s, " if missing else ""
    say(f"cluster: ready in {report.ready_s:.1f} s ({nodes}view {report.view_formed_s:.1f} s, "
        f"balancer {report.balancer_started_s:.1f} s)")
    return report


def rejoin(stack: Stack, spec: ClusterSpec, report: ClusterReport,
           view_timeout_s: float = 90.0) -> ClusterReport:
    """A parked cluster taken again (stackpool.py): its nodes were reloaded one after the
    other with the configuration they had once they found each other, and the members it
    lacked were started beside them (those it had over were shut down). Wait for one view of
    all of them, and put the balancer back to the spec: in front of these members (a new
    one if the parked one fronted others), its policy, every node in the rotation (an
    earlier run may have switched the one or taken nodes out)."""
    began = time.monotonic()
    try:
        report.views = _wait_for_view(stack, spec.names, SPLIT_PATIENCE_S)
    except ClusterError:
        report.reloaded_to_join, report.views = _reload_the_split_off(stack, spec.names,
                                                                      view_timeout_s)
    report.view_formed_s = time.monotonic() - began
    balancer = stack.balancers[BALANCER_NAME]
    if sorted(balancer.backends) != sorted(spec.names):  # taken with other members
        report.balancer_started_s = stack.replace_balancer(
            BALANCER_NAME, Balancer(spec.names, spec.policy, spec.server_maxconn))
        balancer = stack.balancers[BALANCER_NAME]
    if balancer.policy() != spec.policy:
        balancer.set_policy(spec.policy)
    for node, state in balancer.node_states().items():
        if state.startswith("MAINT"):
            balancer.set_state(node, "ready")
    balancer.wait_until_up(view_timeout_s)
    report.ready_s = time.monotonic() - began
    stack.progress(f"cluster: formed again in {report.ready_s:.1f} s (a parked cluster: one "
                   f"view of {spec.nodes}, the balancer's policy {spec.policy}, every node "
                   f"in its rotation)")
    return report


# How long the reloaded members of a parked cluster may stay in views of their own before
# the ones split off are reloaded again. JGroups' merge (MERGE3, asking DNS_PING for the
# others) joined two such views in up to 45 s here; a split that had not healed after 90 s
# failed a CI run (stop 72: app-2 alone in a view of its own after its reload, app-1 alone
# in the old one).
SPLIT_PATIENCE_S = 60.0


def _reload_the_split_off(stack: Stack, names: list[str],
                          timeout_s: float) -> tuple[list[str], dict[str, str]]:
    """Reload, one after the other, every node outside the largest view, so that each asks
    to join the others' view as a booting node does (a join, not a merge); then wait for one
    view of all of them. The reloads reset nothing: the nodes run their parked configuration
    already. When the views agree (a node's probe not deployed yet), just wait longer."""
    views = {name: _view(stack, name) for name in names}
    largest = max((_members(v) for v in views.values()), key=len, default=[])
    apart = [name for name in names if sorted(_members(views[name])) != sorted(largest)]
    if apart:
        stack.progress(f"cluster: no one view after {SPLIT_PATIENCE_S:.0f} s "
                       f"({_views_text(views)}); reloading {', '.join(apart)} to join the "
                       f"largest view")
    for name in apart:
        stack.management_of(name).reload()
    return apart, _wait_for_view(stack, names, timeout_s)


def _views_text(views: dict[str, str]) -> str:
    return "; ".join(f"{name} sees {', '.join(_members(view)) or 'no view'}"
                     for name, view in views.items())


def verify(stack: Stack, spec: ClusterSpec, report: ClusterReport) -> ClusterReport:
    """The cluster is what the spec says: every node's view has all N members, the balancer
    runs the spec's policy, and every node served requests sent through the balancer (a
    smoke test of every transaction type of the app under test). Every deployment of the app,
    not only those a run drives: a sticky deployment sends a smoke session's requests to one
    node, and one without affinity (the session apps have one) is what spreads them (with only
    the two sticky WARs it drives, http-session-replication's node app-3 served none, 6
    December 2026).

    First every WAR answers for itself (load.SMOKE_ROUNDS); only if a node served none of
    those requests do the WARs run the rest of the rounds that give every node its share
    (smoke_rounds). The first pass is enough under round robin; the rest keeps a random
    policy's odds (below). On the paging app's four WARs at three nodes the full share cost
    18 s of an 81 s CI run on cold nodes (6 December 2026), the first pass 2.4 s."""
    report.views = {name: _view(stack, name) for name in spec.names}
    for name, view in report.views.items():
        if not _has_all(view, spec.names):
            raise ClusterError(f"{name}'s JGroups view is {view!r}; expected the members "
                               f"{', '.join(spec.names)}")
    balancer = stack.balancers[BALANCER_NAME]
    report.policy = balancer.policy()
    if report.policy != spec.policy:
        raise ClusterError(f"the balancer runs policy {report.policy!r}, not {spec.policy!r}")
    before = balancer.requests_by_node()

    def idle_nodes() -> list[str]:
        after = balancer.requests_by_node()
        report.requests_by_node = {n: after.get(n, 0) - before.get(n, 0) for n in spec.names}
        return [n for n, count in report.requests_by_node.items() if count == 0]

    app = stack.app_under_test
    smoke_test(stack.loadgen, rounds=SMOKE_ROUNDS, target=BALANCER_NAME, app=app)
    idle, rest = idle_nodes(), smoke_rounds(spec, app) - SMOKE_ROUNDS
    if idle and spec.policy != "first" and rest > 0:
        smoke_test(stack.loadgen, rounds=rest, target=BALANCER_NAME, app=app)
        idle = idle_nodes()
    if idle and spec.policy != "first":
        raise ClusterError(f"node(s) {', '.join(idle)} served no request through the balancer "
                           f"(requests by node: {report.requests_by_node})")
    return report


# Requests through the balancer per node in its smoke test: even a random policy then leaves a
# node without one about once in 8,000 four-node runs (N x (1 - 1/N)^9N).
SMOKE_REQUESTS_PER_NODE = 9


def smoke_rounds(spec: ClusterSpec, app) -> int:
    """Rounds of the app's smoke transactions (each round runs every one once) that send the
    balancer SMOKE_REQUESTS_PER_NODE requests per node: the images' app, with nine, runs one
    round a node (two a node, as before 29 November 2026, cost a four-node CI run 2.5 s of
    requests on cold nodes)."""
    per_round = max(1, len(app.transactions))
    return -(-SMOKE_REQUESTS_PER_NODE * spec.nodes // per_round)


def wait_until_formed(stack: Stack, spec: ClusterSpec, timeout_s: float = 90.0) -> None:
    """After the nodes reloaded (a configuration step): one view again, every node up behind
    the balancer."""
    _wait_for_view(stack, spec.names, timeout_s)
    stack.balancers[BALANCER_NAME].wait_until_up(timeout_s)


def probe(spec: ClusterSpec, progress=print, base: NodeConfig = NodeConfig(),
          profile: str = "full") -> dict:
    """Form the cluster on a stack of its own, verify it and remove it: the record of what
    that took on this engine (local or DOCKER_HOST), to store under results/probes/cluster.
    ``base``: the node the nodes are made from, as ``profile`` boots it (its JIT:
    stack.NodeConfig)."""
    from datetime import datetime, timezone

    from . import provenance
    started = datetime.now(timezone.utc)
    report = ClusterReport()
    with Stack(progress=progress) as stack:
        report.stack_started_s = stack.started_in_s
        form(stack, spec, report, base=base)
        verify(stack, spec, report)
        network_reading = network.measure(stack, BALANCER_NAME, progress)
        engine = stack.client.info()
        images_used = dict(stack.image_ids)
        hosts = stack.hosts()
    return {"probe": PROBE_NAME, "spec": {"nodes": spec.nodes, "cpus": list(spec.cpus),
                                        "policy": spec.policy, "cpuset": spec.cpuset,
                                        "profile": profile, "jit": base.jit},
            "report": report.as_dict(), "network": network_reading,
            "provenance": {**provenance.machine(), **provenance.git(),
                           "started": started.isoformat(),
                           "engine": {"host": os.environ.get("DOCKER_HOST", "local socket"),
                                      "name": engine.get("Name"),
                                      "server_version": engine.get("ServerVersion"),
                                      "cpus": engine.get("NCPU")},
                           "placement": hosts,
                           "images": images_used}}


def store(record: dict, results_dir=None):
    from .store import write_probe
    return write_probe(record, PROBE_NAME, results_dir)


# -- discovery ---------------------------------------------------------------------------------
_MPING = '<socket-protocol type="MPING" socket-binding="jgroups-mping"/>'
_EE_ON_UDP = '<channel name="ee" stack="udp"'
_DNS_PING = (f'<protocol type="dns.DNS_PING"><property name="dns_query">{CLUSTER_ALIAS}</property>'
             f'<property name="dns_record_type">A</property></protocol>')


def dns_discovery(ha_xml: str) -> str:
    """standalone-ha.xml with the tcp stack finding its members by DNS (DNS_PING on the
    cluster alias, where MPING multicasts) and the ee channel on that stack."""
    for expected in (_MPING, _EE_ON_UDP):
        if ha_xml.count(expected) != 1:
            raise ClusterError(f"the image's standalone-ha.xml does not hold {expected} once; "
                               f"the cluster's discovery (cluster.dns_discovery) must follow "
                               f"the WildFly version")
    return (ha_xml.replace(_MPING, _DNS_PING)
            .replace(_EE_ON_UDP, '<channel name="ee" stack="tcp"'))


def _boot_files() -> dict[str, bytes]:
    return {f"{DEPLOYMENTS_DIR}/{PROBE}": probe_war()}


DERIVED_CONFIGS[SERVER_CONFIG] = DerivedConfig("standalone-ha.xml", dns_discovery, _boot_files)


def probe_war() -> bytes:
    """The distributable probe application. A fixed timestamp makes it the same bytes on
    every node, so the nodes' management models (which hold each deployment's content hash)
    differ only where a change writes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as war:
        war.writestr(zipfile.ZipInfo("WEB-INF/web.xml", date_time=(2026, 1, 1, 0, 0, 0)),
                     PROBE_WEB_XML)
    return buffer.getvalue()


def _probe_deployed(stack: Stack, name: str) -> bool:
    try:
        return stack.management_of(name).read_attribute((("deployment", PROBE),),
                                                        "status") == "OK"
    except Exception:  # not in the model yet
        return False


def _view(stack: Stack, name: str) -> str:
    try:
        return str(stack.management_of(name).read_attribute(EE_CHANNEL, "view") or "")
    except Exception:  # the channel may not exist yet while the probe deploys
        return ""


def _members(view: str) -> list[str]:
    """The members of a JGroups view text such as
    "[app-2(v=16.0.5)|2] (3) [app-2(v=16.0.5), app-3(v=16.0.5), app-1(v=16.0.5)]" (each member
    may carry its Infinispan version in brackets). A merge view, left after nodes that started
    at once formed views of their own and then found each other, lists its members the same
    way and then the subgroups it merged ("MergeView::[...|1] (2) [app-2, app-1], 2
    subgroups: [...], [...]"): the first list is the view."""
    match = re.search(r"\(\d+\)\s*\[([^\]]*)\]", view)
    if not match:
        return []
    return [re.sub(r"\(.*\)$", "", m.strip()) for m in match.group(1).split(",") if m.strip()]


def _has_all(view: str, names: list[str]) -> bool:
    """The view lists exactly these members."""
    return sorted(_members(view)) == sorted(names)


def _wait_for_view(stack: Stack, names: list[str], timeout_s: float) -> dict[str, str]:
    """Until every node's view lists all of them and every node's model holds the probe's
    deployment: a node joins the view while the scanner is still deploying the probe, and a
    comparison of the nodes' models read then found it on one node only (2026-11-26)."""
    deadline = time.monotonic() + timeout_s
    while True:
        views = {name: _view(stack, name) for name in names}
        if all(_has_all(v, names) for v in views.values()) \
                and all(_probe_deployed(stack, name) for name in names):
            return views
        if time.monotonic() > deadline:
            raise ClusterError(f"the nodes did not form one cluster within {timeout_s:.0f} s; "
                               f"views: {views}")
        time.sleep(0.5)


