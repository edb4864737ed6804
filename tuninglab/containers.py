"""The stack's containers, the Testcontainers way: small classes with fluent `with_*` setters,
an explicit wait strategy each, and the container's logs attached to any start-up failure.

Every container gets CPU placement and a memory cap (the JVM and WildFly size their thread
pools and GC from what the container allows), the run's labels (see cleanup.py), and a name on
the stack's private network. Only WildFly's management port is published, on 127.0.0.1, for the
library's own management calls; the load travels over the private network.
"""
from __future__ import annotations

import io
import json
import re
import shlex
import tarfile
import time
from dataclasses import dataclass
from typing import Callable

from testcontainers.core.container import DockerContainer
from testcontainers.core.docker_client import DockerClient as TestcontainersDockerClient
from testcontainers.core.network import Network
from testcontainers.core.wait_strategies import LogMessageWaitStrategy

from . import images
from .network import ECHO_PORT, SINK_PORT, TOOL as NETWORK_TOOL
from .placement import API_TIMEOUT_S
from .safety import jvm_options as safety_jvm_options


class StartupError(RuntimeError):
    pass


class LabContainer(DockerContainer):
    """A DockerContainer with resource limits and labels collected by fluent setters."""

    def __init__(self, image: str, role: str):
        super().__init__(image, docker_client_kw={"timeout": API_TIMEOUT_S})
        self.role = role
        self._create_options: dict = {}

    def with_cpuset(self, cpus: str | None) -> "LabContainer":
        if cpus:
            self._create_options["cpuset_cpus"] = cpus
        return self

    def with_cpu_period(self, period_us: int) -> "LabContainer":
        """The CFS period that later quotas (docker update) are counted in."""
        self._create_options["cpu_period"] = period_us
        return self

    def with_cpu_quota(self, cpus: float | None, period_us: int) -> "LabContainer":
        """A CPU quota from the start (None: none), counted in CFS periods of ``period_us``."""
        self.with_cpu_period(period_us)
        if cpus:
            self._create_options["cpu_quota"] = int(cpus * period_us)
        return self

    def with_memory(self, limit: str | None) -> "LabContainer":
        if limit:
            self._create_options["mem_limit"] = limit
            self._create_options["memswap_limit"] = limit  # no swap: a too-small heap must show
        return self

    def with_labels(self, labels: dict[str, str]) -> "LabContainer":
        self._create_options["labels"] = labels
        return self

    def on(self, network: Network, alias: str) -> "LabContainer":
        return self.with_network(network).with_network_aliases(alias).with_name(
            f"tl-{network.name[:8]}-{alias}")

    def on_engine(self, engine) -> "LabContainer":
        """Start on this engine (placement.Engine) instead of the environment's, and publish
        the library's ports on the address this machine reaches that host at."""
        self.engine = engine
        if engine.url:
            # Testcontainers takes its client's arguments only in the constructor; the
            # containers here are built before the stack knows where they go.
            self._docker = TestcontainersDockerClient(**engine.client_kw())
        for port, (ip, host_port) in list(self.ports.items()):
            if ip == "127.0.0.1":
                self.ports[port] = (engine.address, host_port)
        return self

    def _configure(self) -> None:
        self.with_kwargs(**self._create_options)

    def start(self) -> "LabContainer":
        try:
            return super().start()
        except Exception as exc:
            raise StartupError(f"{self.role} container did not start: {exc}\n"
                               f"--- last log lines ---\n{self.tail_logs()}") from exc

    def tail_logs(self, lines: int = 40) -> str:
        try:
            out, err = self.get_logs()
        except Exception:  # the container may not exist at all
            return "(no logs)"
        text = (out + err).decode(errors="replace").splitlines()
        return "\n".join(text[-lines:])

    def error_lines(self, tail: int = 400, keep: int = 20) -> list[str]:
        """The server's ERROR lines among its last ``tail`` log lines (the last ``keep``): what a
        trial with failed requests stores, so its errors come with the server's reason."""
        try:
            text = self.get_wrapped_container().logs(tail=tail).decode(errors="replace")
        except Exception:  # the container may be gone
            return []
        return [line for line in text.splitlines() if " ERROR " in line][-keep:]

    def run(self, command: list[str], user: str = "", env: dict | None = None) -> str:
        """Run a command in the container; a non-zero exit is an error carrying its output."""
        result = self.get_wrapped_container().exec_run(command, user=user, environment=env)
        output = result.output.decode(errors="replace")
        if result.exit_code != 0:
            raise RuntimeError(f"{self.role}: `{shlex.join(command)}` exited "
                               f"{result.exit_code}: {output.strip()[-2000:]}")
        return output

    def put_file(self, path: str, content: str, mode: int = 0o644) -> None:
        self.put_bytes(path, content.encode(), mode)

    def put_bytes(self, path: str, data: bytes, mode: int = 0o644) -> None:
        self.put_files({path: data}, mode)

    def put_files(self, files: dict[str, bytes], mode: int = 0o644) -> None:
        """Write files (absolute path -> bytes) in one archive; missing folders are made."""
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w") as tar:
            for path, data in files.items():
                info = tarfile.TarInfo(path.lstrip("/"))
                info.size, info.mode, info.mtime = len(data), mode, int(time.time())
                tar.addfile(info, io.BytesIO(data))
        self.get_wrapped_container().put_archive("/", buffer.getvalue())


