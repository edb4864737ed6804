"""Other JVM options for the application server: fixed when the JVM starts, so a switch is a
fresh JVM."""
from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from ..plan import RESTART, Arm
from .base import ChangeKind
from .checks import Check

if TYPE_CHECKING:  # the stack (and Docker) only for type checkers
    from ..stack import NodeConfig


class JvmOptionsChange(ChangeKind):
    name = "jvm-options"
    switch = RESTART

    def options(self, arm: Arm) -> str:
        if self.applies(arm):
            return self.substitute(self.change.jvm_options, arm)
        return self.recipe.stack.jvm_options

    def node_config(self, base: NodeConfig, arm: Arm) -> NodeConfig:
        return base.with_changes(jvm_options=self.options(arm))

    def read_back(self, stack, node: str, arm: Arm) -> list[Check]:
        """Every option of this arm is among the JVM's input arguments, and no option that
        only another arm has."""
        runtime = stack.management_of(node).read_resource(
            [("core-service", "platform-mbean"), ("type", "runtime")], runtime=True)
        arguments = runtime.get("input-arguments") or []
        mine = shlex.split(self.options(arm))
        others = {token for other in self.arms for token in shlex.split(self.options(other))}
        checks = [Check(f"JVM input argument {token}", "present",
                        "present" if token in arguments else "absent", token in arguments)
                  for token in mine]
        checks += [Check(f"JVM input argument {token}", "absent",
                         "present" if token in arguments else "absent", token not in arguments)
                   for token in sorted(others - set(mine))]
        return checks

    def describe(self, arm: Arm | None = None) -> str:
        if arm is None:
            return f"jvm-options: '{self.recipe.stack.jvm_options}' -> '{self.change.jvm_options}'"
        return f"jvm-options: '{self.options(arm)}'"
