"""A stack without Docker, for a whole run of the engine in a unit test.

``FakeStack`` is the real ``Stack`` (its members, limits read-back, app look-ups and CPU
arithmetic are the code under test) with the containers replaced: a node is a small model of
WildFly's management API and of the app's configuration report, a container's limits are what
the engine last wrote to it, and CPU counters grow with the clock. ``FakeDriver`` answers each
window with a summary in the lab's contract. Nothing here is a measurement, and nothing it
makes is ever stored outside a test's temporary folder.

What the fakes keep honest: a setting is what the engine wrote (a read-back of anything else
fails), and the app reports the tl.* properties it read when it last deployed, so a property
written without a redeployment or a reload is caught as it would be on a real node.
"""
from __future__ import annotations

import itertools
import json
import time
from types import SimpleNamespace

from tuninglab import images, management, network
from tuninglab.stack import Stack

GC = tuple(management.PLATFORM_GC)
RUNTIME = tuple(management.PLATFORM_RUNTIME)
COMPILATION = tuple(management.PLATFORM_COMPILATION)
OPERATING_SYSTEM = tuple(management.PLATFORM_OPERATING_SYSTEM)
MEMORY = tuple(management.PLATFORM_MEMORY)


class FakeManagement:
    """WildFly's management API as the engine uses it: attributes and resources the engine
    wrote, platform MBeans with plausible values, reloads and redeployments counted."""

    def __init__(self, node: "FakeNode"):
        self.node = node
        self.resources: dict[tuple, dict] = {}
        self.attributes: dict[tuple, object] = {}
        self.state = "running"
        self.reloads = self.redeploys = 0
        self.started = time.monotonic()

    # -- the operations the engine sends ------------------------------------------------------
    def execute(self, operation, address=(), **params):
        address = tuple(tuple(a) for a in address)
        if operation == "add":
            if address in self.resources:
                raise management.ManagementError(f"WFLYCTL0212: Duplicate resource {address}")
            self.resources[address] = dict(params)
        elif operation == "remove":
            self.resources.pop(address, None)
        elif operation == "write-attribute":
            self._write(address, params["name"], params["value"])
        elif operation == "undefine-attribute":  # back to the attribute's default
            self.attributes.pop((address, params["name"]), None)
        elif operation == "redeploy":
            self.redeploys += 1
            self.node.deploy()
        elif operation == "read-attribute":
            return management.Response(self.read_attribute(list(address), params["name"]), {})
        elif operation == "read-resource":
            return management.Response(self.read_resource(list(address)), {})
        return management.Response(None, {})

    def _write(self, address, name, value):
        if address[:1] == (("system-property", address[0][1]),) and name == "value":
            self.resources.setdefault(address, {})["value"] = value
        self.attributes[(address, name)] = value

    def read_attribute(self, address, name, include_defaults=True):
        address = tuple(tuple(a) for a in address)
        if (address, name) in self.attributes:
            return self.attributes[(address, name)]
        if address in self.resources and name in self.resources[address]:
            return self.resources[address][name]
        if address == COMPILATION and name == "total-compilation-time":
            return int((time.monotonic() - self.started) * 10)  # ms: a quiet compiler
        if address == MEMORY and name == "heap-memory-usage":
            return {"used": 100 << 20, "committed": 256 << 20, "max": 512 << 20}
        if address == () and name in ("product-name", "product-version"):
            return {"product-name": "WildFly (fake)", "product-version": "0"}[name]
        return None if not include_defaults else self._default(address, name)

    @staticmethod
    def _default(address, name):
        return "INFO" if name == "level" else None

    def read_resource(self, address=(), *, runtime=False, recursive=False):
        address = tuple(tuple(a) for a in address)
        if address == GC:
            return {"name": {"G1 Young Generation": {"collection-count": 1, "collection-time": 2}}}
        if address == RUNTIME:
            return {"input-arguments": [], "vm-name": "fake VM", "vm-version": "0",
                    "spec-version": "21", "uptime": int((time.monotonic() - self.started) * 1000)}
        if address == OPERATING_SYSTEM:
            return {"available-processors": 1}
        if address == MEMORY:
            return {"heap-memory-usage": self.read_attribute(list(MEMORY), "heap-memory-usage")}
        if address in self.resources:
            return dict(self.resources[address])
        if address == ():  # the whole model, nested as WildFly's recursive read is
            return self._tree()
        return {}

    def _tree(self) -> dict:
        tree: dict = {}

        def at(address):
            here = tree
            for key, value in address:
                here = here.setdefault(key, {}).setdefault(value, {})
            return here
        for address, attrs in self.resources.items():
            at(address).update(attrs)
        for (address, name), value in self.attributes.items():
            at(address)[name] = value
        return tree

    def resource_exists(self, address):
        return tuple(tuple(a) for a in address) in self.resources

    def server_state(self):
        return self.state

    def reload(self, timeout: float = 120.0):
        self.reloads += 1
        self.state = "running"
        self.node.deploy()
        return 0.0

    def wait_running(self, timeout: float = 120.0, since=None):
        return None

    def properties(self) -> dict[str, str]:
        return {address[0][1]: attrs.get("value") for address, attrs in self.resources.items()
                if address and address[0][0] == "system-property"}


