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

from . import layout
from .management import ManagementError
from .management import PLATFORM_GC as GC
from .management import PLATFORM_MEMORY as MEMORY
from .management import PLATFORM_OPERATING_SYSTEM as OPERATING_SYSTEM
from .management import PLATFORM_RUNTIME as RUNTIME
from .stack import Stack



def machine() -> dict:
    return {"host": socket.gethostname(), "cpu_model": _cpu_model(), "cpus": os.cpu_count(),
            "kernel": platform.release(), "python": platform.python_version()}


def _cpu_model() -> str:
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def git() -> dict:
    def run(*args):
        try:
            return subprocess.run(["git", *args], cwd=layout.REPO_ROOT, capture_output=True,
                                  text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""
    commit = run("rev-parse", "HEAD")
    return {"git_commit": commit or None,
            "git_dirty": bool(run("status", "--porcelain", "--untracked-files=no")) if commit else None}


def jvm_facts(stack: Stack) -> dict:
    """The JVM of the app server as it runs now."""
    m = stack.management
    runtime = m.read_resource(RUNTIME, runtime=True)
    os_info = m.read_resource(OPERATING_SYSTEM, runtime=True)
    heap = m.read_attribute(MEMORY, "heap-memory-usage")
    collectors = m.read_resource(GC, runtime=True, recursive=True) or {}
    return {
        "options": stack.config.jvm_options,
        "input_arguments": runtime.get("input-arguments"),
        "vm": f"{runtime.get('vm-name')} {runtime.get('vm-version')}",
        "spec_version": runtime.get("spec-version"),
        "available_processors": os_info.get("available-processors"),
        "max_heap_bytes": (heap or {}).get("max"),
        "gc": sorted((collectors.get("name") or {}).keys()),
    }


def wildfly_derived(stack: Stack) -> dict:
    """Pool and thread sizes WildFly derived from the container's CPU count (undefined in the
    configuration, so only the runtime knows them)."""
    m = stack.management
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
    try:
        out["datasource"] = {k: v for k, v in m.read_resource(
            [("subsystem", "datasources"), ("data-source", "OrderDS")]).items()
            if k in ("min-pool-size", "max-pool-size", "initial-pool-size",
                     "prepared-statements-cache-size", "connection-url")}
    except ManagementError as exc:
        out["datasource"] = {"error": str(exc)}
    return out


def versions(stack: Stack) -> dict:
    m = stack.management
    return {
        "wildfly": f"{m.read_attribute([], 'product-name')} {m.read_attribute([], 'product-version')}",
        "postgresql": stack.db.setting("server_version"),
        "jdk": m.read_resource(RUNTIME, runtime=True).get("spec-version"),
        "k6": stack.loadgen.k6_version(),
        "tuninglab": metadata.version("tuninglab"),
    }


def images(stack: Stack) -> dict:
    return {role: {"name": node.image, "id": stack.image_ids.get(node.image)}
            for role, node in (("db", stack.db), ("app", stack.app), ("loadgen", stack.loadgen))}


def pinning(stack: Stack) -> dict:
    c = stack.config
    return {"app": {"cpuset": c.app_cpuset, "cpus": c.app_cpus, "memory": c.app_memory},
            "db": {"cpuset": c.db_cpuset, "memory": c.db_memory},
            "loadgen": {"cpuset": c.loadgen_cpuset}}
