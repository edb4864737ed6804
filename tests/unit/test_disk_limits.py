"""The disk write limit: written into and read back from a container's cgroup (v1 and v2
files, on a fake cgroup tree), checked before every trial, and counted per transaction."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from tuninglab import cgroups, disk_limits, telemetry
from tuninglab.analysis.trials import trial_metrics
from tuninglab.changes.container_limits import limits_checks
from tuninglab.stack import NodeConfig

CID = "c0ffee"
DISK = "254:0"


@pytest.fixture
def v1(tmp_path, monkeypatch):
    folder = tmp_path / "blkio" / "docker" / CID
    folder.mkdir(parents=True)
    (folder / disk_limits.V1_FILE).write_text("")
    monkeypatch.setattr(disk_limits, "CGROUP_ROOT", tmp_path)
    return folder


@pytest.fixture
def v2(tmp_path, monkeypatch):
    folder = tmp_path / "system.slice" / f"docker-{CID}.scope"
    folder.mkdir(parents=True)
    (folder / "cpu.stat").write_text("usage_usec 1\n")
    (folder / "io.max").write_text("")
    monkeypatch.setattr(disk_limits, "CGROUP_ROOT", tmp_path)
    monkeypatch.setattr(cgroups, "CGROUP_ROOT", tmp_path)
    return folder


def test_v1_limit_is_written_read_back_and_removed(v1):
    assert disk_limits.write_iops(CID, DISK) is None
    disk_limits.set_write_iops(CID, DISK, 100)
    # the kernel lists the rule as written; a fake file holds exactly what was written
    assert (v1 / disk_limits.V1_FILE).read_text() == "254:0 100"
    assert disk_limits.write_iops(CID, DISK) == 100
    assert disk_limits.write_iops(CID, "8:0") is None  # another disk is not limited
    (v1 / disk_limits.V1_FILE).write_text("254:0 100\n")
    disk_limits.set_write_iops(CID, DISK, None)
    assert (v1 / disk_limits.V1_FILE).read_text() == "254:0 0"


def test_v2_limit_is_written_and_read_back(v2):
    disk_limits.set_write_iops(CID, DISK, 250)
    assert (v2 / "io.max").read_text() == "254:0 wiops=250"
    (v2 / "io.max").write_text("254:0 rbps=max wbps=max riops=max wiops=250\n")
    assert disk_limits.write_iops(CID, DISK) == 250
    (v2 / "io.max").write_text("254:0 rbps=max wbps=max riops=max wiops=max\n")
    assert disk_limits.write_iops(CID, DISK) is None


def test_writes_are_counted_from_either_cgroup(v1, v2):
    (v1 / "blkio.throttle.io_serviced").write_text(
        "254:0 Read 10\n254:0 Write 1234\n254:0 Sync 7\n8:0 Write 99\nTotal 1343\n")
    assert disk_limits.writes_done(CID, DISK) == 1234
    (v1 / "blkio.throttle.io_serviced").unlink()
    (v1 / disk_limits.V1_FILE).unlink()
    (v1.parent.parent.parent / "blkio").rename(v1.parent.parent.parent / "gone")
    (v2 / "io.stat").write_text("254:0 rbytes=1 wbytes=2 rios=3 wios=456 dbytes=0 dios=0\n")
    assert disk_limits.writes_done(CID, DISK) == 456


def test_a_container_without_a_known_cgroup_cannot_be_limited(tmp_path, monkeypatch):
    monkeypatch.setattr(disk_limits, "CGROUP_ROOT", tmp_path)
    monkeypatch.setattr(cgroups, "CGROUP_ROOT", tmp_path)
    assert disk_limits.write_iops(CID, DISK) is None
    disk_limits.set_write_iops(CID, DISK, None)  # nothing to remove: no error
    with pytest.raises(RuntimeError, match="no blkio or io cgroup"):
        disk_limits.set_write_iops(CID, DISK, 100)


def _stack(wanted: int | None, actual: int | None):
    config = NodeConfig(disk_write_iops=wanted)
    return SimpleNamespace(
        node_configs={"app-1": config},
        limits_of=lambda name: {"cpuset": config.cpuset, "cpus": config.cpus,
                                "memory": 2 * 1024 ** 3, "disk_write_iops": actual})


@pytest.mark.parametrize("wanted, actual, rows, passed", [
    (None, None, 3, True),    # no limit wanted, none found: no row for it
    (100, 100, 4, True),
    (100, None, 4, False),    # the limit did not take
    (None, 100, 4, False),    # a node left limited by an earlier arm or run
])
def test_the_limit_is_checked_before_a_trial(wanted, actual, rows, passed):
    checks = limits_checks(_stack(wanted, actual), "app-1")
    assert len(checks) == rows
    assert all(c.ok for c in checks) is passed


def test_a_windows_writes_become_writes_per_transaction():
    pairs = [({"writes": 1000}, {"writes": 1600}), ({"writes": 5}, {"writes": 5})]
    window = telemetry._disk_window(pairs, transactions=300, load_s=10.0)
    assert window == {"writes": 600, "writes_per_s": 60.0, "writes_per_tx": 2.0}
    assert "error" in telemetry._disk_window([({"error": "remote"}, {"error": "remote"})], 300, 10)
    load = {"throughput": 30.0, "latency_p50": 1, "latency_p90": 2, "latency_p99": 3,
            "error_rate": 0.0}
    assert trial_metrics(load, {"disk": window})["disk_writes_per_tx"] == 2.0
    assert "disk_writes_per_tx" not in trial_metrics(load, {})
