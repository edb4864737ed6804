"""The stack answers the whole transaction mix on a private network, pinned as designed."""
import ipaddress

import pytest

from tuninglab import apps, calibration, database_stats, load, profiling
from tuninglab.compiler_cpu import compiler_threads_cpu
from tuninglab.jvm_threads import read_threads
from tuninglab.management import compilation_seconds
from tuninglab.load import LoadSpec, load_metrics
from tuninglab.stack import C1_ONLY, NodeConfig, Stack
from tuninglab.together import together

from .conftest import run_labels

ALL_TRANSACTIONS = dict.fromkeys(apps.default_app().transactions, 1)


def test_pinning_and_private_publishing(stack):
    assert stack.limits_of("app") == {"cpuset": "1", "cpus": 0.5, "memory": 2 * 1024 ** 3,
                                      "disk_write_iops": None}
    for node in (stack.db, stack.loadgen):
        assert node.get_wrapped_container().attrs["HostConfig"]["CpusetCpus"] == "0"
    ports = stack.app.get_wrapped_container().attrs["NetworkSettings"]["Ports"]
    bindings = [b for published in ports.values() if published for b in published]
    assert bindings, "the management port must be published for the library"
    for binding in bindings:
        assert ipaddress.ip_address(binding["HostIp"]).is_loopback, binding
    for node in (stack.db, stack.loadgen):
        published = node.get_wrapped_container().attrs["NetworkSettings"]["Ports"] or {}
        assert not any(published.values()), f"{node.role} must publish nothing"


def test_a_node_widens_for_its_warm_up_and_returns_to_its_limits(stack):
    stack.widen("app")
    try:
        wide = stack.limits_of("app")
        assert wide["cpuset"] == stack.engine_cpuset() and wide["cpus"] is None
    finally:
        stack.restore("app")
    assert stack.limits_of("app")["cpus"] == 0.5 and stack.limits_of("app")["cpuset"] == "1"


def test_the_jvm_sees_the_processors_of_its_limits(stack):
    flags = stack.management.read_attribute(
        [("core-service", "platform-mbean"), ("type", "runtime")], "input-arguments")
    assert "-XX:ActiveProcessorCount=1" in flags


def test_thirty_seconds_of_the_mix_without_errors(stack):
    spec = LoadSpec(mix=ALL_TRANSACTIONS, users=8, parameters={"lines": 5, "bulk_rows": 500})
    metrics = load_metrics(load.run(stack.loadgen, spec, 30, "integration-mix"))
    print(f"30 s mix: {metrics['requests']} requests, {metrics['throughput']:.1f} tx/s, "
          f"stack ready in {stack.started_in_s:.1f} s")
    assert metrics["failed"] == 0, metrics["fail_reasons"]
    for name in ALL_TRANSACTIONS:
        assert metrics["transactions"].get(name, {}).get("count", 0) > 0, f"{name} never ran"


def test_the_compilers_cpu_is_read_from_the_kernel_and_grows_under_load(stack):
    """The compiler's threads are hidden from the JVM's own thread list but not from /proc:
    a booted node that served 30 s of the mix (the test above) has used more than a second of
    it, and not more than twice its wall-time figure (the JVM's total compilation time, which
    also counts the waits of a throttled compiler): clock ticks read as seconds would be 100
    times that."""
    threads = compiler_threads_cpu(read_threads(stack.nodes["app"]))
    wall = compilation_seconds(stack.management)
    assert threads is not None and 1.0 < sum(threads.values()) <= wall * 2, (threads, wall)


def test_the_database_figures_count_what_ran_in_the_database(stack):
    """A reading before and after known statements: two UPDATEs of three rows each, one INSERT
    of two, and transaction control that is not counted. A reading runs in the database that
    holds the views (postgres), so it counts none of its own (until 5 December 2026 it ran in
    order-entry's and counted itself: known + 1); the WAL moved."""
    db, name = stack.databases["db"], apps.default_app().database
    database_stats.wait_until_quiet(db, name)  # the earlier tests' cut-off requests finish
    before = database_stats.read(db, name)
    db.sql("BEGIN; UPDATE item SET price = price WHERE id IN (1, 2, 3); "
           "UPDATE item SET name = name WHERE id IN (4, 5, 6); "
           "CREATE TEMP TABLE t (n int); INSERT INTO t VALUES (1), (2); COMMIT", database=name)
    after = database_stats.read(db, name)
    figures = database_stats.window(before, after, transactions=1, load_s=1.0)
    assert "error" not in figures, figures
    assert (figures["updated"], figures["inserted"]) == (6, 2), figures
    assert figures["statements"] == 4, figures  # 2 UPDATE, CREATE, INSERT
    assert figures["wal_bytes"] > 0


def test_a_deadlock_is_counted_in_the_window_it_happened(stack):
    """Two transactions take the same two rows in opposite orders: PostgreSQL breaks the
    deadlock (after deadlock_timeout, 1 s) by failing one of them, and the next reading counts
    it at once (from the log; the statistics view may report it seconds later)."""
    db, name = stack.databases["db"], apps.default_app().database

    def take(first: int, second: int):
        try:
            db.sql(f"BEGIN; UPDATE item SET price = price WHERE id = {first}; "
                   f"SELECT pg_sleep(0.5); UPDATE item SET price = price WHERE id = {second}; "
                   f"COMMIT", database=name)
            return "committed"
        except RuntimeError as error:
            return str(error)

    before = database_stats.read(db, name)
    outcomes = list(together([(1, 2), (2, 1)], lambda rows: take(*rows)).values())
    after = database_stats.read(db, name)
    assert sorted("deadlock detected" in o for o in outcomes) == [False, True], outcomes
    assert database_stats.window(before, after, 1, 1.0)["deadlocks"] == 1


