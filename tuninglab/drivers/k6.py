"""k6 in the load-generator container: each window is a ``k6 run`` of the app's script, whose
summary follows a marker in its output (containers.LoadGenerator.k6_run)."""
from __future__ import annotations

import json
import posixpath
from pathlib import Path

from .. import images

__all__ = ["K6", "environment", "CONTRACT_MODULE"]

# The summary contract as a module an app's script imports (k6_contract.js); installed beside
# every app script the driver installs, under this name.
CONTRACT_MODULE = "tuninglab-contract.js"
_CONTRACT = Path(__file__).with_name("k6_contract.js")


class K6:
    name = "k6"
    image = images.LOADGEN
    inputs = ()  # the k6 image is one of every stack's
    contract_help = "import tuninglab-contract.js: docs/reference/own-application.md"

    def install(self, client, app) -> None:
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


def environment(spec, seconds: int) -> dict[str, str]:
    """The variables an app's k6 script reads (workloads/mix.js documents them)."""
    env = {"BASE_URL": spec.base_url, "MIX": json.dumps(spec.mix), "MODEL": spec.model,
           "USERS": str(spec.users), "THINK_MS": str(spec.think_time_ms),
           "WARMUP_S": "0", "TRIAL_S": str(seconds),
           # the app's workload parameters, its defaults where the spec sets none
           **{name.upper(): str(value) for name, value in
              {**spec.app.parameter_defaults(), **spec.parameters}.items()},
           "SCALE": str(spec.scale), "STREAM": str(spec.stream),
           "STREAMS": str(spec.streams),
           "REQUESTS_PER_CONNECTION": str(spec.requests_per_connection)}
    if spec.model == "open":
        env["RATE"] = str(int(spec.rate))
        env["MAX_USERS"] = str(spec.max_users or 200)
    return env
