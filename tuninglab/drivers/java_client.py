"""A client JVM in the load generator's place (article 004's clients; apps/remote): the app's
client jar runs as one long-lived ``java`` process in the load-generator container, and each
window is a request to it; its threads call the server over remote+http and it answers with a
summary in the lab's contract (the same keys as k6's, plus ``client``: the client JVM's own
figures, and ``problems``: its messages for what failed, which fail the window).

Why one JVM for the whole run, not one a window: a JVM started for each window would spend
its first seconds compiling the calls it times, on the same core, and whatever it did before
its window (start, compile, connect) would fall inside the window the engine's telemetry reads
around the driver's run: the server's CPU per call counted the client's warm-up too (a first
version did that: 126 % of the client's core in a 3 s window). A client that stays up is
warmed by the engine's warm-up windows as the server is, and a window's exec lasts as long as
its measured seconds.

The app's ``workload`` is the client's jar, whose manifest names its entry point; it runs
with WildFly's client library (bin/client/jboss-client.jar of the same WildFly as the server)
on its class path, on the image's JDK 21, and serves windows on a loopback port
(``Main serve PORT``): a line of tab-separated KEY=VALUE pairs in, the window's output back.

Where the arms differ in the client's own JVM options (change kind client-jvm-options), each
set of options has a JVM of its own, all started at install and kept up for the run, each on a
port of its own; a window goes to the JVM of its arm's options. So an arm switch costs
nothing and every client stays compiled (an idle client JVM used about 0.1 % of a core here),
as the two JVMs of a server crossover do. What a client JVM really runs is read from its own
performance counters (perf_data.py): the arguments it started with and its collectors.
"""
from __future__ import annotations

import base64
import shlex
import time
import zipfile
import zlib

from .. import images
from . import perf_data
from .load_environment import environment

__all__ = ["JavaClient", "CLIENT_JVM_OPTIONS", "main_class", "request_line", "port_for"]

# The client library of the server's own WildFly, in the image (images/java-client).
CLIENT_LIBRARY = "/opt/wildfly/bin/client/jboss-client.jar"
# The client's JVM: a fixed heap, and the collector a one-CPU container gets by ergonomics,
# named so that it does not depend on the CPUs the container sees.
CLIENT_JVM_OPTIONS = ("-Xms256m", "-Xmx256m", "-XX:+UseSerialGC")
PORT = 7070  # the client with the default options, on the container's loopback
# Other options' clients listen on a port their options choose, in this range (port_for).
OTHER_PORTS = range(7100, 7900)
# Each client's output, shown when it does not answer, and its process id, by port.
LOG = "/tmp/tl-client-{port}.log"
PID = "/tmp/tl-client-{port}.pid"
READY_S = 30  # how long a new client JVM may take to listen
PERF_DATA = "/tmp/hsperfdata_*/{pid}"  # its performance counters (perf_data.py)
# A connection to a client (bash's /dev/tcp: no other tool is needed in the image, and
# nothing heavier than bash runs beside the clients); a request sends its line on it and
# prints what the client answers. $1 is the port, $2 the line.
_CONNECT = 'exec 3<>"/dev/tcp/127.0.0.1/$1"'
_REQUEST = _CONNECT + ' || exit 3; printf "%s\\n" "$2" >&3; cat <&3'
# Stops every client a parked stack may still run, and waits until each is gone (a request
# between the old and the new would reach the old one, or nothing).
_STOP_ALL = ('for f in /tmp/tl-client-*.pid; do [ -e "$f" ] || continue; p="$(cat "$f")"; '
             'kill "$p" 2>/dev/null; for i in $(seq 50); do kill -0 "$p" 2>/dev/null || '
             'break; sleep 0.1; done; kill -9 "$p" 2>/dev/null; rm -f "$f"; done; true')


