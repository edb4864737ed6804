"""One stack: a private network, PostgreSQL, WildFly and the k6 load generator.

The app server is pinned to one core, the database and load generator to the other (DESIGN.md):
the change under test then meets a fixed, known amount of CPU. The database and the app server
start in parallel (the data source connects lazily), so start-up costs the slower of the two.
"""
from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, replace
from typing import Callable

import docker
from testcontainers.core.network import Network

from . import cleanup, images
from .containers import LoadGenerator, PostgresNode, WildFlyNode
from .management import ManagementClient

# Testcontainers guesses the docker gateway as the host inside a container (/.dockerenv);
# published ports here are on 127.0.0.1.
os.environ.setdefault("TESTCONTAINERS_HOST_OVERRIDE", "127.0.0.1")

DEFAULT_JVM_OPTIONS = "-Xms1g -Xmx1g -XX:+UseParallelGC"


@dataclass(frozen=True)
class StackConfig:
    app_cpuset: str = "1"
    db_cpuset: str = "0"
    loadgen_cpuset: str = "0"
    app_memory: str = "2g"
    db_memory: str = "2g"
    app_cpus: float | None = None  # a CPU quota instead of / on top of the cpuset
    jvm_options: str = DEFAULT_JVM_OPTIONS
    server_config: str = "standalone.xml"

    def with_changes(self, **changes) -> "StackConfig":
        return replace(self, **changes)


Progress = Callable[[str], None]


class Stack:
    def __init__(self, config: StackConfig = StackConfig(), progress: Progress = print):
        self.config = config
        self.progress = progress
        self.client = docker.from_env()
        self.scope: cleanup.RunScope | None = None
        self.network: Network | None = None
        self.db: PostgresNode | None = None
        self.app: WildFlyNode | None = None
        self.loadgen: LoadGenerator | None = None
        self.management: ManagementClient | None = None
        self.image_ids: dict[str, str] = {}
        self.started_in_s: float | None = None

    # -- life cycle ---------------------------------------------------------------------------
    def __enter__(self) -> "Stack":
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> None:
        began = time.monotonic()
        self.image_ids = images.require_images(self.client)
        swept = cleanup.sweep_dead_runs(self.client)
        if swept:
            self.progress(f"stack: removed leftovers of dead runs: {', '.join(swept)}")
        self.scope = cleanup.RunScope(self.client).__enter__()
        self.network = Network(docker_network_kw={"labels": self.scope.labels("network")})
        self.network.create()
        self.progress(f"stack: starting db (cpuset {self.config.db_cpuset}) and app server "
                      f"(cpuset {self.config.app_cpuset}, {self.config.app_memory}, "
                      f"{self.config.jvm_options}) on network {self.network.name[:8]}")
        self.db = self._new_db()
        self.app = self._new_app(self.config)
        self._start_together(self.db, self.app)
        self.loadgen = self._new_loadgen()
        self.loadgen.start()
        self.management = ManagementClient(self.app.management_url())
        self.management.wait_running()
        self.started_in_s = time.monotonic() - began
        self.progress(f"stack: ready in {self.started_in_s:.1f} s")

    def close(self) -> None:
        if self.scope is not None:
            self.scope.__exit__(None, None, None)
            self.scope = None

    # -- reconfiguration ----------------------------------------------------------------------
    def restart_app(self, config: StackConfig) -> float:
        """Replace the app-server container (JVM options and container limits are fixed at
        start). Returns the seconds it took until the server runs."""
        began = time.monotonic()
        old = self.app
        if old is not None:
            old.get_wrapped_container().remove(force=True)
        self.config = config
        self.app = self._new_app(config)
        self.app.start()
        self.management = ManagementClient(self.app.management_url())
        self.management.wait_running()
        return time.monotonic() - began

    # -- construction -------------------------------------------------------------------------
    def _new_db(self) -> PostgresNode:
        return (PostgresNode().on(self.network, "db")
                .with_cpuset(self.config.db_cpuset).with_memory(self.config.db_memory)
                .with_labels(self.scope.labels("db")))

    def _new_app(self, config: StackConfig) -> WildFlyNode:
        node = WildFlyNode()
        node.on(self.network, "app")
        node.with_name(f"tl-{self.network.name[:8]}-app-{int(time.time() * 1000) % 100000}")
        return (node.with_jvm_options(config.jvm_options)
                .with_server_config(config.server_config)
                .with_cpuset(config.app_cpuset).with_cpu_quota(config.app_cpus)
                .with_memory(config.app_memory)
                .with_labels(self.scope.labels("app")))

    def _new_loadgen(self) -> LoadGenerator:
        return (LoadGenerator().on(self.network, "loadgen")
                .with_cpuset(self.config.loadgen_cpuset)
                .with_labels(self.scope.labels("loadgen")))

    @staticmethod
    def _start_together(*containers) -> None:
        errors: list[BaseException] = []

        def start(container):
            try:
                container.start()
            except BaseException as exc:  # re-raised below in the caller's thread
                errors.append(exc)

        threads = [threading.Thread(target=start, args=(c,)) for c in containers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]
