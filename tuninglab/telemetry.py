"""What the stack did during a measured window: CPU of every container, the host's counters
(for the interference rules), the measured node's GC and the WildFly runtime statistics a
recipe names.

Counters are cumulative, so a window is two snapshots and a difference: sampling costs a few
file reads and management calls at the edges of the window, not a probe running beside the
load.
"""
from __future__ import annotations

import time

from . import database_stats, disk_limits, interference, network_counters
from .compiler_cpu import busiest, compiler_figures, compiler_reading
from .front import ROLE_SUFFIX as FRONT_SUFFIX
from .jvm_threads import read_threads
from .management import BROKER, MESSAGING, ManagementError
from .management import PLATFORM_GC as GC
from .management import PLATFORM_MEMORY as MEMORY

IO_WORKER = [("subsystem", "io"), ("worker", "default")]
# The EJB subsystem's default thread pool: where remote invocations run when its remote service
# does not execute them in the io worker (execute-in-worker=false).
EJB3_THREAD_POOL = [("subsystem", "ejb3"), ("thread-pool", "default")]


def datasource_statistics(datasource: str, kind: str) -> list[tuple[str, str]]:
    """A data source's statistics in the management model: ``pool`` (its connections) or
    ``jdbc`` (its prepared-statement cache)."""
    return [("subsystem", "datasources"), ("data-source", datasource), ("statistics", kind)]


def _management_source(address):
    return lambda stack, node, threads: _runtime(stack.management_of(node), address)


def _app_datasource(kind: str):
    """A reader of the statistics ``kind`` of the app under test's own data source
    (apps.App.datasource)."""
    return lambda stack, node, threads: _runtime(
        stack.management_of(node), datasource_statistics(stack.app_under_test.datasource(), kind))


def _task_threads(stack, node, threads) -> dict:
    """The io worker's task threads alive now (busy or idle), counted in /proc: the management
    model says how many are busy and the pool's bounds, not how many exist."""
    if threads is None:
        return {"error": "the JVM's threads could not be read"}
    return {"alive": sum(t.name.startswith(TASK_THREAD) for t in threads)}


def _disk_writes(stack, node, threads) -> dict:
    """Write operations the node's container has sent to the disk behind its files, from its
    cgroup (disk_limits.py): cumulative, so a window is a difference."""
    if not stack.local_engine:
        return {"error": "a remote engine's cgroups are not ours to read"}
    done = disk_limits.writes_done(stack.nodes[node].get_wrapped_container().id, stack.data_disk())
    return {"error": "no blkio or io cgroup found"} if done is None else {"writes": done}


def _network(stack, node, threads) -> dict:
    """Bytes the node's container has sent and received on its network (network_counters.py):
    cumulative, so a window is a difference."""
    return network_counters.read(stack.meter(node).processes())


BROKER_QUEUES = [*BROKER, ("jms-queue", "*")]


def _broker_queues(stack, node, threads) -> dict:
    """Every JMS queue's own counters as the broker reports them (messages added, in the queue,
    being delivered, consumers): the broker's side of what the app's ledger counts."""
    found = _runtime(stack.management_of(node), BROKER_QUEUES)
    if "error" in found:
        return found
    queues = {}
    for entry in found:  # a wildcard read answers each match with its address (a list)
        name = dict(tuple(step.items())[0] for step in entry["address"])["jms-queue"]
        queues[name] = {key: value for key, value in (entry.get("result") or {}).items()
                        if isinstance(value, int) and not isinstance(value, bool)}
    return queues


CLIENT_THREADS = "global-client-thread-pool-"  # the broker's client threads, which run MDBs


def _client_threads(stack, node, threads) -> dict:
    """The pool of the broker's client threads as the server reports it (its bound, the
    threads alive, the most there ever were, the busy ones): the threads that deliver
    messages to message-driven beans."""
    found = _runtime(stack.management_of(node), MESSAGING)
    if "error" in found:
        return found
    return {key[len(CLIENT_THREADS):]: value for key, value in found.items()
            if key.startswith(CLIENT_THREADS)}


