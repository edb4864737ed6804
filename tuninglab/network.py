"""The network between a stack's tiers, measured at the start of every run and stored with
its result: the round trip from the load generator to what it loads, from a node to each
database (by the name the app uses, so through any delaying proxy in the path, and to the
database's own address), and the rate a node can push to a database.

On one engine the tiers talk over a bridge inside one kernel (tens of microseconds); on a
swarm's hosts over an overlay network between them. A recipe that asks the thesis's question
of a real network sets an added delay or a rate cap between nodes and a database
(changes/network_link.py) and reads it back with the same round trip or push.

The measuring tool is tl-net (tools/tl-net, built by set-up): one static binary copied into
the containers it measures from and to. On the databases it answers as an echo server and a
sink (ports below), so a round trip is timed on one open connection, with no server code of
the system under test in it.
"""
from __future__ import annotations

import json

from . import layout

__all__ = ["ECHO_PORT", "LINK", "SINK_PORT", "TOOL", "binary", "echo_round_trip",
           "install", "measure", "push_rate", "serve"]

TOOL = "/usr/local/bin/tl-net"  # where it goes in a container
ECHO_PORT, SINK_PORT = 9998, 9999  # its echo server and sink on a database
# What a recipe's network change names for the links between a cluster's nodes
# (stack.StackConfig.linked_nodes), where it names a database for the link to a database.
LINK = "nodes"
ROUND_TRIPS = 200
BANDWIDTH_BYTES = 64 << 20


class NetworkToolMissing(RuntimeError):
    pass


def binary() -> bytes:
    """tl-net as set-up built it."""
    path = layout.REPO_ROOT / "tools" / "tl-net" / "target" / "tl-net"
    if not path.is_file():
        raise NetworkToolMissing(f"{path} is missing; build it with: bash scripts/setup.sh app")
    return path.read_bytes()


def install(container) -> None:
    """Copy tl-net into a running container (containers.LabContainer), once."""
    if not getattr(container, "has_network_tool", False):
        container.put_files({TOOL: binary()}, mode=0o755)
        container.has_network_tool = True


def serve(container) -> None:
    """An echo server and a sink in a running container, in the background; once."""
    install(container)
    if getattr(container, "serves_network_tool", False):
        return
    wrapped = container.get_wrapped_container()
    for command in (f"echo -listen :{ECHO_PORT}", f"sink -listen :{SINK_PORT}"):
        wrapped.exec_run(["sh", "-c", f"exec {TOOL} {command} >/dev/null 2>&1"], detach=True)
    container.serves_network_tool = True


# Docker sometimes hands back an exec's output empty although the command ran and exited 0
# (docker/docker-py#2042, moby/moby#27289): the CI run of 7 December 2026, two notebooks at a
# time, lost a node-to-node round trip so, and cluster-session-write-delay failed on it. A
# reading is only a few milliseconds of probing, so it is taken again.
ATTEMPTS = 3


def _tool(container, *arguments: str) -> dict:
    install(container)
    for _ in range(ATTEMPTS):
        lines = container.run([TOOL, *arguments]).strip().splitlines()
        if lines:
            return json.loads(lines[-1])
    raise RuntimeError(f"{container.role}: `tl-net "
                       f"{' '.join(arguments)}` exited 0 but printed nothing, {ATTEMPTS} times")


def echo_round_trip(container, to: str, n: int = ROUND_TRIPS) -> dict:
    """Round trips of one byte from ``container`` to an echo server at ``to`` (host:port), on
    one connection: min, median, p90 and max in microseconds."""
    return _tool(container, "rtt", "-to", to, "-n", str(n), "-echo")


def handshake_round_trip(container, to: str, n: int = 50) -> dict:
    """TCP handshakes from ``container`` to a listening port: answered by the target's kernel."""
    return _tool(container, "rtt", "-to", to, "-n", str(n))


def push_rate(container, to: str, n_bytes: int = BANDWIDTH_BYTES) -> dict:
    """``n_bytes`` pushed from ``container`` to a sink at ``to`` (host:port) on one connection:
    {"mbit_s", "bytes", "seconds"}, timed until the sink has read them all."""
    return _tool(container, "send", "-to", to, "-bytes", str(int(n_bytes)))


def measure(stack, target: str, progress=print) -> dict:
    """The stack's network at the start of a run: {path: reading}, each reading in
    microseconds (round trips) or Mbit/s (rate)."""
    out: dict = {}
    first = next(iter(stack.members(target)))
    node = stack.nodes[first]
    out[f"loadgen -> {target}"] = handshake_round_trip(stack.loadgen, f"{target}:8080")
    for name, database in stack.databases.items():
        serve(database)
        direct = stack.address_of(name)
        out[f"{first} -> {name}"] = echo_round_trip(node, f"{name}:{ECHO_PORT}")
        if name in stack.proxies:  # the name leads through the proxy; its address does not
            out[f"{first} -> {name} (direct)"] = echo_round_trip(node, f"{direct}:{ECHO_PORT}")
        rate = push_rate(node, f"{direct}:{SINK_PORT}")
        out[f"{first} -> {name} rate"] = {"mbit_s": rate["mbit_s"], "bytes": rate["bytes"]}
    links = stack.link_proxies()
    if links:  # between a cluster's nodes: through the last node's link, and around it
        last = list(links)[-1]
        serve(stack.nodes[last])
        out[f"{first} -> {last} (through its link)"] = echo_round_trip(
            node, f"{stack.link_name(last)}:{ECHO_PORT}")
        out[f"{first} -> {last} (direct)"] = echo_round_trip(
            node, f"{stack.address_of(last)}:{ECHO_PORT}")
    progress("network: " + "; ".join(_text(path, reading) for path, reading in out.items()))
    return out


def _text(path: str, reading: dict) -> str:
    if "mbit_s" in reading:
        return f"{path} {reading['mbit_s'] / 1000:.1f} Gbit/s"
    return f"{path} {reading['median_us'] / 1000:.3f} ms (p90 {reading['p90_us'] / 1000:.3f})"
