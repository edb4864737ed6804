"""The load a driver sends, as the variables an app's load reads (workloads/mix.js documents
them): every driver passes the same set, so an app's script or client reads one contract
whichever driver runs it."""
from __future__ import annotations

import json

__all__ = ["environment"]


def environment(spec, seconds: int) -> dict[str, str]:
    """The variables of one window of ``seconds`` measured seconds of ``spec`` (a LoadSpec)."""
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
        env["MAX_USERS"] = str(spec.concurrency)
    return env
