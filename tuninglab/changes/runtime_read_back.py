"""What the running server says about an arm, beside what its configuration says: a broker
whose journal is configured in the database but which fell back, or never started, reports so
in runtime attributes (``runtime-journal-type``, ``started``) that the configuration's
read-back cannot see. The recipe states the values (``[change.runtime]``); each node is read
before measuring and with every trial's check (nodes.verify).
"""
from __future__ import annotations

from ..plan import BASELINE, VARIANT
from .checks import Check


def address_of(text: str) -> tuple[tuple[str, str], ...]:
    """'/subsystem=x/server=y' as the management API's address."""
    return tuple(tuple(part.split("=", 1)) for part in text.strip("/").split("/"))


def checks(management, expected_by_arm: dict, variant: bool) -> list[Check]:
    """One check per attribute the recipe gives the arm; none when it gives none."""
    arm = VARIANT if variant else BASELINE
    out = []
    for address, attributes in expected_by_arm.get(arm, {}).items():
        for name, wanted in attributes.items():
            try:
                actual = management.read_attribute(address_of(address), name)
            except Exception as error:  # the resource or attribute is not there: the check fails
                actual = f"not readable: {error}"
            out.append(Check(f"{address} {name} (runtime, {arm})", _text(wanted), _text(actual),
                             actual == wanted))
    return out


def _text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
