"""Each role of a stack on a host of a Docker Swarm, chosen by Swarm constraints.

The swarm gives the hosts, an overlay network across them (VXLAN) and its DNS, so the
containers find each other by the same names as on one engine, and the cluster's discovery and
the balancer's configuration do not change. The containers themselves are started by the lab
on the engine of the host a constraint chose (Testcontainers, as everywhere), attached to an
*attachable* overlay network, rather than as Swarm services: a service's task is a container
the lab could not `docker update` without Swarm replacing it (a quota change would restart the
JVM it measures), that Swarm would restart after a crash (a failed node must fail the run),
and whose logs, processes and files are reached through its host's engine in any case.

A placement file (TOML; ``placements/`` has examples):

    manager = "unix:///run/tl-h1/docker.sock"   # a manager's engine; TUNINGLAB_SWARM overrides
    [roles]
    database = "node.hostname==tl-h1"           # a constraint, or a list that must all hold
    loadgen = "node.hostname==tl-h1"
    balancer = "node.hostname==tl-h1"
    node = ["node.role==worker"]                # nodes spread over every host that matches
    app-2 = "node.hostname==tl-h3"              # one role by its name, before its kind

How the lab reaches a host's engine: the swarm node's label ``tuninglab.engine`` (its Docker
API address: unix://, ssh:// or tcp://), checked at start to be the engine of that very swarm
node. Published ports (the library's management calls) are bound on the host's swarm address.
"""
from __future__ import annotations

import os
import tomllib
from pathlib import Path

import docker
from testcontainers.core.network import Network

from .. import cgroups, layout
from . import ROLE_KINDS, Engine, PlacementError
from .constraints import Constraint, SwarmHost, matching, parse

__all__ = ["SwarmPlacement", "ENGINE_LABEL", "MANAGER_ENV"]

ENGINE_LABEL = "tuninglab.engine"
MANAGER_ENV = "TUNINGLAB_SWARM"
_TOP_KEYS = ("manager", "roles")


def _shown(source: str) -> str:
    """The placement file as a result stores it: relative to the workspace when inside it (a
    result names no folder of the machine that wrote it)."""
    path, home = Path(source), layout.workspace()
    if not path.is_absolute():
        return source
    return str(path.relative_to(home)) if path.is_relative_to(home) else path.name


def _engine_info(url: str) -> dict:
    return docker.DockerClient(base_url=url, timeout=10).info()