# What a recipe may name in metrics.runtime: {name: reader(stack, node, threads) -> dict},
# ``threads`` the node's JVM threads as read once for the whole snapshot (jvm_threads.py).
RUNTIME_SOURCES = {
    "datasource-pool": _app_datasource("pool"),
    "io-worker": _management_source(IO_WORKER),
    "ejb3-thread-pool": _management_source(EJB3_THREAD_POOL),
    "statement-cache": _app_datasource("jdbc"),
    "jvm-memory": _management_source(MEMORY),
    "task-threads": _task_threads,
    "disk": _disk_writes,
    "network": _network,
    "broker": _broker_queues,
    "client-threads": _client_threads,
}
# The thread pools whose figures a window keeps at its start and at its end: the broker's
# client threads, and the EJB subsystem's pool (its completed tasks prove it ran the calls).
POOLS_AT_BOTH_EDGES = ("client-threads", "ejb3-thread-pool")
TASK_THREAD = "default task-"  # the default worker's task threads, as the kernel names them


def snapshot(stack, target: str, runtime: tuple[str, ...], edge: str = "end") -> dict:
    """Every counter the window needs. ``target`` is what the load went to: a node, or a
    balancer whose nodes are read each. The CPU counters are read nearest the load: last at
    the window's start, first at its end, so that the management calls, the read of the JVM's
    threads (a ``docker exec`` on a remote engine) and the database's statistics cost no CPU
    inside the window."""
    members, database, networks = {}, None, None
    stack.check_hosts()  # a host of a spread stack gone: the run stops here, named
    if edge == "start":
        members = _members(stack, target, runtime)
        database = _database(stack, runtime)
        networks = _database_networks(stack, runtime)
    snap = {"t": time.monotonic(),
            "cpu_s": {role: stack.meter(role).cpu_seconds() for role in stack.meter_roles()},
            "host": {m.name: interference.host_snapshot(read_stat=m.read_stat)
                     for m in stack.machines()},
            "members": members}
    if edge != "start":
        snap["members"] = _members(stack, target, runtime)
        database = _database(stack, runtime)
        networks = _database_networks(stack, runtime)
    if database is not None:
        snap["database"] = database
    if networks is not None:
        snap["database_networks"] = networks
    if target in stack.balancers:
        snap["requests_by_node"] = stack.balancers[target].requests_by_node()
    return snap


def _front_cpu(stack, members: list[str], cpu: dict[str, float], transactions: int) -> dict:
    """The CPU the web servers in front of the window's nodes used per transaction (ms), where
    the nodes have fronts (front.py): the tier a front adds, whose cost is part of the answer."""
    roles = [f"{n}{FRONT_SUFFIX}" for n in members if n in stack.fronts]
    if not roles:
        return {}
    return {"front_cpu_per_tx_ms": sum(cpu[r] for r in roles) * 1000 / transactions
            if transactions else None}


def _database(stack, runtime: tuple[str, ...]) -> dict | None:
    """The app's database's counters on the stack's first database, if the recipe asks."""
    if database_stats.RUNTIME_NAME not in runtime:
        return None
    return database_stats.read(next(iter(stack.databases.values())),
                               stack.app_declaring("database").database)


def _database_networks(stack, runtime: tuple[str, ...]) -> dict | None:
    """Each database's network counters, where the recipe counts the nodes' (the tier behind
    them: the thesis's busiest node was its database)."""
    if "network" not in runtime:
        return None
    return {name: network_counters.read(stack.meter(name).processes()) for name in stack.databases}


def database_quiet(stack, cancel_after_s: float | None = None) -> float:
    """Wait until the app's database has finished the last window's statements, cancelling
    those still running after ``cancel_after_s``."""
    return database_stats.wait_until_quiet(next(iter(stack.databases.values())),
                                           stack.app_declaring("database").database,
                                           cancel_after_s=cancel_after_s)


def _members(stack, target: str, runtime: tuple[str, ...]) -> dict:
    """Each node's counters read through its management API and from its JVM's threads (one
    read a node, jvm_threads.py: the compiler and the task-thread count share the list)."""
    out = {}
    for node in stack.members(target):
        threads = read_threads(stack.nodes[node], stack.meter(node))
        member = {"gc": _gc_totals(stack.management_of(node)),
                  **compiler_reading(stack, node, threads)}
        for name in runtime:
            if name in RUNTIME_SOURCES:
                member[name] = RUNTIME_SOURCES[name](stack, node, threads)
        out[node] = member
    return out


