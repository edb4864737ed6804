"""A recipe compiles to a plan of arms; A/B is the two-arm case.

Two factors make the arms:

- the change: without a sweep, two levels (``baseline`` without the change, ``variant`` with
  it); with a sweep, one level per value; with kind none and load levels, no change factor at
  all (a curve of the load);
- the load levels, when the recipe has them: every change level runs at every load level.

The CI profile (``points="ends"``) keeps only the first and last value of a sweep and of the
load levels: enough to prove every kind of arm runs, the cheapest way. Where the load levels
cross a change, it keeps only their last: every level runs the same arms with another load, so
the second adds a window per change level and proves nothing the first does not (the
configuration ladder's CI run was at the edge of its 45 s with four arms).

Where the arms run (the plan's *layout*) follows from how the change kind puts a setting on a
server (its ``switch``: ``runtime``, ``reload``, ``restart`` or ``database``, see
changes/base.py):

- **crossover** (every A/B plan whose change lives in the application server): two
  interchangeable nodes, ``app-1`` and ``app-2``, measured side by side in the same window,
  each with half of the application server's quota. The arms *swap nodes* between periods:
  every block for a runtime switch, every few blocks (with a reload) for a reload switch,
  every period with fresh JVMs for a restart switch. Anything the machine does during a
  window touches both arms alike and cancels in their ratio, and a difference between the two
  JVMs themselves (measured here: two identical warm nodes differed by 4 to 5 % for a whole
  run, results/aa-noise/20261125T042845Z-vm.json) falls on each arm half of the time and is
  estimated and removed by the analysis instead of read as an effect;
- **shared** (a change that lives in the database, a sweep whose setting switches at runtime,
  a curve of the load, any plan that reads the database's figures per arm: two arms in one
  window would share the database's counters, database_stats.py; and any plan whose load
  driver runs one window at a time: a client JVM, whose core two windows would share,
  drivers/java_client.py): one node, arms one at a time, the setting switched in place before
  every trial;
- **per-level** (a sweep of a setting that needs a reload or a restart): one node per value,
  started, configured and warmed once, measured one at a time, or, with ``[stack]
  side_by_side``, all of them in the same window, sharing the application server's quota as a
  crossover's two nodes do (one at a time, a value's windows varied by 10 to 25 % with
  something common to the whole machine: the configuration ladder of 26 November 2026; side
  by side, a node needs a quarter of a core at least, as its JIT's background work took a tenth
  of an eighth-core node). One launch per value leaves the luck of that launch (two identical
  nodes differ by several per cent) inside the value's effect; with ``launches`` > 1 in the
  profile, every node starts anew between periods and the analysis counts the launches
  (experiment.period_blocks, analysis/curves.py).

A recipe with ``[cluster]`` runs every arm on its one cluster, through the balancer
(``CLUSTER_TARGET``), the setting switched in place on every node of it: the shared layout,
whatever the plan compares (a cluster side by side with another would halve every node). A
change that needs a reload switches there too, each turn a reload of every node and a warm-up
(swaps.ReloadEverywhereSwitcher).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import apps, drivers
from .recipe import Recipe

__all__ = ["Arm", "Plan", "compile_plan", "BASELINE", "VARIANT", "AB", "SWEEP", "LOAD",
           "AB_BY_LOAD", "SWEEP_BY_LOAD", "CROSSOVER", "SHARED", "PER_LEVEL", "CROSSOVER_NODES",
           "SWITCHES", "RUNTIME", "RELOAD", "RESTART", "DATABASE", "CLUSTER_TARGET"]

BASELINE, VARIANT = "baseline", "variant"

# What a plan compares, which decides its analysis.
AB = "ab"  # two change levels
SWEEP = "sweep"  # a curve over the change's values
LOAD = "load"  # a curve over load levels, no change
AB_BY_LOAD = "ab-by-load"  # two change levels at each load level
SWEEP_BY_LOAD = "sweep-by-load"  # a curve per load level

# How a change kind puts an arm's setting on a server that held another arm's (changes/base.py).
RUNTIME = "runtime"  # written to the running server; no reload
RELOAD = "reload"  # takes effect after a reload (same JVM)
RESTART = "restart"  # fixed when the JVM (or its container) starts
DATABASE = "database"  # lives in the one database all nodes share
SWITCHES = (RUNTIME, RELOAD, RESTART, DATABASE)

# Where the arms run (the module docstring).
CROSSOVER = "crossover"
SHARED = "shared"
PER_LEVEL = "per-level"
CROSSOVER_NODES = ("app-1", "app-2")
CLUSTER_TARGET = "lb"  # the balancer's name: where a cluster recipe's load goes (cluster.py)


@dataclass(frozen=True)
class Arm:
    """One combination of a change level and a load level.

    ``level`` is the change level ("baseline", "variant", or the sweep value as text; None
    without a change factor), ``value`` the sweep value itself, ``load`` the workload keys
    this arm overrides, ``node`` the application-server node that serves it (None in a
    crossover, where each block assigns the arms to the nodes: design.Block.nodes).
    """

    id: str
    label: str
    level: str | None
    value: object
    load: dict = field(default_factory=dict)
    node: str | None = "app"

    def as_dict(self) -> dict:
        return {"id": self.id, "label": self.label, "level": self.level, "value": self.value,
                "load": dict(self.load), "node": self.node}


@dataclass(frozen=True)
class Plan:
    kind: str
    arms: tuple[Arm, ...]
    change_levels: tuple[str, ...]  # in axis order; () without a change factor
    load_key: str | None
    load_values: tuple
    slots: tuple[tuple[str, ...], ...] = ()  # arm ids measured together, in one window
    layout: str = SHARED
    switch: str = RUNTIME

    @property
    def concurrency(self) -> int:
        """How many nodes share the application server's CPU quota at once."""
        return max((len(slot) for slot in self.slots), default=1)

    def arm(self, arm_id: str) -> Arm:
        return next(a for a in self.arms if a.id == arm_id)

    @property
    def nodes(self) -> list[str]:
        """The node names: the crossover's pair, or each arm's node in the order of its first
        arm."""
        if self.layout == CROSSOVER:
            return list(CROSSOVER_NODES)
        seen: list[str] = []
        for arm in self.arms:
            if arm.node not in seen:
                seen.append(arm.node)
        return seen

    def arms_of_node(self, node: str) -> list[Arm]:
        """The arms a node serves for the whole run (a crossover node serves every arm)."""
        if self.layout == CROSSOVER:
            return list(self.arms)
        return [a for a in self.arms if a.node == node]

    def assignment(self, orientation: int) -> dict[str, str]:
        """Which node serves each arm: in a crossover, orientation +1 puts the first change
        level's arms on app-1 and the others on app-2, -1 the other way round; elsewhere each
        arm's own node."""
        if self.layout != CROSSOVER:
            return {a.id: a.node for a in self.arms}
        if orientation not in (1, -1):
            raise ValueError(f"a crossover block needs orientation +1 or -1, got {orientation}")
        first = self.change_levels[0]
        return {a.id: CROSSOVER_NODES[0 if (a.level == first) == (orientation > 0) else 1]
                for a in self.arms}

    def arms_by_node(self, orientation: int) -> dict[str, "Arm"]:
        """The arm each node serves under an orientation (a node that serves a change level
        at several load levels gets the first of them: they share the node's settings)."""
        assignment = self.assignment(orientation)
        out: dict[str, Arm] = {}
        for arm in self.arms:
            out.setdefault(assignment[arm.id], arm)
        return out

    @property
    def keeps_jvms(self) -> bool:
        """Whether a node's JVM serves the whole run (not so when a crossover's periods each
        start fresh JVMs)."""
        return not (self.layout == CROSSOVER and self.switch == RESTART)

    @property
    def takes_turns(self) -> bool:
        """Whether the arms take turns on one shared target, each turn a reload and a warm-up
        (a cluster's change that needs a reload: swaps.ReloadEverywhereSwitcher); such a run
        is analysed by turns (analysis/comparisons.py)."""
        return self.layout == SHARED and self.switch == RELOAD

    def arms_at_load(self, load_value) -> list[Arm]:
        """The arms at one load level (all arms when the plan has no load levels)."""
        if self.load_key is None:
            return list(self.arms)
        return [a for a in self.arms if a.load.get(self.load_key) == load_value]

    def as_dict(self) -> dict:
        return {"kind": self.kind, "layout": self.layout, "switch": self.switch,
                "nodes": self.nodes, "change_levels": list(self.change_levels),
                "load_key": self.load_key, "load_values": list(self.load_values),
                "slots": [list(s) for s in self.slots], "concurrency": self.concurrency,
                "arms": [a.as_dict() for a in self.arms]}


