"""How many write operations a second a container may send to the disk that holds its files.

Docker sets a device limit (``docker run --device-write-iops``) only when it creates a
container: its update API takes ``BlkioDeviceWriteIOps`` and ignores it (Docker 20.10, 29
November 2026: the call answered without error and the cgroup stayed unlimited). A recipe that
switches the limit between arms on a running node writes it where Docker would have put it, the
container's cgroup (``blkio.throttle.write_iops_device`` in v1, ``io.max`` in v2), and reads it
back from there. The cgroup lives on the engine's machine: a limit needs a local engine.

The disk is the one behind Docker's data root, where a container's own files are (overlay2):
the server's data directory with the broker's journal and the transaction log. A limit counts
every write the container's processes submit to that disk, synchronous ones at once (an
``fsync`` writes in the caller's context); page-cache write-back in cgroup v1 is the kernel's
and is not counted (a log file written without syncing).
"""
from __future__ import annotations

import os
from pathlib import Path

from .cgroups import CGROUP_ROOT, v2_folder

__all__ = ["data_disk", "write_iops", "set_write_iops", "writes_done"]

V1_FILE = "blkio.throttle.write_iops_device"


def data_disk(root: str) -> str:
    """``major:minor`` of the whole disk holding ``root`` (a throttle takes disks, not
    partitions)."""
    device = os.stat(root).st_dev
    number = f"{os.major(device)}:{os.minor(device)}"
    sys_block = Path("/sys/dev/block") / number
    if (sys_block / "partition").is_file():  # its parent folder is the disk's
        number = (sys_block.resolve().parent / "dev").read_text().strip()
    return number


def write_iops(container_id: str, disk: str) -> int | None:
    """The container's write limit on ``disk`` in operations a second (None: unlimited, or a
    cgroup this machine does not have)."""
    v1 = CGROUP_ROOT / "blkio" / "docker" / container_id / V1_FILE
    if v1.is_file():
        for line in v1.read_text().splitlines():
            number, _, value = line.partition(" ")
            if number == disk:
                return int(value)
        return None
    folder = v2_folder(container_id)
    if folder is not None and (folder / "io.max").is_file():
        for line in (folder / "io.max").read_text().splitlines():
            number, *limits = line.split()
            if number == disk:
                value = dict(item.split("=") for item in limits).get("wiops", "max")
                return None if value == "max" else int(value)
    return None


def set_write_iops(container_id: str, disk: str, iops: int | None) -> None:
    """Limit the container's writes on ``disk`` to ``iops`` a second (None: no limit)."""
    if write_iops(container_id, disk) == iops:
        return
    v1 = CGROUP_ROOT / "blkio" / "docker" / container_id / V1_FILE
    if v1.is_file():
        v1.write_text(f"{disk} {iops or 0}")  # 0 removes the rule
        return
    folder = v2_folder(container_id)
    if folder is None or not (folder / "io.max").is_file():
        raise RuntimeError(f"container {container_id[:12]}: no blkio or io cgroup to limit its "
                           f"disk writes in (looked under {CGROUP_ROOT})")
    (folder / "io.max").write_text(f"{disk} wiops={iops or 'max'}")


def writes_done(container_id: str, disk: str) -> int | None:
    """Write operations the container has sent to ``disk`` since it started (None: a cgroup
    this machine does not have)."""
    v1 = CGROUP_ROOT / "blkio" / "docker" / container_id / "blkio.throttle.io_serviced"
    if v1.is_file():
        for line in v1.read_text().splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[0] == disk and parts[1] == "Write":
                return int(parts[2])
        return 0  # nothing written to it yet
    folder = v2_folder(container_id)
    if folder is not None and (folder / "io.stat").is_file():
        for line in (folder / "io.stat").read_text().splitlines():
            number, *counters = line.split()
            if number == disk:
                return int(dict(item.split("=") for item in counters).get("wios", 0))
        return 0
    return None
