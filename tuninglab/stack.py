"""One stack: a private network, PostgreSQL, the k6 load generator, and application-server nodes.

Roles are data. The database and the load generator are started with the stack; application
servers are *nodes*, each a named container with its own CPU placement, quota, memory cap and
JVM options, added by whoever needs them (an A/B run starts one node per arm, a load curve one
node). The load generator addresses a node by its name on the private network, or a
*balancer* in front of several nodes (``add_balancer``: a cluster, cluster.py), or a web
server in front of each node that takes the node's name (``fronted_nodes``: front.py).

Placement (DESIGN.md): nodes on core 1 with half a core each (``NodeConfig.cpus``), the
database and k6 on core 0. A warm WildFly on a whole core serves about as many transactions as
PostgreSQL and k6 can drive from the other core, so without the quota the bottleneck would move
between the cores from one second to the next. A node boots and warms with every CPU of the
engine and no quota (``widen``), then measures under its own limits (``restore``); its JVM is
told how many CPUs those limits give it (-XX:ActiveProcessorCount), so the JVM's and WildFly's
own sizing (collector threads, io threads, task threads) follow the measurement limits, not the
boot. A node stays wide after it starts (its smoke test and configuration run at full speed)
until someone calls ``restore``; the engine checks every node's limits before every trial.
"""
from __future__ import annotations

import math
import os
import threading
import time
from pathlib import Path
from dataclasses import dataclass, replace
from typing import Callable

from testcontainers.core.network import Network

from . import (apps, cgroups, cleanup, cpuinfo, disk_limits, front, images, interference,
               network, seeding, stackpool)
from . import placement as placements
from .containers import (DERIVED_CONFIGS, Balancer, LinkProxy, LoadGenerator, PostgresNode,
                         StartupError, WildFlyNode, read_image_file)
from .drivers import driver_for
from .front import HttpdFront
from .management import (ManagementClient, ManagementError, apply_operations,
                         clear_system_properties, deploy_archive)
from .together import together

# Testcontainers guesses the docker gateway as the host inside a container (/.dockerenv);
# published ports here are on 127.0.0.1.
os.environ.setdefault("TESTCONTAINERS_HOST_OVERRIDE", "127.0.0.1")

DEFAULT_JVM_OPTIONS = "-Xms1g -Xmx1g -XX:+UseParallelGC -XX:CICompilerCount=3"
# What a node's JIT compiles with (a profile's ``jit``): both tiers, or the first only.
TIERED, C1_ONLY = "tiered", "c1"
CPU_PERIOD_US = 10_000  # CFS period of quotas: 10 ms slices instead of Docker's 100 ms


@dataclass(frozen=True)
class NodeConfig:
    """An application-server node: where it runs, what it may use, how its JVM starts."""

    cpuset: str = "1"
    cpus: float | None = 0.5
    memory: str = "2g"
    jvm_options: str = DEFAULT_JVM_OPTIONS
    server_config: str = "standalone.xml"
    # Names the node answers to on the stack's network besides its own (a cluster's nodes
    # share one, which DNS resolves to all of them: cluster.py).
    network_aliases: tuple[str, ...] = ()
    # With linked nodes, the aliases the node's link proxy answers to in its place.
    link_aliases: tuple[str, ...] = ()
    # The applications the node deploys (apps.node_apps), by name; none given: the lab's own
    # app and the workspace's resident ones (what a node without a recipe serves: the
    # cluster command's, a test's).
    apps: tuple[str, ...] = ()
    # The server image: the common one, or one that differs from it in the JDK alone
    # (images.JDK_IMAGES; change kind jdk).
    image: str = images.WILDFLY
    # The profile's JIT (profiles.toml, ``jit``): C1_ONLY adds -XX:TieredStopAtLevel=1 unless
    # the node's own options already say something of the tiers, and skips verifying the
    # bytecode of classes outside the JDK (the server's and the app's): four quarter-core nodes
    # of the CI profile were ready in 20 and 21 s without it against 24 and 27 s with it
    # (cluster-log-files-off-four-nodes, 29 November 2026); the published profile verifies.
    jit: str = TIERED
    # Seconds the JVM keeps a name it resolved (None: its default, 30 s). A stack taken from the
    # pool gets fresh databases at new addresses while its nodes keep running, and a node that
    # kept "db" would reach another container under it (the quick profile, 27 November 2026):
    # the nodes of a reusing stack resolve every name afresh (0).
    dns_ttl_s: int | None = None
    # Write operations a second the node may send to the disk behind its files (None: no
    # limit; disk_limits.py): a slow volume for the broker's journal and the transaction log.
    disk_write_iops: int | None = None

    def with_changes(self, **changes) -> "NodeConfig":
        return replace(self, **changes)

    @property
    def active_processors(self) -> int:
        """The CPUs the JVM would see under these limits: the quota rounded up, else the
        cpuset's size (what HotSpot's container support computes)."""
        size = len(interference.cpuset_cpus(self.cpuset))
        return max(1, min(size, math.ceil(self.cpus))) if self.cpus else size

    def jvm_command_line(self) -> str:
        """The JVM options as started: the configured ones, the processor count, the
        profile's limit on the JIT's tiers, and how long names stay resolved."""
        parts = [self.jvm_options]
        if "ActiveProcessorCount" not in self.jvm_options:
            parts.append(f"-XX:ActiveProcessorCount={self.active_processors}")
        if self.jit == C1_ONLY and "Tiered" not in self.jvm_options:
            parts.append("-XX:TieredStopAtLevel=1")
            parts.append("-XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote")
        if self.dns_ttl_s is not None:  # java.security leaves networkaddress.cache.ttl unset
            parts.append(f"-Dsun.net.inetaddr.ttl={self.dns_ttl_s}")
        return " ".join(parts)


