"""The server image a node runs: the common one against one that adds a single thing to it
(images.NODE_IMAGES: Linux's asynchronous I/O library for the broker's native journal). Fixed
when the container starts, so each arm is a node of its own; the running container's image is
read back from the engine, and what the added thing changes is the recipe's to read back
(``[change.runtime]``: the journal the broker reports it runs)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import images
from ..plan import RESTART, Arm
from .base import ChangeKind
from .checks import Check

if TYPE_CHECKING:  # the stack (and Docker) only for type checkers
    from ..stack import NodeConfig


class NodeImageChange(ChangeKind):
    name = "node-image"
    switch = RESTART

    def image(self, arm: Arm | None = None) -> str:
        """The arm's image (None: the variant's)."""
        if arm is not None and not self.applies(arm):
            return images.WILDFLY
        return images.NODE_IMAGES[self.change.node_image][0]

    def node_config(self, base: NodeConfig, arm: Arm) -> NodeConfig:
        return base.with_changes(image=self.image(arm))

    def read_back(self, stack, node: str, arm: Arm) -> list[Check]:
        return [image_check(stack, node, self.image(arm))]

    def describe(self, arm: Arm | None = None) -> str:
        if arm is None:
            return f"node-image: {images.WILDFLY} -> {self.image()}"
        return f"node-image: {self.image(arm)}"


def image_check(stack, node: str, wanted: str) -> Check:
    """The running container's image is ``wanted``, by the id the stack started with (a tag
    can move after a build)."""
    container = stack.nodes[node].get_wrapped_container()
    container.reload()
    wanted_id = (stack.image_ids.get(wanted)
                 or images.require_images(stack.client, [wanted])[wanted])
    return Check(f"{node}: the container's image", f"{wanted} ({wanted_id[7:19]})",
                 container.attrs["Image"][7:19], container.attrs["Image"] == wanted_id)
