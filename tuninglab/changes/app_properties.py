"""tl.* system properties that the lab's own app reads at deployment (its API.md, apps.default_app):
a switch needs a reload, which redeploys the app."""
from __future__ import annotations

import json

from ..jboss_cli import Operation
from ..plan import Arm
from .base import ChangeKind


class AppPropertiesChange(ChangeKind):
    name = "app-properties"

    def operations(self, arm: Arm) -> tuple[list[Operation], bool]:
        ops = [self._operation(name, self.substitute(value, arm))
               for name, value in self.change.properties.items()]
        return ops, self.applies(arm)

    def _operation(self, name: str, value) -> Operation:
        """A property the baseline sets too exists on the node already: the change writes its
        value (an add would be refused as a duplicate resource)."""
        address, where = (("system-property", name),), f"change.properties.{name}"
        if name in self.recipe.baseline.properties:
            return Operation(address, "write-attribute", {"name": "value", "value": value}, where)
        return Operation(address, "add", {"value": value}, where)

    def describe(self, arm: Arm | None = None) -> str:
        if arm is not None and not self.applies(arm):
            return "the baseline"
        props = {k: (self.substitute(v, arm) if arm else v) for k, v in self.change.properties.items()}
        return "app-properties: " + ", ".join(f"{k}={v}" for k, v in props.items())

    def files(self) -> dict[str, str]:
        return {"properties": json.dumps(self.change.properties, indent=2)}
