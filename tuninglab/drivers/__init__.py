"""Load drivers: what sends an app its load and hands the engine a summary (the contract of
``workloads/mix.js``: transactions with counts, failures and latencies, ``trial_s``, and the
optional counters ``load.load_metrics`` reads).

An app names its driver in its app.toml (``driver``, k6 by default: apps.App.driver). The
engine never calls a driver's tool itself; it asks ``driver_for(app)`` to install what the
load-generator container needs, run a measured window, run the smoke test, and say its
version; the driver names the image that container starts from (k6's, or java_client's JDK
image for a client JVM). A new driver (a JMS producer) is a module here with one class and an
entry in DRIVERS; tests use a fake driver of their own (tests/unit).
"""
from __future__ import annotations

from .base import LoadDriver
from .java_client import JavaClient
from .k6 import K6

__all__ = ["DRIVERS", "LoadDriver", "driver_for"]

DRIVERS: dict[str, LoadDriver] = {"k6": K6(), "java-client": JavaClient()}


def driver_for(app) -> LoadDriver:
    """The driver an app names (apps.App.driver)."""
    return DRIVERS[app.driver]
