"""Configure an application-server node for its arm, and prove it: once after start, and again
before every trial.

A node gets the recipe's baseline set-up (baseline.cli, baseline.properties) and, if its arm
applies the change, the change's operations; then one reload. Everything an operation will
replace is recorded first, so the read-back of a node without the change proves it still holds
what it had. After all nodes are configured their management models are compared: they may
differ only where the change writes (and must differ there, for a change that writes
something), so "one change at a time" is checked on the running servers, not assumed.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import jboss_cli
from ..jboss_cli import Operation
from ..plan import Arm
from ..recipe import Setup
from . import model
from .base import ChangeKind
from .checks import ChangeNotEffective, Check, require, same
from .container_limits import limits_checks
from .postgresql_conf import BASELINE_FRAGMENT, apply_pg_fragment, read_fragment

__all__ = ["NodeState", "baseline_operations", "configure", "verify", "compare_models",
           "apply_db_baseline"]


@dataclass
class NodeState:
    """What a node was configured with, and what those operations replaced."""
    baseline_ops: list[Operation] = field(default_factory=list)
    change_ops: list[Operation] = field(default_factory=list)
    applied: bool = False
    before: dict = field(default_factory=dict)


def baseline_operations(setup: Setup) -> list[Operation]:
    ops = jboss_cli.parse_file(setup.cli) if setup.cli else []
    ops += [Operation((("system-property", k),), "add", {"value": v}, f"baseline.properties.{k}")
            for k, v in setup.properties.items()]
    return ops


def configure(stack, node: str, kind: ChangeKind, arm: Arm, setup: Setup) -> NodeState:
    """Apply the baseline set-up and, if the arm applies it, the change; reload once."""
    m = stack.management_of(node)
    change_ops, applied = kind.operations(arm)
    state = NodeState(baseline_operations(setup), change_ops, applied)
    for op in state.baseline_ops:
        model.apply(m, op)
    # Recorded after the baseline: what the change replaces is the baseline's value (a
    # baseline may set the very attribute the change sets, e.g. a small pool made larger).
    state.before = model.record(m, state.change_ops)
    for op in state.change_ops:
        if op.name == "add" and state.before[str(op)].existed and applied:
            raise ChangeNotEffective(
                f"{op.where}: {op.address_text} already exists in the baseline; a change file "
                f"may only add what the baseline does not have")
    if applied:
        for op in state.change_ops:
            model.apply(m, op)
    if state.baseline_ops or (applied and state.change_ops):
        m.reload()
    return state


def _target(op: Operation) -> tuple:
    """What an operation sets: an attribute of a resource, or a resource as a whole."""
    return (op.address, op.params.get("name")) if op.name != "add" else (op.address, None)


def verify(stack, node: str, kind: ChangeKind, arm: Arm, state: NodeState) -> list[Check]:
    """Every check that the node runs what its arm says; raises ChangeNotEffective if not."""
    m = stack.management_of(node)
    url = stack.nodes[node].app_url()
    checks = []
    overridden = {_target(op) for op in state.change_ops} if state.applied else set()
    for op in state.baseline_ops:
        if _target(op) not in overridden:  # else the change's own read-back covers it
            checks += model.read_back(m, op, True, None)
    checks += model.app_checks(m, url, [op for op in state.baseline_ops
                                        if _target(op) not in overridden], True, {})
    for op in state.change_ops:
        checks += model.read_back(m, op, state.applied, state.before.get(str(op)))
    checks += model.app_checks(m, url, state.change_ops, state.applied, state.before)
    checks += kind.read_back(stack, node, arm)
    checks += limits_checks(stack, node)
    return require(checks, f"{node} ({arm.label})")


# Model paths that name the node itself and so differ between any two nodes.
NODE_IDENTITY = ("/name",)


def compare_models(stack, kind: ChangeKind, states: dict[str, NodeState]) -> list[Check]:
    """The nodes' configurations differ only where the change writes, and (for a change that
    writes the configuration) they do differ there."""
    nodes = list(states)
    if len(nodes) < 2:
        return []
    allowed = model.touched_prefixes([op for s in states.values() for op in s.change_ops])
    first = stack.management_of(nodes[0]).read_resource(recursive=True)
    checks = []
    differing = False
    for other in nodes[1:]:
        diffs = model.model_differences(first, stack.management_of(other).read_resource(recursive=True))
        diffs = [p for p in diffs if p not in NODE_IDENTITY]
        stray = [p for p in diffs if not any(p.startswith(a) for a in allowed)]
        differing = differing or bool(diffs)
        checks.append(Check(f"{other} differs from {nodes[0]} only where the change writes",
                            "no other difference", ", ".join(stray[:10]) or "no other difference",
                            not stray))
    if any(s.change_ops for s in states.values()):
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