class PostgresNode(LabContainer):
    """PostgreSQL 17 from the lab's image, or from an image with the apps' seeds baked on top
    of it (seeding.py): the data is in the image, so it is ready in about a second."""

    CONF_DIR = "/etc/tuninglab/conf.d"

    def __init__(self, image: str = images.DB):
        super().__init__(image, "db")
        self.waiting_for(LogMessageWaitStrategy("database system is ready to accept connections")
                         .with_startup_timeout(60).with_poll_interval(0.1))

    # How long the engine's own connection waits for a free slot. A server at a lowered
    # max_connections whose clients keep retrying can have every slot, the superuser's reserve
    # too, held for a moment by attempts it is about to turn away (cluster-max-connections in
    # CI, 27 November 2026: switching its arm back failed on "too many clients already").
    SLOT_WAIT_S = 10.0

    def sql(self, statement: str, database: str = "postgres") -> str:
        """Run SQL as the superuser over the local socket; returns unaligned output. The
        server's settings and statistics read the same from any database: the default is the
        one initdb always makes (an app's own is apps.App.database)."""
        deadline = time.monotonic() + self.SLOT_WAIT_S
        while True:
            try:
                return self.run(["psql", "-X", "-q", "-At", "-d", database, "-c", statement],
                                user="postgres").strip()
            except RuntimeError as error:
                if "too many clients already" not in str(error) or time.monotonic() >= deadline:
                    raise
                time.sleep(0.1)

    # How PostgreSQL reports the aborts it forces (lc_messages is C: snippets/baseline): a
    # deadlock it broke, and a transaction that repeatable read or serializable could not let
    # commit (SQLSTATE 40001: "... due to concurrent update", "... due to read/write
    # dependencies among transactions").
    ABORT_LINES = {"deadlocks": "ERROR:  deadlock detected",
                   "serialization_failures": "ERROR:  could not serialize access"}

    def aborts_logged(self) -> dict[str, int]:
        """Deadlocks and serialization failures since the server started, counted in its log
        (one read for both): written as each happens, where pg_stat_database may count a
        deadlock only seconds later and has no count of serialization failures at all
        (database_stats.py)."""
        text = self.get_wrapped_container().logs().decode(errors="replace")
        return {kind: text.count(line) for kind, line in self.ABORT_LINES.items()}

    def setting(self, name: str) -> str:
        if not re.fullmatch(r"[a-z_.]+", name):
            raise ValueError(f"not a PostgreSQL setting name: {name!r}")
        return self.sql(f"SHOW {name}")

    def settings(self) -> dict[str, str]:
        """Every setting one can set. Internal ones are left out: the server computes them
        from others (max_connections moves shared_memory_size), and nothing can write them."""
        rows = self.sql("SELECT json_object_agg(name, setting) FROM pg_settings "
                        "WHERE context <> 'internal'")
        return json.loads(rows)

    def pending_restart(self) -> list[str]:
        rows = self.sql("SELECT name FROM pg_settings WHERE pending_restart")
        return [r for r in rows.splitlines() if r]

    def reload_config(self) -> None:
        self.sql("SELECT pg_reload_conf()")
        time.sleep(0.2)  # the postmaster signals its children asynchronously

    def restart(self) -> None:
        container = self.get_wrapped_container()
        container.restart(timeout=30)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if container.exec_run(["pg_isready", "-q"], user="postgres").exit_code == 0:
                return
            time.sleep(0.2)
        raise StartupError(f"db did not come back after a restart\n{self.tail_logs()}")


