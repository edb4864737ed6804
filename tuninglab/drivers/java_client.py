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
"""
from __future__ import annotations

import time
import zipfile

from .. import images
from .load_environment import environment

__all__ = ["JavaClient", "CLIENT_JVM_OPTIONS", "main_class", "request_line"]

# The client library of the server's own WildFly, in the image (images/java-client).
CLIENT_LIBRARY = "/opt/wildfly/bin/client/jboss-client.jar"
# The client's JVM: a fixed heap, and the collector a one-CPU container gets by ergonomics,
# named so that it does not depend on the CPUs the container sees.
CLIENT_JVM_OPTIONS = ("-Xms256m", "-Xmx256m", "-XX:+UseSerialGC")
PORT = 7070  # the client's own, on the container's loopback
LOG = "/tmp/tl-client.log"  # the client JVM's output, shown when it does not answer
PID = "/tmp/tl-client.pid"
READY_S = 30  # how long a new client JVM may take to listen
# A connection to the client (bash's /dev/tcp: no other tool is needed in the image, and
# nothing heavier than bash runs beside the client); a request sends its line on it and prints
# what the client answers.
_CONNECT = f"exec 3<>/dev/tcp/127.0.0.1/{PORT}"
_REQUEST = _CONNECT + ' || exit 3; printf "%s\\n" "$1" >&3; cat <&3'


class JavaClient:
    name = "java-client"
    image = images.CLIENT_JVM
    inputs = ("images/java-client",)
    contract_help = "its Main prints the summary after the marker: apps/remote's client"

    def install(self, client, app) -> None:
        """Put the client's jar in place and start its JVM (after stopping one a parked stack
        may still run), then wait until it listens."""
        client.put_files(app.loadgen_files())
        command = " ".join(["java", *CLIENT_JVM_OPTIONS, "-cp",
                            f"{app.script}:{CLIENT_LIBRARY}",
                            main_class(app.folder / app.workload), "serve", str(PORT)])
        # the one a parked stack may still run: stopped, and gone before the new one starts
        # (a request between the two would reach the old one, or nothing)
        client.run(["bash", "-c", f'p="$(cat {PID} 2>/dev/null)"; [ -n "$p" ] || exit 0; '
                                  f'kill "$p" 2>/dev/null; for i in $(seq 50); do '
                                  f'kill -0 "$p" 2>/dev/null || break; sleep 0.1; done; '
                                  f'kill -9 "$p" 2>/dev/null; rm -f {PID}; true'])
        client.get_wrapped_container().exec_run(
            ["bash", "-c", f"echo $$ > {PID}; exec {command} > {LOG} 2>&1"], detach=True)
        deadline = time.monotonic() + READY_S
        while time.monotonic() < deadline:
            probe = client.get_wrapped_container().exec_run(["bash", "-c", _CONNECT])
            if probe.exit_code == 0:
                return
            time.sleep(0.3)
        raise RuntimeError(f"the client JVM did not listen on port {PORT} within {READY_S} s: "
                           f"{self._log(client)}")

    def run(self, client, spec, seconds: int) -> dict:
        return self._request(client, {**environment(spec, seconds), "CLIENT_WARMUP_S": "0"})

    def smoke(self, client, spec, rounds: int) -> dict:
        return self._request(client, {**environment(spec, 1), "ROUNDS": str(rounds)})

    def version(self, client) -> str:
        """The client's JDK and WildFly client library, e.g. "21.0.9+10-Debian-1; jboss-client
        of WildFly 39.0.1"."""
        jdk = client.run(["java", "-XshowSettings:properties", "-version"])
        runtime = next((line.split("=", 1)[1].strip() for line in jdk.splitlines()
                        if "java.runtime.version" in line), "unknown")
        return f"{runtime}; jboss-client of WildFly {images.WILDFLY.rsplit(':', 1)[-1]}"

    def _request(self, client, env: dict[str, str]) -> dict:
        try:
            return client.summary_run(["bash", "-c", _REQUEST, "request", request_line(env)],
                                      {}, self.name)
        except RuntimeError as error:
            raise RuntimeError(f"{error}; the client JVM's output: {self._log(client)}") from None

    @staticmethod
    def _log(client) -> str:
        return client.run(["bash", "-c", f"tail -c 2000 {LOG} 2>/dev/null"]).strip() or "none"


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
