"""A client JVM as what a recipe changes (article 004's P3): a JVM of its own for each arm's
options, each proven from its own performance counters (drivers/perf_data.py,
changes/client_jvm_options.py); what a client reports of itself checked against the recipe
(changes/client_read_back.py); and the arms of an app driven by one client JVM taking turns on
one node instead of running side by side (plan.py)."""
from __future__ import annotations

import struct

import pytest

from tuninglab import layout, load
from tuninglab.changes import client_read_back, kind_for
from tuninglab.drivers import java_client, perf_data
from tuninglab.plan import CROSSOVER, SHARED, compile_plan
from tuninglab.recipe import load_recipe

ARTICLES = layout.REPO_ROOT / "recipes" / "articles"


def _perf_file(counters: dict, order: str = "<") -> bytes:
    """A HotSpot performance-data file holding ``counters`` (numbers as 'J', text as 'B'
    vectors), laid out as perfMemory.hpp describes it."""
    entries = b""
    for name, value in counters.items():
        raw_name = name.encode() + b"\0"
        if isinstance(value, int):
            data, kind, vector = struct.pack(order + "q", value), ord("J"), 0
        else:
            data = value.encode() + b"\0"
            kind, vector = ord("B"), len(data)
        name_at = 20
        data_at = name_at + len(raw_name)
        data_at += (-data_at) % 8  # HotSpot aligns data to its size
        length = data_at + len(data)
        length += (-length) % 8
        entry = struct.pack(order + "iiibbbbi", length, name_at, vector, kind, 0, 0, 0, data_at)
        entry += raw_name + b"\0" * (data_at - name_at - len(raw_name)) + data
        entries += entry + b"\0" * (length - len(entry))
    prologue = (perf_data.MAGIC + bytes([1 if order == "<" else 0, 2, 0, 1])
                + struct.pack(order + "iiqii", 32 + len(entries), 0, 0, 32, len(counters)))
    return prologue + entries


def test_a_jvm_s_counters_are_read_in_either_byte_order():
    counters = {"java.rt.vmArgs": "-Xmx256m -XX:+UseG1GC", "java.threads.live": 24,
                "sun.gc.collector.1.name": "G1 full collection pauses",
                "sun.gc.collector.0.name": "G1 young collection pauses"}
    for order in "<>":
        found = perf_data.parse(_perf_file(counters, order))
        assert found == counters
        assert perf_data.collectors(found) == ["G1 young collection pauses",
                                               "G1 full collection pauses"]


def test_a_file_that_is_not_a_jvm_s_counters_is_named_so():
    with pytest.raises(perf_data.PerfDataError, match="magic"):
        perf_data.parse(b"\0" * 64)
    with pytest.raises(perf_data.PerfDataError, match="past the file's end"):
        perf_data.parse(_perf_file({"java.threads.live": 3})[:40])


def test_each_set_of_client_options_has_a_port_of_its_own_and_the_default_keeps_its_own():
    assert java_client.port_for("") == java_client.PORT
    assert java_client.port_for("-Xms256m  -Xmx256m -XX:+UseSerialGC") == java_client.PORT
    ports = {java_client.port_for(f"-Xms256m -Xmx256m {gc}")
             for gc in ("-XX:+UseParallelGC", "-XX:+UseG1GC", "-XX:+UseZGC -XX:+ZGenerational")}
    assert len(ports) == 3 and ports <= set(java_client.OTHER_PORTS)
    assert java_client.port_for("-XX:+UseG1GC") == java_client.port_for(" -XX:+UseG1GC ")


class _Loadgen:
    """A load generator whose client JVMs report the given arguments and collectors."""


class _Driver:
    """The java-client driver's read-back, answering from a table by options."""

    client_jvm = True
    default_jvm_options = java_client.JavaClient.default_jvm_options

    def __init__(self, table: dict):
        self.table, self.asked = table, []

    def jvm(self, client, options):
        self.asked.append(options)
        return self.table[options]


class _Stack:
    loadgen = _Loadgen()


def _collector_kind(table):
    recipe = load_recipe(ARTICLES / "remote-client-collector")
    kind = kind_for(recipe)
    plan = compile_plan(recipe, switch=kind.switch)
    kind.bind(plan.arms)
    kind.driver = _Driver(table)
    return kind, plan


def _running(options: str, collectors: list[str]) -> dict:
    return {"arguments": options.split(), "collectors": collectors}


