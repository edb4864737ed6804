"""Which deployment of the app the load drives: the app's own (the baseline) or another WAR of
it that every node runs beside it from boot (apps.py, ``[deployments.<name>]``), the same app
with a few files of its own, such as a ``distributable-web.xml`` naming another session cache.

Both configurations live on the same running nodes, so the arms alternate every block without
a reload (a setting that needs one, like the session cache's mode on a running cluster, would
otherwise make the arms take turns with a reload and a warm-up each: on 27 November 2026 that
left the same arm 2x apart between turns). Nothing is written to a server. The proof is read
from the servers before every trial: the arm's WAR is deployed and serving on each node, and
the deployment's own session cache, or its stateful beans' cache (and the cache that one is
made from), is and holds what the app says of it (app.toml's ``session_cache`` and
``bean_cache``; ``read_back``). After every window, the answers prove its session affinity
(``affinity``; ``read_back_load``): whether the session ids the shoppers got named a node.
"""
from __future__ import annotations

from .. import apps
from ..management import ManagementError
from ..plan import RUNTIME, Arm
from ..recipe import PLACEHOLDER
from .base import ChangeKind, value_text
from .checks import Check

# The caches a deployment's own entries live in, by what app.toml says of it: its HTTP
# sessions in the "web" container, its stateful beans in the "ejb" one, each in a cache of the
# deployment's own that the server makes from the template its descriptor names (_own_cache).
CACHES = {"session_cache": ("web", "session cache"),
          "bean_cache": ("ejb", "stateful-bean cache")}
# Entries a replicated cache may lack on one node against another when the nodes are read one
# after the other: a session expiring between two reads (its removal replicates at once).
IN_FLIGHT = 0.05
# The Infinispan resource a cache of each mode in app.toml is, in its container's model.
TEMPLATE_KINDS = {"replicated": "replicated-cache", "distributed": "distributed-cache"}


class DeploymentChange(ChangeKind):
    name = "deployment"
    switch = RUNTIME
    warms_every_arm = True  # each WAR has its own JSP classes and its own cache to warm

    def __init__(self, recipe):
        super().__init__(recipe)
        self.app = apps.load(recipe.workload.app, recipe.repo_root)

    def deployment(self, arm: Arm) -> apps.Deployment:
        """The arm's WAR: the variant's (of a sweep, the one its value names: ``{value}``), or
        the baseline's: the one the workload names, else the app's own."""
        return self.app.deployment(self.substitute(self.change.deployment, arm)
                                   if self.applies(arm) else self.recipe.workload.deployment)

    def load_for(self, arm: Arm) -> dict:
        return {"deployment": self.deployment(arm).name}

    def check_arm(self, arm: Arm) -> None:
        try:
            self.deployment(arm)
        except apps.AppError as error:
            raise ValueError(str(error)) from None

    def apply_arm(self, stack, node: str, arm: Arm, state) -> list[Check]:
        return []  # both WARs run on every node from boot: the load chooses

    def read_back(self, stack, node: str, arm: Arm) -> list[Check]:
        deployment = self.deployment(arm)
        war = deployment.war_name
        m = stack.management_of(node)
        status = m.read_attribute([("deployment", war)], "status")
        root = m.read_attribute([("deployment", war), ("subsystem", "undertow")], "context-root")
        checks = [Check(f"{war} deployed on {node}", "OK", str(status), status == "OK"),
                  Check(f"{war}'s context root on {node}", deployment.context_root, str(root),
                        root == deployment.context_root)]
        return checks + [check for key in CACHES
                         for check in cache_checks(stack, node, deployment, key)]

    def read_back_load(self, arm: Arm, numbers: dict) -> list[Check]:
        """The session affinity the arm's deployment declares, read from the window's answers:
        with ``primary-owner``, every session id the shoppers got ends with the route of the
        node that owns it (so their later requests go there); with ``none``, no id names a
        node (so every request goes through the balancer's rotation)."""
        deployment = self.deployment(arm)
        affinity = deployment.affinity
        if not affinity:
            return []
        opened, routed = numbers.get("sessions"), numbers.get("sessions_routed")
        what = f"session ids naming a node ({deployment.war_name})"
        if not opened:
            return [Check(what, "sessions opened in the window", f"{opened} sessions", False)]
        wanted = opened if affinity == "primary-owner" else 0
        return [Check(what, f"{wanted} of {opened} (affinity {affinity})", f"{routed} of {opened}",
                      routed == wanted)]

    def describe(self, arm: Arm | None = None) -> str:
        if arm is None and self.recipe.sweep:
            wars = [self.app.deployment(self.change.deployment.replace(PLACEHOLDER, value_text(v)))
                    for v in self.recipe.sweep.values]
            return "deployment, one a value: " + ", ".join(
                f"{d.war_name} ({d.context_root})" for d in wars)
        if arm is None:
            own = self.app.deployment(self.recipe.workload.deployment)
            other = self.app.deployment(self.change.deployment)
            return (f"deployment: {own.war_name} -> {other.war_name} "
                    f"({other.context_root}, overlay {other.overlay}/)")
        d = self.deployment(arm)
        return f"the app's deployment {d.war_name} ({d.context_root})"

    def files(self) -> dict[str, str]:
        """The overlay files that make the deployments differ, for the pages."""
        return {f"{d.overlay}/{name}": path.read_text(encoding="utf-8")
                for d in self.app.deployments
                for name, path in sorted(self.app.overlay_files(d).items())}


