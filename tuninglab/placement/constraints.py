"""Docker Swarm placement constraints, read and matched the way Swarm does (its `--constraint`
syntax), so that a placement file says where a role goes in the words an operator already uses.

A constraint is ``<attribute> == <value>`` or ``!=``; a role's list of them must all hold.
Attributes: node.hostname, node.id, node.role (manager or worker) and node.labels.<key>
(the labels an operator puts on a swarm node with `docker node update --label-add`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Constraint", "SwarmHost", "parse", "matching", "ATTRIBUTES"]

ATTRIBUTES = ("node.hostname", "node.id", "node.role", "node.labels.<key>")
_FORM = re.compile(r"^\s*(node\.(?:hostname|id|role|labels\.[A-Za-z0-9_.-]+))\s*(==|!=)\s*(\S+)\s*$")


@dataclass(frozen=True)
class SwarmHost:
    """A swarm node as the manager lists it."""

    hostname: str
    node_id: str
    role: str  # manager or worker
    labels: dict
    ready: bool  # Status.State == ready and Availability == active
    address: str  # Status.Addr: where the other hosts (and this machine) reach it
    cpus: int

    def attribute(self, name: str) -> str | None:
        if name == "node.hostname":
            return self.hostname
        if name == "node.id":
            return self.node_id
        if name == "node.role":
            return self.role
        return self.labels.get(name[len("node.labels."):])


@dataclass(frozen=True)
class Constraint:
    attribute: str
    equal: bool
    value: str

    def holds(self, host: SwarmHost) -> bool:
        return (host.attribute(self.attribute) == self.value) == self.equal

    def __str__(self) -> str:
        return f"{self.attribute}{'==' if self.equal else '!='}{self.value}"


def parse(text: str) -> Constraint:
    """One constraint; a ValueError says what the form is."""
    match = _FORM.match(text) if isinstance(text, str) else None
    if not match:
        raise ValueError(f"{text!r} is not a Swarm constraint: write <attribute>==<value> or "
                         f"!=, with attribute one of {', '.join(ATTRIBUTES)}")
    return Constraint(match.group(1), match.group(2) == "==", match.group(3))


def matching(constraints: list[Constraint], hosts: list[SwarmHost]) -> list[SwarmHost]:
    """The ready hosts on which every constraint holds, in the manager's order."""
    return [h for h in hosts if h.ready and all(c.holds(h) for c in constraints)]
