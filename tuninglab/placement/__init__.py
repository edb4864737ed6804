"""Where each role of a stack runs: on one Docker engine (the default), or each on a host of a
Docker Swarm chosen by a Swarm constraint (swarm.py).

A stack asks its placement three things and nothing else: which engine a role's container
starts on (``engine_for``), which network the containers share (``network``), and which
engines it used (``engines``, to look for images, clean up and record provenance). A recipe
never names a host: the same recipe runs on either placement, which a run takes from the
environment (``current``: ``TUNINGLAB_PLACEMENT``, a placement file, set by ``--placement``).

A role is the name a container has on the stack's network ("db", "app-1", "balancer",
"loadgen", ...), of a kind a placement file places: database, node, balancer or loadgen.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from testcontainers.core.network import Network

from .. import cgroups

__all__ = ["API_TIMEOUT_S", "Engine", "HostLost", "LocalPlacement", "PlacementError",
           "ROLE_KINDS", "current", "local_client"]

ENV = "TUNINGLAB_PLACEMENT"  # a placement file; unset: everything on the environment's engine
ROLE_KINDS = ("database", "node", "balancer", "loadgen")
# How long a call to a Docker engine may take before the run fails (docker-py's default is
# 60 s). Beside parked stacks, an engine on this 2-core host has taken longer than 60 s to
# start a container (two-databases-more-cpu, CI of 29 November 2026): slow, not broken. A
# stream (a load driver's exec, logs) is not bounded by it; docker-py lifts the socket
# timeout for those.
API_TIMEOUT_S = 180


class PlacementError(ValueError):
    """A placement that cannot be used: said with the file, the key and what is allowed."""


class HostLost(RuntimeError):
    """A host of a spread stack stopped answering during a run."""


@dataclass(frozen=True)
class Engine:
    """One Docker engine a stack uses: a host of its own, or the only one."""

    host: str  # its name (a swarm node's hostname; "local" for the environment's engine)
    url: str | None = None  # its Docker API address; None: the environment's (DOCKER_HOST)
    address: str = "127.0.0.1"  # where this machine reaches the ports it publishes
    cpus: int = 0  # the CPUs its host has (0: ask the engine)
    labels: dict = field(default_factory=dict, compare=False)

    def client_kw(self) -> dict:
        """Keyword arguments of a Testcontainers client for this engine (it builds its client
        with docker.from_env, which reads the address from ``environment``)."""
        address = {"environment": {"DOCKER_HOST": self.url}} if self.url else {}
        return {"timeout": API_TIMEOUT_S, **address}

    def client(self):
        import docker
        if self.url:
            return docker.DockerClient(base_url=self.url, timeout=API_TIMEOUT_S)
        return local_client()


def local_client():
    """A client of the environment's engine (DOCKER_HOST, or the local socket)."""
    import docker
    return docker.from_env(timeout=API_TIMEOUT_S)


class LocalPlacement:
    """Every role on the environment's engine (local, or DOCKER_HOST), on a bridge network:
    the lab as it ran before placements existed."""

    kind = "local"

    def __init__(self):
        self.engine = Engine("local")

    def engine_for(self, role: str, kind: str) -> Engine:
        return self.engine

    def engines(self) -> list[Engine]:
        return [self.engine]

    def clients(self) -> dict:
        """Clients of the engines besides the environment's, by host (none: the stack's own
        client)."""
        return {}

    def network(self, labels: dict) -> Network:
        return Network(docker_client_kw={"timeout": API_TIMEOUT_S},
                       docker_network_kw={"labels": labels})

    def reads_cgroups(self, engine: Engine) -> bool:
        """This machine can read the engine's cgroups and /proc/stat (interference.py)."""
        return cgroups.engine_is_local()

    def roles(self) -> dict[str, str]:
        return {}

    def describe(self) -> dict:
        return {"kind": self.kind, "host": os.environ.get("DOCKER_HOST", "local socket")}


def current():
    """The placement this process runs its stacks on (``TUNINGLAB_PLACEMENT``)."""
    path = os.environ.get(ENV, "").strip()
    if not path:
        return LocalPlacement()
    from .swarm import SwarmPlacement
    return SwarmPlacement.from_file(path)