def test_each_collector_is_its_arm_s_own_client_jvm_read_back_from_its_counters():
    g1 = "-Xms256m -Xmx256m -XX:+UseG1GC"
    kind, plan = _collector_kind({g1: _running(g1, ["G1 young collection pauses",
                                                    "G1 full collection pauses"])})
    assert plan.layout == SHARED and len(plan.arms) == 20  # 4 collectors x 5 thread counts
    arm = next(a for a in plan.arms if a.level == "-XX:+UseG1GC")
    assert kind.load_for(arm) == {"client_jvm_options": g1}
    assert load.LoadSpec(mix={"Call": 1}).with_load(kind.load_for(arm)).client_jvm_options == g1
    checks = kind.read_back(_Stack(), "app", arm)
    assert all(c.ok for c in checks), checks
    assert {c.what for c in checks} >= {"client JVM argument -XX:+UseG1GC",
                                        "client JVM argument -XX:+UseSerialGC",
                                        "the client JVM's collectors (-XX:+UseG1GC)"}


@pytest.mark.parametrize("running, failed", [
    # started without its collector option: another arm's JVM answered
    (_running("-Xms256m -Xmx256m -XX:+UseSerialGC", ["Serial young collection pauses"]),
     {"client JVM argument -XX:+UseG1GC", "client JVM argument -XX:+UseSerialGC",
      "the client JVM's collectors (-XX:+UseG1GC)"}),
    # the option given, another collector running (a JVM that ignored it)
    (_running("-Xms256m -Xmx256m -XX:+UseG1GC", ["Serial young collection pauses"]),
     {"the client JVM's collectors (-XX:+UseG1GC)"}),
    ({"error": "no performance counters of the client on port 7101"},
     {"the client JVM's performance counters (client collector -XX:+UseG1GC, users 1)"}),
])
def test_a_client_jvm_that_does_not_run_its_arm_s_options_fails_the_read_back(running, failed):
    g1 = "-Xms256m -Xmx256m -XX:+UseG1GC"
    kind, plan = _collector_kind({g1: running})
    arm = next(a for a in plan.arms if a.level == "-XX:+UseG1GC")
    assert {c.what for c in kind.read_back(_Stack(), "app", arm) if not c.ok} == failed


def test_generational_zgc_is_recognised_by_its_own_collector_names():
    z = "-Xms256m -Xmx256m -XX:+UseZGC -XX:+ZGenerational"
    kind, plan = _collector_kind({z: _running(z, ["ZGC minor collection pauses",
                                                  "ZGC major collection pauses"])})
    arm = next(a for a in plan.arms if a.level.startswith("-XX:+UseZGC"))
    assert all(c.ok for c in kind.read_back(_Stack(), "app", arm))


def test_the_driver_starts_one_client_jvm_for_each_set_of_options_the_run_sends():
    kind, plan = _collector_kind({})
    base = load.LoadSpec.from_workload(kind.recipe.workload, kind.recipe.repo_root)
    specs = [base.with_load(kind.load_for(arm)) for arm in plan.arms]
    started = []

    class Wrapped:
        def exec_run(self, command, detach=False, **_):
            started.append(command[-1]) if detach else None
            return type("Answer", (), {"exit_code": 0, "output": b""})()

    class Container:
        def put_files(self, files):
            pass

        def run(self, command):
            return ""

        def get_wrapped_container(self):
            return Wrapped()

    java_client.JavaClient().install(Container(), base.app, specs)
    assert len(started) == 4  # one JVM per collector, not per arm
    for gc in ("-XX:+UseSerialGC", "-XX:+UseParallelGC", "-XX:+UseG1GC", "-XX:+UseZGC"):
        line = next(cmd for cmd in started if gc in cmd)
        options = "-Xms256m -Xmx256m " + gc + (" -XX:+ZGenerational" if "ZGC" in gc else "")
        assert f"serve {java_client.port_for(options)}" in line


def test_an_app_driven_by_one_client_jvm_takes_turns_on_one_node_where_k6_runs_side_by_side():
    threads = load_recipe(ARTICLES / "remote-client-virtual-threads")
    assert compile_plan(threads, switch="runtime").layout == SHARED
    keep_alive = load_recipe(layout.REPO_ROOT / "recipes" / "guide" / "http-keep-alive-unlimited")
    assert compile_plan(keep_alive, switch="runtime").layout == CROSSOVER


@pytest.mark.parametrize("expected, client, ok", [
    ({"thread_kind": "virtual"}, {"thread_kind": "virtual"}, True),
    ({"thread_kind": "virtual"}, {"thread_kind": "platform"}, False),
    ({"live_threads": (10, 100)}, {"live_threads": 81}, True),
    ({"live_threads": (10, 100)}, {"live_threads": 144}, False),
    ({"live_threads": (10, 100)}, {}, False),
])
def test_what_a_client_reports_of_itself_is_held_against_the_recipe(expected, client, ok):
    checks = client_read_back.checks({"variant": expected}, True, client)
    assert len(checks) == 1 and checks[0].ok is ok
    assert client_read_back.checks({"variant": expected}, False, client) == []  # baseline: none


def test_a_window_without_the_client_s_figures_fails_where_the_recipe_expects_them():
    (check,) = client_read_back.checks({"baseline": {"thread_kind": "platform"}}, False, None)
    assert not check.ok and check.actual == "none in the driver's summary"
