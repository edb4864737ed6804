"""A recipe compiles to a plan of arms; A/B is the two-arm case.

Two factors make the arms:

- the change: without a sweep, two levels (``baseline`` without the change, ``variant`` with
  it); with a sweep, one level per value; with kind none and load levels, no change factor at
  all (a curve of the load);
- the load levels, when the recipe has them: every change level runs at every load level.

Each arm names the application-server node that serves it. Change kinds that live in the
application server (its configuration, its JVM options, its container limits) get one node
per change level, started, configured and warmed once and kept for the whole run; arms at
other load levels share their change level's node. Change kinds that live elsewhere (the
database) switch in place on a single node.

A plan also says which arms run *at the same time* (its slots). Two arms on their own nodes
are measured side by side, in the same window, each node with half of the application
server's CPU quota (a duet): whatever the machine does during the window (a neighbour, the
JIT of both nodes still improving, the database's own drift) hits both arms alike and cancels
in their ratio. Measured here: two identical nodes measured one after the other differed by
-11.9 % [-18.9, -4.4] over 20 pairs, the same two side by side by +1.8 % [-0.8, +4.4] over
30 windows (docs/method.md). Arms of a sweep (many nodes) and arms that share a node run one
at a time.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .recipe import Recipe

__all__ = ["Arm", "Plan", "compile_plan", "BASELINE", "VARIANT", "AB", "SWEEP", "LOAD",
           "AB_BY_LOAD", "SWEEP_BY_LOAD"]

BASELINE, VARIANT = "baseline", "variant"

# What a plan compares, which decides its analysis.
AB = "ab"  # two change levels
SWEEP = "sweep"  # a curve over the change's values
LOAD = "load"  # a curve over load levels, no change
AB_BY_LOAD = "ab-by-load"  # two change levels at each load level
SWEEP_BY_LOAD = "sweep-by-load"  # a curve per load level


@dataclass(frozen=True)
class Arm:
    """One combination of a change level and a load level.

    ``level`` is the change level ("baseline", "variant", or the sweep value as text; None
    without a change factor), ``value`` the sweep value itself, ``load`` the workload keys
    this arm overrides, ``node`` the application-server node that serves it.
    """

    id: str
    label: str
    level: str | None
    value: object
    load: dict = field(default_factory=dict)
    node: str = "app"

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

    @property
    def concurrency(self) -> int:
        """How many nodes share the application server's CPU quota at once."""
        return max((len(slot) for slot in self.slots), default=1)

    def arm(self, arm_id: str) -> Arm:
        return next(a for a in self.arms if a.id == arm_id)

    @property
    def nodes(self) -> list[str]:
        """The node names, in the order of their first arm."""
        seen: list[str] = []
        for arm in self.arms:
            if arm.node not in seen:
                seen.append(arm.node)
        return seen

    def arms_of_node(self, node: str) -> list[Arm]:
        return [a for a in self.arms if a.node == node]

    def arms_at_load(self, load_value) -> list[Arm]:
        """The arms at one load level (all arms when the plan has no load levels)."""
        if self.load_key is None:
            return list(self.arms)
        return [a for a in self.arms if a.load.get(self.load_key) == load_value]

    def as_dict(self) -> dict:
        return {"kind": self.kind, "change_levels": list(self.change_levels),
                "load_key": self.load_key, "load_values": list(self.load_values),
                "slots": [list(s) for s in self.slots], "concurrency": self.concurrency,
                "arms": [a.as_dict() for a in self.arms]}


def compile_plan(recipe: Recipe, *, per_node: bool, points: str = "all") -> Plan:
    """The arms of a recipe. ``per_node`` says whether its change kind needs one
    application-server node per change level (see the module docstring); ``points="ends"``
    keeps only the ends (and the reference) of a sweep and of load levels (the CI profile)."""
    levels = _change_levels(recipe)
    loads = recipe.load_levels
    load_values = loads.values if loads else (None,)
    if points == "ends":
        reference = _text(recipe.sweep.reference) if recipe.sweep else None
        levels = [lv for i, lv in enumerate(levels)
                  if i in (0, len(levels) - 1) or lv[0] == reference]
        load_values = tuple(v for i, v in enumerate(load_values) if i in (0, len(load_values) - 1))
    arms = []
    for level, value in levels:
        for load in load_values:
            parts = [p for p in (level, None if load is None else f"{loads.key}={load}") if p]
            arm_id = "/".join(parts) or "load"
            overrides = {} if load is None else {loads.key: load}
            node = f"app-{_slug(level)}" if (per_node and level is not None) else "app"
            arms.append(Arm(id=arm_id, label=_label(recipe, level, loads, load), level=level,
                            value=value, load=overrides, node=node))
    kind = _kind(recipe)
    plan = Plan(kind=kind, arms=tuple(arms),
                change_levels=tuple(lvl for lvl, _ in levels if lvl is not None),
                load_key=loads.key if loads else None,
                load_values=tuple(load_values) if loads else ())
    side_by_side = per_node and kind in (AB, AB_BY_LOAD)
    slots = ([tuple(a.id for a in plan.arms_at_load(load)) for load in (plan.load_values or (None,))]
             if side_by_side else [(a.id,) for a in arms])
    return Plan(**{**plan.__dict__, "slots": tuple(slots)})


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
