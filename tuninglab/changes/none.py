"""No change: an A/A calibration (two identical nodes), or a curve of the load alone."""
from __future__ import annotations

from ..plan import Arm
from .base import ChangeKind


class NoChange(ChangeKind):
    name = "none"

    def applies(self, arm: Arm) -> bool:
        return False

    def describe(self, arm: Arm | None = None) -> str:
        if self.recipe.load_levels:
            return "none: the configuration is the baseline at every load level"
        return "none: both arms are the baseline, each on its own node (A/A calibration)"
