"""Stacks kept between runs: CI starts each kind of stack once, and the publishing queue hands a
warm stack from one full run to the next.

Most of a CI-profile run is the stack's start: a network, PostgreSQL, k6 and two WildFly JVMs
booting on two cores (15 to 20 s of the 40 s a notebook took). With ``TUNINGLAB_REUSE_STACKS=1``
(scripts/test.sh sets it for the notebooks) a quick run that ends well *parks* its stack
instead of removing it, and the next quick run whose stack has the same key (the same stack
and node configurations, the same images) *claims* it and resets it:

- the database container is replaced by a fresh one from the image (its data back to the
  baked state, about a second);
- every node gets its pristine server configuration back (a copy saved when it first
  started, or, on a cluster, once the nodes had found each other) and reloads, which
  redeploys the application and opens new connections; the claimant's CPU limits are put on
  it (a quota is not part of the key, so two-node clusters of 0.3/0.6, 0.5 and 0.35 CPU share
  one);
- a cluster's balancer is kept: the claimant sets its policy and puts every node back in the
  rotation (topology.Cluster);
- the engine then verifies the stack exactly as it verifies a new one.

A run with no parked stack of its own kind may take the nearest one (``claim_nearest``): the
same database, load generator and images, a balancer if and only if the run has one (a
cluster takes a cluster, a stack of plain nodes a stack of plain nodes), and the most nodes
it can use as they are (of the same name, and of the same kind, ``node_key``: the
configuration without the quota). It keeps those, starts the nodes it lacks, removes the
rest, and parks the result under its own kind. A cluster grown or shrunk so gets a balancer
in front of its new members, and a removed member leaves the JGroups view by a shutdown (a
killed one would stay in the others' views until they suspected it): topology.Cluster.
Each JVM-option recipe has a node of its own (its variant's command line) beside default
ones: it boots that one JVM instead of a whole stack.

The JVMs stay warm. CI welcomes that (the quick profile makes no claim); the publishing queue
(publishing.py) sets the variable too, so that a full run hands its warm stack to the next
run of the same kind. The profile bounds how many runs a stack serves (``reuse_runs``) and how
many stacks stay parked at once (``reuse_parked``: ``trim`` removes the ones parked longest
ago), and may ask a run to measure with no other parked stack beside it (``reuse_alone``: the
ones it does not take are removed). Each record lists the runs the stack served (``served``:
recipe id and start, the name of the result file), and the run that takes it over stores them
in its result.

The pool is a folder of small JSON files under the cache folder, one per parked stack. A
claim moves the file into ``claimed/``, its name prefixed with the claimant's process id
(a rename: atomic, so two runs cannot take the same stack). ``clear`` removes every parked
stack (the test command calls it when it ends). The sweep of dead runs leaves alone every
parked stack and every stack claimed by a live process: a claimed stack's containers still
carry the labels of the run that parked it, a process that has ended, and a run starting
beside the claimant would otherwise take them for leftovers (it did, 2026-11-26: a
notebook's claimed stack removed under it by a test run started beside it).
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict
from pathlib import Path

from . import layout
from .cleanup import pid_alive

__all__ = ["ENV", "enabled", "key", "common_key", "node_key", "node_keys", "fitting_nodes", "container_ids",
           "park", "claim", "claim_nearest", "may_serve", "best_fit", "spared_ids", "trim", "clear"]

ENV = "TUNINGLAB_REUSE_STACKS"


def enabled() -> bool:
    return os.environ.get(ENV, "") not in ("", "0", "false", "no")


def _folder() -> Path:
    return layout.cache_dir() / "stackpool"


def _claimed() -> Path:
    return _folder() / "claimed"


def key(stack_config, node_configs: dict, image_ids: dict, extra: dict | None = None) -> str:
    """What a stack must share with another to take its place: its common part (common_key)
    and each node, by name (node_key)."""
    data = {"common": common_key(stack_config, image_ids, extra),
            "nodes": node_keys(node_configs)}
    return _hash(data)


# What a claimant makes anew from its own configuration: a parked stack's databases are
# always replaced by fresh ones (Stack._attach), so how many and their quotas do not matter.
FRESH_ON_CLAIM = ("databases", "db_cpus")


def common_key(stack_config, image_ids: dict, extra: dict | None = None) -> str:
    """What every node of a stack shares: the database and load generator's placement, the
    images, and what the stack's topology adds (``extra``: a cluster's balancer)."""
    stack = {k: v for k, v in asdict(stack_config).items() if k not in FRESH_ON_CLAIM}
    return _hash({"stack": stack, "images": image_ids, "extra": extra or {}})


def node_key(config) -> str:
    """What a node must be to serve as another: its configuration but for its CPU quota and
    disk write limit (the claimant puts each node under its own limits before it measures, and
    checks them), and the JVM's command line, which holds what the quota made of its processor
    count."""
    return _hash({**asdict(config), "cpus": None, "disk_write_iops": None,
                  "jvm": config.jvm_command_line()})


def node_keys(node_configs: dict) -> dict[str, str]:
    """Each node's kind (node_key), by name."""
    return {name: node_key(config) for name, config in node_configs.items()}


