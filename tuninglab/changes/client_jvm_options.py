"""Other JVM options for the client JVM that drives the server (article 004: the client's own
JVM, its collector and heap), where an app's load driver is a JVM (drivers/java_client.py).

The servers are configured alike in every arm; what differs is the JVM that sends the load.
Each arm's options get a client JVM of their own, started when the load generator is set up and
kept up for the run (the driver's install), so an arm switches by sending its window to its
client: a runtime switch, the arms taking turns on one node (a client JVM serves one window at
a time, plan.py). The proof is read from the client JVM itself, from its performance counters
(drivers/perf_data.py): every option of the arm among the arguments it started with, none that
only another arm has, and the collector an option selects among its collectors' names.
"""
from __future__ import annotations

import shlex

from .. import apps, drivers
from ..drivers import perf_data
from ..plan import RUNTIME, Arm
from ..safety import jvm_options as jvm_option_rules
from .base import ChangeKind
from .checks import Check, argument_checks


class ClientJvmOptionsChange(ChangeKind):
    name = "client-jvm-options"
    switch = RUNTIME

    def __init__(self, recipe):
        super().__init__(recipe)
        self.driver = drivers.driver_for(apps.load(recipe.workload.app, recipe.repo_root))

    def client_options(self, arm: Arm) -> str:
        """The arm's client JVM options ("" for the driver's default)."""
        if self.applies(arm):
            return " ".join(self.substitute(self.change.client_jvm_options, arm).split())
        return ""

    def _shown(self, arm: Arm) -> str:
        """The options the arm's client JVM starts with, the driver's default included."""
        return self.client_options(arm) or self.driver.default_jvm_options

    def load_for(self, arm: Arm) -> dict:
        options = self.client_options(arm)
        return {"client_jvm_options": options} if options else {}

    def check_arm(self, arm: Arm) -> None:
        if not self.driver.client_jvm:
            raise ValueError(
                f"change.kind client-jvm-options: app {self.recipe.workload.app!r} is driven "
                f"by {self.driver.name}, which runs no JVM of the lab's; allowed: an app whose "
                f"driver is a client JVM (driver = \"java-client\" in its app.toml)")
        refused = jvm_option_rules.problems(self.client_options(arm))
        if refused:
            raise ValueError(f"change.client_jvm_options: {'; '.join(refused)}")

    def read_back(self, stack, node: str, arm: Arm) -> list[Check]:
        """What the arm's client JVM runs, from its own counters."""
        found = self.driver.jvm(stack.loadgen, self.client_options(arm))
        if "error" in found:
            return [Check(f"the client JVM's performance counters ({arm.label})", "read",
                          found["error"], False)]
        arguments = found["arguments"]
        mine = shlex.split(self._shown(arm))
        others = {token for other in self.arms for token in shlex.split(self._shown(other))}
        checks = argument_checks("client JVM argument", arguments, mine, others)
        names = found["collectors"]
        for token in mine:
            words = perf_data.COLLECTOR_OPTIONS.get(token)
            if words is not None:
                checks.append(Check(f"the client JVM's collectors ({token})",
                                    " or ".join(f"{w} ..." for w in words),
                                    ", ".join(names) or "none",
                                    bool(names) and all(n.split()[0] in words for n in names)))
        return checks

    def describe(self, arm: Arm | None = None) -> str:
        if arm is None:
            return (f"client-jvm-options (the client JVM, not the servers): "
                    f"'{self.driver.default_jvm_options}' -> '{self.change.client_jvm_options}'")
        return f"client-jvm-options: '{self._shown(arm)}'"
