"""How the arms of a run get onto their nodes: before every slot, and between the periods of a
crossover (plan.py). One small class per change kind's ``switch``; the engine calls the same
two methods whatever the switch.

- ``runtime``: the setting is written to the running server before every slot (a crossover
  swaps the arms between its nodes every block), and read back;
- ``database``: the setting is switched in place on the shared database before every slot;
- ``reload``: between periods each node gets its next arm's setting, is reloaded (same JVM)
  and warmed again until its compiler is quiet. A cluster has no second cluster to swap with
  (its arms take turns on its one set of nodes, plan.py): before a window whose arm the nodes
  do not hold, every node gets the arm's setting and a reload, the cluster is verified as
  formed again, and its nodes are warmed again (a reload redeploys the application: new
  classes for the JIT);
- ``restart``: between periods each node is replaced by a fresh JVM with its next arm's
  options and limits, configured, verified and warmed like a node at the start of a run.

A sweep with a node per value (a reload or restart setting) has periods only when its profile
asks for several ``launches``: the same two switchers then start every node anew with its own
value (its "next arm" is the one it has), so each value's luck of launch is drawn again.

A period that changes nothing (a layout without periods) costs nothing.
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING

from .plan import CROSSOVER, DATABASE, PER_LEVEL, RELOAD, RESTART, RUNTIME, SHARED, Arm

if TYPE_CHECKING:
    from .experiment import _Run

__all__ = ["Switcher", "SWITCHERS", "switcher_for"]


class Switcher:
    """Puts arms on nodes. ``begin_period`` runs before the first block of every period after
    the first (the nodes were configured for the first when the run started), with the
    period's orientation; ``before_slot`` before every window, for each arm of the slot on its
    node."""

    switches_in_place = False  # can put any arm on a running node before any window

    def __init__(self, run: "_Run"):
        self.run = run
        self.records: list[dict] = []  # switches made between windows, for the result

    def begin_period(self, orientation: int) -> dict | None:
        """Put a new period's arms on their nodes; returns what it did, for the result."""
        return None

    def before_slot(self, node: str, arm: Arm) -> list:
        return []


class InPlaceSwitcher(Switcher):
    """Runtime and database switches: written before every slot, then read back by the
    engine's verification."""

    switches_in_place = True

    def before_slot(self, node: str, arm: Arm) -> list:
        run = self.run
        if node in run.holding and run.holding[node] == arm.level:
            # Already there: writing it again would be harmless for an attribute but fails
            # for a resource the change adds ("Duplicate resource").
            return []
        # A cluster's balancer is one target and each of its nodes gets the setting.
        found = [check for member in run.stack.members(node)
                 for check in run.kind.apply_arm(run.stack, member, arm, run.states[member])]
        run.holding[node] = arm.level
        return found


class ReloadSwitcher(Switcher):
    def begin_period(self, orientation: int) -> dict | None:
        run = self.run
        arms = run.plan.arms_by_node(orientation)
        seconds = {}
        for node, arm in arms.items():
            # Mirrored couples can give two periods in a row one orientation: the node keeps
            # its arm, and is reloaded all the same (a period is a reload's luck too).
            if run.holding.get(node) != arm.level:
                run.kind.apply_arm(run.stack, node, arm, run.states[node])
                run.holding[node] = arm.level
            run.stack.widen(node)
            seconds[node] = run.stack.management_of(node).reload()
        took = ", ".join(f"{node} {s:.1f} s" for node, s in seconds.items())
        how = "arms swapped with a reload" if run.plan.layout == CROSSOVER else "nodes reloaded"
        run.say(f"period: {how} ({took})")
        warm = run.warm_up(arms, compiled_before=True)
        return {"reload_s": seconds, "warmup": warm}


class ReloadEverywhereSwitcher(Switcher):
    """A shared target (a cluster) whose change needs a reload: the arms take turns on the same
    nodes, each turn a reload of every node and a warm-up. The blocks' mirrored order (AB BA)
    puts two windows of one arm next to each other, so a run reloads about once a block
    rather than before every window. ``records`` keeps every switch for the result."""

    def before_slot(self, node: str, arm: Arm) -> list:
        run = self.run
        if run.holding.get(node) == arm.level:
            return []
        began = time.monotonic()
        members = run.stack.members(node)
        for member in members:
            run.kind.apply_arm(run.stack, member, arm, run.states[member])
        run.holding[node] = arm.level

        # One node after the other: a node reloading rejoins the view the others hold. Two
        # nodes reloaded at once each formed a view of one and merged only later (a quick run,
        # 2026-11-26: a merge view 90 s after the reload).
        seconds = {}
        for member in members:
            run.stack.widen(member)  # the warm-up puts it back under its limits
            seconds[member] = run.stack.management_of(member).reload()
        found = run.servers.verify(run.stack)  # one view again, every node behind the balancer
        run.say(f"switch to {arm.label}: every node of {node} reloaded "
                f"({', '.join(f'{m} {s:.1f} s' for m, s in seconds.items())}), cluster "
                f"formed again")
        warm = run.warm_up({node: arm}, compiled_before=True)
        self.records.append({"before_trial": len(run.trials), "target": node,
                             "level": arm.level, "reload_s": seconds, "warmup": warm})
        # A turn is a switch, though it happens inside a slot: booked as one (result phases)
        run.spent["switches"] += time.monotonic() - began
        return found


class RestartSwitcher(Switcher):
    def begin_period(self, orientation: int) -> dict | None:
        run = self.run
        arms = run.plan.arms_by_node(orientation)
        record = run.relaunch(arms)
        return {**record, "warmup": run.warm_up(arms)}


# (layout, switch) -> how arms reach their nodes; any other pair keeps each arm on its node.
SWITCHERS: dict[tuple[str, str], type[Switcher]] = {
    (CROSSOVER, RUNTIME): InPlaceSwitcher,
    (CROSSOVER, RELOAD): ReloadSwitcher,
    (CROSSOVER, RESTART): RestartSwitcher,
    (SHARED, RUNTIME): InPlaceSwitcher,
    (SHARED, DATABASE): InPlaceSwitcher,
    (SHARED, RELOAD): ReloadEverywhereSwitcher,  # a cluster's change that needs a reload
    (PER_LEVEL, RELOAD): ReloadSwitcher,  # between launches (profile.launches > 1)
    (PER_LEVEL, RESTART): RestartSwitcher,
}


def switcher_for(run: "_Run") -> Switcher:
    return SWITCHERS.get((run.plan.layout, run.plan.switch), Switcher)(run)
