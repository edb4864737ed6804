"""Configure an application-server node for its arm, and prove it: once after start, and again
before every trial.

A node gets the recipe's baseline set-up (baseline.cli, baseline.properties) and, if its first
arm applies the change, the change's operations; then what they need to take effect
(``settle``): a reload where the server asks for one or the change declares it swaps with a
reload, else a redeployment of the apps where a tl.* property was written (the apps read them
when they deploy), else nothing. A reload
restarts every service and, on a cluster, makes the node leave and join its view. A cluster's
nodes are configured at once and settle one after the other, whether they reload or redeploy
(experiment.py says why). Everything the change's operations will replace (for every arm: a sweep's arms
write different values to the same attributes) is recorded first, so a node without the
change can prove it still holds what it had, and a node that swaps arms can be put back.
After all nodes are configured their management models are compared: they may differ only
where the change writes (and must differ there, for a change that writes something), so "one
change at a time" is checked on the running servers, not assumed.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import jboss_cli, management, server_modules
from ..jboss_cli import Operation
from ..plan import RUNTIME, Arm
from ..recipe import Setup
from ..together import together
from . import model, runtime_read_back
from .base import ChangeKind
from .checks import ChangeNotEffective, Check, require, same
from .container_limits import limits_checks
from .postgresql_conf import BASELINE_FRAGMENT, apply_pg_fragment, read_fragment

__all__ = ["NodeState", "baseline_operations", "configure", "settle", "RELOAD", "REDEPLOY",
           "verify", "compare_models", "apply_db_baseline"]

RELOAD, REDEPLOY = "reload", "redeploy"  # what a configured node still needs (NodeState.pending)


@dataclass
class NodeState:
    """A node's baseline operations, and what the change's operations replace there (by
    target, model.record)."""
    baseline_ops: list[Operation] = field(default_factory=list)
    before: dict = field(default_factory=dict)
    pending: str | None = None  # RELOAD, REDEPLOY or None: what settle() does


def baseline_operations(setup: Setup) -> list[Operation]:
    ops = jboss_cli.parse_file(setup.cli) if setup.cli else []
    ops += [Operation((("system-property", k),), "add", {"value": v}, f"baseline.properties.{k}")
            for k, v in setup.properties.items()]
    return ops


def configure(stack, node: str, kind: ChangeKind, arm: Arm, setup: Setup) -> NodeState:
    """Install the baseline's server modules; apply the baseline set-up and the change's
    operations this arm applies. What they still need to take effect is left in
    ``pending``, for ``settle``."""
    for folder in setup.modules:  # files only: the baseline's CLI is what puts them to use
        stack.nodes[node].put_files(server_modules.load(folder).files())
    m = stack.management_of(node)
    groups = kind.operation_groups(arm)
    state = NodeState(baseline_operations(setup))
    responses = [model.apply(m, op) for op in state.baseline_ops]
    # Recorded after the baseline: what the change replaces is the baseline's value (a
    # baseline may set the very attribute the change sets, e.g. a small pool made larger).
    every_op = [op for other in kind.arms for op in kind.operations(other)[0]] or \
        [op for ops, _ in groups for op in ops]
    state.before = model.record(m, every_op)
    applied_ops = [op for ops, applied in groups if applied for op in ops]
    for op in applied_ops:
        if op.name == "add" and state.before[model.target(op)].existed:
            raise ChangeNotEffective(
                f"{op.where}: {op.address_text} already exists in the baseline; a change file "
                f"may only add what the baseline does not have")
    responses += [model.apply(m, op) for op in applied_ops]
    kind.configure_arm(stack, node, arm)
    # A change that declares it swaps with a reload is reloaded in too, whatever the server
    # answers: some writes are applied by a redeployment WildFly starts on its own (the EJB
    # pass-by-value flag), and a read-back during it finds the app gone.
    if any(r is not None and r.needs_reload for r in responses) \
            or (applied_ops and kind.switch != RUNTIME) \
            or m.server_state() != "running":  # reload-required by an earlier write
        state.pending = RELOAD
    elif any(op.address[0][0] == "system-property" or op.headers
             for op in state.baseline_ops + applied_ops):
        # A system property is read by the apps when they deploy. Services the server restarted
        # for a line's header (allow-resource-service-restart) may leave the deployments that
        # use them broken: sessioncart's session manager failed every request after its cache
        # restarted, until redeployed (7 December 2026).
        state.pending = REDEPLOY
    return state


def settle(stack, node: str, state: NodeState) -> None:
    """Make a configured node's operations take effect (configure's ``pending``)."""
    m = stack.management_of(node)
    if state.pending == RELOAD:
        m.reload()
    elif state.pending == REDEPLOY:
        for name in stack.property_readers():
            management.redeploy(m, name)
    state.pending = None


def verify(stack, node: str, kind: ChangeKind, arm: Arm, state: NodeState) -> list[Check]:
    """Every check that the node runs what its arm says; raises ChangeNotEffective if not."""
    m = stack.management_of(node)
    url = stack.nodes[node].app_url() + stack.config_endpoint()
    groups = kind.operation_groups(arm)
    checks = []
    overridden = {model.target(op) for ops, applied in groups if applied for op in ops}
    kept = [op for op in state.baseline_ops if model.target(op) not in overridden]
    # An overridden one is covered by the change's own read-back; so is an attribute that the
    # baseline's add set and the change writes (a property the change gives another value).
    trimmed = [(op, model.without_attributes(op, overridden)) for op in kept]
    for _, op in trimmed:
        checks += model.read_back(m, op, True, None)
    kept = [op for op, whole in trimmed if whole is op]
    for ops, applied in groups:
        for op in ops:
            checks += model.read_back(m, op, applied, state.before.get(model.target(op)))
    try:
        checks += model.app_checks(m, url, kept, True, {})
        for ops, applied in groups:
            checks += model.app_checks(m, url, ops, applied, state.before)
    except ChangeNotEffective as exc:  # the app failed to answer: its server log says why
        raise ChangeNotEffective(f"{node} ({arm.label}): {exc}\n--- the end of {node}'s log ---\n"
                                 f"{stack.nodes[node].tail_logs(30)}") from exc
    checks += kind.read_back(stack, node, arm)
    checks += runtime_read_back.checks(m, kind.change.runtime, kind.applies(arm))
    checks += limits_checks(stack, node)
    return require(checks, f"{node} ({arm.label})")


# Model paths that name the node itself and so differ between any two nodes.
NODE_IDENTITY = ("/name",)


def compare_models(stack, kind: ChangeKind, arms: dict[str, Arm]) -> list[Check]:
    """The nodes' configurations differ only where the change writes, and (when the nodes'
    arms write different settings) they do differ there. ``arms``: each node's arm now."""
    nodes = list(arms)
    if len(nodes) < 2:
        return []
    ops = [op for arm in kind.arms for op in kind.operations(arm)[0]]
    allowed = (*model.touched_prefixes(ops), *kind.differs_in)
    # Every node's whole model at once: read one after the other, four nodes' models took
    # several seconds of a cluster recipe's CI run.
    models = together(nodes, lambda node: stack.management_of(node).read_resource(recursive=True))
    first = models[nodes[0]]
    checks = []
    differing = False
    for other in nodes[1:]:
        diffs = model.model_differences(first, models[other])
        diffs = [p for p in diffs if p not in NODE_IDENTITY]
        stray = [p for p in diffs if not any(p.startswith(a) for a in allowed)]
        differing = differing or bool(diffs)
        checks.append(Check(f"{other} differs from {nodes[0]} only where the change writes",
                            "no other difference", ", ".join(stray[:10]) or "no other difference",
                            not stray))
    settings = {tuple((applied, tuple(map(str, ops))) for ops, applied in kind.operation_groups(arm))
                for arm in arms.values()}
    if ops and len(settings) > 1:
        checks.append(Check("the change alters the configuration between the nodes",
                            "at least one difference", "differences found" if differing else
                            "none", differing))
    return require(checks, "configuration of the nodes")


def apply_db_baseline(stack, setup: Setup) -> list[Check]:
    """The recipe's postgresql.conf baseline fragment, for every arm."""
    if not setup.pg_conf:
        return []
    apply_pg_fragment(stack, BASELINE_FRAGMENT, setup.pg_conf.read_text())
    checks = [Check(f"baseline PostgreSQL {name}", value, actual := stack.db.setting(name),
                    same(value, actual)) for name, value in read_fragment(setup.pg_conf).items()]
    return require(checks, "baseline")