@dataclass(frozen=True)
class DerivedConfig:
    """A server configuration a node can boot from that the image does not hold: made when
    the node is created from one the image does hold (``base``), with files of its own."""

    base: str
    derive: Callable[[str], str]  # the base file's text -> this configuration's text
    files: Callable[[], dict[str, bytes]] = dict  # more files the node boots with (path -> bytes)


# By name (SERVER_CONFIG). A role that boots differently registers one: cluster.py registers
# standalone-ha with DNS discovery, so a cluster's nodes find each other without a reload.
DERIVED_CONFIGS: dict[str, DerivedConfig] = {}


def read_image_file(client, image: str, path: str, labels: dict[str, str]) -> bytes:
    """A file of an image, read from a container that is created and never started."""
    container = client.containers.create(image, entrypoint=["true"], labels=labels)
    try:
        stream, _ = container.get_archive(path)
        with tarfile.open(fileobj=io.BytesIO(b"".join(stream))) as tar:
            return tar.extractfile(tar.getmembers()[0]).read()
    finally:
        container.remove(force=True)


class WildFlyNode(LabContainer):
    """WildFly 39 with the PostgreSQL driver and the lab's baseline; the apps a node deploys are
    copied in before it starts (Stack._new_node)."""

    MANAGEMENT_PORT = 9990
    HTTP_PORT = 8080
    # A node booting with a core or more to itself. 180 s, not 120: in a local CI run of
    # 8 December 2026 a two-node cluster's node (http-session-granularity), booting while the
    # other notebook of the pair ran its own stack on the same two cores, registered its last
    # web context just as 120 s ran out, and failed the notebook; a hung boot is still caught.
    BOOT_TIMEOUT_S = 180

    def __init__(self, image: str = images.WILDFLY, boot_timeout_s: float = BOOT_TIMEOUT_S):
        super().__init__(image, "app")
        # Published for the library's own calls only (management, /api/config read-back),
        # on 127.0.0.1, never 0.0.0.0; the load goes over the private network.
        for port in (self.MANAGEMENT_PORT, self.HTTP_PORT):
            self.ports[f"{port}/tcp"] = ("127.0.0.1", None)
        self.waiting_for(LogMessageWaitStrategy(r"WFLYSRV0025|WFLYSRV0026")
                         .with_startup_timeout(boot_timeout_s).with_poll_interval(0.2))
        self.jvm_options = ""
        self.boot_files: list[str] = []

    def with_jvm_options(self, options: str) -> "WildFlyNode":
        self.jvm_options = options
        # standalone.sh evals JAVA_OPTS: quoted, each option reaches the JVM as text
        return self.with_env("JAVA_OPTS", safety_jvm_options.for_eval(options))

    def with_server_config(self, name: str) -> "WildFlyNode":
        return self.with_env("SERVER_CONFIG", name)

    def with_boot_files(self, files: dict[str, bytes]) -> "WildFlyNode":
        """Files copied in after the container is created and before it starts."""
        for path, data in files.items():
            self.with_copy_into_container(data, path)
        self.boot_files = [*self.boot_files, *files]
        return self

    def start(self) -> "WildFlyNode":
        super().start()
        if self.boot_files:  # copied in as root; the server writes its configuration back
            self.run(["chown", "wildfly:wildfly", *self.boot_files], user="root")
        if "WFLYSRV0026" in self.tail_logs(200):
            raise StartupError(f"WildFly ({self.role}) started with errors; the end of its log:\n"
                               f"{self.tail_logs()}")
        return self

    def run_on_jvm(self, per_process: str) -> str:
        """Run a shell fragment for the container's JVM process, its /proc directory in $p.
        The JVM is found by its command name, java: a match on the command line would also
        match this shell, whose own line names what it looks for (a THP read-back once read
        the shell's memory that way)."""
        return self.run(["sh", "-c", "for p in /proc/[0-9]*; do if [ \"$(cat $p/comm "
                         "2>/dev/null)\" = java ]; then " + per_process + "; fi; done"])

    def management_url(self) -> str:
        return self._published_url(self.MANAGEMENT_PORT)

    def app_url(self) -> str:
        return self._published_url(self.HTTP_PORT)

    def _published_url(self, port: int) -> str:
        container = self.get_wrapped_container()
        if not container.attrs["NetworkSettings"]["Ports"]:
            container.reload()
        binding = container.attrs["NetworkSettings"]["Ports"][f"{port}/tcp"][0]
        return f"http://{binding['HostIp']}:{binding['HostPort']}"


