"""The JDK the application server runs on: the common image's (21) against the same image with
the next long-term JDK added (images.JDK_IMAGES). Fixed when the JVM starts, so each arm is a
node of its own, as for JVM options; the JVM's own version is read back from the running
server."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import images
from ..management import PLATFORM_RUNTIME
from ..plan import RESTART, Arm
from .base import ChangeKind
from .checks import Check

if TYPE_CHECKING:  # the stack (and Docker) only for type checkers
    from ..stack import NodeConfig


class JdkChange(ChangeKind):
    name = "jdk"
    switch = RESTART
    differs_in = ("/path/java.home",)  # the server's path resource of the JVM's own home

    def jdk(self, arm: Arm) -> str:
        return self.change.jdk if self.applies(arm) else images.JDK

    def node_config(self, base: NodeConfig, arm: Arm) -> NodeConfig:
        return base.with_changes(image=images.JDK_IMAGES[self.jdk(arm)])

    def read_back(self, stack, node: str, arm: Arm) -> list[Check]:
        """The running JVM's specification version is the arm's JDK (the platform MBean of
        the server's own runtime, not the image's label)."""
        runtime = stack.management_of(node).read_resource(
            PLATFORM_RUNTIME, runtime=True)
        found = str(runtime.get("spec-version") or "unknown")
        vm = str(runtime.get("vm-version") or "")
        wanted = self.jdk(arm)
        return [Check("the JVM's specification version", wanted,
                      f"{found} ({vm})" if vm else found, found == wanted)]

    def describe(self, arm: Arm | None = None) -> str:
        if arm is None:
            return (f"jdk: {images.JDK} ({images.JDK_IMAGES[images.JDK]}) -> {self.change.jdk} "
                    f"({images.JDK_IMAGES[self.change.jdk]})")
        return f"jdk: {self.jdk(arm)}"
