"""CPU time and memory of one container, read from its cgroup when the engine is local.

Reading the cgroup files costs microseconds, so a window's edges can be sampled exactly; the
Docker stats API (the fallback for a remote engine, or a cgroup layout we do not know) costs
tens of milliseconds a call. Both give the same counters: cumulative CPU seconds, and current
and peak memory. A local cgroup also lists the container's processes (host pids), so that
their /proc can be read without a ``docker exec`` (jvm_threads.py).
"""
from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlparse

__all__ = ["ContainerMeter", "engine_is_local", "meter_for", "v2_folder"]

CGROUP_ROOT = Path("/sys/fs/cgroup")


class ContainerMeter:
    """Cumulative CPU seconds and memory of one container."""

    source = "docker stats API"

    def __init__(self, container):
        self.container = container

    def cpu_seconds(self) -> float:
        stats = self.container.stats(stream=False, one_shot=True)
        return stats["cpu_stats"]["cpu_usage"]["total_usage"] / 1e9

    def processes(self) -> list[int] | None:
        """The container's processes by their pid on this machine; None where the engine's
        processes are not ours to read (a remote engine)."""
        return None

    def memory(self) -> dict:
        stats = self.container.stats(stream=False, one_shot=True)
        memory = stats.get("memory_stats", {})
        return {"memory_bytes": memory.get("usage", 0),
                "memory_peak_bytes": memory.get("max_usage", 0)}


class CgroupV1Meter(ContainerMeter):
    source = "cgroup v1"

    def __init__(self, container, cpuacct: Path, memory: Path):
        super().__init__(container)
        self.cpuacct, self.memory_dir = cpuacct, memory

    def cpu_seconds(self) -> float:
        return int((self.cpuacct / "cpuacct.usage").read_text()) / 1e9

    def processes(self) -> list[int] | None:
        return _pids(self.cpuacct / "cgroup.procs")

    def memory(self) -> dict:
        return {"memory_bytes": _int(self.memory_dir / "memory.usage_in_bytes"),
                "memory_peak_bytes": _int(self.memory_dir / "memory.max_usage_in_bytes")}


class CgroupV2Meter(ContainerMeter):
    source = "cgroup v2"

    def __init__(self, container, folder: Path):
        super().__init__(container)
        self.folder = folder

    def cpu_seconds(self) -> float:
        for line in (self.folder / "cpu.stat").read_text().splitlines():
            key, _, value = line.partition(" ")
            if key == "usage_usec":
                return int(value) / 1e6
        raise OSError(f"{self.folder}/cpu.stat has no usage_usec")

    def processes(self) -> list[int] | None:
        return _pids(self.folder / "cgroup.procs")

    def memory(self) -> dict:
        return {"memory_bytes": _int(self.folder / "memory.current"),
                "memory_peak_bytes": _int(self.folder / "memory.peak")}


def engine_is_local(url: str | None = None) -> bool:
    """The engine at ``url`` (default: DOCKER_HOST's) runs on this machine (its cgroups and
    /proc/stat are ours to read)."""
    host = url if url is not None else os.environ.get("DOCKER_HOST", "")
    if not host or host.startswith("unix://"):
        return True
    return urlparse(host).hostname in ("localhost", "127.0.0.1", "::1")


def meter_for(container, local: bool) -> ContainerMeter:
    """The cheapest meter that works for this container (``local``: the engine runs on this
    machine, so its cgroup files are ours to read)."""
    if local:
        cid = container.id
        v1 = CGROUP_ROOT / "cpuacct" / "docker" / cid
        if (v1 / "cpuacct.usage").is_file():
            return CgroupV1Meter(container, v1, CGROUP_ROOT / "memory" / "docker" / cid)
        v2 = v2_folder(cid)
        if v2 is not None:
            return CgroupV2Meter(container, v2)
    return ContainerMeter(container)


def v2_folder(container_id: str) -> Path | None:
    """A container's cgroup v2 folder (systemd's or cgroupfs's layout), None if neither."""
    for folder in (CGROUP_ROOT / "system.slice" / f"docker-{container_id}.scope",
                   CGROUP_ROOT / "docker" / container_id):
        if (folder / "cpu.stat").is_file():
            return folder
    return None


def _int(path: Path) -> int:
    try:
        return int(path.read_text())
    except (OSError, ValueError):
        return 0


def _pids(path: Path) -> list[int] | None:
    try:
        return [int(line) for line in path.read_text().split()]
    except (OSError, ValueError):
        return None
