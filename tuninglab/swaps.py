"""How the arms of a run get onto their nodes: before every slot, and between the periods of a
crossover (plan.py). One small class per change kind's ``switch``; the engine calls the same
two methods whatever the switch.

- ``runtime``: the setting is written to the running server before every slot (a crossover
  swaps the arms between its nodes every block), and read back;
- ``database``: the setting is switched in place on the shared database before every slot;
- ``reload``: between periods each node gets its next arm's setting, is reloaded (same JVM)
  and warmed again until its compiler is quiet;
- ``restart``: between periods each node is replaced by a fresh JVM with its next arm's
  options and limits, configured, verified and warmed like a node at the start of a run.

A period that changes nothing (a layout without periods) costs nothing.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .plan import CROSSOVER, DATABASE, RELOAD, RESTART, RUNTIME, Arm

if TYPE_CHECKING:
    from .experiment import _Run

__all__ = ["Switcher", "switcher_for"]


class Switcher:
    """Puts arms on nodes. ``begin_period`` runs before the first block of every period (and
    of the run) with the period's assignment {arm id: node}; ``before_slot`` before every
    window, for each arm of the slot on its node."""

    switch = ""

    def __init__(self, run: "_Run"):
        self.run = run

    def begin_period(self, assignment: dict[str, str], first: bool) -> dict | None:
        """Put the period's arms on their nodes; returns what it did, for the result."""
        return None

    def before_slot(self, node: str, arm: Arm) -> list:
        return []


class InPlaceSwitcher(Switcher):
    """Runtime and database switches: written before every slot, then read back by the
    engine's verification."""

    def before_slot(self, node: str, arm: Arm) -> list:
        run = self.run
        return run.kind.apply_arm(run.stack, node, arm, run.states[node])


class ReloadSwitcher(Switcher):
    switch = RELOAD

    def begin_period(self, assignment: dict[str, str], first: bool) -> dict | None:
        if first:  # the nodes were configured for the first period when the run started
            return None
        run = self.run
        arms = _arms_by_node(run, assignment)
        seconds = {}
        for node, arm in arms.items():
            run.kind.apply_arm(run.stack, node, arm, run.states[node])
            run.stack.widen(node)
            seconds[node] = run.stack.management_of(node).reload()
        run.say(f"period: arms swapped with a reload ({', '.join(f'{n} {s:.1f} s' for n, s in seconds.items())})")
        warm = run.warm_up(arms)
        return {"reload_s": seconds, "warmup": warm}


class RestartSwitcher(Switcher):
    switch = RESTART

    def begin_period(self, assignment: dict[str, str], first: bool) -> dict | None:
        if first:
            return None
        run = self.run
        arms = _arms_by_node(run, assignment)
        record = run.relaunch(arms)
        return {**record, "warmup": run.warm_up(arms)}


def _arms_by_node(run, assignment: dict[str, str]) -> dict[str, Arm]:
    """The arm each node serves in a period (the first arm of each node: in a crossover with
    load levels, a node serves one change level at every load level)."""
    out: dict[str, Arm] = {}
    for arm in run.plan.arms:
        out.setdefault(assignment[arm.id], arm)
    return out


def switcher_for(run: "_Run") -> Switcher:
    plan = run.plan
    if plan.switch in (RUNTIME, DATABASE) and plan.layout in (CROSSOVER, "shared"):
        return InPlaceSwitcher(run)
    if plan.layout == CROSSOVER and plan.switch == RELOAD:
        return ReloadSwitcher(run)
    if plan.layout == CROSSOVER and plan.switch == RESTART:
        return RestartSwitcher(run)
    return Switcher(run)  # one node per level: each node keeps its arm for the run
