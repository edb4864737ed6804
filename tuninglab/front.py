"""A web server in front of a node: Apache httpd (images/front-httpd) passing every request to
the node over HTTP (mod_proxy_http) or AJP (mod_proxy_ajp), the guide's connector layout of
chapter 2.2 (change kind front-protocol).

The front takes the node's name on the stack's network, as a delaying proxy takes a database's
(stack.py): the load generator, and anything else that reaches the node by name, reaches the
front, and the node answers behind it under ``behind(name)``. Its status page (mod_status)
says which generation of its configuration is in force, so a switch waits for the new one."""
from __future__ import annotations

import time

from testcontainers.core.wait_strategies import LogMessageWaitStrategy

from . import images
from .containers import LabContainer, StartupError

__all__ = ["CLOSED", "HttpdFront", "PROTOCOLS", "ROLE_SUFFIX", "ROUTES", "behind",
           "parse_status"]

# The protocols the front can speak to its node, with the node's port for each (WildFly's
# http-listener on 8080; an ajp-listener on the "ajp" socket binding, 8009).
PROTOCOLS = {"http": 8080, "ajp": 8009}
# The front's route while the load goes to the node directly: nowhere, so that a request that
# reaches the front all the same fails (503) instead of passing unnoticed.
CLOSED = "closed"
ROUTES = (*PROTOCOLS, CLOSED)
ROLE_SUFFIX = " front"  # its role in the meters: "app-1 front"


def behind(node: str) -> str:
    """The name a fronted node answers to on the stack's network (the front takes its own)."""
    return f"{node}-direct"


def parse_status(text: str) -> dict[str, str]:
    """mod_status's machine-readable page (?auto): "Key: value" lines."""
    return {key.strip(): value.strip() for key, _, value in
            (line.partition(":") for line in text.splitlines()) if value}


class HttpdFront(LabContainer):
    """httpd in front of one node, its protocol to the node switched at runtime."""

    HTTP_PORT = 8080
    SWITCH_TIMEOUT_S = 15.0

    def __init__(self, node: str, protocol: str = "http", image: str = images.FRONT):
        super().__init__(image, "front")
        self._check(protocol)
        self.node = node
        self.with_env("TL_BACKEND", behind(node))
        self.with_env("TL_PROTOCOL", protocol)
        self.waiting_for(LogMessageWaitStrategy("tl-front: starting httpd")
                         .with_startup_timeout(30).with_poll_interval(0.1))

    def protocol(self) -> str:
        """The route in the configuration: a protocol to the node, or CLOSED (what was last
        asked for; what is in force is read from the node's listeners:
        changes/front_protocol.py)."""
        return self.run(["tl-front", "protocol"]).strip()

    def version(self) -> str:
        """httpd's release, as the image recorded it when it was built."""
        return self.run(["cat", "/etc/tuninglab/httpd-version"]).strip()

    def status(self) -> dict[str, str]:
        return parse_status(self.run(["tl-front", "status"]))

    def set_protocol(self, protocol: str) -> None:
        """Route to the node by ``protocol`` (or close the route: CLOSED): the configuration
        rewritten and checked, then a graceful restart, whose new generation of processes
        serves the next connections (requests in flight end on the old ones). Returns once
        the new generation answers."""
        self._check(protocol)
        generation = self._generation()
        self.run(["tl-front", "protocol", protocol])
        deadline = time.monotonic() + self.SWITCH_TIMEOUT_S
        while self._generation() == generation:
            if time.monotonic() > deadline:
                raise StartupError(f"the front of {self.node} did not restart with protocol "
                                   f"{protocol} within {self.SWITCH_TIMEOUT_S:.0f} s\n"
                                   f"{self.tail_logs()}")
            time.sleep(0.1)

    def probe(self, requests: int, direct: bool = False) -> list[int]:
        """``requests`` requests to a path no app serves, one connection each, through the
        front (or, ``direct``, from the front's container to the node itself); their HTTP
        statuses (the node's 404, or the front's 502/503 when its route leads nowhere)."""
        where = (f"{behind(self.node)}:{PROTOCOLS['http']}" if direct
                 else f"127.0.0.1:{self.HTTP_PORT}")
        out = self.run(["sh", "-c", "for i in $(seq %d); do curl -s -o /dev/null -w "
                        "'%%{http_code}\\n' http://%s/tl-front-probe; done" % (requests, where)])
        return [int(code) for code in out.split()]

    def _generation(self) -> str:
        return self.status().get("ParentServerConfigGeneration", "")

    @staticmethod
    def _check(protocol: str) -> None:
        if protocol not in ROUTES:
            raise ValueError(f"front route {protocol!r}; allowed: {', '.join(ROUTES)}")