def window(stack, target: str, before: dict, after: dict, transactions: int, load_s: float,
           shared_by: int = 1, cut_off: int = 0) -> dict:
    """Derived telemetry of one window; CPU per transaction in milliseconds.

    The snapshots bracket the whole k6 run, which includes about 0.1 s of k6 start-up without
    load; utilisation and GC share are taken over ``load_s``, the seconds the load ran.
    ``shared_by`` arms measured side by side share the database and the load generator: their
    CPU is the window's total, and the database's CPU per transaction of one arm is not known.

    A target with several nodes (a cluster) reads as one application server: ``app`` is their
    CPU together, GC their sum, the compiler figures the busiest node's; ``members`` has each
    node's own figures and the requests the balancer gave it. ``cut_off``: the requests the
    load left in flight at the window's edges (database_stats.window).
    """
    cpu = {role: after["cpu_s"][role] - before["cpu_s"][role] for role in after["cpu_s"]}
    members = list(after["members"])
    # a database's quota, else its cpuset's CPUs
    allowed = {**{name: stack.limits_of(name)["cpus"] or len(interference.cpuset_cpus(
                  stack.config.db_cpuset)) for name in stack.databases},
               "loadgen": len(interference.cpuset_cpus(stack.config.loadgen_cpuset)),
               # a delaying proxy's CPU (network.py), reported beside what it serves
               **{role: len(interference.cpuset_cpus(stack.config.proxy_cpuset))
                  for role in stack.proxy_roles()},
               # a web server in front of a node (front.py), beside the load generator
               **{role: len(interference.cpuset_cpus(stack.config.loadgen_cpuset))
                  for role in stack.front_roles()}}
    app_cpu_s = sum(cpu[n] for n in members)
    app_allowed = sum(stack.allowed_cpus(n) for n in members)
    containers = {role: {"cpu_s": cpu[role], "allowed_cpus": allowed[role],
                         "cpu_utilisation": cpu[role] / load_s / allowed[role] if load_s > 0
                         else None, **stack.meter(role).memory()} for role in allowed}
    memory = [stack.meter(n).memory() for n in members]
    containers["app"] = {"cpu_s": app_cpu_s, "allowed_cpus": app_allowed,
                         "cpu_utilisation": app_cpu_s / load_s / app_allowed if load_s > 0
                         else None,
                         **{key: sum(m[key] for m in memory) for key in memory[0]}}
    idle_nodes_cpu_s = sum(cpu[n] for n in stack.nodes if n not in members)
    host = interference.worst({
        m.name: interference.host_window(before["host"].get(m.name), after["host"].get(m.name),
                                         stack_cpu_s=sum(cpu.get(r, 0.0) for r in m.roles),
                                         shared_cpus=set(m.shared_cpus))
        for m in stack.machines()})
    per = {n: _member_window(before["members"][n], after["members"][n], load_s,
                             stack.allowed_cpus(n)) for n in members}
    gc_ms = sum(m["gc_time_ms"] for m in per.values())
    out = {
        "window_s": after["t"] - before["t"], "load_s": load_s, "node": target,
        "containers": containers, "other_nodes_cpu_s": idle_nodes_cpu_s,
        "interference": host,
        "gc": {"count": sum(m["gc_count"] for m in per.values()), "time_ms": gc_ms,
               "collectors": after["members"][members[0]]["gc"]["collectors"]},
        "cpu_per_tx_ms": app_cpu_s * 1000 / transactions if transactions else None,
        "db_cpu_per_tx_ms": sum(cpu[name] for name in stack.databases) * 1000 / transactions
        if transactions and shared_by == 1
        else None,
        "shared_by": shared_by,
        **_front_cpu(stack, members, cpu, transactions),
        "gc_time_share": gc_ms / (load_s * 1000 * len(members)) if load_s > 0 else None,
        # How busy the node's JIT compiler was: a warm node compiles little; a burst during a
        # window is the node changing under the measurement. Three figures of the busiest
        # node: its compilation (wall) time over the window, which stretches on a throttled
        # node and no rule reads since 26 November 2026; the compiler threads' CPU in cores;
        # and that CPU as a share of what the node may use, which the rule reads
        # (compiler_cpu.py).
        **busiest(list(per.values())),
    }
    pools = [(before["members"][n].get("datasource-pool", {}), after["members"][n]["datasource-pool"])
             for n in members if "datasource-pool" in after["members"][n]]
    if pools:
        out["datasource_pool"] = _pool_window(*_summed(pools), transactions)
    caches = [(before["members"][n].get("statement-cache", {}),
               after["members"][n]["statement-cache"])
              for n in members if "statement-cache" in after["members"][n]]
    if caches:
        out["statement_cache"] = _statement_cache_window(caches, transactions)
    disks = [(before["members"][n].get("disk", {}), after["members"][n]["disk"])
             for n in members if "disk" in after["members"][n]]
    if disks:
        out["disk"] = _disk_window(disks, transactions, load_s)
    networks = [(before["members"][n].get("network", {}), after["members"][n]["network"])
                for n in members if "network" in after["members"][n]]
    if networks:
        out["network"] = _network_window(networks, transactions, cut_off)
    if "database_networks" in after:  # the databases' traffic is an arm's only if it was alone
        if shared_by > 1:
            databases = {"error": f"shared by {shared_by} arms measured side by side"}
        else:
            databases = {name: _network_window(
                [(before["database_networks"].get(name, {}), counters)], transactions, cut_off)
                for name, counters in after["database_networks"].items()}
        out.setdefault("network", {})["databases"] = databases
    if "database" in after:  # arms side by side share the database: its figures are theirs
        out["database"] = (database_stats.window(before["database"], after["database"],
                                                 transactions, load_s, cut_off)
                           if shared_by == 1
                           else {"error": f"shared by {shared_by} arms measured side by side"})
    if "courses" in after:  # what the figures did inside the window (courses.py)
        out["courses"] = after["courses"]
    if len(members) == 1:  # gauges: a cluster has them per node only
        out.update(_gauges(before["members"][members[0]], after["members"][members[0]]))
    else:
        for n in members:
            per[n]["cpu_s"] = cpu[n]
            if "requests_by_node" in after:
                per[n]["requests"] = (after["requests_by_node"].get(n, 0)
                                      - before["requests_by_node"].get(n, 0))
            per[n].update(_gauges(before["members"][n], after["members"][n]))
        out["members"] = per
    return out