def _hash(data: dict) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:20]


def fitting_nodes(parked: dict[str, str], wanted: dict[str, str]) -> list[str]:
    """The wanted nodes a parked stack has (both: name -> node_key): same name, same kind.
    A node is not renamed: its name is its alias on the stack's network, and re-connecting a
    container under another alias re-publishes its ports unreliably (docker/cli#2909)."""
    return sorted(name for name, key in wanted.items() if parked.get(name) == key)


def database_ids(record: dict) -> list[str]:
    """The databases of a parked stack (a record from before several databases has one)."""
    return list(record["databases"].values()) if "databases" in record else [record["db"]]


def container_ids(record: dict) -> list[str]:
    """Every container of a parked stack: databases, load generator, nodes, balancers."""
    return [*database_ids(record), record["loadgen"], *record["nodes"].values(),
            *(b["id"] for b in record.get("balancers", {}).values())]


def park(stack_key: str, record: dict) -> Path:
    """Put a stack in the pool: ``record`` holds the ids of its network and containers."""
    folder = _folder()
    folder.mkdir(parents=True, exist_ok=True)
    for held, claim_record in _claims():  # this stack is parked again: no longer claimed
        if claim_record.get("network") == record["network"]:
            held.unlink(missing_ok=True)
    path = folder / f"{stack_key}-{os.getpid()}-{record['network'][:8]}.json"
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps({"key": stack_key, **record}), encoding="utf-8")
    os.replace(tmp, path)
    return path


def claim(stack_key: str, runs: int = 0) -> dict | None:
    """Take a parked stack of this key out of the pool (None when there is none); ``runs``:
    how many runs a stack may serve in all (0: no limit), so one that has served them all is
    left for the run to remove (``clear``)."""
    for path in sorted(_folder().glob(f"{stack_key}-*.json")):
        record = _take(path, runs)
        if record is not None:
            return record
    return None


def may_serve(record: dict, runs: int) -> bool:
    """Whether a parked stack may serve one more run of at most ``runs`` (0: no limit)."""
    return not runs or len(record.get("served", ())) < runs


def _take(path: Path, runs: int = 0) -> dict | None:
    """Claim one parked stack's file (a rename: None if another run took it first, or if it
    has served its runs)."""
    found = _read(path)
    if found is None or not may_serve(found, runs):
        return None
    _claimed().mkdir(parents=True, exist_ok=True)
    taken = _claimed_path(path)
    try:
        os.rename(path, taken)
    except OSError:
        return None
    record = _read(taken)
    if record is None:
        taken.unlink(missing_ok=True)
    return record


def claim_nearest(common: str, wanted: dict[str, str], runs: int = 0,
                  balanced: bool = False) -> dict | None:
    """No parked stack of a run's own kind: take the one of the same common part (with a
    balancer if ``balanced``, else without) that has the most nodes the run can use as they
    are (``wanted``: name -> node_key), at least one. The claimant starts the nodes it lacks
    and removes the ones it does not use: a JVM-option recipe, whose one odd node makes a kind
    of its own, boots one JVM instead of a whole stack; a four-node cluster boots two beside a
    parked two-node one. ``runs`` as in ``claim``."""
    found = _near(common, wanted, runs, balanced)
    for _, _, path in sorted((-fits, path.name, path) for fits, path in found):
        record = _take(path, runs)
        if record is not None:
            return record
    return None