def cache_checks(stack, node: str, deployment: apps.Deployment, key: str) -> list[Check]:
    """What the deployment's own cache (``key``: its sessions' or its stateful beans') is and
    holds on every node of the cluster (checked once, with the cluster's first node: every
    node's verification would read the same), against what the app says its descriptor makes
    of it (``session_cache`` or ``bean_cache`` in app.toml).

    A stateful-bean cache is followed to the cache it is made from, as the server resolves it
    (``template_check``), on every node. Then the counts: a replicated cache holds every entry
    on every node, so a deployment whose descriptor did not take effect shows nodes with fewer
    entries than others, on three nodes or more (on two, a distributed cache with two owners
    also holds every entry on both, which is why the bean cache's template is read too). A
    distributed one holds each entry on its owners only, and where the keys hash decides the
    counts, so no count proves it: they are shown if its statistics are on (a recipe that
    needs no count leaves them off, and saves the reload that turning them on costs)."""
    mode = getattr(deployment, key)
    nodes = list(stack.balancer_of(node).backends) if stack.balancers else [node]
    if not mode or node != nodes[0]:
        return []
    container, label = CACHES[key]
    what = f"{deployment.war_name}'s {label}"
    entries, checks = {}, []
    for member in nodes:
        m = stack.management_of(member)
        try:
            cache = _own_cache(m, container, deployment.war_name)
            if key == "bean_cache":
                checks.append(template_check(m, member, deployment.war_name, cache, what, mode))
            entries[member] = m.read_attribute(
                [("subsystem", "infinispan"), ("cache-container", container), ("cache", cache)],
                "number-of-entries-in-memory")
        except ManagementError as error:
            return checks + [Check(f"{what} on {member}", "its statistics", str(error), False)]
    return checks + [_count_check(what, mode, entries)]


def _count_check(what: str, mode: str, entries: dict) -> Check:
    """The entries a deployment's own cache holds on each node, against its mode."""
    shown = ", ".join(f"{n} {e}" for n, e in entries.items())
    if mode == "distributed":  # shown where counted, never judged
        counted = shown if None not in entries.values() else "not counted (statistics off)"
        return Check(f"{what}: entries per node (distributed)", "any", counted, True)
    if None in entries.values():
        return Check(f"{what}'s statistics", "enabled (baseline: statistics-enabled on the "
                     "cache it is made from)", shown, False)
    most = max(entries.values())
    return Check(f"{what}: every entry on every node (replicated)",
                 f"the same count on all {len(entries)} nodes, above 0", shown,
                 most > 0 and min(entries.values()) >= most * (1 - IN_FLIGHT))


def template_check(m, member: str, war: str, own: str, what: str, mode: str) -> Check:
    """The kind of Infinispan cache a deployment's stateful beans are made from, as app.toml's
    ``bean_cache`` says, followed the way the server resolves it: the bean management that the
    WAR's own cache is named after ("<war>/<management>", _own_cache), that management's cache
    (or its container's default cache), and that cache's kind in its container."""
    wanted = TEMPLATE_KINDS[mode]
    label = f"{what} on {member}: made from a {wanted}"
    if not own.startswith(f"{war}/"):
        return Check(label, f"a cache named {war}/<bean management>", f"{own} (none such)", False)
    management = own[len(war) + 1:]
    try:
        bm = m.read_resource([("subsystem", "distributable-ejb"),
                              ("infinispan-bean-management", management)]) or {}
        container = bm.get("cache-container")
        where = [("subsystem", "infinispan"), ("cache-container", container)]
        cache = bm.get("cache") or m.read_attribute(where, "default-cache")
        kinds = [kind for kind in TEMPLATE_KINDS.values()
                 if cache in (m.execute("read-children-names", where,
                                        **{"child-type": kind}).result or [])]
    except ManagementError as error:
        return Check(label, f"bean management {management} and its cache", str(error), False)
    found = (f"{kinds[0] if kinds else 'no replicated or distributed cache'} {cache} in "
             f"{container} (bean management {management})")
    return Check(label, f"a {wanted} (bean management and cache as the descriptor names)",
                 found, kinds == [wanted])


def _own_cache(m, container: str, war: str) -> str:
    """The name of a deployment's own cache in ``container``, as the server lists it: the web
    container names a deployment's session cache after the WAR, the ejb container its beans'
    after the WAR and the bean management it uses ("paging-stateful-replicated.war/replicated"
    on 6 December 2026, WildFly 39.0.1). None listed: the WAR's name, which then reads as not
    found."""
    names = m.execute("read-children-names", [("subsystem", "infinispan"),
                                              ("cache-container", container)],
                      **{"child-type": "cache"}).result or []
    own = [name for name in names if name == war or name.startswith(f"{war}/")]
    return own[0] if own else war
