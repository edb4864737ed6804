"""Other CPU, memory or disk write limits for the application server's container.

Docker changes a running container's CPU and memory limits (``docker update``), and the disk
write limit is written into its cgroup (disk_limits.py), so the switch is at runtime.
The JVM keeps the processor count it started with (``-XX:ActiveProcessorCount``, from the
stack's quota), so a quota sweep changes the CPU time the server gets, not how it sizes its
pools. The limits are read back for every node before every trial by the engine itself (a node
warms without them and must be put back), see ``limits_checks``."""
from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from .. import cgroups
from ..plan import RUNTIME, Arm
from .base import ChangeKind, value_text
from .checks import Check

if TYPE_CHECKING:  # the stack (and Docker) only for type checkers
    from ..stack import NodeConfig


class ContainerLimitsChange(ChangeKind):
    name = "container-limits"
    switch = RUNTIME
    warms_every_arm = False  # a limit is no code path (base.py)

    def limits(self, arm: Arm) -> dict:
        """The arm's limits: the change's (with its sweep value) or the stack's."""
        stack = self.recipe.stack
        own = {"cpuset": stack.app_cpuset, "cpus": stack.app_cpus, "memory": stack.app_memory,
               "disk_write_iops": None}
        if not self.applies(arm):
            return own
        limits = self.change.limits
        if limits.app_cpus is not None:
            own["cpus"] = float(self.substitute(value_text(limits.app_cpus), arm))
        if limits.app_memory is not None:
            own["memory"] = self.substitute(limits.app_memory, arm)
        if limits.app_cpuset is not None:
            own["cpuset"] = limits.app_cpuset
        if limits.app_disk_write_iops is not None:
            text = self.substitute(value_text(limits.app_disk_write_iops), arm)
            if not text.isdigit() or int(text) < 1:
                raise ValueError(f"change.limits.app_disk_write_iops: {text!r}; allowed: a whole "
                                 f"number of write operations a second, at least 1")
            own["disk_write_iops"] = int(text)
        return own

    def check_arm(self, arm: Arm) -> None:
        """A disk write limit is written into the node's cgroup, which only a local engine
        has (disk_limits.py)."""
        if self.limits(arm)["disk_write_iops"] is not None and not cgroups.engine_is_local():
            raise ValueError("change.limits.app_disk_write_iops: a limit on disk writes is set in "
                             "the node's cgroup, which needs a local engine; DOCKER_HOST names "
                             f"{os.environ.get('DOCKER_HOST')}")

    def node_config(self, base: NodeConfig, arm: Arm) -> NodeConfig:
        return base.with_changes(**self.limits(arm))

    def apply_arm(self, stack, node: str, arm: Arm, state) -> list[Check]:
        """The node's limits become the arm's, on the running container."""
        stack.set_limits(node, self.node_config(stack.node_configs[node], arm))
        return []

    def describe(self, arm: Arm | None = None) -> str:
        if arm is None:
            return "container-limits: " + ", ".join(
                f"{k}={v}" for k, v in vars(self.change.limits).items() if v is not None)
        limits = self.limits(arm)
        disk = ("" if limits["disk_write_iops"] is None
                else f", disk writes at most {limits['disk_write_iops']}/s")
        return (f"container-limits: {limits['cpus']} CPUs on {limits['cpuset']}, "
                f"{limits['memory']}{disk}")


def limits_checks(stack, node: str) -> list[Check]:
    """The node's container limits as the engine reports them, against its configuration."""
    wanted, actual = stack.node_configs[node], stack.limits_of(node)
    return [
        quota_check(node, wanted.cpus, actual["cpus"]),
        Check(f"{node}: container cpuset", wanted.cpuset, actual["cpuset"],
              wanted.cpuset == actual["cpuset"]),
        Check(f"{node}: container memory limit (bytes)", str(to_bytes(wanted.memory)),
              str(actual["memory"]), to_bytes(wanted.memory) == actual["memory"]),
        # only where a limit is wanted or found: a node left limited by another run fails here
        *([Check(f"{node}: container disk write limit (operations/s, its cgroup)",
                 str(wanted.disk_write_iops), str(actual["disk_write_iops"]),
                 wanted.disk_write_iops == actual["disk_write_iops"])]
          if (wanted.disk_write_iops, actual["disk_write_iops"]) != (None, None) else []),
    ]


def quota_check(container: str, wanted: float | None, actual: float | None) -> Check:
    """A container's CPU quota as the engine reports it, against the one it should have."""
    return Check(f"{container}: container CPU quota (CPUs)", str(wanted), str(actual),
                 abs((wanted or 0) - (actual or 0)) < 1e-6)


def to_bytes(size: str) -> int:
    number, unit = re.fullmatch(r"(\d+)([kmg]?)b?", size.lower()).groups()
    return int(number) * {"": 1, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3}[unit]
