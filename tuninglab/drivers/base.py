"""What the engine asks of a load driver (drivers/__init__.py)."""
from __future__ import annotations

from typing import Protocol


class LoadDriver(Protocol):
    """Sends a LoadSpec's load from the stack's load-generator container (``client``)."""

    name: str  # as an app.toml names it; also the key of its version in the provenance
    image: str  # what the load-generator container starts from (images.py)
    # the repository paths its image is built from, when it is not the common k6 image (they
    # are an input of the results of the apps it drives: staleness.role_inputs)
    inputs: tuple[str, ...]
    contract_help: str  # where a script that breaks the summary contract learns it
    # whether two windows can run at once (a crossover's two arms side by side, plan.py)
    windows_side_by_side: bool
    # whether the driver is a client JVM of the lab's: its options a recipe may change (kind
    # client-jvm-options), its summary carries the ``client`` figures ([change.client])
    client_jvm: bool

    def install(self, client, app, specs=()) -> None:
        """Put what the app's load needs into the client (its script) before any window;
        ``specs``: every load the run will send (a driver may start something for each)."""

    def run(self, client, spec, seconds: int) -> dict:
        """One window of ``seconds`` measured seconds; the summary (the contract)."""

    def smoke(self, client, spec, rounds: int) -> dict:
        """Each of the spec's transactions ``rounds`` times in turn, checked; the summary."""

    def version(self, client) -> str:
        """The driver's own version, for the provenance."""