class FakeDockerContainer:
    """What the engine reads of a container through Docker: its limits, as last written."""

    def __init__(self, cpuset: str, cpus: float | None, memory: int | None):
        self.attrs = {"HostConfig": {"CpusetCpus": cpuset, "NanoCpus": 0, "Memory": memory,
                                     "CpuQuota": int(cpus * 100_000) if cpus else 0,
                                     "CpuPeriod": 100_000}}
        self.id = f"fake{id(self):x}"

    def update(self, cpuset_cpus=None, cpu_period=None, cpu_quota=None, **_):
        host = self.attrs["HostConfig"]
        if cpuset_cpus is not None:
            host["CpusetCpus"] = cpuset_cpus
        if cpu_period is not None:
            host["CpuPeriod"] = cpu_period
        if cpu_quota is not None:
            host["CpuQuota"] = max(cpu_quota, 0)

    def reload(self):
        return None

    def exec_run(self, command, detach=False, **_):
        return SimpleNamespace(exit_code=0, output=b"")


class FakeContainer:
    """A container of the stack: its image, its Docker view, its logs (empty)."""

    def __init__(self, image: str, docker_view: FakeDockerContainer):
        self.image = image
        self._docker = docker_view

    def get_wrapped_container(self):
        return self._docker

    def tail_logs(self, lines: int = 40) -> str:
        return ""

    def error_lines(self, tail: int = 400, keep: int = 20) -> list[str]:
        return []

    def put_files(self, files, mode: int = 0o644) -> None:
        return None

    def run(self, command, user: str = "", env=None) -> str:
        if command and command[0] == network.TOOL:  # a network reading: a fake stack has none
            return json.dumps({"median_us": 0.0, "p90_us": 0.0, "mbit_s": 0.0, "bytes": 0})
        return ""

    def run_on_jvm(self, per_process: str) -> str:
        raise RuntimeError("a fake node has no JVM threads to read")


class FakeNode(FakeContainer):
    """A WildFly node: its management model, and the configuration its app reports (the tl.*
    properties as they were when the app last deployed)."""

    def __init__(self, name: str, docker_view: FakeDockerContainer):
        super().__init__(images.WILDFLY, docker_view)
        self.name = name
        self.management = FakeManagement(self)
        self.app_properties: dict[str, str] = {}

    def deploy(self) -> None:
        self.app_properties = self.management.properties()

    def app_url(self) -> str:
        return f"http://{self.name}.fake"

    def management_url(self) -> str:
        return f"http://{self.name}.fake:9990"


class FakeDatabase(FakeContainer):
    def setting(self, name: str) -> str:
        return {"server_version": "17.0 (fake)"}.get(name, "")


class FakeMeter:
    """CPU seconds that grow with the clock at a fixed share of a core; memory fixed."""

    def __init__(self, share: float):
        self.share, self.origin = share, time.monotonic()

    def cpu_seconds(self) -> float:
        return (time.monotonic() - self.origin) * self.share

    def processes(self):
        return None

    def memory(self) -> dict:
        return {"memory_bytes": 300 << 20, "memory_peak_bytes": 310 << 20}