class Balancer(LabContainer):
    """HAProxy in front of a cluster's nodes (images/balancer): the load generator sends its
    load to the balancer's name instead of a node's. Its runtime API answers the read-back:
    the policy in force and how many requests each node served."""

    POLICIES = ("roundrobin", "leastconn", "random", "first")
    HTTP_PORT = 8080

    def __init__(self, backends: list[str], policy: str = "roundrobin", server_maxconn: int = 0,
                 image: str = images.BALANCER):
        super().__init__(image, "balancer")
        if not backends:
            raise ValueError("a balancer needs at least one node behind it")
        self._check_policy(policy)
        self.backends = list(backends)
        self.server_maxconn = server_maxconn
        self.with_env("TL_BACKENDS", ",".join(f"{b}:{WildFlyNode.HTTP_PORT}" for b in backends))
        self.with_env("TL_POLICY", policy)
        self.with_env("TL_SERVER_MAXCONN", str(server_maxconn))
        self.waiting_for(LogMessageWaitStrategy("tl-balancer: starting HAProxy")
                         .with_startup_timeout(30).with_poll_interval(0.1))

    def start(self) -> "Balancer":
        super().start()
        self.wait_until_up()
        return self

    def wait_until_up(self, seconds: float = 20) -> None:
        """Until every node passed its health check (after start, or after nodes reloaded)."""
        down = ["(no runtime API yet)"]

        def all_up() -> bool:  # the runtime API answers and every node passed its health check
            try:
                down[:] = [n for n, row in self.stats().items()
                           if n != "BACKEND" and not row.get("status", "").startswith("UP")]
            except RuntimeError:
                down[:] = ["(no runtime API yet)"]
            return not down

        self._wait_until(all_up, seconds, lambda: f"the balancer does not see node(s) "
                                                  f"{', '.join(down)} up after {seconds:.0f} s")

    STATS_PATIENCE_S = 10.0

    def stats(self) -> dict[str, dict[str, str]]:
        """HAProxy's statistics of the nodes' backend: a row per node and one for the backend
        ("BACKEND"), each a dict of HAProxy's CSV columns.

        While the master hands the stats socket from an old worker to a new one (a policy
        switch reloads), or while a parked balancer's engine connection is renewed, a read
        can come back empty, cut short or refused. Such a read is retried for
        STATS_PATIENCE_S; only then is it an error (RuntimeError, with what was read)."""
        deadline = time.monotonic() + self.STATS_PATIENCE_S
        while True:
            try:
                return parse_haproxy_stats(self.run(["tl-balancer", "stat"]))
            except (RuntimeError, OSError) as failure:  # OSError: e.g. BrokenPipeError
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the balancer's statistics could not be read for "
                                       f"{self.STATS_PATIENCE_S:.0f} s: {failure}") from failure
            time.sleep(0.2)

    def policy(self) -> str:
        """The policy in force, as HAProxy reports it (its configuration file is only what
        was asked for). HAProxy 3.0 has no name for random in its statistics and reports it
        as "unknown"; only then is the configuration the running worker loaded consulted."""
        algo = self.stats()["BACKEND"].get("algo", "")
        if algo == "unknown" and self.configured_policy() == "random":
            return "random"
        return algo

    def configured_policy(self) -> str:
        """The balance line of the configuration file (what was last asked for)."""
        found = re.search(r"^\s*balance\s+(\S+)", self.run(["tl-balancer", "config"]), re.M)
        return found.group(1) if found else ""

    def requests_by_node(self) -> dict[str, int]:
        """HTTP responses each node has given through the balancer since it started (the sum of
        HAProxy's per-node response counters; health checks are not among them)."""
        return {name: sum(int(v or 0) for k, v in row.items() if k.startswith("hrsp_"))
                for name, row in self.stats().items() if name != "BACKEND"}

    def node_states(self) -> dict[str, str]:
        """Each node's state as HAProxy reports it: UP, DOWN (failed its health check) or
        MAINT (taken out of the rotation)."""
        return {name: row.get("status", "") for name, row in self.stats().items()
                if name != "BACKEND"}

    def set_state(self, node: str, state: str) -> None:
        """Put a node in the rotation ("ready") or take it out ("maint"; its requests in
        flight finish), at runtime; read back from the statistics."""
        if state not in ("ready", "maint"):
            raise ValueError(f"a node's state is ready or maint, not {state!r}")
        if node not in self.backends:
            raise ValueError(f"{node} is not behind this balancer; nodes: {', '.join(self.backends)}")
        self.run(["tl-balancer", "state", node, state])
        wanted = "MAINT" if state == "maint" else "UP"
        self._wait_until(lambda: self.node_states()[node].startswith(wanted), 10,
                         lambda: f"{node} is not {wanted} 10 s after 'state {state}'")

    def set_policy(self, policy: str) -> None:
        """Switch the running balancer's policy (its master reloads the configuration; open
        client connections are finished by the old worker)."""
        self._check_policy(policy)
        self.run(["tl-balancer", "policy", policy])
        # the new worker answers the runtime API once the reload is done
        self._wait_until(lambda: self.policy() == policy, 10,
                         lambda: f"the balancer did not take policy {policy} within 10 s")

    def _check_policy(self, policy: str) -> None:
        if policy not in self.POLICIES:
            raise ValueError(f"unknown balancing policy {policy!r}; allowed: "
                             f"{', '.join(self.POLICIES)}")

    def _wait_until(self, done, seconds: float, failure) -> None:
        """Poll ``done()`` (a runtime API that does not answer yet counts as not done) until
        it holds, or raise StartupError with ``failure()`` and the balancer's log."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                if done():
                    return
            except RuntimeError:
                pass
            if time.monotonic() > deadline:
                raise StartupError(f"{failure()}\n{self.tail_logs()}")
            time.sleep(0.1)


def parse_haproxy_stats(text: str) -> dict[str, dict[str, str]]:
    """`show stat` CSV -> the rows of backend "nodes" by server name ("BACKEND" included).
    An answer without a header and a BACKEND row is a read that was cut short: RuntimeError."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines or not lines[0].startswith("#"):
        raise RuntimeError(f"HAProxy's statistics have no header: {text.strip()[:200]!r}")
    header = lines[0].lstrip("# ").split(",")
    rows = [dict(zip(header, ln.split(","))) for ln in lines[1:]]
    nodes = {r["svname"]: r for r in rows if r.get("pxname") == "nodes" and "svname" in r}
    if "BACKEND" not in nodes:
        raise RuntimeError(f"HAProxy's statistics have no row for backend 'nodes' "
                           f"({len(rows)} row(s) read)")
    return nodes


