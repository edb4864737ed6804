"""Where a result came from: code, images, versions, the JVM as it really ran, the machine.

Everything here is read from the running system or the repository, never assumed: the JVM's
input arguments and collectors come from the platform MBeans, WildFly's derived pool sizes from
its runtime model, the PostgreSQL version from `SHOW`.
"""
from __future__ import annotations

import os
import platform
import socket
import subprocess
from importlib import metadata

from . import cpuinfo, layout
from .drivers import driver_for
from .management import ManagementError
from .management import PLATFORM_GC as GC
from .management import PLATFORM_MEMORY as MEMORY
from .management import PLATFORM_OPERATING_SYSTEM as OPERATING_SYSTEM
from .management import PLATFORM_RUNTIME as RUNTIME
from .stack import Stack



def machine() -> dict:
    return {"host": socket.gethostname(), "cpu_model": cpuinfo.this_machine(),
            "cpus": os.cpu_count(), "kernel": platform.release(),
            "python": platform.python_version()}


# What a measurement depends on: a change to any of these between the commit and the run makes
# the result irreproducible from its commit. Notebooks and results are outputs (publishing
# writes them while it runs), and pages do not change what is measured.
MEASURED_INPUTS = ("tuninglab", "recipes", "workloads", "apps", "server-modules", "images",
                   "snippets", "scripts", "tools", "pyproject.toml", "requirements.txt")


def git() -> dict:
    def run(*args):
        try:
            return subprocess.run(["git", *args], cwd=layout.REPO_ROOT, capture_output=True,
                                  text=True, timeout=10).stdout
        except (OSError, subprocess.SubprocessError):
            return ""
    commit = run("rev-parse", "HEAD").strip()
    if not commit:
        return {"git_commit": None, "git_dirty": None, "git_dirty_paths": []}
    status = run("status", "--porcelain", "--untracked-files=all", "--", *MEASURED_INPUTS)
    paths = [line[3:] for line in status.splitlines() if line.strip()]
    return {"git_commit": commit, "git_dirty": bool(paths), "git_dirty_paths": paths}


def jvm_facts(stack: Stack, node: str) -> dict:
    """The JVM of a node as it runs now."""
    m = stack.management_of(node)
    runtime = m.read_resource(RUNTIME, runtime=True)
    os_info = m.read_resource(OPERATING_SYSTEM, runtime=True)
    heap = m.read_attribute(MEMORY, "heap-memory-usage")
    collectors = m.read_resource(GC, runtime=True, recursive=True) or {}
    return {
        "options": stack.node_configs[node].jvm_command_line(),
        "input_arguments": runtime.get("input-arguments"),
        "vm": f"{runtime.get('vm-name')} {runtime.get('vm-version')}",
        "spec_version": runtime.get("spec-version"),
        "available_processors": os_info.get("available-processors"),
        "max_heap_bytes": (heap or {}).get("max"),
        "gc": sorted((collectors.get("name") or {}).keys()),
        # how long the JVM had run when the run began: minutes on a new stack, more on one
        # taken over warm from an earlier run (stackpool.py)
        "uptime_s": round(runtime["uptime"] / 1000, 1) if runtime.get("uptime") else None,
    }


def wildfly_derived(stack: Stack, node: str) -> dict:
    """Pool and thread sizes WildFly derived from the CPU count it sees (undefined in the
    configuration, so only the runtime knows them)."""
    m = stack.management_of(node)
    out = {}
    try:
        worker = m.read_resource([("subsystem", "io"), ("worker", "default")], runtime=True)
        out["io_worker"] = {k: v for k, v in worker.items() if not isinstance(v, dict)}
    except ManagementError as exc:
        out["io_worker"] = {"error": str(exc)}
    for pool in ("slsb-strict-max-pool", "mdb-strict-max-pool"):
        try:
            out[pool] = m.read_resource(
                [("subsystem", "ejb3"), ("strict-max-bean-instance-pool", pool)], runtime=True)
        except ManagementError:
            pass  # standalone.xml has no MDB pool in use; record what exists
    try:  # the app under test's own pool, or a resident app's (Stack.app_declaring)
        app = stack.app_declaring("datasources")
        out["datasource"] = {k: v for k, v in m.read_resource(
            [("subsystem", "datasources"), ("data-source", app.datasource())]).items()
            if k in ("min-pool-size", "max-pool-size", "initial-pool-size",
                     "prepared-statements-cache-size", "connection-url")}
    except ManagementError as exc:
        out["datasource"] = {"error": str(exc)}
    return out


def versions(stack: Stack, node: str) -> dict:
    m = stack.management_of(node)
    driver = driver_for(stack.app_under_test)
    return {
        "wildfly": f"{m.read_attribute([], 'product-name')} {m.read_attribute([], 'product-version')}",
        "postgresql": stack.db.setting("server_version"),
        "jdk": m.read_resource(RUNTIME, runtime=True).get("spec-version"),
        # the load driver's own version, under its name ("k6": drivers.DRIVERS)
        driver.name: driver.version(stack.loadgen),
        "tuninglab": metadata.version("tuninglab"),
        # the web server in front of the nodes (front.py), where the recipe has one
        **({"httpd": next(iter(stack.fronts.values())).version()} if stack.fronts else {}),
    }


def images(stack: Stack) -> dict:
    containers = [("db", stack.db), ("loadgen", stack.loadgen)]
    if stack.nodes:
        containers.append(("app", next(iter(stack.nodes.values()))))
    if stack.fronts:
        containers.append(("front", next(iter(stack.fronts.values()))))
    return {role: {"name": c.image, "id": stack.image_ids.get(c.image)} for role, c in containers}
