"""A native JVM agent (images.JVM_AGENTS: async-profiler) loaded by the variant's JVM and not by
the baseline's. Both arms run the image that carries the agent, so the library on disk is the
same and the arms differ in the running agent alone; loading it is a JVM option, fixed at
start, so a switch is a fresh JVM.

Read back on every node: the image; the JVM's input arguments (the variant's -agentpath, and
none in the baseline); and the JVM process's own memory map, which lists the library only
where the agent really loaded (an option the JVM took could still name an agent that failed
to start: the JVM then exits, but the map is the direct proof)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import images
from ..plan import Arm
from .checks import Check
from .jvm_options import JvmOptionsChange
from .node_image import image_check

if TYPE_CHECKING:  # the stack (and Docker) only for type checkers
    from ..stack import NodeConfig


class JvmAgentChange(JvmOptionsChange):
    name = "jvm-agent"

    @property
    def agent(self) -> images.JvmAgent:
        return images.JVM_AGENTS[self.change.agent]

    def agent_options(self, arm: Arm) -> str | None:
        """What the arm passes to the agent (None: the agent is not loaded)."""
        if not self.applies(arm):
            return None
        return self.substitute(self.change.agent_options or "", arm)

    def agent_token(self, arm: Arm) -> str | None:
        """The -agentpath option the lab writes for the arm: the library is the lab's own, only
        the options after it are the recipe's (safety/jvm_options.agent_problems)."""
        options = self.agent_options(arm)
        if options is None:
            return None
        return f"-agentpath:{self.agent.library}" + (f"={options}" if options else "")

    def options(self, arm: Arm) -> str:
        token = self.agent_token(arm)
        return f"{self.recipe.stack.jvm_options} {token}".strip() if token else \
            self.recipe.stack.jvm_options

    def node_config(self, base: NodeConfig, arm: Arm) -> NodeConfig:
        return base.with_changes(image=self.agent.image, jvm_options=self.options(arm))

    def read_back(self, stack, node: str, arm: Arm) -> list[Check]:
        checks = [image_check(stack, node, self.agent.image), *super().read_back(stack, node, arm)]
        return [*checks, self._loaded_check(stack, node, arm)]

    def _loaded_check(self, stack, node: str, arm: Arm) -> Check:
        """The JVM process maps the agent's library (variant) or does not (baseline)."""
        library = self.agent.library
        try:
            text = stack.nodes[node].run_on_jvm(f"echo java:$(grep -c -F '{library}' $p/maps)")
            counts = [int(word[5:]) for word in text.split()
                      if word.startswith("java:") and word[5:].isdigit()]
            mapped = sum(counts) if counts else -1
            actual = f"{mapped} mapping(s)" if counts else f"no java process ({text.strip()[:80]})"
        except RuntimeError as error:
            mapped, actual = -1, str(error)[:200]
        wanted = self.applies(arm)
        return Check(f"the JVM has {library} loaded", "loaded" if wanted else "not loaded",
                     actual, mapped > 0 if wanted else mapped == 0)

    def describe(self, arm: Arm | None = None) -> str:
        if arm is None:
            return (f"jvm-agent: {self.change.agent} not loaded -> "
                    f"-agentpath:{self.agent.library}={self.change.agent_options or ''}")
        return f"jvm-agent: '{self.options(arm)}' on {self.agent.image}"
