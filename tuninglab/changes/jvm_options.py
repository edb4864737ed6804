"""Other JVM options for the application server: fixed when the JVM starts, so a switch is a
fresh JVM."""
from __future__ import annotations

import re
import shlex
from typing import TYPE_CHECKING

from ..management import PLATFORM_RUNTIME
from ..plan import RESTART, Arm
from .base import ChangeKind
from .checks import Check, argument_checks

if TYPE_CHECKING:  # the stack (and Docker) only for type checkers
    from ..stack import NodeConfig


# A JVM that cannot honour an option may start anyway and say so once, on its first lines
# ("UseLargePages disabled, no large pages configured", "Ignoring option ...").
JVM_WARNING = re.compile(r"\[warning\]|^OpenJDK 64-Bit Server VM warning|ignoring option",
                         re.IGNORECASE)


class JvmOptionsChange(ChangeKind):
    name = "jvm-options"
    switch = RESTART

    def __init__(self, recipe):
        super().__init__(recipe)
        self._warnings: dict[str, list[str]] = {}  # container id -> the JVM's warnings

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
            PLATFORM_RUNTIME, runtime=True)
        arguments = runtime.get("input-arguments") or []
        mine = shlex.split(self.options(arm))
        others = {token for other in self.arms for token in shlex.split(self.options(other))}
        checks = argument_checks("JVM input argument", arguments, mine, others)
        said = [line for line in self._start_warnings(stack, node)
                if any(_option_name(token) in line for token in mine if token.startswith("-XX:"))]
        checks += [Check("the JVM honours its options", "no warning about them", line, False)
                   for line in said]
        if "-XX:+UseTransparentHugePages" in mine:
            checks.append(_huge_pages_check(stack, node))
        return checks

    def _start_warnings(self, stack, node: str) -> list[str]:
        """The JVM's warnings from the first lines of the node's log (read once per JVM)."""
        container = stack.nodes[node].get_wrapped_container()
        if container.id not in self._warnings:
            head = b""
            for chunk in container.logs(stdout=True, stderr=True, stream=True, follow=False):
                head += chunk
                if head.count(b"\n") >= 40:
                    break
            lines = head.decode(errors="replace").splitlines()[:40]
            self._warnings[container.id] = [line.strip() for line in lines
                                            if JVM_WARNING.search(line)]
        return self._warnings[container.id]

    def describe(self, arm: Arm | None = None) -> str:
        if arm is None:
            return f"jvm-options: '{self.recipe.stack.jvm_options}' -> '{self.change.jvm_options}'"
        return f"jvm-options: '{self.options(arm)}'"


# What of the JVM's memory the kernel backs with transparent huge pages
# (results/probes/thp-check/ measured it with and without the option).
SMAPS = "grep AnonHugePages $p/smaps_rollup"


def _huge_pages_check(stack, node: str) -> Check:
    """-XX:+UseTransparentHugePages starts without a warning where the kernel's THP mode is
    madvise or always, but whether the heap got huge pages is the kernel's to say."""
    try:
        text = stack.nodes[node].run_on_jvm(SMAPS)
        found = [int(kb) for kb in re.findall(r"AnonHugePages:\s+(\d+) kB", text)]
        kb = max(found, default=0)
        actual = f"{kb} kB" if found else f"no java process with smaps_rollup ({text.strip()[:80]})"
    except RuntimeError as error:
        kb, actual = 0, str(error)[:200]
    return Check("the JVM's memory backed by transparent huge pages (AnonHugePages)",
                 "more than 0 kB", actual, kb > 0)


def _option_name(token: str) -> str:
    """-XX:+UseLargePages -> UseLargePages; -XX:MaxRAM=1g -> MaxRAM."""
    return re.sub(r"^-XX:[+-]?", "", token).split("=", 1)[0]
