"""No change: an A/A calibration (the baseline against itself), or a curve of the load alone.

An A/A recipe chooses how its two identical arms swap nodes (``change.switch``): at runtime
(nothing to write: the floor of changes that switch at runtime), with a reload, or with fresh
JVMs; each is the noise floor of the changes that switch that way."""
from __future__ import annotations

from ..plan import RUNTIME, Arm
from .base import ChangeKind


class NoChange(ChangeKind):
    name = "none"

    def __init__(self, recipe):
        super().__init__(recipe)
        self.switch = recipe.change.switch or RUNTIME

    def applies(self, arm: Arm) -> bool:
        return False

    def apply_arm(self, stack, node: str, arm: Arm, state) -> list:
        return []

    def describe(self, arm: Arm | None = None) -> str:
        if self.recipe.load_levels:
            return "none: the configuration is the baseline at every load level"
        how = {"runtime": "every block", "reload": "with a reload every few blocks",
               "restart": "with fresh JVMs every period"}[self.switch]
        return f"none: both arms are the baseline; they swap nodes {how} (A/A calibration)"
