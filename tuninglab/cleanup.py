"""Nothing left behind: every container and network a run creates carries the run's labels.

Testcontainers' reaper (Ryuk) cannot run here (its image cannot be pulled), so the lab does
the reaper's job itself:
- `labels()` marks every object with the run id, the owning process id and the host;
- `RunScope` removes the run's objects when the run ends, on an exception, on Ctrl-C and on
  SIGTERM / SIGHUP (turned into an exception so `finally` blocks run);
- `sweep_dead_runs()` removes objects of runs whose process is gone (kill -9, a crashed
  kernel); it runs at the start of every stack, and spares stacks parked for reuse
  (stackpool.py), whose process ended on purpose, and stacks a live run claimed from there.
"""
from __future__ import annotations

import atexit
import os
import signal
import socket
import uuid

import docker
import docker.errors

RUN_LABEL = "tuninglab.run"
PID_LABEL = "tuninglab.pid"
HOST_LABEL = "tuninglab.host"

os.environ.setdefault("TESTCONTAINERS_RYUK_DISABLED", "true")


class EnginesLost(RuntimeError):
    """Some engines of a spread stack did not answer when its containers were removed."""


class Interrupted(KeyboardInterrupt):
    """A termination signal arrived; raised so that clean-up code runs."""


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep_dead_runs(client: docker.DockerClient, spare: set[str] = frozenset()) -> list[str]:
    """Remove containers and networks left by runs of this host whose process has died, but
    not those whose id is in ``spare`` (stacks parked for reuse)."""
    host = socket.gethostname()
    removed = []
    for container in _containers(client, {"label": RUN_LABEL}):
        labels = container.labels
        if labels.get(HOST_LABEL) != host or pid_alive(int(labels.get(PID_LABEL, "0"))):
            continue
        if container.id in spare:
            continue
        if _remove(container, force=True, v=True):
            removed.append(f"container {container.name}")
    for network in client.networks.list(filters={"label": RUN_LABEL}):
        labels = network.attrs.get("Labels") or {}
        if labels.get(HOST_LABEL) != host or pid_alive(int(labels.get(PID_LABEL, "0"))):
            continue
        if network.id in spare:
            continue
        try:
            network.remove()
            removed.append(f"network {network.name}")
        except docker.errors.APIError:
            pass  # still in use by a container another sweep is removing; next start retries
    return removed


def _existing(collection, ids: list[str]) -> list:
    """The objects of ``ids`` that still exist."""
    found = []
    for object_id in ids:
        try:
            found.append(collection.get(object_id))
        except docker.errors.NotFound:
            pass
    return found


def _containers(client, filters: dict) -> list:
    """The containers matching ``filters``, all states. Runs side by side (the test command's
    two notebooks at a time) remove containers while another lists them: one gone between the
    list and its inspection is left out (ignore_removed). Without that, a notebook failed on
    "No such container" as its run started (7 December 2026)."""
    return client.containers.list(all=True, filters=filters, ignore_removed=True)


def _remove(obj, **options) -> bool:
    """Remove a container or network; False if it was already gone (another run removed it)."""
    try:
        obj.remove(**options)
    except docker.errors.NotFound:
        return False
    return True


class RunScope:
    """The identity of one run and the guarantee that its docker objects go away with it."""

    def __init__(self, client: docker.DockerClient, others: dict[str, docker.DockerClient] = None):
        self.client = client
        # the engines of a stack spread over hosts, by host (placement/): its objects are
        # there too
        self.others = dict(others or {})
        self.run_id = uuid.uuid4().hex[:12]
        self._previous_handlers: dict[int, object] = {}
        self._adopted: dict[str, list[str]] = {"containers": [], "networks": []}

    def adopt(self, containers: list[str] = (), networks: list[str] = ()) -> None:
        """Objects of an earlier run that this run now owns (a stack taken from the pool):
        removed with the run's own if it fails."""
        self._adopted["containers"] += list(containers)
        self._adopted["networks"] += list(networks)

    def abandon(self) -> None:
        """End the scope and remove nothing: the objects live on (a stack parked for reuse)."""
        atexit.unregister(self.remove_all)
        self._restore_signal_handlers()

    def labels(self, role: str) -> dict[str, str]:
        return {RUN_LABEL: self.run_id, PID_LABEL: str(os.getpid()),
                HOST_LABEL: socket.gethostname(), "tuninglab.role": role}

    def __enter__(self) -> "RunScope":
        self._install_signal_handlers()
        atexit.register(self.remove_all)
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.remove_all()
        finally:
            atexit.unregister(self.remove_all)
            self._restore_signal_handlers()

    def remove_all(self) -> None:
        """Remove every container, then every network, of this run (idempotent), on every
        engine; an engine that does not answer (a host lost) is named, the others cleaned."""
        selector = {"label": f"{RUN_LABEL}={self.run_id}"}
        containers = _containers(self.client, selector)
        containers += _existing(self.client.containers, self._adopted["containers"])
        lost = []
        for host, other in self.others.items():
            try:
                for container in _containers(other, selector):
                    _remove(container, force=True, v=True)
            except (docker.errors.APIError, docker.errors.DockerException, OSError) as exc:
                lost.append(f"host {host} ({type(exc).__name__})")
        for container in containers:
            _remove(container, force=True, v=True)
        # after every container: an overlay network is removed where it was made
        networks = self.client.networks.list(filters=selector)
        networks += _existing(self.client.networks, self._adopted["networks"])
        for other in self.others.values():
            try:
                networks += other.networks.list(filters=selector)
            except (docker.errors.APIError, docker.errors.DockerException, OSError):
                pass  # named above
        kept = []
        for network in networks:
            try:
                _remove(network)
            except docker.errors.APIError as exc:
                # an overlay seen from a worker is removed through its manager; one its
                # manager keeps still holds containers of a lost host
                text = str(exc).lower()
                if self.others and ("in use" in text or "active endpoints" in text):
                    kept.append(network.name)
        if lost:
            raise EnginesLost("the engine of " + "; ".join(lost) + " did not answer when this "
                              "run's containers were removed"
                              + (f"; network {', '.join(sorted(set(kept)))} is kept by its "
                                 f"containers there" if kept else "")
                              + "; once the host is back, tuninglab clean --placement FILE "
                                "removes what is left")

    def _install_signal_handlers(self) -> None:
        def interrupt(signum, _frame):
            raise Interrupted(f"stopped by signal {signal.Signals(signum).name}")

        for signum in (signal.SIGTERM, signal.SIGHUP):
            try:
                self._previous_handlers[signum] = signal.signal(signum, interrupt)
            except ValueError:
                pass  # not the main thread: the atexit hook and the next sweep still clean up

    def _restore_signal_handlers(self) -> None:
        for signum, handler in self._previous_handlers.items():
            signal.signal(signum, handler)
        self._previous_handlers.clear()
