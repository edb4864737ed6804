"""A client for WildFly's HTTP management API (JSON over HTTP, digest authentication).

One HTTP request per operation: far cheaper than starting jboss-cli's own JVM for every
change (3-4 s each on one core), and it answers with structured results that the
verification step can compare.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import requests
from requests.auth import HTTPDigestAuth

Address = list[tuple[str, str]]

# The JVM's platform MBeans as WildFly's management model exposes them.
PLATFORM_RUNTIME = [("core-service", "platform-mbean"), ("type", "runtime")]
PLATFORM_OPERATING_SYSTEM = [("core-service", "platform-mbean"), ("type", "operating-system")]
PLATFORM_MEMORY = [("core-service", "platform-mbean"), ("type", "memory")]
PLATFORM_GC = [("core-service", "platform-mbean"), ("type", "garbage-collector")]
PLATFORM_COMPILATION = [("core-service", "platform-mbean"), ("type", "compilation")]
# The embedded broker (full configurations): its subsystem, and its one server
MESSAGING = [("subsystem", "messaging-activemq")]
BROKER = [*MESSAGING, ("server", "default")]

# How long one management operation may take. It blocks until the server has done it, and a
# node of a third of a core beside another run restarting a cache or a deployment has taken
# more than 30 s (ejb3-stateful-replication's full run, 7 December 2026): slow, not broken.
# A stalled one still fails the run, after this long, naming the operation: the session
# caches' services restarted on three nodes at once did not answer in 90 s either
# (http-session-replication's quick runs, 7 December 2026; its baseline now reloads instead).
OPERATION_TIMEOUT_S = 90.0

USER = "admin"
PASSWORD = "lab-admin"


class ManagementError(RuntimeError):
    pass


@dataclass(frozen=True)
class Response:
    result: object
    headers: dict

    @property
    def needs_reload(self) -> bool:
        """This very operation waits for a reload or a restart (the server's process state may
        say reload-required because of an earlier operation)."""
        return bool(self.headers.get("operation-requires-reload")
                    or self.headers.get("operation-requires-restart"))


def compilation_seconds(management: "ManagementClient") -> float:
    """The JVM's accumulated JIT compilation time in seconds (the platform compilation MBean;
    wall time of the compiler threads, so a throttled compiler counts its waits too)."""
    return management.read_attribute(PLATFORM_COMPILATION, "total-compilation-time") / 1000.0


def apply_operation(management: "ManagementClient", op) -> Response:
    """Write a parsed jboss-cli operation (jboss_cli.Operation: ``add`` with its parameters,
    ``write-attribute`` or ``undefine-attribute`` with the attribute's name and value): what a
    change file and an app's server set-up write."""
    keys = {"write-attribute": ("name", "value"), "undefine-attribute": ("name",)}
    params = op.params if op.name == "add" else {key: op.params[key] for key in keys[op.name]}
    return management.execute(op.name, list(op.address), **params, **operation_headers(op))


def operation_headers(*ops) -> dict:
    """The request keys that carry the operations' headers (jboss_cli.Operation.headers), if
    they have any: ``{"operation-headers": {...}}``."""
    headers = {k: v for op in ops for k, v in op.headers.items()}
    return {"operation-headers": headers} if headers else {}


def apply_operations(management: "ManagementClient", ops: list) -> bool:
    """Apply parsed operations in order; returns whether any waits for a reload. An ``add``
    and the ``add`` lines right after it that create its children are one composite, as a
    jboss-cli batch would send them: some resources validate their children when they are
    added (an XA data source refuses to exist without its xa-datasource-properties)."""
    reload = False
    for group in _with_children(ops):
        try:
            if len(group) == 1:
                reload |= apply_operation(management, group[0]).needs_reload
                continue
            steps = [{"operation": "add", "address": [{k: v} for k, v in op.address],
                      **op.params} for op in group]
            response = management.execute("composite", [], steps=steps,
                                           **operation_headers(*group))
        except ManagementError as error:  # named by its line (jboss_cli.Operation.where)
            lines = ", ".join(op.where for op in group if op.where)
            raise ManagementError(f"{lines}: {error}" if lines else str(error)) from None
        reload |= response.needs_reload or any(
            (step.get("response-headers") or {}).get("operation-requires-reload")
            for step in (response.result or {}).values() if isinstance(step, dict))
    return reload


def _with_children(ops: list) -> list[list]:
    """The operations in order, each ``add`` grouped with the ``add`` lines after it whose
    addresses lie under its own."""
    groups: list[list] = []
    for op in ops:
        parent = groups[-1][0] if groups else None
        if (parent is not None and parent.name == op.name == "add"
                and op.address[:len(parent.address)] == parent.address
                and len(op.address) > len(parent.address)):
            groups[-1].append(op)
        else:
            groups.append([op])
    return groups


def deploy_archive(management: "ManagementClient", name: str, path: str) -> Response:
    """Deploy, enabled, an archive that waits in the node's file system at ``path`` (an app
    held back from the scanner, the profiler of a profiled pass)."""
    return management.execute("add", [("deployment", name)], enabled=True,
                              content=[{"path": path, "archive": True}])


def redeploy(management: "ManagementClient", name: str) -> Response:
    """Undeploy and deploy again one deployment (its content unchanged): an app that reads its
    settings when it deploys reads them anew, without the reload of every service."""
    return management.execute("redeploy", [("deployment", name)])


def clear_system_properties(management: "ManagementClient") -> list[str]:
    """Remove every system property of the server's model, which also clears it in the JVM;
    returns their names. A reload from another configuration file does not: the JVM keeps a
    property the new file lacks, and an app that reads it at deployment still sees the old
    value (a stack taken over warm kept the last run's tl.msg.db_write=row, and the next run's
    baseline wrote a row a message: jms-jdbc-journal, 29 November 2026)."""
    names = management.execute("read-children-names", [],
                               **{"child-type": "system-property"}).result or []
    for name in names:
        management.execute("remove", [("system-property", name)])
    return names


def address_text(address: Address) -> str:
    return "/" + "/".join(f"{k}={v}" for k, v in address) if address else "/"


class ManagementClient:
    def __init__(self, url: str, timeout: float = OPERATION_TIMEOUT_S):
        self.url = url.rstrip("/") + "/management"
        self.timeout = timeout
        self._session = requests.Session()
        self._session.auth = HTTPDigestAuth(USER, PASSWORD)

    def another(self) -> "ManagementClient":
        """A client of the same server with a connection of its own (for another thread)."""
        return ManagementClient(self.url[:-len("/management")], self.timeout)

    def execute(self, operation: str, address: Address = (), **params) -> Response:
        body = {"operation": operation, "address": [{k: v} for k, v in address], **params}
        try:
            reply = self._session.post(self.url, json=body, timeout=self.timeout)
        except requests.RequestException as exc:
            raise ManagementError(f"{address_text(address)}:{operation}: {exc}") from exc
        try:
            data = reply.json()
        except ValueError:
            raise ManagementError(
                f"{address_text(address)}:{operation}: HTTP {reply.status_code} {reply.text[:200]}")
        if data.get("outcome") != "success":
            raise ManagementError(
                f"{address_text(address)}:{operation}: {data.get('failure-description', data)}")
        return Response(data.get("result"), data.get("response-headers", {}))

    def read_attribute(self, address: Address, name: str, include_defaults: bool = True):
        return self.execute("read-attribute", address, name=name,
                            **{"include-defaults": include_defaults}).result

    def read_resource(self, address: Address = (), *, runtime: bool = False,
                      recursive: bool = False):
        return self.execute("read-resource", address, **{
            "include-runtime": runtime, "recursive": recursive}).result

    def resource_exists(self, address: Address) -> bool:
        try:
            self.execute("read-resource", address)
            return True
        except ManagementError as exc:
            if "WFLYCTL0216" in str(exc):  # "Management resource ... not found"
                return False
            raise

    def server_state(self) -> str | None:
        try:
            return self.read_attribute([], "server-state")
        except ManagementError:
            return None

    def reload(self, timeout: float = 120.0) -> float:
        """Reload the server (services restart inside the same JVM) and wait until it runs.
        Returns the seconds it took."""
        started = time.monotonic()
        try:
            self.execute("reload")
        except ManagementError:
            pass  # the connection may close while the server goes down: the poll decides
        time.sleep(0.3)
        self.wait_running(timeout, since=started)
        return time.monotonic() - started

    def wait_running(self, timeout: float = 120.0, since: float | None = None) -> None:
        since = time.monotonic() if since is None else since
        while time.monotonic() - since < timeout:
            if self.server_state() == "running":
                return
            time.sleep(0.2)
        raise ManagementError(f"server not running {timeout:.0f} s after the request "
                              f"(state: {self.server_state()})")