def best_fit(common: str, wanted: dict[str, str], runs: int = 0) -> int:
    """How many of the wanted nodes the nearest parked stack has (claim_nearest's choice; a
    stack of the run's own kind has them all). Nothing is claimed."""
    return max((fits for fits, _ in _near(common, wanted, runs)), default=0)


def _near(common: str, wanted: dict[str, str], runs: int = 0,
          balanced: bool = False) -> list[tuple[int, Path]]:
    """The parked stacks a run could take nearest (same common part, a balancer or none as
    the run, node keys recorded, runs left to serve), with how many of its wanted nodes each
    has; those with none left out."""
    out = []
    for path in _folder().glob("*.json"):
        record = _read(path)
        if (record is None or record.get("common") != common
                or bool(record.get("balancers")) != balanced
                or "node_keys" not in record or not may_serve(record, runs)):
            continue
        fits = len(fitting_nodes(record["node_keys"], wanted))
        if fits:
            out.append((fits, path))
    return out


def _claimed_path(path: Path) -> Path:
    """Where this process holds a parked stack's file it claimed (``_take``)."""
    return _claimed() / f"{os.getpid()}-{path.name}"


def _read(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _records() -> list[dict]:
    return [r for r in map(_read, _folder().glob("*.json")) if r is not None]


def _claims() -> list[tuple[Path, dict]]:
    """The stacks claimed by processes still alive; a claim whose process has ended is
    dropped (its stack is that run's leftovers, for the sweep to remove)."""
    out = []
    for path in _claimed().glob("*.json") if _claimed().is_dir() else ():
        pid, _, _ = path.name.partition("-")
        record = _read(path)
        if record is None or not pid.isdigit() or not pid_alive(int(pid)):
            path.unlink(missing_ok=True)
            continue
        out.append((path, record))
    return out


def spared_ids() -> set[str]:
    """Ids of every network and container parked in the pool or claimed by a live run: what
    the sweep of dead runs must not remove."""
    ids = set()
    for record in _records() + [record for _, record in _claims()]:
        ids.add(record["network"])
        ids.update(container_ids(record))
    return ids


def trim(client, keep: int) -> list[str]:
    """Remove the stacks parked longest ago until at most ``keep`` are parked (0: no limit);
    returns what was removed. Every parked stack holds its JVMs' memory (a node keeps about a
    gigabyte of heap it once touched): on 29 November 2026 the notebooks of one test command
    had parked 20 stacks (a repeat run read 31 containers and 10 GB in use at the seventh), and
    Docker took more than 60 s to start a container (two-databases-more-cpu failed CI twice
    so). A stack parked again goes to the back: the kinds used most stay."""
    if not keep:
        return []
    parked = sorted(_folder().glob("*.json"), key=lambda p: (p.stat().st_mtime, p.name))
    removed = []
    for path in parked[:max(0, len(parked) - keep)]:
        record = _take(path)  # claimed first, so no other run takes it while it goes
        if record is not None:
            removed += _remove(client, record)
            _claimed_path(path).unlink(missing_ok=True)
    return removed


def clear(client) -> list[str]:
    """Remove every parked stack; returns what was removed."""
    removed = []
    for path in list(_folder().glob("*.json")):
        record = _read(path)
        if record is not None:
            removed += _remove(client, record)
        path.unlink(missing_ok=True)
    return removed


def _remove(client, record: dict) -> list[str]:
    """Remove a parked stack's containers and network (those already gone are skipped)."""
    import docker.errors

    removed = []
    for cid in container_ids(record):
        try:
            client.containers.get(cid).remove(force=True, v=True)
            removed.append(f"container {cid[:12]}")
        except docker.errors.NotFound:
            pass
    try:
        client.networks.get(record["network"]).remove()
        removed.append(f"network {record['network'][:12]}")
    except docker.errors.NotFound:
        pass
    return removed