@dataclass(frozen=True)
class StackConfig:
    db_cpuset: str = "0"
    loadgen_cpuset: str = "0"
    db_memory: str = "2g"
    # The stack's PostgreSQL containers by name, the first the one the lab's own app's data
    # source reaches (apps.App.datasource).
    # Each starts from the same image, so each holds the whole data set.
    databases: tuple[str, ...] = ("db",)
    db_cpus: float | None = None  # each database's CPU quota on its cpuset (None: none)
    # Databases the nodes reach through a proxy that adds a round-trip delay (network.py;
    # changes/network_delay.py sets it per arm): the proxy takes the database's name. It runs
    # on proxy_cpuset: its CPU is an artefact of this machine (a real network costs neither
    # end's CPU), kept off the core the database shares with the load generator.
    proxied: tuple[str, ...] = ()
    proxy_cpuset: str = "1"
    # A cluster's nodes reach each other through proxies of the same kind, one in front of
    # each node (Stack._linked): every message between two nodes crosses one proxy, the one
    # in front of the node its connection was opened to, in either direction.
    linked_nodes: bool = False
    # Every node behind a web server of its own (front.py; change kind front-protocol), which
    # takes the node's name on the network, so the load reaches the node through it. The
    # fronts run beside the load generator, as a cluster's balancer does, without a quota:
    # their CPU is recorded per window (telemetry.py) rather than capped.
    fronted_nodes: bool = False
    front_protocol: str = "http"  # how a front reaches its node when it starts

    @property
    def shared_cpus(self) -> set[int]:
        """The cores the database and the load generator use."""
        return interference.cpuset_cpus(self.db_cpuset) | interference.cpuset_cpus(self.loadgen_cpuset)


Progress = Callable[[str], None]


CONFIG_DIR = "/opt/wildfly/standalone/configuration"
_IMAGE_FILES: dict[tuple[str, str], bytes] = {}  # (image id, path) -> bytes: Stack._image_file
PRISTINE = ".tl-pristine"  # suffix of a node's server configuration as it first booted
# How long a cluster's member a claimant does not use may take to shut down and leave the
# view before it is killed (a JVM with no requests takes about 2 s).
LEAVE_TIMEOUT_S = 15


