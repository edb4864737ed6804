"""The network probe's reading survives an exec whose output Docker lost (network._tool)."""
from __future__ import annotations

import pytest

from tuninglab import network


class _Container:
    """A container whose tl-net runs print the given outputs in turn (tl-net installed)."""

    role = "app-1"
    has_network_tool = True

    def __init__(self, *outputs: str):
        self.outputs = list(outputs)
        self.runs = 0

    def run(self, command):
        self.runs += 1
        return self.outputs.pop(0)


READING = '{"to": "db:9998", "n": 200, "echo": true, "min_us": 40, "median_us": 55}\n'


def test_an_empty_output_is_taken_again():
    container = _Container("", "\n", READING)
    assert network.echo_round_trip(container, "db:9998")["median_us"] == 55
    assert container.runs == 3


def test_an_output_that_stays_empty_fails_naming_the_container_and_command():
    container = _Container(*[""] * network.ATTEMPTS)
    with pytest.raises(RuntimeError, match=r"app-1: `tl-net rtt -to db:9998 .*printed nothing"):
        network.echo_round_trip(container, "db:9998")
    assert container.runs == network.ATTEMPTS
