"""k6 in the load-generator container: each window is a ``k6 run`` of the app's script, whose
summary follows a marker in its output (containers.LoadGenerator.k6_run)."""
from __future__ import annotations

import posixpath
from pathlib import Path

from .. import images
from .load_environment import environment

__all__ = ["K6", "CONTRACT_MODULE"]

# The summary contract as a module an app's script imports (k6_contract.js); installed beside
# every app script the driver installs, under this name.
CONTRACT_MODULE = "tuninglab-contract.js"
_CONTRACT = Path(__file__).with_name("k6_contract.js")


class K6:
    name = "k6"
    image = images.LOADGEN
    inputs = ()  # the k6 image is one of every stack's
    contract_help = "import tuninglab-contract.js: docs/reference/own-application.md"
    windows_side_by_side = True  # one k6 process a window: a crossover's two run at once
    client_jvm = False

    def install(self, client, app, specs=()) -> None:
        files = app.loadgen_files()  # none when the image holds the script
        if files:
            beside = posixpath.join(posixpath.dirname(app.script), CONTRACT_MODULE)
            client.put_files({**files, beside: _CONTRACT.read_bytes()})

    def run(self, client, spec, seconds: int) -> dict:
        return client.k6_run(spec.app.script, environment(spec, seconds))

    def smoke(self, client, spec, rounds: int) -> dict:
        return client.k6_run(spec.app.script, {**environment(spec, 1), "ROUNDS": str(rounds)})

    def version(self, client) -> str:
        return client.k6_version()