def _disk_window(pairs: list[tuple[dict, dict]], transactions: int, load_s: float) -> dict:
    """The target's writes to its disk in the window: in all, a second and per transaction."""
    if any("writes" not in p for pair in pairs for p in pair):
        return {"error": next(p["error"] for pair in pairs for p in pair if "error" in p)}
    writes = sum(after["writes"] - before["writes"] for before, after in pairs)
    return {"writes": writes, "writes_per_s": writes / load_s if load_s > 0 else None,
            "writes_per_tx": writes / transactions if transactions else None}


def _network_window(pairs: list[tuple[dict, dict]], transactions: int, cut_off: int) -> dict:
    """What the target's nodes sent and received in the window, together and per completed
    transaction; ``transactions`` and ``cut_off`` (the requests in flight at the window's
    edges, whose bytes the counters hold too) go with them for the read-back's allowance
    (changes/database_read_back.py)."""
    if any("sent_bytes" not in p for pair in pairs for p in pair):
        return {"error": next((p["error"] for pair in pairs for p in pair if "error" in p),
                              "the counters were not read at both edges of the window")}
    totals = {key: sum(after[key] - before[key] for before, after in pairs)
              for key in ("sent_bytes", "received_bytes")}
    return {**totals, "transactions": transactions, "cut_off": cut_off,
            "per_tx": {key: value / transactions for key, value in totals.items()}
            if transactions else {}}


def _gauges(before: dict, after: dict) -> dict:
    """A node's gauges in the window: the io worker and the heap as at its end; the live task
    threads at both edges (after a pause without load, the start says how many the worker
    kept)."""
    out = {name.replace("-", "_"): after[name] for name in ("io-worker", "jvm-memory")
           if name in after}
    if "task-threads" in after:
        out["task_threads"] = {"at_start": before.get("task-threads", {}).get("alive"),
                               "at_end": after["task-threads"].get("alive")}
    for pool in POOLS_AT_BOTH_EDGES:  # a pool's figures at both edges (its counters grow)
        if pool in after:
            out[pool.replace("-", "_")] = {"at_start": before.get(pool), "at_end": after[pool]}
    if "broker" in after:  # each queue's counters at both edges (the broker's own figures)
        out["broker"] = after["broker"] if "error" in after["broker"] else {
            queue: {key: {"at_start": before.get("broker", {}).get(queue, {}).get(key),
                          "at_end": value} for key, value in counters.items()}
            for queue, counters in after["broker"].items()}
    return out


def _member_window(before: dict, after: dict, load_s: float, allowed_cpus: float) -> dict:
    return {"gc_count": after["gc"]["count"] - before["gc"]["count"],
            "gc_time_ms": after["gc"]["time_ms"] - before["gc"]["time_ms"],
            **compiler_figures(before, after, load_s, allowed_cpus)}


