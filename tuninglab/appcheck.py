"""`tuninglab app check <app>`: one node with the app, its smoke set, and the deployment's log.

What a user runs first with an app of their own, before any recipe: it starts a stack as a run
would (the app's seed baked if it is new, its server set-up applied, its archives deployed),
runs every transaction of its mixes in turn through its load driver, and prints what the
server said about the deployment. A deployment that fails ends in WildFly's own message and
the node's log (StartupError); a transaction that does not answer correctly, in the smoke
test's failure (SmokeTestFailed). Nothing is measured and nothing is stored.
"""
from __future__ import annotations

import re
from typing import Callable

from . import apps, load
from .recipe import profile_defaults
from .stack import NodeConfig, Stack

__all__ = ["check", "deployment_lines"]

# What WildFly logs about a deployment: started, registered its web context, deployed, and its
# own warnings and errors (message ids WFLY*, with their level).
_DEPLOYMENT = re.compile(r"WFLYSRV0027|WFLYUT0021|WFLYSRV0010|WFLYJCA0001|WFLYCTL0013| (WARN|ERROR) ")


_COLOUR = re.compile(r"\x1b\[[0-9;]*m")  # the console handler's colour codes


def deployment_lines(log: str) -> list[str]:
    """The lines of a server log that tell how its deployments went, without colour codes."""
    return [_COLOUR.sub("", line) for line in log.splitlines() if _DEPLOYMENT.search(line)]


def check(name: str, workspace=None, profile: str = "quick",
          progress: Callable[[str], None] = print) -> dict:
    """Boot one node with the app ``name`` of the workspace, smoke-test it, print the
    deployment's log; returns the smoke test's metrics."""
    app = apps.load(name, workspace)
    node = NodeConfig(apps=apps.node_apps(app, workspace),
                      jit=profile_defaults()[profile]["jit"])
    with Stack(progress=progress, nodes={"app": node}, workspace=workspace, app=app) as stack:
        load.install(stack.loadgen, app)
        log = stack.app.get_wrapped_container().logs().decode(errors="replace")
        progress(f"app check: what the server logged about {app.name}'s deployment:")
        for line in deployment_lines(log):
            progress(f"  {line}")
        metrics = load.smoke_test(stack.loadgen, target="app", app=app)
        done = ", ".join(f"{t} {row['count']}" for t, row in sorted(metrics["transactions"].items()))
        progress(f"app check: {app.name} answers every transaction correctly on one node "
                 f"({done} requests, {metrics['failed']} failed)")
        return metrics