SUMMARY_MARKER = "--- tuninglab summary ---"  # workloads/mix.js prints its summary after it


class LoadGenerator(LabContainer):
    """The load driver's container: k6 with the workload scripts (or, for a driver with an
    image of its own, that image: drivers/); each trial is a driver's run exec'd into it."""

    def __init__(self, image: str = images.LOADGEN):
        super().__init__(image, "loadgen")
        self.with_command(["sleep", "infinity"])

    def k6_run(self, script: str, env: dict[str, str]) -> dict:
        """One k6 run; its JSON summary, which the script prints after SUMMARY_MARKER."""
        # exit code 99: a threshold failed; we set none that can
        return self.summary_run(["k6", "run", "--quiet", "--no-color", "--no-usage-report",
                                 script], env, "k6", ok=(0, 99))

    def summary_run(self, command: list[str], env: dict[str, str], tool: str,
                    ok: tuple[int, ...] = (0,)) -> dict:
        """Run a load driver's command; the JSON summary it prints after SUMMARY_MARKER (the
        lab's contract). A failed command or a missing summary raises with its last output."""
        result = self.get_wrapped_container().exec_run(command, environment=env)
        output = result.output.decode(errors="replace")
        if result.exit_code not in ok:
            raise RuntimeError(f"{tool} exited {result.exit_code}: {output.strip()[-3000:]}")
        _, marker, summary = output.rpartition(SUMMARY_MARKER)
        if not marker:
            raise RuntimeError(f"{tool} printed no summary: {output.strip()[-3000:]}")
        return json.loads(summary.strip().splitlines()[0])

    def k6_version(self) -> str:
        return self.run(["k6", "version"]).split()[1]