class Stack:
    def __init__(self, config: StackConfig = StackConfig(), progress: Progress = print,
                 nodes: dict[str, "NodeConfig"] | None = None, reuse: bool = False,
                 pool_extra: dict | None = None, reuse_runs: int = 0, reuse_alone: bool = False,
                 reuse_parked: int = 0, run_label: str = "", workspace: Path | None = None,
                 app: apps.App | None = None, placement=None):
        self.config = config
        # Which engine each role starts on (placement/): one engine, or a swarm's hosts. A
        # stack spread over hosts is not parked for reuse (its kind would name the hosts).
        self.placement = placement or placements.current()
        self.spread = self.placement.kind != "local"
        # nor is one with a link proxy (the pool's record has no place for it)
        reuse = (reuse and not self.spread and not config.proxied and not config.linked_nodes
                 and not config.fronted_nodes)
        # Where the recipe's apps live (its workspace), and the app under test: what its
        # data sources and database are called (apps.App), for telemetry and the change kinds.
        self.workspace = workspace
        self.app_under_test = app or apps.default_app(workspace)
        # the image the load generator starts from: its driver's (k6's, or a client JVM's)
        self.loadgen_image = driver_for(self.app_under_test).image
        self.progress = progress
        self.initial_nodes = self._linked(dict(nodes or {}))
        # reuse: take a parked stack of the same kind if there is one, and park this one when
        # the run ends well (keep()); stackpool.py. pool_extra: what the run adds to the stack
        # after it starts (a cluster's balancer), part of its kind. reuse_runs: how many runs
        # one stack may serve (0: no limit); reuse_alone: remove the parked stacks not taken;
        # reuse_parked: how many stacks may stay parked, this one included (0: no limit).
        # run_label names this run in the record of the runs a stack served.
        self.reuse = reuse
        self.pool_extra = dict(pool_extra or {})
        self.reuse_runs, self.reuse_alone, self.run_label = reuse_runs, reuse_alone, run_label
        self.reuse_parked = reuse_parked
        self.reused = False  # this stack was taken from the pool
        self.served: list[str] = []  # the runs a taken-over stack served before this one
        # the system properties those runs left in each kept JVM, cleared before this run
        self.cleared_properties: dict[str, list[str]] = {}
        self.kept_nodes: list[str] = []  # a taken-over stack's nodes this run kept warm
        self._key: str | None = None  # its kind in the pool (stackpool.key), taken at start
        self._keep = False
        self._altered = False  # a node replaced or re-limited: not the stack a key describes
        self.client = placements.local_client()
        self.scope: cleanup.RunScope | None = None
        self.network: Network | None = None
        self.databases: dict[str, PostgresNode] = {}
        self.loadgen: LoadGenerator | None = None
        self.nodes: dict[str, WildFlyNode] = {}
        self.balancers: dict[str, Balancer] = {}
        # by the database each is in front of, or by its own name in front of a node
        self.proxies: dict[str, LinkProxy] = {}
        self.fronts: dict[str, HttpdFront] = {}  # by the node each is in front of
        self.node_configs: dict[str, NodeConfig] = {}
        self._management: dict[str, ManagementClient] = {}
        self._meters: dict[str, cgroups.ContainerMeter] = {}
        self.image_ids: dict[str, str] = {}
        self.db_image = images.DB  # or the app under test's seed baked in (seeding.py)
        self.started_in_s: float | None = None
        # every engine runs on this machine: its cgroups and /proc/stat are ours to read
        self.local_engine = all(self.placement.reads_cgroups(e) for e in self.placement.engines())
        self._images_on: set[tuple[str, str]] = set()  # (host, image) copied or found there
        self._engine_cpus: int | None = None
        self._data_disk: str | None = None
        self._disk_limited: set[str] = set()  # nodes whose disk writes this stack has limited

    # -- life cycle ---------------------------------------------------------------------------
    def __enter__(self) -> "Stack":
        try:
            self.start()
        except BaseException as exc:
            self.__exit__(type(exc), exc, exc.__traceback__)  # a lost host says so
            raise
        return self

    def __exit__(self, exc_type, exc, traceback) -> None:
        # A run on a spread stack that failed, or could not remove its containers, may have
        # lost a host: then that is what it says, whatever call noticed first, with what was
        # left where (the lost host's containers, an overlay network they still hold).
        lost = self.lost_hosts() if exc is not None else []
        try:
            self.close()
        except cleanup.EnginesLost as left:
            lost = lost or self.lost_hosts()
            if not lost:
                raise
            raise placements.HostLost(f"{self._lost_text(lost)}; {left}") from exc or left
        if lost and not isinstance(exc, placements.HostLost):
            raise placements.HostLost(self._lost_text(lost)) from exc

    def start(self) -> None:
        """Network, database and load generator, and the nodes given to the constructor, in
        parallel (the data source connects lazily, so a node need not wait for the database);
        or, reusing, a parked stack of the same kind, reset."""
        began = time.monotonic()
        self.image_ids = images.require_images(self.client)
        # a node on another JDK's image, a client JVM's load generator: missing, it is named
        # with set-up's command; its id is part of the stack's kind (stackpool.key)
        other = sorted({c.image for c in self.initial_nodes.values()} - {images.WILDFLY}
                       | ({self.loadgen_image} - {images.LOADGEN})
                       | ({images.FRONT} if self.config.fronted_nodes else set()))
        if other:
            self.image_ids.update(images.require_images(self.client, other))
        swept = [removed for client in [self.client, *self.placement.clients().values()]
                 for removed in cleanup.sweep_dead_runs(client, spare=stackpool.spared_ids())]
        if swept:
            self.progress(f"stack: removed leftovers of dead runs: {', '.join(swept)}")
        self.scope = cleanup.RunScope(self.client, self.placement.clients()).__enter__()
        self.db_image = seeding.image_for(self.client, list(self.deployed_apps()),
                                          self.scope.labels("seed"), self.progress)
        if self.db_image != images.DB:  # another database image: another kind of stack
            self.image_ids.update(images.require_images(self.client, [self.db_image]))
        # The key is taken now, from the images every stack has: a balancer added later adds
        # its image id, not its kind (pool_extra says that).
        self._key = stackpool.key(self.config, self.initial_nodes, self.image_ids,
                                  self.pool_extra)
        record = self._claim() if self.reuse else None
        if self.reuse and self.reuse_alone:
            removed = stackpool.clear(self.client)
            if removed:
                self.progress(f"stack: removed parked stacks this run does not take (it "
                              f"measures alone): {', '.join(removed)}")
        if record is not None:
            kept, started = self._attach(record)
            self.reused = True
            self.served, self.kept_nodes = list(record.get("served", ())), list(kept)
            self.started_in_s = time.monotonic() - began
            fresh = f", {_nodes_text(started)} started" if started else ""
            self.progress(f"stack: reused a parked stack in {self.started_in_s:.1f} s (fresh "
                          f"{', '.join(self.databases)}, {_nodes_text(kept)} back to the first "
                          f"configuration"
                          f"{fresh})")
            return
        self.network = self.placement.network(self.scope.labels("network"))
        self.network.create()
        nodes = self.initial_nodes
        self.progress(f"stack: starting {', '.join(self.config.databases)} (cpuset "
                      f"{self.config.db_cpuset}), load generator and "
                      f"{len(nodes)} app-server node(s) on network {self.network.name[:8]}"
                      f"{self._hosts_text()}")
        self.loadgen = self._place(LoadGenerator(self.loadgen_image).on(self.network, "loadgen")
                                   .with_cpuset(self.config.loadgen_cpuset)
                                   .with_labels(self.scope.labels("loadgen")),
                                   "loadgen", "loadgen")
        self._start_together([*self._new_databases(), self.loadgen, *self._new_links(nodes),
                              *self._new_fronts(nodes)], nodes)
        if self.reuse:
            self.save_pristine()
        self.started_in_s = time.monotonic() - began
        self.progress(f"stack: ready in {self.started_in_s:.1f} s")

    def keep(self) -> None:
        """The run ended well: a reusing stack may be parked instead of removed."""
        self._keep = True

    def origin(self) -> dict:
        """Where this stack came from, for the result: new, or taken over warm, with the runs
        it served before (each ``<recipe id>/<start>``, the name of that run's result file),
        the nodes it kept running and the system properties cleared in their JVMs."""
        return {"taken_over": self.reused, "served_before": list(self.served),
                "nodes_kept_warm": list(self.kept_nodes),
                "system_properties_cleared": dict(self.cleared_properties)}

    def _serves_again(self) -> bool:
        """Whether this stack may serve another run (reuse_runs counts this one)."""
        return stackpool.may_serve({"served": [*self.served, self.run_label]}, self.reuse_runs)

    def close(self) -> None:
        if self.scope is None:
            return
        if self.reuse and self._keep and not self._altered and self._serves_again():
            stackpool.park(self._key, self._record())
            self.scope.abandon()
            self.progress("stack: parked for the next run of this kind")
            removed = stackpool.trim(self.client, self.reuse_parked)
            if removed:
                self.progress(f"stack: removed the stacks parked longest ago (at most "
                              f"{self.reuse_parked} stay parked): {', '.join(removed)}")
        else:
            self.scope.__exit__(None, None, None)
        self.scope = None

    # -- reuse (stackpool.py) -------------------------------------------------------------------
    def save_pristine(self, names=None) -> None:
        """Keep each node's server configuration as it is now: what a reuse puts back. Taken
        after start, and again by a cluster once its nodes have found each other."""
        for name in self.nodes if names is None else names:
            cfg = f"{CONFIG_DIR}/{self.node_configs[name].server_config}"
            self.nodes[name].run(["cp", cfg, cfg + PRISTINE])

    def _claim(self) -> dict | None:
        """A parked stack of this kind; else the parked stack with the most nodes this one
        can use (stackpool.claim_nearest): a stack of plain nodes takes one of plain nodes, a
        cluster a cluster with the same balancer settings (whose image a parked record lists
        among its images)."""
        record = stackpool.claim(self._key, self.reuse_runs)
        if record is not None or (self.pool_extra and not self._is_cluster):
            return record
        image_ids = self.image_ids
        if self._is_cluster:
            image_ids = {**image_ids, **images.require_images(self.client, [images.BALANCER])}
        return stackpool.claim_nearest(
            stackpool.common_key(self.config, image_ids, self.pool_extra),
            stackpool.node_keys(self.initial_nodes), self.reuse_runs, balanced=self._is_cluster)

    @property
    def _is_cluster(self) -> bool:
        """A cluster's nodes answer to a name they share (cluster.py)."""
        return any(config.network_aliases for config in self.initial_nodes.values())

    def _record(self) -> dict:
        return {"network": self.network._network.id,
                "databases": {n: c.get_wrapped_container().id for n, c in self.databases.items()},
                "loadgen": self.loadgen.get_wrapped_container().id,
                "nodes": {n: c.get_wrapped_container().id for n, c in self.nodes.items()},
                "common": stackpool.common_key(self.config, self.image_ids, self.pool_extra),
                "node_keys": stackpool.node_keys(self.node_configs),
                "served": [*self.served, self.run_label],
                "balancers": {name: {"id": b.get_wrapped_container().id,
                                     "backends": b.backends, "server_maxconn": b.server_maxconn}
                              for name, b in self.balancers.items()}}

    def _attach(self, record: dict) -> tuple[list[str], list[str]]:
        """Own a parked stack: fresh databases, every node it keeps back to its first
        configuration, the nodes it lacks started beside them, the ones it does not use
        removed. Returns (nodes kept, nodes started)."""
        client = self.client
        wanted = stackpool.node_keys(self.initial_nodes)
        # a record from before node keys is only ever claimed by its own kind: every node fits
        parked_keys = record.get("node_keys") or {name: wanted[name] for name in record["nodes"]}
        fitting = stackpool.fitting_nodes(parked_keys, wanted)
        parked_databases = stackpool.database_ids(record)
        self.scope.adopt(containers=[c for c in stackpool.container_ids(record)
                                     if c not in parked_databases],
                         networks=[record["network"]])
        self.network = Network(docker_client_kw={"timeout": placements.API_TIMEOUT_S})
        self.network._network = client.networks.get(record["network"])
        self.network.name = self.network._network.name
        for cid in parked_databases:
            client.containers.get(cid).remove(force=True, v=True)
        self.loadgen = LoadGenerator(self.loadgen_image)
        self.loadgen._container = client.containers.get(record["loadgen"])
        together(self._new_databases(), lambda database: database.start())
        self._take_nodes(record["nodes"], fitting)
        for name, parked in record.get("balancers", {}).items():
            balancer = Balancer(parked["backends"], server_maxconn=parked["server_maxconn"])
            balancer._container = client.containers.get(parked["id"])
            self.balancers[name] = balancer
            self.image_ids.update(images.require_images(client, [balancer.image]))
        missing = {name: config for name, config in sorted(self.initial_nodes.items())
                   if name not in fitting}
        self._reset_and_boot(fitting, missing)
        return fitting, list(missing)

    def _take_nodes(self, parked_ids: dict[str, str], fitting: list[str]) -> None:
        """Own the parked nodes this run uses as they are (``fitting``); remove the others. A
        cluster's member is shut down first, so that it leaves the others' views at once (a
        killed one stays in them until they suspect it: tens of seconds)."""
        unused = [cid for name, cid in parked_ids.items() if name not in fitting]

        def remove(cid):
            container = self.client.containers.get(cid)
            if self._is_cluster:
                container.stop(timeout=LEAVE_TIMEOUT_S)
            container.remove(force=True, v=True)
        together(unused, remove)
        for name in fitting:
            node = WildFlyNode(self.initial_nodes[name].image)
            node._container = self.client.containers.get(parked_ids[name])
            self.nodes[name] = node
            self.node_configs[name] = self.initial_nodes[name]
            self._management[name] = ManagementClient(node.management_url())
            if self.local_engine:
                # An earlier run may have limited its disk writes (the limit is not part of the
                # node's kind): restore() puts it to this run's own, and limits_of reads it back
                # (mdb-delivery-threads' drains ran at jms-journal-slow-disk's 100 writes a
                # second in CI, 140 s instead of 25, until 29 November 2026).
                self._disk_limited.add(name)

    def _reset_and_boot(self, kept: list[str], missing: dict[str, NodeConfig]) -> None:
        """Kept nodes back to their pristine configuration and reloaded (waiting until each
        runs again: ManagementClient.reload), while the missing nodes boot."""
        def reset(name):
            cfg = f"{CONFIG_DIR}/{self.node_configs[name].server_config}"
            self.cleared_properties[name] = clear_system_properties(self._management[name])
            self.nodes[name].run(["cp", cfg + PRISTINE, cfg])
            self.widen(name)
            self._management[name].reload()

        if self._is_cluster:
            # A cluster's nodes, one after the other: reloaded at once, each formed a view of
            # its own and the views merged only later (2026-11-26). The members it lacks boot
            # once the kept ones run again, and join their view; their pristine configuration
            # is taken once all have found each other (topology.Cluster).
            for name in kept:
                reset(name)
            if missing:
                self._start_together([], missing)
            return
        boot = object()  # the job that starts the missing nodes, beside the resets
        together([*kept, *([boot] if missing else [])],
                 lambda job: self._start_together([], missing) if job is boot else reset(job))
        self.save_pristine(missing)

    def _new_databases(self) -> list:
        """The databases, and a delaying proxy in front of each the config names (on the
        database's host: the network it stands for ends there)."""
        config = self.config
        self.databases = {
            name: self._place(PostgresNode(self.db_image).on(self.network, _behind(name)
                                                            if name in config.proxied else name)
                              .with_cpuset(config.db_cpuset)
                              .with_cpu_quota(config.db_cpus, CPU_PERIOD_US)
                              .with_memory(config.db_memory)
                              .with_labels(self.scope.labels(name)), name, "database")
            for name in config.databases}
        self.proxies = {
            name: self._place(LinkProxy(LinkProxy.routes_to(_behind(name), 5432),
                                        network.binary(), self.db_image)
                              .on(self.network, name).with_cpuset(config.proxy_cpuset)
                              .with_memory("128m")
                              .with_labels(self.scope.labels(f"proxy:{name}")), name, "database")
            for name in config.proxied}
        self._meters = {k: m for k, m in self._meters.items()
                        if k not in self.databases and k not in self.proxy_roles()}
        return [*self.databases.values(), *self.proxies.values()]

    def _linked(self, nodes: dict[str, NodeConfig]) -> dict[str, NodeConfig]:
        """The nodes' configurations with a link proxy in front of each (linked_nodes): the
        proxy takes the node's place under the name the nodes find each other by (their
        network alias: DNS_PING asks for it), and the node's JGroups transport advertises the
        proxy as its address (JGroups reads it from a system property). So every connection
        between two nodes, the discovery's too, runs through the proxy of the node it goes to,
        and no node reaches another directly."""
        if not self.config.linked_nodes:
            return nodes
        return {name: config.with_changes(
                    network_aliases=(), link_aliases=config.network_aliases,
                    jvm_options=f"{config.jvm_options} -Djgroups.external_addr={_link(name)}")
                for name, config in nodes.items()}

    def _new_links(self, nodes: dict[str, NodeConfig]) -> list:
        """A link proxy in front of each node (linked_nodes), started with them: a node
        resolves the proxies' names when its channel starts, after its boot."""
        proxies = []
        for name, config in nodes.items():
            if not config.link_aliases:
                continue
            key = _link(name)
            self.proxies[key] = self._place(
                LinkProxy(LinkProxy.routes_to(name, JGROUPS_PORT), network.binary(), self.db_image)
                .on(self.network, key).with_network_aliases(key, *config.link_aliases)
                .with_cpuset(self.config.proxy_cpuset).with_memory("128m")
                .with_labels(self.scope.labels(f"proxy:{key}")), key, "node")
            self._meters.pop(f"{key}{PROXY_SUFFIX}", None)
            proxies.append(self.proxies[key])
        return proxies

    def _new_fronts(self, nodes: dict[str, NodeConfig]) -> list:
        """A web server in front of each node (fronted_nodes), under the node's name; it
        reaches the node once the node has booted, and nothing asks it before."""
        if not self.config.fronted_nodes:
            return []
        for name in nodes:
            self.fronts[name] = self._place(
                HttpdFront(name, self.config.front_protocol)
                .on(self.network, name).with_cpuset(self.config.loadgen_cpuset)
                .with_memory("256m").with_labels(self.scope.labels(f"front:{name}")),
                f"{name}{FRONT_SUFFIX}", "balancer")
            self._meters.pop(f"{name}{FRONT_SUFFIX}", None)
        return [self.fronts[name] for name in nodes]

    def front_of(self, node: str) -> HttpdFront:
        """The web server in front of a node (fronted_nodes)."""
        if node not in self.fronts:
            raise KeyError(f"no front in front of {node!r}; fronted nodes: "
                           f"{', '.join(self.fronts) or 'none'} (change kind front-protocol "
                           f"puts one in front of every node)")
        return self.fronts[node]

    def front_roles(self) -> list[str]:
        """The fronts as roles of the meters: "app-1 front"."""
        return [f"{name}{FRONT_SUFFIX}" for name in self.fronts]

    def link_name(self, node: str) -> str:
        """The name of the link proxy in front of a cluster's node (linked_nodes)."""
        return _link(node)

    def link_proxies(self) -> dict[str, LinkProxy]:
        """The link proxies in front of the cluster's nodes, by node."""
        return {name: self.proxies[_link(name)] for name in self.nodes
                if _link(name) in self.proxies}

    @property
    def db(self) -> PostgresNode | None:
        """The first database: the one the lab's own app's data source reaches."""
        return self.databases.get(self.config.databases[0])

    def set_database_cpus(self, name: str, cpus: float | None) -> None:
        """A new CPU quota for a running database (None: none)."""
        self.databases[name].get_wrapped_container().update(cpu_period=CPU_PERIOD_US,
                                                            cpu_quota=_cfs_quota(cpus))

    # -- nodes ----------------------------------------------------------------------------------
    def add_nodes(self, configs: dict[str, NodeConfig]) -> float:
        """Start application-server nodes (in parallel); returns the seconds it took."""
        began = time.monotonic()
        self._start_together([], configs)
        return time.monotonic() - began

    def replace_node(self, name: str, config: NodeConfig) -> float:
        """A fresh JVM for ``name`` (JVM options and limits are fixed at start)."""
        began = time.monotonic()
        self._altered = True
        old = self.nodes.pop(name, None)
        if old is not None:
            old.get_wrapped_container().remove(force=True)
        self._start_together([], {name: config})
        return time.monotonic() - began

    def add_balancer(self, name: str, balancer: Balancer) -> float:
        """Start a balancer in front of some of the nodes; the load generator reaches it by
        ``name``. Returns the seconds it took."""
        began = time.monotonic()
        unknown = [b for b in balancer.backends if b not in self.nodes]
        if unknown:
            raise ValueError(f"the balancer {name} names node(s) the stack does not have: "
                             f"{', '.join(unknown)}; nodes: {', '.join(self.nodes) or 'none'}")
        self.image_ids.update(images.require_images(self.client, [balancer.image]))
        balancer.on(self.network, name).with_cpuset(self.config.loadgen_cpuset)
        balancer.with_labels(self.scope.labels(f"balancer:{name}"))
        self._place(balancer, name, "balancer")
        self.balancers[name] = balancer
        balancer.start()
        return time.monotonic() - began

    def replace_balancer(self, name: str, balancer: Balancer) -> float:
        """A new balancer in place of one (a parked cluster taken with other members: its
        balancer's nodes are fixed when it starts). Returns the seconds it took."""
        old = self.balancers.pop(name)
        old.get_wrapped_container().remove(force=True)
        return self.add_balancer(name, balancer)

    def members(self, target: str) -> list[str]:
        """The nodes behind a load target: a balancer's nodes, or the node itself."""
        if target in self.balancers:
            return list(self.balancers[target].backends)
        return [target]

    def balancer_of(self, node: str) -> Balancer:
        """The balancer in front of a node (a cluster's member)."""
        for balancer in self.balancers.values():
            if node in balancer.backends:
                return balancer
        raise KeyError(f"no balancer in front of {node!r}; balancers: "
                       f"{', '.join(self.balancers) or 'none'}")

    def error_lines(self, target: str) -> list[str]:
        """The ERROR lines of the target's nodes' logs, each with its node's name."""
        return [f"{node}: {line}" if node != target else line
                for node in self.members(target) for line in self.nodes[node].error_lines()]

    def deployed_apps(self) -> tuple[apps.App, ...]:
        """What every node deploys: the workspace's resident apps, then the app under test."""
        return (*(a for a in apps.resident_apps(self.workspace)
                  if a.name != self.app_under_test.name), self.app_under_test)

    def datasources(self) -> list[str]:
        """The WildFly names of the data sources the apps on the nodes declare
        (apps.App.datasources)."""
        return sorted({name for app in self.deployed_apps() for name in app.datasources.values()})

    def app_declaring(self, key: str) -> apps.App:
        """The app whose ``key`` (an apps.App field: ``datasources``, ``config_endpoint``) is
        read: the app under test when it declares one, else a resident app that does (every
        node deploys it too: in this checkout the one that reads the tl.* properties), else
        the app under test."""
        found = [a for a in reversed(self.deployed_apps()) if getattr(a, key)]
        return found[0] if found else self.app_under_test

    def property_readers(self) -> list[str]:
        """The deployments that read the tl.* system properties when they deploy: every WAR
        of every app the nodes deploy."""
        names = [d.war_name for app in self.deployed_apps() for d in app.deployments]
        return list(dict.fromkeys(names))

    def config_endpoint(self) -> str:
        """The URL path where an app reports the settings it runs with (app_declaring)."""
        return self.app_declaring("config_endpoint").config_endpoint

    @property
    def app(self) -> WildFlyNode:
        """The only node (for stacks that have exactly one)."""
        if len(self.nodes) != 1:
            raise RuntimeError(f"the stack has {len(self.nodes)} nodes; name one")
        return next(iter(self.nodes.values()))

    @property
    def management(self) -> ManagementClient:
        return self.management_of(next(iter(self.nodes)) if len(self.nodes) == 1 else "")

    def management_of(self, name: str) -> ManagementClient:
        if name not in self._management:
            raise KeyError(f"no node {name!r}; nodes: {', '.join(self.nodes) or 'none'}")
        return self._management[name]

    def meter_roles(self) -> list[str]:
        """Every container of the stack, as the meters name it (telemetry reads each)."""
        return [*self.databases, *self.proxy_roles(), "loadgen", *self.balancers,
                *self.front_roles(), *self.nodes]

    def machines(self) -> list[interference.Machine]:
        """The kernels the stack runs on, each with its roles (interference is read per
        machine): this machine, or the one engine's, or one per swarm host, the hosts whose
        engines run here counting as this machine."""
        shared = {**{name: interference.cpuset_cpus(self.config.db_cpuset)
                     for name in self.databases},
                  "loadgen": interference.cpuset_cpus(self.config.loadgen_cpuset)}
        machine_of, readers = {}, {}
        for role in self.meter_roles():
            engine = getattr(self._container(role), "engine", None) if self.spread else None
            if engine is None:  # one engine: this machine, or DOCKER_HOST's
                name = interference.THIS_MACHINE if self.local_engine else "the engine's machine"
            else:
                name = (interference.THIS_MACHINE if self.placement.reads_cgroups(engine)
                        else engine.host)
            machine_of[role] = name
            readers.setdefault(name, self._stat_reader(role))
        return interference.group(machine_of, shared, readers)

    def _stat_reader(self, role: str):
        """/proc/stat as a container of the role sees it: its kernel's, every process's."""
        return lambda: self._container(role).run(["cat", "/proc/stat"])

    def proxy_roles(self) -> list[str]:
        """The delaying proxies as roles of the meters: their CPU is the stack's."""
        return [f"{name}{PROXY_SUFFIX}" for name in self.proxies]

    def meter(self, role: str) -> cgroups.ContainerMeter:
        """CPU and memory meter of a node or a database (by name), or of "loadgen"."""
        if role not in self._meters:
            container = self._container(role).get_wrapped_container()
            engine = getattr(self._container(role), "engine", None)
            local = self.placement.reads_cgroups(engine) if engine else self.local_engine
            self._meters[role] = cgroups.meter_for(container, local)
        return self._meters[role]

    def widen(self, name: str) -> None:
        """Let a node use every CPU of the engine, without quota (boot and compile phase)."""
        self.nodes[name].get_wrapped_container().update(
            cpuset_cpus=self.engine_cpuset(name), cpu_period=CPU_PERIOD_US, cpu_quota=-1)

    def restore(self, name: str) -> None:
        """Put a node back under its own limits."""
        config = self.node_configs[name]
        container = self.nodes[name].get_wrapped_container()
        container.update(
            cpuset_cpus=config.cpuset, cpu_period=CPU_PERIOD_US, cpu_quota=_cfs_quota(config.cpus))
        if config.disk_write_iops is not None or name in self._disk_limited:
            disk_limits.set_write_iops(container.id, self.data_disk(), config.disk_write_iops)
            self._disk_limited.add(name)  # read back (limits_of) from now on, limited or not

    def set_limits(self, name: str, config: NodeConfig) -> None:
        """New CPU, memory and disk write limits for a running node (its JVM options stay as
        started)."""
        old = self.node_configs[name]
        self._altered = self._altered or config != self.initial_nodes.get(name)
        if config.jvm_command_line() != old.jvm_command_line():
            raise ValueError(f"{name}: JVM options are fixed at start; only limits can change")
        self.node_configs[name] = config
        if config.memory != old.memory:
            self.nodes[name].get_wrapped_container().update(mem_limit=config.memory,
                                                            memswap_limit=config.memory)
        self.restore(name)

    def limits_of(self, name: str) -> dict:
        """A node's or a database's limits as the engine reports them (for read-back)."""
        container = self._container(name).get_wrapped_container()
        container.reload()
        host = container.attrs["HostConfig"]
        quota, period = host.get("CpuQuota") or 0, host.get("CpuPeriod") or 0
        cpus = host.get("NanoCpus") / 1e9 if host.get("NanoCpus") else (
            quota / period if quota > 0 and period else None)
        # only a node this stack has limited can have a limit: nodes are never parked once
        # re-limited (_altered), and a node started limited was limited by restore()
        disk = (disk_limits.write_iops(container.id, self.data_disk())
                if name in self._disk_limited else None)
        return {"cpuset": host.get("CpusetCpus", ""), "cpus": cpus, "memory": host.get("Memory"),
                "disk_write_iops": disk}

    def data_disk(self) -> str:
        """``major:minor`` of the disk behind the engine's containers (disk_limits.py)."""
        if not self.local_engine or self.spread:
            raise RuntimeError("a limit on a node's disk writes is set in its cgroup, which only "
                               "one local engine has (DOCKER_HOST names another machine, or a "
                               "placement spreads the stack over hosts)")
        if self._data_disk is None:
            root = self.client.info().get("DockerRootDir", "")
            try:
                self._data_disk = disk_limits.data_disk(root)
            except OSError as exc:
                raise RuntimeError(f"the disk behind the engine's data ({root!r}) cannot be "
                                   f"found to limit a node's writes: {exc}") from exc
        return self._data_disk

    def address_of(self, name: str) -> str:
        """A container's IP address on the stack's network (what a server sees it as)."""
        container = self._container(name).get_wrapped_container()
        container.reload()
        return container.attrs["NetworkSettings"]["Networks"][self.network.name]["IPAddress"]

    def engine_cpuset(self, node: str = "") -> str:
        """Every CPU of the engine a node runs on (by default: of the stack's engine)."""
        count = self.engine_cpus(node)
        return f"0-{count - 1}" if count > 1 else "0"

    def engine_cpus(self, node: str = "") -> int:
        if node and self.spread:  # the node's host's own count (each host may have its own)
            engine = self.placement.engine_for(node, "node")
            if engine.cpus:
                return engine.cpus
        if self._engine_cpus is None:  # read once: the warm-up asks after every window
            self._engine_cpus = self.client.info().get("NCPU") or os.cpu_count() or 1
        return self._engine_cpus

    def allowed_cpus(self, name: str, *, widened: bool = False) -> float:
        """The CPUs a node may use: its quota, else its cpuset's CPUs; every CPU of the engine
        while it is widened (boot and compile phase)."""
        if widened:
            return float(self.engine_cpus())
        config = self.node_configs[name]
        return config.cpus or len(interference.cpuset_cpus(config.cpuset))

    # -- placement ----------------------------------------------------------------------------
    def _place(self, container, role: str, kind: str):
        """Put a container on the engine its role (of a kind: placement.ROLE_KINDS) goes to,
        with its image there (a spread stack copies an image a host lacks from the engine
        set-up built it on)."""
        if not self.spread:
            return container
        engine = self.placement.engine_for(role, kind)
        key = (engine.host, container.image)
        if key not in self._images_on:
            images.ensure_on(self.client, engine, container.image, self.progress)
            self._images_on.add(key)
        return container.on_engine(engine)

    def lost_hosts(self) -> list[str]:
        """The hosts of a spread stack whose engines do not answer now (none on one engine)."""
        lost = []
        for host, client in self.placement.clients().items():
            try:
                client.ping()
            except Exception:  # refused, timed out, gone: the host is not reachable
                lost.append(host)
        return lost

    def check_hosts(self) -> None:
        """Stop the run if a host of a spread stack is gone (telemetry asks at every window)."""
        lost = self.lost_hosts() if self.spread else []
        if lost:
            raise placements.HostLost(self._lost_text(lost))

    def _lost_text(self, lost: list[str]) -> str:
        roles = [role for role, host in self.placement.roles().items() if host in lost]
        return (f"lost host(s) {', '.join(lost)} during the run: its engine stopped answering "
                f"({', '.join(roles) or 'no role'} ran there); the run stopped, nothing was "
                f"stored, and the run's containers on the other hosts were removed")

    def _hosts_text(self) -> str:
        return "" if not self.spread else f" ({self.placement.kind} placement)"

    def hosts(self) -> dict:
        """Where the stack runs, for the result's provenance (placement.describe), with the CPU
        model of every machine but this one (provenance.machine has it): Docker's info does
        not give it, so it is read through one of the stack's containers there, whose
        /proc/cpuinfo is its kernel's, as /proc/stat is (machines)."""
        described = self.placement.describe()
        if not self.spread:
            if not self.local_engine:
                described["cpu_model"] = self._cpu_model(self.meter_roles()[0])
            return described
        on_host = {}
        for role in self.meter_roles():
            on_host.setdefault(getattr(self._container(role), "engine", None).host, role)
        for host, record in described.get("hosts", {}).items():
            if host in on_host:
                record["cpu_model"] = self._cpu_model(on_host[host])
        return described

    def _cpu_model(self, role: str) -> str:
        return cpuinfo.model(self._container(role).run(["cat", "/proc/cpuinfo"]))

    # -- construction -------------------------------------------------------------------------
    def _container(self, role: str):
        if role in self.databases:
            return self.databases[role]
        if role.endswith(PROXY_SUFFIX) and role[:-len(PROXY_SUFFIX)] in self.proxies:
            return self.proxies[role[:-len(PROXY_SUFFIX)]]
        if role == "loadgen":
            return self.loadgen
        if role in self.balancers:
            return self.balancers[role]
        if role.endswith(FRONT_SUFFIX) and role[:-len(FRONT_SUFFIX)] in self.fronts:
            return self.fronts[role[:-len(FRONT_SUFFIX)]]
        return self.nodes[role]

    def _new_node(self, name: str, config: NodeConfig, booting: int = 1) -> WildFlyNode:
        # ``booting`` nodes boot at once on the engine's CPUs: a node among more nodes than
        # CPUs gets a share of a core and the time to match (four cluster nodes on two cores
        # missed 120 s on a busy host, 2026-11-26).
        shares = math.ceil(booting / self.engine_cpus(name))
        node = WildFlyNode(config.image,
                           boot_timeout_s=WildFlyNode.BOOT_TIMEOUT_S * max(1, shares))
        # a fronted node leaves its name to its front (front.py) and answers behind it
        alias = front.behind(name) if self.config.fronted_nodes else name
        node.on(self.network, alias)
        self._place(node, name, "node")
        node.with_network_aliases(alias, *config.network_aliases)
        # Boot with every CPU (a JVM boots about twice as fast on two cores); its limits are
        # applied with restore(). Memory is capped from the start.
        node.with_name(f"tl-{self.network.name[:8]}-{name}-{int(time.time() * 1000) % 100000}")
        derived = DERIVED_CONFIGS.get(config.server_config)
        if derived is not None:  # made now from the image's own file, copied in before boot
            base = self._image_file(f"{CONFIG_DIR}/{derived.base}").decode("utf-8")
            node.with_boot_files({f"{CONFIG_DIR}/{config.server_config}":
                                  derived.derive(base).encode("utf-8"), **derived.files()})
        # deployed by the server's scanner as it boots, or, with a server set-up, after it
        # (_deploy_held)
        for app in self._apps_of(config):
            node.with_boot_files(app.node_files())
        return (node.with_jvm_options(config.jvm_command_line())
                .with_server_config(config.server_config)
                .with_cpuset(self.engine_cpuset(name)).with_cpu_period(CPU_PERIOD_US)
                .with_memory(config.memory)
                .with_labels(self.scope.labels(f"app:{name}")))

    def _apps_of(self, config: NodeConfig) -> list[apps.App]:
        """The apps a node deploys (NodeConfig.apps)."""
        names = config.apps or apps.node_apps(apps.default_app(self.workspace), self.workspace)
        return [apps.load(name, self.workspace) for name in names]

    def _image_file(self, path: str) -> bytes:
        """A file of the WildFly image, read once per image id and process."""
        key = (self.image_ids.get(images.WILDFLY) or images.WILDFLY, path)
        if key not in _IMAGE_FILES:
            _IMAGE_FILES[key] = read_image_file(self.client, images.WILDFLY, path,
                                                self.scope.labels("image-read"))
        return _IMAGE_FILES[key]

    def _start_together(self, others: list, nodes: dict[str, NodeConfig]) -> None:
        new = {name: self._new_node(name, config, len(nodes)) for name, config in nodes.items()}
        errors: list[BaseException] = []

        def start(container):
            try:
                container.start()
            except BaseException as exc:  # re-raised below in the caller's thread
                errors.append(exc)

        threads = [threading.Thread(target=start, args=(c,)) for c in [*others, *new.values()]]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for name, container in new.items():  # registered even if a sibling failed: clean-up
            self.nodes[name] = container
            self.node_configs[name] = nodes[name]
            self._meters.pop(name, None)
        if errors:
            raise errors[0]

        # The nodes set up and deploy side by side: a cluster's three took 8.4 s one after the
        # other, 5.6 s together (6 December 2026).
        def ready(name):
            client = ManagementClient(new[name].management_url())
            client.wait_running()
            self._management[name] = client
            self._deploy_held(name, nodes[name])
        together(new, ready)

    def _deploy_held(self, name: str, config: NodeConfig) -> None:
        """The apps of a node that bring a server set-up (apps.App.server_setup): the set-up
        applied through the management API (reloaded if an operation asks for it), then their
        archives deployed from where they waited. A failure is a StartupError with WildFly's
        own message, the file, and the end of the node's log."""
        for app in self._apps_of(config):
            held = app.held_archives()
            if not held:
                continue
            management, step = self._management[name], f"apps/{app.name}'s server set-up"
            try:
                reload = apply_operations(management, app.setup_operations())
                if reload:
                    management.reload()
                for archive, path in held.items():
                    step = f"deploying {archive} (apps/{app.name})"
                    deploy_archive(management, archive, path)
            except ManagementError as error:
                raise StartupError(f"{name}: {step}: {error}\n--- last log lines ---\n"
                                   f"{self.nodes[name].tail_logs()}") from None


PROXY_SUFFIX = " proxy"  # a proxy's role in the meters: "db proxy", "app-1-link proxy"
FRONT_SUFFIX = front.ROLE_SUFFIX  # a front's role in the meters: "app-1 front"
JGROUPS_PORT = 7600  # the jgroups-tcp socket binding of standalone-ha.xml


def _link(node: str) -> str:
    """The name of the link proxy in front of a cluster's node (linked_nodes)."""
    return f"{node}-link"


def _behind(name: str) -> str:
    """The name a proxied database answers to behind its proxy, which takes its own."""
    return f"{name}-direct"


def _cfs_quota(cpus: float | None) -> int:
    """A quota of ``cpus`` in microseconds per CPU_PERIOD_US; -1 (none) for None."""
    return int(cpus * CPU_PERIOD_US) if cpus else -1


def _nodes_text(names) -> str:
    names = list(names)
    return f"{len(names)} node{'' if len(names) == 1 else 's'} ({', '.join(names)})"