def compile_plan(recipe: Recipe, *, switch: str, points: str = "all") -> Plan:
    """The arms of a recipe. ``switch`` is how its change kind puts a setting on a server (see
    the module docstring); ``points="ends"`` keeps only the two ends of a
    sweep and of load levels (the CI profile)."""
    if switch not in SWITCHES:
        raise ValueError(f"unknown switch {switch!r}; allowed: {', '.join(SWITCHES)}")
    levels = _change_levels(recipe)
    loads = recipe.load_levels
    load_values = loads.values if loads else (None,)
    if points == "ends":
        levels = [lv for i, lv in enumerate(levels) if i in (0, len(levels) - 1)]
        crossed = levels != [(None, None)]  # load levels under a change (module docstring)
        load_values = tuple(v for i, v in enumerate(load_values)
                            if i == len(load_values) - 1 or (i == 0 and not crossed))
    kind = _kind(recipe)
    layout = SHARED if recipe.cluster else _layout(kind, switch)
    if layout == CROSSOVER and (recipe.metrics.reads_database
                                or not _windows_side_by_side(recipe)):
        layout = SHARED  # arms side by side would share the database whose figures are read,
        # or a driver that serves one window at a time
    arms = []
    for level, value in levels:
        for load in load_values:
            parts = [p for p in (level, None if load is None else f"{loads.key}={load}") if p]
            arm_id = "/".join(parts) or "load"
            overrides = {} if load is None else {loads.key: load}
            node = {CROSSOVER: None, SHARED: CLUSTER_TARGET if recipe.cluster else "app"}.get(
                layout, f"app-{_slug(level or '')}")
            arms.append(Arm(id=arm_id, label=_label(recipe, level, loads, load), level=level,
                            value=value, load=overrides, node=node))
    plan = Plan(kind=kind, arms=tuple(arms),
                change_levels=tuple(lvl for lvl, _ in levels if lvl is not None),
                load_key=loads.key if loads else None,
                load_values=tuple(load_values) if loads else (), layout=layout, switch=switch)
    together = layout == CROSSOVER or (layout == PER_LEVEL and recipe.stack.side_by_side)
    slots = ([tuple(a.id for a in plan.arms_at_load(load)) for load in (plan.load_values or (None,))]
             if together else [(a.id,) for a in arms])
    return Plan(**{**plan.__dict__, "slots": tuple(slots)})


