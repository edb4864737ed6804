"""What every change kind does: say what an arm applies, and prove it is in force.

A change kind is a small class registered in ``changes/__init__.py``. It answers:

- ``per_node``: does the change live in the application server (its configuration, its JVM,
  its container)? Then every change level gets its own node, configured once before its
  warm-up and kept for the run (plan.py). Otherwise (the database) the arms share one node and
  the kind switches the setting in place before each trial (``switch``);
- ``node_config``: the node's JVM options and container limits for an arm;
- ``operations``: management operations to apply to the node of an arm, and whether that arm
  applies them (a baseline node still reads the same attributes back, to prove it holds the
  values it had before);
- ``read_back``: extra proof read from the running node (JVM arguments, the container's
  limits, the app's own report);
- ``describe`` and ``files``: what the pages and results show.

A sweep substitutes each arm's value for ``{value}`` in the change (``substitute``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..jboss_cli import Operation
from ..plan import BASELINE, Arm
from ..recipe import PLACEHOLDER, Recipe
from .checks import Check

if TYPE_CHECKING:  # the stack (and Docker) only for type checkers
    from ..stack import NodeConfig

__all__ = ["ChangeKind", "value_text"]


def value_text(value) -> str:
    """A sweep value as it is written into a change: 16 -> "16", 1.0 -> "1", 0.5 -> "0.5"."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class ChangeKind:
    name = ""
    per_node = True

    def __init__(self, recipe: Recipe):
        self.recipe = recipe
        self.change = recipe.change
        self.arms: tuple[Arm, ...] = ()

    def bind(self, arms) -> "ChangeKind":
        """The plan's arms, for checks that look at the other arms too."""
        self.arms = tuple(arms)
        return self

    # -- what an arm applies ---------------------------------------------------------------------
    def applies(self, arm: Arm) -> bool:
        """Whether the arm gets the change (every arm of a sweep does; of A/B, the variant)."""
        return arm.level is not None and arm.level != BASELINE

    def substitute(self, text: str, arm: Arm) -> str:
        """``text`` with the arm's sweep value in place of {value}."""
        return text.replace(PLACEHOLDER, value_text(arm.value)) if arm.value is not None else text

    def node_config(self, base: NodeConfig, arm: Arm) -> NodeConfig:
        return base

    def operations(self, arm: Arm) -> tuple[list[Operation], bool]:
        """(management operations the kind writes, whether this arm applies them)."""
        return [], False

    def read_back(self, stack, node: str, arm: Arm) -> list[Check]:
        return []

    # -- in place (per_node False) -----------------------------------------------------------
    def prepare(self, stack) -> list[Check]:
        """Once, before the warm-up: record the baseline and prove the change is clean."""
        return []

    def switch(self, stack, node: str, arm: Arm) -> list[Check]:
        """Before every trial: put the arm's setting in place and read it back."""
        return []

    # -- for pages and results -----------------------------------------------------------------
    def describe(self, arm: Arm | None = None) -> str:
        return self.name

    def files(self) -> dict[str, str]:
        if self.change.file:
            return {self.change.file.name: self.change.file.read_text()}
        return {}
