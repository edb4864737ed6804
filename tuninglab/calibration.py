"""A host-speed index stored with every run, so that absolute numbers from different runs can
be compared, or shown not to be comparable.

This host's speed moves from day to day (the same baseline ran at 42.8 and at 78.3 tx/s in two
runs, with no CPU steal to explain it). Before its first warm-up, every run times a fixed piece
of CPU work in the load generator's container, whose placement is the same in every stack (the
database core, no CPU quota): a JavaScript loop run by k6, ``ITERATIONS`` times, the first two
dropped (k6's compiler warms up). The median is the index, in milliseconds: a host half as
fast doubles it. Pages that set absolute numbers of two runs side by side divide them by the
ratio of the two indices (``normalise``), or say why not (one of the runs has no index).

It measures one core's speed for single-threaded integer work, not the whole stack: a change in
memory bandwidth or in the other core's neighbours may not show in it.
"""
from __future__ import annotations

from importlib import resources

from .containers import LoadGenerator

__all__ = ["SCRIPT", "LOOP", "ITERATIONS", "WARM", "measure", "normalise"]

SCRIPT = "/tuninglab/calibration.js"
LOOP = 4_000_000  # steps of the loop: about half a second an iteration here
ITERATIONS = 7
WARM = 2  # iterations dropped: k6's JavaScript engine compiles the loop in the first ones


def measure(loadgen: LoadGenerator) -> dict:
    """Run the loop in the load generator and return the index with its samples."""
    script = resources.files("tuninglab").joinpath("calibration.js").read_bytes()
    loadgen.put_files({SCRIPT: script})
    summary = loadgen.k6_run(SCRIPT, {"LOOP": str(LOOP), "ITERATIONS": str(ITERATIONS),
                                         "WARM": str(WARM)})
    values = summary["work_ms"]
    return {"what": f"k6 JavaScript loop of {LOOP:,} steps, one virtual user, in the load "
                    f"generator's container",
            "unit": "ms", "iterations": ITERATIONS, "dropped": WARM,
            "median_ms": values.get("med"),
            "min_ms": values.get("min"), "max_ms": values.get("max")}


def normalise(value: float, run_index: dict | None, reference_index: dict | None) -> float | None:
    """``value`` (a rate, higher on a faster host) as it would read on the reference run's
    host: scaled by the ratio of the two indices; None when either run has no index."""
    if not run_index or not reference_index:
        return None
    ours, theirs = run_index.get("median_ms"), reference_index.get("median_ms")
    if not ours or not theirs:
        return None
    return value * ours / theirs