def test_a_serialization_failure_is_counted_in_the_window_it_happened(stack):
    """Two repeatable-read transactions update the same row: the second waits for the first to
    commit and then cannot (SQLSTATE 40001, "could not serialize access due to concurrent
    update"), which a read-committed one would have done. The next reading counts it, and it
    is not counted as a deadlock."""
    db, name = stack.databases["db"], apps.default_app().database

    def update(pause: float):
        try:
            db.sql(f"BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT pg_sleep({pause}); "
                   f"UPDATE item SET price = price WHERE id = 7; SELECT pg_sleep(0.5); COMMIT",
                   database=name)
            return "committed"
        except RuntimeError as error:
            return str(error)

    before = database_stats.read(db, name)
    outcomes = list(together([0.0, 0.2], update).values())
    after = database_stats.read(db, name)
    assert sorted("could not serialize access" in o for o in outcomes) == [False, True], outcomes
    figures = database_stats.window(before, after, 2, 1.0)
    assert (figures["serialization_failures"], figures["deadlocks"]) == (1, 0), figures
    assert figures["aborts_per_ktx"] == 500  # one abort of two transactions


def test_neworder_is_found_again_by_orderstatus(stack):
    """The workload's own check: an order a user created is read back (50 % of OrderStatus)."""
    spec = LoadSpec(mix={"NewOrder": 1, "OrderStatus": 1}, users=2, parameters={"lines": 20})
    metrics = load_metrics(load.run(stack.loadgen, spec, 3, "integration-roundtrip"))
    assert metrics["failed"] == 0
    assert metrics["transactions"]["OrderStatus"]["count"] > 0


def test_a_profiled_pass_records_where_the_node_spent_its_time(stack):
    """profiling.py on a real node: the profiler deploys beside the app, JFR samples the node
    during a window of the mix, the samples come back ranked, and the profiler is gone after."""
    spec = LoadSpec(mix=ALL_TRANSACTIONS, users=4, parameters={"lines": 5, "bulk_rows": 500})
    load.run(stack.loadgen, spec, 5, "integration-jfr-warm")  # past the first requests' class loading
    record = profiling.run_pass(stack, {"baseline": "app"},
                                lambda: load.run(stack.loadgen, spec, 10, "integration-jfr"), 10)
    assert "error" not in record, record.get("error")
    arm = record["arms"]["baseline"]
    assert arm["samples"] > 0 and arm["self"] and arm["total"]
    assert all(count <= arm["samples"] for _, count in arm["self"] + arm["total"])
    # the server's request handling is on the sampled stacks (the load was served); every
    # package is listed, each at most once per sample
    assert any(package.startswith("io.undertow.") for package, _ in arm["packages"])
    assert all(0 < count <= arm["samples"] for _, count in arm["packages"])
    assert not stack.management.resource_exists([("deployment", profiling.PROBE)])


def test_nothing_is_left_after_the_stack_closes(client):
    from tuninglab.stack import Stack
    with Stack(progress=lambda line: None, nodes={"app": NodeConfig()}) as s:
        run_id = s.scope.run_id
        assert run_labels(client, run_id), "the running stack must be labelled"
    assert run_labels(client, run_id) == []


def test_a_ci_node_runs_its_jit_as_c1_alone():
    """What the CI profile adds to a node's JVM takes effect: the JVM reports itself as
    'emulated-client' (C1 alone), not only that it was given the option."""
    with Stack(nodes={"app": NodeConfig(jit=C1_ONLY)}, progress=lambda line: None) as ci:
        runtime = ci.management.read_resource(
            [("core-service", "platform-mbean"), ("type", "runtime")], runtime=True)
    properties = runtime.get("system-properties") or {}
    assert "-XX:TieredStopAtLevel=1" in runtime.get("input-arguments", [])
    assert "emulated-client" in properties.get("java.vm.info", "")


def test_the_host_speed_index_times_the_same_loop_in_the_load_generator(stack):
    """calibration.py: a fixed loop in the load generator, its warm iterations dropped; the
    index is a positive median inside its own range, and says what it timed."""
    index = calibration.measure(stack.loadgen)
    assert index["unit"] == "ms" and index["iterations"] - index["dropped"] >= 3
    assert 0 < index["min_ms"] <= index["median_ms"] <= index["max_ms"]
    assert f"{calibration.LOOP:,} steps" in index["what"]
    # a rate on a host half as fast (twice the index) reads as twice the rate on this one
    assert calibration.normalise(100.0, {"median_ms": 2 * index["median_ms"]}, index) == 200.0
    assert calibration.normalise(100.0, None, index) is None


def test_a_system_property_is_cleared_in_the_jvm_before_a_stack_is_handed_on(stack):
    """A reload from the pristine configuration leaves the JVM's system properties as they were;
    removing them through the model clears them in the JVM (stack._reset_and_boot does so
    before it hands a parked node to the next run)."""
    from tuninglab.management import clear_system_properties
    m = stack.management_of("app")
    runtime = [("core-service", "platform-mbean"), ("type", "runtime")]
    m.execute("add", [("system-property", "tl.test.leak")], value="row")
    assert m.read_attribute(runtime, "system-properties")["tl.test.leak"] == "row"
    assert "tl.test.leak" in clear_system_properties(m)
    assert "tl.test.leak" not in m.read_attribute(runtime, "system-properties")
