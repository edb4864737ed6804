"""The course of a window: figures read from a node at a fixed interval while its load runs.

The window's other telemetry (telemetry.py) is two snapshots and a difference, which says how
much happened, not how it went: a drain's message-driven bean may keep every instance of its
pool busy from start to end, or alternate between batches (the guide's "15 and 10", 4.6), and
both end with the same count. A recipe that asks for it by name (``[metrics] courses``) gets,
in every trial, the samples of each figure over the window, each with its time since the load
started.

Sampling costs the node one management read per source and interval (a few milliseconds of its
CPU), in every arm alike; it runs in a thread of its own, on a management connection of its
own, so the load and the edges of the window are read as without it.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager

from .management import BROKER, ManagementError

__all__ = ["SOURCES", "INTERVAL_S", "sampling", "mdb_pools", "queue_depths"]

INTERVAL_S = 0.25  # a drain of a few seconds gets a dozen samples and more

MESSAGE_DRIVEN_BEANS = [("deployment", "*"), ("subsystem", "ejb3"), ("message-driven-bean", "*")]
QUEUES = [*BROKER, ("jms-queue", "*")]


def _matches(answer, key: str) -> dict[str, dict]:
    """A wildcard read's answer (a list of {address, result}) by the name ``key`` has in each
    address."""
    out = {}
    for entry in answer or ():
        name = dict(tuple(step.items())[0] for step in entry["address"])[key]
        out[name] = entry.get("result") or {}
    return out


def mdb_pools(management) -> dict:
    """Every message-driven bean's instance pool as the server reports it: the instances it has
    made and the most it may hold, how many more it would lend now (a strict pool's permits:
    its bound less the instances in use, read on WildFly 39: 15 of a pool of 15 with none busy,
    while it holds a single instance), and so those in use; with the EJB subsystem's statistics
    on, the bean's invocations and the most that ran at once."""
    beans = _matches(management.read_resource(MESSAGE_DRIVEN_BEANS, runtime=True),
                     "message-driven-bean")
    out = {}
    for name, r in beans.items():
        bound, available = r.get("pool-max-size"), r.get("pool-available-count")
        out[name] = {"pool_size": r.get("pool-current-size"), "pool_max": bound,
                     "available": available,
                     "in_use": None if bound is None or available is None else bound - available,
                     "invocations": r.get("invocations"),
                     "peak_concurrent": r.get("peak-concurrent-invocations")}
    return out


def queue_depths(management) -> dict:
    """Every JMS queue's messages waiting and being delivered, as the broker reports them."""
    queues = _matches(management.read_resource(QUEUES, runtime=True), "jms-queue")
    return {name: {"messages": r.get("message-count"), "delivering": r.get("delivering-count")}
            for name, r in queues.items()}


# What a recipe may name in metrics.courses: {name: reader(management client) -> dict}.
SOURCES = {"mdb-pool": mdb_pools, "queue-depth": queue_depths}


class _Sampler:
    def __init__(self, management, names: tuple[str, ...], interval_s: float):
        self.management, self.names, self.interval_s = management, names, interval_s
        self.samples: list[dict] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._began = 0.0

    def start(self) -> None:
        self._began = time.monotonic()
        self._thread.start()

    def stop(self) -> list[dict]:
        self._stop.set()
        self._thread.join()
        return self.samples

    def _run(self) -> None:
        while True:
            sample = {"t": round(time.monotonic() - self._began, 3)}
            for name in self.names:
                try:
                    sample[name] = SOURCES[name](self.management)
                except ManagementError as error:  # a read that failed is a gap, said so
                    sample[name] = {"error": str(error)[:200]}
            self.samples.append(sample)
            if self._stop.wait(self.interval_s):
                return


@contextmanager
def sampling(stack, nodes: dict[str, str], names: tuple[str, ...],
             interval_s: float = INTERVAL_S):
    """Sample ``names`` on each arm's node (``nodes``: arm id -> node) while the block runs;
    yields {arm id: [samples]}, filled when the block ends (empty without names)."""
    found: dict[str, list[dict]] = {arm: [] for arm in nodes}
    if not names:
        yield found
        return
    samplers = {arm: _Sampler(stack.management_of(node).another(), names, interval_s)
                for arm, node in nodes.items()}
    for sampler in samplers.values():
        sampler.start()
    try:
        yield found
    finally:
        for arm, sampler in samplers.items():
            found[arm] = sampler.stop()
