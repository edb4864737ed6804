"""What every change kind does: say what an arm applies, and prove it is in force.

A change kind is a small class registered in ``changes/__init__.py``. It answers:

- ``switch``: how one arm's setting replaces another's on a running system (plan.py):
  ``runtime`` (written to the running server), ``reload`` (the server must reload), ``restart``
  (fixed at JVM start) or ``database`` (the shared database). The plan's layout follows from
  it; ``apply_arm`` does the in-place part;
- ``node_config``: the node's JVM options and container limits for an arm; ``stack_needs``
  what the stack needs for the kind at all (a proxy in the path);
- ``operations``: management operations to apply to the node of an arm, and whether that arm
  applies them (a baseline node still reads the same attributes back, to prove it holds the
  values it had before); ``operation_groups`` the same for a kind that bundles several
  changes, each applied or not by an arm (a ladder's rungs, ladder.py);
- ``read_back``: extra proof read from the running node (JVM arguments, the container's
  limits, the app's own report); ``configure_arm`` what an arm sets outside the server when
  its node is first configured (a web server's route in front of it);
- ``load_for`` and ``read_back_load``: a change made by the load generator instead of a server
  (workload.py), and its proof from the measured window; ``target_for`` the name the load is
  sent to (front_protocol.py: around a node's front, or through it);
- ``check_arm``: refuse an arm's value before anything starts (preflight);
- ``describe`` and ``files``: what the pages and results show.

A sweep substitutes each arm's value for ``{value}`` in the change (``substitute``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..jboss_cli import Operation
from ..plan import BASELINE, RELOAD, RUNTIME, Arm
from ..recipe import PLACEHOLDER, Recipe
from . import model
from .checks import ChangeNotEffective, Check

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
    switch = RELOAD  # a kind whose switch a recipe may choose reads it in __init__
    # Whether each arm runs code of its own that a node switched in place must compile while
    # it warms (an asynchronous handler, a queue): the warm-up's compile phase then serves the
    # arms in turn. A CPU limit is no code path, and applying it would throttle the compile
    # phase that is meant to run without limits.
    warms_every_arm = True
    # Paths of the server's model where the arms' nodes differ without any operation of the
    # change (what the JVM reports of itself: another JDK's java.home); the comparison of the
    # nodes' models allows them as it allows what the operations write.
    differs_in: tuple[str, ...] = ()

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

    def stack_needs(self) -> dict:
        """What the stack must have for this kind, as fields of stack.StackConfig (a delaying
        proxy in front of a database: network_delay.py)."""
        return {}

    def role_inputs(self) -> dict[str, tuple[str, ...]]:
        """The repository paths of what the kind adds to the stack, by role: a result of the
        recipe is stale when they change (staleness.role_inputs)."""
        return {}

    def operations(self, arm: Arm) -> tuple[list[Operation], bool]:
        """(management operations the kind writes, whether this arm applies them)."""
        return [], False

    def check_arm(self, arm: Arm) -> None:
        """Raise ValueError, saying what is allowed, for an arm this kind cannot apply (a value
        out of range, a setting the kind does not know); preflight calls it for every arm that
        applies the change, before anything starts."""

    def operation_groups(self, arm: Arm) -> list[tuple[list[Operation], bool]]:
        """The operations in groups, each with whether this arm applies it: one group for a
        kind that makes one change."""
        return [self.operations(arm)]

    def read_back(self, stack, node: str, arm: Arm) -> list[Check]:
        return []

    def configure_arm(self, stack, node: str, arm: Arm) -> None:
        """What the arm sets outside the server's model when its node is first configured
        (front-protocol: the route of the node's front); the model's operations are applied
        by nodes.configure, and later switches by ``apply_arm``."""

    # -- on the load generator's side ----------------------------------------------------------
    def target_for(self, arm: Arm, node: str) -> str:
        """The name on the stack's network the arm's load is sent to on ``node``: the node's
        own, or another name of it (front-protocol's direct arm: the node behind its front)."""
        return node

    def load_for(self, arm: Arm) -> dict:
        """Workload keys this arm's load overrides (a change made by the client)."""
        return {}

    def read_back_load(self, arm: Arm, numbers: dict) -> list[Check]:
        """Proof read from a measured window's load (load.load_metrics), after it ran."""
        return []

    # -- in place ---------------------------------------------------------------------------
    def prepare(self, stack) -> list[Check]:
        """Once, before the warm-up: record the baseline and prove the change is clean."""
        return []

    def apply_arm(self, stack, node: str, arm: Arm, state) -> list[Check]:
        """Put the arm's setting on a node that may hold another arm's: its management
        operations written (an arm without the change gets back what the baseline had,
        ``state.before``). A runtime switch must not leave the server waiting for a reload.
        The engine's verification reads everything back afterwards."""
        m = stack.management_of(node)
        for ops, applied in self.operation_groups(arm):
            self._apply_group(m, ops, applied, state)
        return []

    def _apply_group(self, m, ops: list[Operation], applied: bool, state) -> None:
        # Undo in reverse order: a handler a later operation put in use is released first.
        for op in (ops if applied else list(reversed(ops))):
            before = state.before.get(model.target(op))
            response = model.apply(m, op) if applied else model.restore(m, op, before)
            if self.switch == RUNTIME and response is not None and response.needs_reload:
                raise ChangeNotEffective(
                    f"{op.where}: the server needs a reload before {op.address_text} takes "
                    f"effect, so this change cannot switch at runtime; allowed: change.switch = "
                    f"\"reload\" in the recipe")

    # -- for pages and results -----------------------------------------------------------------
    def describe(self, arm: Arm | None = None) -> str:
        return self.name

    def files(self) -> dict[str, str]:
        if self.change.file:
            return {self.change.file.name: self.change.file.read_text()}
        return {}