def _summed(pairs: list[tuple[dict, dict]]) -> tuple[dict, dict]:
    """Several nodes' pool statistics as one pool (counters and gauges added)."""
    if len(pairs) == 1:
        return pairs[0]
    keys = ("TotalBlockingTime", "WaitCount", "TimedOut", "MaxUsedCount", "MaxWaitCount",
            "ActiveCount", "CreatedCount", "TotalCreationTime")
    return tuple({k: sum(_number(side.get(k)) for side in sides) for k in keys}
                 for sides in zip(*pairs))


def _gc_totals(management) -> dict:
    collectors = management.read_resource(GC, runtime=True, recursive=True)
    per = collectors.get("name", {}) if collectors else {}
    return {
        "count": sum((c or {}).get("collection-count") or 0 for c in per.values()),
        "time_ms": sum((c or {}).get("collection-time") or 0 for c in per.values()),
        "collectors": sorted(per),
    }


def _runtime(management, address) -> dict:
    try:
        return management.read_resource(address, runtime=True) or {}
    except ManagementError as exc:
        return {"error": str(exc)}


def _pool_window(before: dict, after: dict, transactions: int) -> dict:
    def delta(key):
        return _number(after.get(key)) - _number(before.get(key))
    blocking_ms = delta("TotalBlockingTime")
    return {
        "wait_count": delta("WaitCount"),
        "timed_out": delta("TimedOut"),
        "total_blocking_ms": blocking_ms,
        "blocking_ms_per_tx": blocking_ms / transactions if transactions else None,
        "max_used": _number(after.get("MaxUsedCount")),
        "max_wait_count": _number(after.get("MaxWaitCount")),
        "active": _number(after.get("ActiveCount")),
        # The connections the pool held when the window began and those it opened during it:
        # after a pause longer than the idle timeout, what a minimum pool size keeps.
        "active_at_start": _number(before.get("ActiveCount")),
        "created": delta("CreatedCount"),
        "creation_ms": delta("TotalCreationTime"),
    }


# The data source's counters of its prepared-statement cache (statistics=jdbc), as WildFly names
# them: a hit is a statement the cache handed back, a miss one the driver had to prepare.
CACHE_COUNTERS = {"hits": "PreparedStatementCacheHitCount",
                  "misses": "PreparedStatementCacheMissCount",
                  "accesses": "PreparedStatementCacheAccessCount"}


def _statement_cache_window(pairs: list[tuple[dict, dict]], transactions: int) -> dict:
    """The window's cache hits and misses over the target's nodes, and how many per app
    transaction: what proves the variant's cache served statements and the baseline's none."""
    errors = [side["error"] for pair in pairs for side in pair if "error" in side]
    if errors:
        return {"error": errors[0]}
    counts = {key: sum(_number(after.get(name)) - _number(before.get(name))
                       for before, after in pairs) for key, name in CACHE_COUNTERS.items()}
    return {**counts,
            "hits_per_tx": counts["hits"] / transactions if transactions else None,
            "size": sum(_number(after.get("PreparedStatementCacheCurrentSize"))
                        for _, after in pairs)}


def _number(value) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def wait_until_idle(stack, target: str, timeout_s: float = 30.0, poll_s: float = 0.2) -> float:
    """Wait until the target's nodes' io workers have no busy task thread and nothing queued;
    return the seconds waited (``timeout_s`` when it never got there).

    k6 stops a window without waiting for requests in flight (gracefulStop 0). In a closed
    model that leaves at most one request per user behind, but an open model past saturation
    leaves up to ``max_users`` queued on the server, and the next window's requests would wait
    behind them: on a one-core node that is seconds of another window's work.
    """
    began = time.monotonic()
    for node in stack.members(target):
        _wait_idle(stack.management_of(node), began, timeout_s, poll_s)
    return min(time.monotonic() - began, timeout_s)


def _wait_idle(management, began: float, timeout_s: float, poll_s: float) -> None:
    while True:
        worker = _runtime(management, IO_WORKER)
        if "error" in worker:
            return  # a server that cannot say is not waited for; the window shows the rest
        busy = _number(worker.get("busy-task-thread-count")) + _number(worker.get("queue-size"))
        if busy == 0 or time.monotonic() - began >= timeout_s:
            return
        time.sleep(poll_s)
