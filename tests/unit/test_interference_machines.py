"""Interference read per machine: a stack spread over hosts has one set of rules per kernel,
and a window reports each rule's worst machine by name."""
from __future__ import annotations

from tuninglab import interference
from tuninglab.interference import THIS_MACHINE, Machine, group, problems, worst
from tuninglab.recipe import Tolerance

STAT = """cpu  10 0 10 80 0 0 0 0 0 0
cpu0 5 0 5 40 0 0 0 0 0 0
cpu1 5 0 5 40 0 0 0 0 0 0
"""


def test_roles_are_grouped_by_machine_with_the_cores_they_share():
    machines = group({"db": THIS_MACHINE, "loadgen": THIS_MACHINE, "app-1": "h2", "app-2": "h2"},
                     {"db": {0}, "loadgen": {0}}, {THIS_MACHINE: None, "h2": lambda: STAT})
    by_name = {m.name: m for m in machines}
    assert by_name[THIS_MACHINE] == Machine(THIS_MACHINE, ("db", "loadgen"), frozenset({0}), None)
    assert by_name["h2"].roles == ("app-1", "app-2")
    assert by_name["h2"].shared_cpus == frozenset()  # no database or load generator there
    assert by_name["h2"].read_stat() == STAT


def test_another_machine_is_read_through_its_reader():
    snapshot = interference.host_snapshot(read_stat=lambda: STAT)
    assert snapshot.cpus == {0: (10, 50, 0, 0), 1: (10, 50, 0, 0)}
    assert interference.host_snapshot(local=False) is None  # nothing to read it with


def _window(steal, outside, busy):
    return {"steal": steal, "outside_cpu": outside, "db_core_busy": busy, "irq": 0.0,
            "measured": True}


def test_one_machine_keeps_its_window_as_it_was():
    window = _window(0.01, 0.1, 0.5)
    assert worst({THIS_MACHINE: window}) is window


def test_several_machines_report_each_rule_at_its_worst_and_say_where():
    combined = worst({"h1": _window(0.00, 0.40, 0.95), "h2": _window(0.08, 0.02, None)})
    assert (combined["steal"], combined["outside_cpu"], combined["db_core_busy"]) == (0.08, 0.40,
                                                                                        0.95)
    assert combined["where"] == {"steal": "h2", "outside_cpu": "h1", "db_core_busy": "h1",
                                 "irq": "h1"}
    said = problems(combined, None, Tolerance(error_rate=0.01, loadgen_cpu=0.9))
    assert any("CPU steal 8.0%" in p and "on h2" in p for p in said)
    assert any("outside the stack on h1" in p for p in said)
    assert any("cores on h1 95% busy" in p for p in said)
