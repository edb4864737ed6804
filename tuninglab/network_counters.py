"""Bytes a container sent and received on its network, from the kernel's interface counters.

A container has a network namespace of its own, and every process in it sees that namespace's
interfaces in ``/proc/<pid>/net/dev``; where the engine is local, the container's cgroup lists
its processes (cgroups.py), so the counters are a file read on this machine, with no
``docker exec``. The counters are cumulative, so a window is a difference
(telemetry.py, metrics.runtime "network"). Every interface but the loopback counts: the
container's traffic to the balancer, the load generator, the databases and the other nodes
(a cluster's replication) all leaves through them.
"""
from __future__ import annotations

from pathlib import Path

__all__ = ["parse_net_dev", "read"]

LOOPBACK = "lo"


def parse_net_dev(text: str) -> dict[str, int]:
    """Bytes received and sent over every interface but the loopback, from a ``net/dev``
    table: two header lines, then ``name: rx_bytes rx_packets ... (8 receive columns)
    tx_bytes ...`` a line."""
    received = sent = 0
    for line in text.splitlines()[2:]:
        name, sep, numbers = line.partition(":")
        fields = numbers.split()
        if not sep or name.strip() == LOOPBACK or len(fields) < 9:
            continue
        received += int(fields[0])
        sent += int(fields[8])
    return {"received_bytes": received, "sent_bytes": sent}


def read(pids: list[int] | None, proc: Path = Path("/proc")) -> dict:
    """The container's counters now, read through the first of its processes (``pids``, as
    its cgroup lists them) whose table is readable; an ``error`` where none is (a remote
    engine lists none)."""
    if not pids:
        return {"error": "the container's processes are not ours to read (a remote engine)"}
    for pid in pids:
        try:
            return parse_net_dev((proc / str(pid) / "net" / "dev").read_text())
        except (OSError, ValueError):
            continue  # a process that ended between the listing and the read
    return {"error": f"no readable {proc}/<pid>/net/dev among the container's processes"}