class JavaClient:
    name = "java-client"
    image = images.CLIENT_JVM
    inputs = ("images/java-client",)
    contract_help = "its Main prints the summary after the marker: apps/remote's client"
    # A client JVM serves one window at a time, and two windows side by side would share its
    # core besides: a crossover's arms take turns on one node instead (plan.py).
    windows_side_by_side = False
    client_jvm = True  # change kind client-jvm-options
    default_jvm_options = " ".join(CLIENT_JVM_OPTIONS)

    def install(self, client, app, specs=()) -> None:
        """Put the client's jar in place and start a client JVM for each set of client JVM
        options among ``specs`` (the loads the run will send; the default options without
        any), after stopping those a parked stack may still run; then wait until each
        listens."""
        client.put_files(app.loadgen_files())
        client.run(["bash", "-c", _STOP_ALL])
        option_sets = list(dict.fromkeys(_options(spec) for spec in specs)) or [_options("")]
        ports = {options: port_for(options) for options in option_sets}
        clash = len(set(ports.values())) < len(ports)
        if clash:
            raise RuntimeError(f"two sets of client JVM options chose the same port: {ports}")
        main = main_class(app.folder / app.workload)
        for options, port in ports.items():
            command = " ".join(["java", *shlex.split(options), "-cp",
                                f"{app.script}:{CLIENT_LIBRARY}", main, "serve", str(port)])
            client.get_wrapped_container().exec_run(
                ["bash", "-c", f"echo $$ > {PID.format(port=port)}; "
                               f"exec {command} > {LOG.format(port=port)} 2>&1"], detach=True)
        for options, port in ports.items():
            self._await(client, port, options)

    def _await(self, client, port: int, options: str) -> None:
        deadline = time.monotonic() + READY_S
        while time.monotonic() < deadline:
            probe = client.get_wrapped_container().exec_run(
                ["bash", "-c", _CONNECT, "probe", str(port)])
            if probe.exit_code == 0:
                return
            time.sleep(0.3)
        raise RuntimeError(f"the client JVM ({options}) did not listen on port {port} within "
                           f"{READY_S} s: {self._log(client, port)}")

    def jvm(self, client, options: str) -> dict:
        """What the client JVM of these options ("": the default) runs, from its own
        counters: the arguments it started with (``arguments``, as a list) and its collectors'
        names; an ``error`` instead when they cannot be read."""
        port = port_for(options)
        out = client.get_wrapped_container().exec_run(
            ["bash", "-c", f'p="$(cat {PID.format(port=port)} 2>/dev/null)" && '
                           f'base64 -w0 {PERF_DATA.format(pid="$p")}'])
        if out.exit_code != 0:
            return {"error": f"no performance counters of the client on port {port} "
                             f"({out.output.decode(errors='replace').strip()[:200]})"}
        try:
            counters = perf_data.parse(base64.b64decode(out.output))
        except (ValueError, perf_data.PerfDataError) as error:
            return {"error": f"the client on port {port}: {error}"}
        return {"arguments": shlex.split(str(counters.get("java.rt.vmArgs", ""))),
                "collectors": perf_data.collectors(counters)}

    def run(self, client, spec, seconds: int) -> dict:
        return self._request(client, spec, {**environment(spec, seconds), "CLIENT_WARMUP_S": "0"})

    def smoke(self, client, spec, rounds: int) -> dict:
        return self._request(client, spec, {**environment(spec, 1), "ROUNDS": str(rounds)})

    def version(self, client) -> str:
        """The client's JDK and WildFly client library, e.g. "21.0.9+10-Debian-1; jboss-client
        of WildFly 39.0.1"."""
        jdk = client.run(["java", "-XshowSettings:properties", "-version"])
        runtime = next((line.split("=", 1)[1].strip() for line in jdk.splitlines()
                        if "java.runtime.version" in line), "unknown")
        return f"{runtime}; jboss-client of WildFly {images.WILDFLY.rsplit(':', 1)[-1]}"

    def _request(self, client, spec, env: dict[str, str]) -> dict:
        port = port_for(_options(spec))
        try:
            return client.summary_run(["bash", "-c", _REQUEST, "request", str(port),
                                       request_line(env)], {}, self.name)
        except RuntimeError as error:
            raise RuntimeError(f"{error}; the client JVM's output: "
                               f"{self._log(client, port)}") from None

    @staticmethod
    def _log(client, port: int) -> str:
        return client.run(["bash", "-c", f"tail -c 2000 {LOG.format(port=port)} 2>/dev/null"]
                          ).strip() or "none"


def _options(spec) -> str:
    """The client JVM options a load (a LoadSpec, or the options' text) runs with: its own,
    or the driver's default."""
    options = spec if isinstance(spec, str) else spec.client_jvm_options
    return " ".join(options.split()) or " ".join(CLIENT_JVM_OPTIONS)


def port_for(options: str) -> int:
    """The loopback port of the client JVM with these options ("": the default): PORT for
    the default ones, else one their text chooses (so that the driver keeps no state between
    calls)."""
    options = _options(options)
    if options == " ".join(CLIENT_JVM_OPTIONS):
        return PORT
    return OTHER_PORTS[zlib.crc32(options.encode()) % len(OTHER_PORTS)]


def request_line(env: dict[str, str]) -> str:
    """A window's settings as the client reads them: KEY=VALUE pairs separated by tabs."""
    for key, value in env.items():
        if any(c in f"{key}{value}" for c in "\t\n") or "=" in key:
            raise ValueError(f"{key}: a tab, a newline or '=' cannot be sent to the client")
    return "\t".join(f"{key}={value}" for key, value in env.items())


def main_class(jar) -> str:
    """The Main-Class its manifest names (the client's entry point); a clear error without."""
    try:
        with zipfile.ZipFile(jar) as archive:
            manifest = archive.read("META-INF/MANIFEST.MF").decode("utf-8", "replace")
    except (OSError, KeyError, zipfile.BadZipFile) as error:
        raise RuntimeError(f"{jar}: not a client jar with a manifest ({error})") from None
    for line in manifest.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "Main-Class" and value.strip():
            return value.strip()
    raise RuntimeError(f"{jar}: its manifest names no Main-Class (the client's entry point)")