class FakeStack(Stack):
    """The engine's Stack with fake containers: started and closed without Docker."""

    started = []  # every FakeStack a test made, newest last

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        FakeStack.started.append(self)
        self.local_engine = False  # no /proc/stat of containers to read
        self.closed = False

    def start(self) -> None:
        began = time.monotonic()
        self.image_ids = {image: f"sha256:{image}" for image in
                          (images.WILDFLY, images.DB, images.LOADGEN)}
        self.databases = {name: FakeDatabase(images.DB, FakeDockerContainer(
            self.config.db_cpuset, self.config.db_cpus, None)) for name in self.config.databases}
        self.loadgen = FakeContainer(images.LOADGEN, FakeDockerContainer(
            self.config.loadgen_cpuset, None, None))
        for name, config in self.initial_nodes.items():
            self.nodes[name] = node = FakeNode(name, FakeDockerContainer(
                self.engine_cpuset(), None, _bytes(config.memory)))
            self.node_configs[name] = config
            self._management[name] = node.management
            node.deploy()
        self.started_in_s = time.monotonic() - began
        self.progress(f"stack: {len(self.nodes)} fake node(s) ready")

    def close(self) -> None:
        self.closed = True

    def meter(self, role: str):
        if role not in self._meters:
            self._meters[role] = FakeMeter(0.5 if role in self.nodes else 0.1)
        return self._meters[role]

    def save_pristine(self, names=None) -> None:
        return None

    def address_of(self, name: str) -> str:
        return f"{name}.fake"


def _bytes(memory: str | None) -> int | None:
    from tuninglab.changes.container_limits import to_bytes
    return to_bytes(memory) if memory else None


class FakeDriver:
    """A load driver whose windows complete ``rate`` transactions a second of each type in
    the spec's mix (``rates``: by target node, so an arm's node decides its number)."""

    name = "fake"
    image, inputs = images.LOADGEN, ()  # the common load generator
    windows_side_by_side, client_jvm = True, False  # as k6's

    def __init__(self, rates: dict[str, float] | None = None, default: float = 50.0):
        self.rates, self.default = rates or {}, default
        self.calls: list[tuple] = []
        self._jitter = itertools.cycle([0.99, 1.01, 1.0, 0.98, 1.02])

    def _summary(self, spec, seconds: float, count: int | None = None) -> dict:
        rate = self.rates.get(spec.target, self.default) * next(self._jitter)
        n = count if count is not None else max(1, int(rate * seconds / max(len(spec.mix), 1)))
        return {"trial_s": seconds, "transactions": {
            name: {"count": n, "failed": 0,
                   "latency_ms": {"p(50)": 2.0, "p(95)": 5.0, "p(99)": 8.0, "avg": 2.5}}
            for name in spec.mix}}

    def install(self, client, app, specs=()) -> None:
        self.calls.append(("install", app.name))

    def run(self, client, spec, seconds) -> dict:
        self.calls.append(("run", spec.target, seconds))
        return self._summary(spec, seconds)

    def smoke(self, client, spec, rounds) -> dict:
        self.calls.append(("smoke", spec.target, rounds))
        return self._summary(spec, 1, count=rounds)

    def version(self, client) -> str:
        return "fake 0"


def app_config_of(stack_getter):
    """model.app_config for fake nodes: the configuration report of the node a URL names, each
    tl.<section>.<key> property it read at its last deployment under its section."""
    from tuninglab.changes import model

    def app_config(url: str) -> dict:
        stack = stack_getter()
        node = next(n for n in stack.nodes.values() if url.startswith(n.app_url()))
        config: dict = {}
        for name, value in node.app_properties.items():
            section, key = model.PROPERTY_VIEWS.get(name) or name.split(".", 2)[1:]
            config.setdefault(section, {})[key] = value
        return config
    return app_config


def fake_docker_client():
    return SimpleNamespace(info=lambda: {"NCPU": 2})
