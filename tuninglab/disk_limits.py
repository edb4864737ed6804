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
    path, v1 = _cgroup_file(container_id, V1_FILE, "io.max")
    if path is None:
        return None
    if v1:
        for line in path.read_text().splitlines():
            number, _, value = line.partition(" ")
            if number == disk:
                return int(value)
        return None
    value = (_v2_fields(path, disk) or {}).get("wiops", "max")
    return None if value == "max" else int(value)


def set_write_iops(container_id: str, disk: str, iops: int | None) -> None:
    """Limit the container's writes on ``disk`` to ``iops`` a second (None: no limit)."""
    if write_iops(container_id, disk) == iops:
        return
    path, v1 = _cgroup_file(container_id, V1_FILE, "io.max")
    if path is None:
        raise RuntimeError(f"container {container_id[:12]}: no blkio or io cgroup to limit its "
                           f"disk writes in (looked under {CGROUP_ROOT})")
    # v1: 0 removes the rule; v2: max
    path.write_text(f"{disk} {iops or 0}" if v1 else f"{disk} wiops={iops or 'max'}")


def writes_done(container_id: str, disk: str) -> int | None:
    """Write operations the container has sent to ``disk`` since it started (None: a cgroup
    this machine does not have)."""
    path, v1 = _cgroup_file(container_id, "blkio.throttle.io_serviced", "io.stat")
    if path is None:
        return None
    if v1:
        for line in path.read_text().splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[0] == disk and parts[1] == "Write":
                return int(parts[2])
        return 0  # nothing written to it yet
    return int((_v2_fields(path, disk) or {}).get("wios", 0))


def _cgroup_file(container_id: str, v1_name: str, v2_name: str) -> tuple[Path | None, bool]:
    """The container's file of one figure, and whether it is cgroup v1's: its blkio
    controller's file, else its v2 folder's (cgroups.v2_folder); (None, False) if neither."""
    v1 = CGROUP_ROOT / "blkio" / "docker" / container_id / v1_name
    if v1.is_file():
        return v1, True
    folder = v2_folder(container_id)
    if folder is not None and (folder / v2_name).is_file():
        return folder / v2_name, False
    return None, False


def _v2_fields(path: Path, disk: str) -> dict[str, str] | None:
    """The ``key=value`` fields of ``disk``'s line in a v2 file (io.max, io.stat), if any."""
    for line in path.read_text().splitlines():
        number, *fields = line.split()
        if number == disk:
            return dict(field.split("=") for field in fields)
    return None