def _windows_side_by_side(recipe: Recipe) -> bool:
    """Whether the recipe's load driver can run two windows at once (drivers/base.py)."""
    app = apps.load(recipe.workload.app, recipe.repo_root)
    return drivers.driver_for(app).windows_side_by_side


def _layout(kind: str, switch: str) -> str:
    if kind == LOAD or switch == DATABASE:
        return SHARED
    if kind in (AB, AB_BY_LOAD):
        return CROSSOVER
    return SHARED if switch == RUNTIME else PER_LEVEL


def _change_levels(recipe: Recipe) -> list[tuple[str | None, object]]:
    if recipe.sweep:
        return [(_text(v), v) for v in recipe.sweep.values]
    if recipe.change.is_none and recipe.load_levels:
        return [(None, None)]
    return [(BASELINE, None), (VARIANT, None)]


def _kind(recipe: Recipe) -> str:
    if recipe.change.is_none and recipe.load_levels:
        return LOAD
    if recipe.sweep:
        return SWEEP_BY_LOAD if recipe.load_levels else SWEEP
    return AB_BY_LOAD if recipe.load_levels else AB


def _label(recipe: Recipe, level, loads, load) -> str:
    parts = []
    if level is not None:
        if recipe.sweep:
            unit = f" {recipe.sweep.unit}" if recipe.sweep.unit else ""
            parts.append(f"{recipe.sweep.name} {level}{unit}")
        else:
            parts.append(level)
    if load is not None:
        parts.append(f"{loads.key.replace('_', ' ')} {load}")
    return ", ".join(parts)


def _text(value) -> str:
    """A sweep value as an arm's level: 16 -> "16", 0.5 -> "0.5", 1.0 -> "1"."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _slug(level: str) -> str:
    """A level as part of a container alias: lowercase letters, digits and hyphens."""
    out = "".join(c if c.isalnum() else "-" for c in level.lower()).strip("-")
    return out or "x"