class LinkProxy(LabContainer):
    """A TCP proxy that stands for the network on a path: it adds a round-trip delay and caps
    the link's rate, both set at runtime (tl-net delay, network.py). In front of a database it
    takes the database's name on the stack's network, so the nodes' data sources reach the
    database through it; in front of a cluster's node it takes the node's place under the name
    the nodes find each other by, and the node tells the others to reach it there. Its echo and
    sink routes lead to an echo server and a sink at the far end on the same path (the same
    delay, the same link), which is how the delay and the rate are read back."""

    def __init__(self, routes: dict[int, str], tool: bytes, image: str = images.DB):
        # tl-net is a static binary: any image runs it, and every stack has the database's
        # (on a swarm's host too), so the proxy brings no image of its own
        super().__init__(image, "proxy")
        self.routes = dict(routes)  # {port it listens on: "host:port" it forwards to}
        self.with_copy_into_container(tool, NETWORK_TOOL, 0o755)
        self._create_options["entrypoint"] = [
            NETWORK_TOOL, "delay", *(f"-route=:{port}={to}" for port, to in self.routes.items())]
        self.waiting_for(LogMessageWaitStrategy("tl-net: delaying")
                         .with_startup_timeout(20).with_poll_interval(0.1))

    @staticmethod
    def routes_to(host: str, port: int) -> dict[int, str]:
        """The far end's port and the measuring tool's, each to ``host``."""
        return {p: f"{host}:{p}" for p in (port, ECHO_PORT, SINK_PORT)}

    def set_delay_us(self, delay_us: int) -> dict:
        """Set the added round trip; the proxy's own report of what it now adds."""
        return json.loads(self.run([NETWORK_TOOL, "set", f"-delay-us={int(delay_us)}"]))

    def set_rate_kbit(self, rate_kbit: int) -> dict:
        """Cap the link's rate in each direction (0: no cap); the proxy's report."""
        return json.loads(self.run([NETWORK_TOOL, "set", f"-rate-kbit={int(rate_kbit)}"]))

    def state(self) -> dict:
        return json.loads(self.run([NETWORK_TOOL, "get"]))