class SwarmPlacement:
    kind = "swarm"

    def __init__(self, manager_url: str, rules: dict[str, list[Constraint]], source: str = "",
                 client=None, engine_info=None):
        """``client``: the manager's Docker client; ``engine_info``: url -> the engine's
        `docker info` (both made from the addresses when not given)."""
        self.source = source or "the placement"
        self.manager = Engine("manager", manager_url)
        self.client = client or self._connect(manager_url)
        self._engine_info = engine_info or _engine_info
        self.rules = rules
        self.hosts = self._hosts()
        self._engines: dict[str, Engine] = {}  # host name -> its engine, checked once
        self._assigned: dict[str, Engine] = {}  # role -> engine
        self._spread: dict[str, int] = {}  # rule -> roles placed by it so far
        self._clients: dict | None = None  # host -> Docker client, made once (clients())
        for rule in rules:  # every rule names at least one ready host whose engine answers
            for host in self._candidates(rule):
                self._engine(host)

    # -- construction ---------------------------------------------------------------------------
    @classmethod
    def from_file(cls, path: str | os.PathLike, client=None,
                  engine_info=None) -> "SwarmPlacement":
        path = Path(path)
        try:
            data = tomllib.loads(path.read_text())
        except FileNotFoundError:
            raise PlacementError(f"{path}: no such placement file") from None
        except tomllib.TOMLDecodeError as exc:
            raise PlacementError(f"{path}: not valid TOML: {exc}") from None
        unknown = sorted(set(data) - set(_TOP_KEYS))
        if unknown:
            raise PlacementError(f"{path}: unknown key(s) {', '.join(unknown)}; allowed: "
                                 f"{', '.join(_TOP_KEYS)}")
        manager = os.environ.get(MANAGER_ENV, "").strip() or data.get("manager")
        if not isinstance(manager, str) or not manager:
            raise PlacementError(f"{path}: key 'manager' (or {MANAGER_ENV}) must give a swarm "
                                 f"manager's Docker API address, e.g. unix:///run/tl-h1/docker.sock")
        roles = data.get("roles")
        if not isinstance(roles, dict):
            raise PlacementError(f"{path}: a table [roles] must place each of "
                                 f"{', '.join(ROLE_KINDS)}")
        missing = [kind for kind in ROLE_KINDS if kind not in roles]
        if missing:
            raise PlacementError(f"{path}: [roles] does not place {', '.join(missing)}; every "
                                 f"one of {', '.join(ROLE_KINDS)} needs a constraint")
        rules = {}
        for role, value in roles.items():
            texts = [value] if isinstance(value, str) else value
            if not isinstance(texts, list) or not texts:
                raise PlacementError(f"{path}: roles.{role} must be a constraint or a list of "
                                     f"them, not {value!r}")
            try:
                rules[role] = [parse(text) for text in texts]
            except ValueError as exc:
                raise PlacementError(f"{path}: roles.{role}: {exc}") from None
        return cls(manager, rules, source=str(path), client=client, engine_info=engine_info)

    def _connect(self, url: str):
        try:
            client = docker.DockerClient(base_url=url, timeout=10)
            swarm = client.info().get("Swarm", {})
        except Exception as exc:  # an address that does not answer, or no Docker API at all
            raise PlacementError(f"{self.source}: the manager {url} does not answer: "
                                 f"{exc}") from None
        if not swarm.get("ControlAvailable"):
            raise PlacementError(f"{self.source}: the engine at {url} is not a swarm manager "
                                 f"(swarm state {swarm.get('LocalNodeState', '?')}); "
                                 f"bash scripts/swarm-hosts.sh start makes test hosts")
        return client

    def _hosts(self) -> list[SwarmHost]:
        hosts = []
        for node in self.client.nodes.list():
            attrs = node.attrs
            spec, status = attrs["Spec"], attrs["Status"]
            address = status.get("Addr", "")
            if address in ("", "0.0.0.0"):  # a manager may show its advertise address only here
                address = attrs.get("ManagerStatus", {}).get("Addr", ":").rsplit(":", 1)[0]
            hosts.append(SwarmHost(
                hostname=attrs["Description"]["Hostname"], node_id=attrs["ID"],
                role=spec.get("Role", ""), labels=dict(spec.get("Labels") or {}),
                ready=status.get("State") == "ready" and spec.get("Availability") == "active",
                address=address,
                cpus=int(attrs["Description"]["Resources"]["NanoCPUs"] // 1_000_000_000)))
        return sorted(hosts, key=lambda h: h.hostname)  # the spread's order, run after run

    def _candidates(self, rule: str) -> list[SwarmHost]:
        found = matching(self.rules[rule], self.hosts)
        if not found:
            listed = ", ".join(f"{h.hostname} ({'ready' if h.ready else 'not ready'}"
                               f"{', ' + ', '.join(f'{k}={v}' for k, v in h.labels.items() if k != ENGINE_LABEL) if len(h.labels) > 1 else ''})"
                               for h in self.hosts)
            raise PlacementError(f"{self.source}: roles.{rule} = "
                                 f"{' and '.join(map(str, self.rules[rule]))}: no ready host of "
                                 f"the swarm satisfies it; hosts: {listed}")
        return found

    def _engine(self, host: SwarmHost) -> Engine:
        if host.hostname in self._engines:
            return self._engines[host.hostname]
        url = host.labels.get(ENGINE_LABEL)
        if not url:
            raise PlacementError(f"{self.source}: host {host.hostname} has no label "
                                 f"{ENGINE_LABEL} (its engine's Docker API address); set it "
                                 f"with docker node update --label-add {ENGINE_LABEL}=<url> "
                                 f"{host.hostname}")
        try:
            info = self._engine_info(url)
        except Exception as exc:
            raise PlacementError(f"{self.source}: host {host.hostname}'s engine ({url}) does "
                                 f"not answer: {exc}") from None
        if info.get("Swarm", {}).get("NodeID") != host.node_id:
            raise PlacementError(f"{self.source}: the label {ENGINE_LABEL} of host "
                                 f"{host.hostname} points at {url}, the engine of another "
                                 f"swarm node ({info.get('Name')})")
        engine = Engine(host.hostname, url, host.address, info.get("NCPU") or host.cpus,
                        labels={"kernel": info.get("KernelVersion"),
                                "os": info.get("OperatingSystem"),
                                "engine": info.get("ServerVersion"),
                                "memory_bytes": info.get("MemTotal")})
        self._engines[host.hostname] = engine
        return engine

    # -- what a stack asks -----------------------------------------------------------------------
    def engine_for(self, role: str, kind: str) -> Engine:
        """The engine of the host a role runs on; a role placed once stays there (a node
        replaced by a fresh JVM comes back on its host). Several hosts match: the roles of a
        rule are spread over them in turn."""
        if role not in self._assigned:
            rule = role if role in self.rules else kind
            hosts = self._candidates(rule)
            turn = self._spread.get(rule, 0)
            self._spread[rule] = turn + 1
            self._assigned[role] = self._engine(hosts[turn % len(hosts)])
        return self._assigned[role]

    def engines(self) -> list[Engine]:
        """The engines a stack may use: those of every host a rule names."""
        return list(self._engines.values())

    def clients(self) -> dict:
        """A Docker client of every engine the placement may use, by host, the manager's first
        (the overlay network lives there): where a run's objects are cleaned up."""
        if self._clients is None:
            managers = [e.host for e in self._engines.values() if e.url == self.manager.url]
            self._clients = {(managers[0] if managers else f"manager ({self.manager.url})"):
                             self.client}
            self._clients.update({e.host: e.client() for e in self._engines.values()
                                  if e.url != self.manager.url})
        return self._clients

    def network(self, labels: dict) -> Network:
        # attachable: containers started by engines (not services) may join it
        return Network(docker_client_kw=self.manager.client_kw(),
                       docker_network_kw={"driver": "overlay", "attachable": True,
                                          "labels": labels})

    def reads_cgroups(self, engine: Engine) -> bool:
        """An engine on a unix socket runs on this machine (test hosts in network namespaces):
        its cgroups and /proc/stat are this machine's."""
        return cgroups.engine_is_local(engine.url)

    def roles(self) -> dict[str, str]:
        return {role: engine.host for role, engine in self._assigned.items()}

    def describe(self) -> dict:
        return {"kind": self.kind, "file": _shown(self.source), "manager": self.manager.url,
                "hosts": {e.host: {"address": e.address, "cpus": e.cpus, **e.labels}
                          for e in self._engines.values()},
                "roles": self.roles()}
