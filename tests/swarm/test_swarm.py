"""The Swarm placement on real engines: three Docker engines in network namespaces of this
machine, joined into one swarm (scripts/swarm-hosts.sh), made before the module and removed
after it. A cluster forms across the hosts and answers through its balancer, a recipe's quick
run spreads over them, a placement no host satisfies is refused before anything starts, and a
host lost in the middle of a run stops it, named, with no result stored and nothing left on
the other hosts.

Run with ``bash scripts/test-swarm.sh`` (root: it starts dockerd three times)."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import docker
import pytest

ROOT = Path(__file__).resolve().parents[2]
PLACEMENT = ROOT / "placements" / "test-hosts.toml"
HOSTS = ("tl-h1", "tl-h2", "tl-h3")
RUN_LABEL = "tuninglab.run"


def _hosts_script(*args: str) -> None:
    subprocess.run(["bash", str(ROOT / "scripts" / "swarm-hosts.sh"), *args], check=True)


def _engine(host: str) -> docker.DockerClient:
    return docker.DockerClient(base_url=f"unix:///run/{host}/docker.sock")


def _left_behind(patience_s: float = 20.0) -> dict[str, list[str]]:
    """Containers and networks of lab runs still on each test host's engine, once the
    workers' copies of a removed overlay network are gone too (they learn of the removal from
    the manager a moment later)."""
    deadline = time.monotonic() + patience_s
    while True:
        found = _objects()
        if not any(found.values()) or time.monotonic() > deadline:
            return found
        time.sleep(1)


def _objects() -> dict[str, list[str]]:
    out = {}
    for host in HOSTS:
        try:
            engine = _engine(host)
            names = [c.name for c in engine.containers.list(all=True,
                                                             filters={"label": RUN_LABEL})]
            names += [n.name for n in engine.networks.list(filters={"label": RUN_LABEL})]
        except Exception as error:  # a host that is down leaves nothing we could see
            names = [f"(not reachable: {type(error).__name__})"]
        out[host] = names
    return out


def _lab(*args: str, results: Path, timeout: int = 600, **popen) -> subprocess.Popen:
    env = {**os.environ, "TUNINGLAB_RESULTS_DIR": str(results), "TUNINGLAB_PROFILE": "quick"}
    return subprocess.Popen([str(ROOT / ".venv" / "bin" / "tuninglab"), *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **popen)


@pytest.fixture(scope="module", autouse=True)
def swarm():
    _hosts_script("start", "3")
    try:
        yield
    finally:
        _hosts_script("stop")


def test_a_cluster_forms_across_the_hosts_and_answers_through_the_balancer(tmp_path):
    run = _lab("cluster", "--nodes", "3", "--profile", "quick", "--no-save",
               "--placement", str(PLACEMENT), results=tmp_path)
    out, _ = run.communicate(timeout=600)
    print(out)
    assert run.returncode == 0, out
    views = [line for line in out.splitlines() if ": view " in line]
    assert len(views) == 3 and all("(3)" in line for line in views), views
    placed = next(line for line in out.splitlines() if line.startswith("placed: "))
    # the nodes spread over both workers; the database, balancer and load generator on tl-h1
    assert "app-1 on tl-h2" in placed and "app-2 on tl-h3" in placed, placed
    assert "db on tl-h1" in placed and "loadgen on tl-h1" in placed, placed
    assert "requests by node through it: {'app-1': " in out
    assert _left_behind() == {host: [] for host in HOSTS}


def test_a_recipe_runs_across_the_hosts_in_the_quick_profile(tmp_path):
    run = _lab("run", "http-session-replication", "--placement", str(PLACEMENT),
               results=tmp_path)
    out, _ = run.communicate(timeout=600)
    print(out)
    assert run.returncode == 0, out
    stored, = tmp_path.glob("http-session-replication/*.json")
    result = json.loads(stored.read_text())
    hosts = result["provenance"]["placement"]["hosts"]
    assert hosts["kind"] == "swarm"
    assert set(hosts["roles"].values()) == {"tl-h1", "tl-h2", "tl-h3"}
    # each host's CPU model, read through a container there (the test hosts share this CPU)
    assert {h["cpu_model"] for h in hosts["hosts"].values()} == {
        result["provenance"]["cpu_model"]}
    network = result["provenance"]["network"]
    assert network["app-1 -> db"]["median_us"] > 0  # over the overlay, tl-h2 to tl-h1
    assert all(t["status"] != "failed" for t in result["trials"])
    assert _left_behind() == {host: [] for host in HOSTS}


def test_a_constraint_no_host_satisfies_is_refused_before_anything_starts(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(PLACEMENT.read_text().replace('database = "node.hostname==tl-h1"',
                                                 'database = "node.hostname==tl-h9"'))
    run = _lab("run", "aa-noise", "--placement", str(bad), results=tmp_path / "results")
    out, _ = run.communicate(timeout=120)
    assert run.returncode == 2, out
    assert "roles.database = node.hostname==tl-h9: no ready host of the swarm satisfies it" in out
    assert "Traceback" not in out
    assert _left_behind() == {host: [] for host in HOSTS}


def test_a_host_lost_mid_run_stops_the_run_named_and_leaves_nothing(tmp_path):
    results = tmp_path / "results"
    run = _lab("run", "http-session-replication", "--placement", str(PLACEMENT),
               results=results, start_new_session=True)
    # wait until the nodes on tl-h2 are up, then take tl-h2's engine away
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if _engine("tl-h2").containers.list(filters={"label": RUN_LABEL}):
            break
        time.sleep(1)
    else:
        run.kill()
        pytest.fail("no container of the run appeared on tl-h2")
    time.sleep(5)
    pid = int(Path("/run/tl-h2/docker.pid").read_text())
    os.kill(pid, signal.SIGTERM)
    out, _ = run.communicate(timeout=600)
    print(out)
    assert run.returncode not in (0, 130), out
    assert "lost host(s) tl-h2 during the run" in out, out
    assert "Traceback" not in out
    assert not list(results.glob("**/*.json")), "a partial result was stored"
    left = _left_behind(patience_s=5)
    # no container on the hosts that stayed; the overlay network stays while the lost host's
    # containers hold it, and the message says so
    assert not [n for n in left["tl-h1"] + left["tl-h3"] if not _is_network(n)], left
    if left["tl-h1"]:
        assert f"network {left['tl-h1'][0]} is kept" in out, out
    _hosts_script("start", "3")  # tl-h2 back: its engine rejoins the swarm (same data root)
    clean = _lab("clean", "--placement", str(PLACEMENT), results=results)
    said, _ = clean.communicate(timeout=120)
    assert clean.returncode == 0, said
    assert _left_behind() == {host: [] for host in HOSTS}, said


def _is_network(name: str) -> bool:
    return any(n.name == name for host in ("tl-h1", "tl-h3")
               for n in _engine(host).networks.list(filters={"label": RUN_LABEL}))
