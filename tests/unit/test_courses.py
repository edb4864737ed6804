"""A window's course (courses.py): figures sampled from the node while the load runs, each with
its time since the load started, read from the management model's wildcard answers, and drawn
as every valid window's line (plot.courses)."""
from __future__ import annotations

import time

import matplotlib

from tuninglab import courses, plot
from tuninglab.management import ManagementError


def _bean(size, available, invocations=None):
    return {"pool-current-size": size, "pool-available-count": available, "pool-max-size": 15,
            "invocations": invocations, "peak-concurrent-invocations": 9}


class _Management:
    """A node's management model whose beans' pools and queues follow a script, one answer a
    read (the last repeats)."""

    def __init__(self, pools: list[dict], queues: list[dict] | None = None, fail_at=None):
        self.pools, self.queues, self.fail_at, self.reads = pools, queues or [{}], fail_at, 0

    def another(self):
        return self

    def read_resource(self, address, runtime=False, recursive=False):
        assert runtime, "a course reads runtime figures"
        kind = address[-1][0]
        if kind == "message-driven-bean":
            self.reads += 1
            if self.fail_at == self.reads:
                raise ManagementError("the server did not answer")
            step = self.pools[min(self.reads - 1, len(self.pools) - 1)]
            return [{"address": [{"deployment": "messages.war"}, {"subsystem": "ejb3"},
                                 {"message-driven-bean": name}], "result": r}
                    for name, r in step.items()]
        return [{"address": [{"subsystem": "messaging-activemq"}, {"server": "default"},
                             {"jms-queue": name}], "result": r}
                for name, r in self.queues[0].items()]


class _Stack:
    def __init__(self, management):
        self.management = management

    def management_of(self, node):
        return self.management


def test_a_bean_s_instances_in_use_are_its_pool_s_bound_less_what_it_would_still_lend():
    found = courses.mdb_pools(_Management([{"WorkConsumer": _bean(12, 5, 120)}]))
    assert found == {"WorkConsumer": {"pool_size": 12, "pool_max": 15, "available": 5,
                                      "in_use": 10, "invocations": 120, "peak_concurrent": 9}}
    # one instance made and none busy: the strict pool lends its whole bound (WildFly 39)
    idle = courses.mdb_pools(_Management([{"WorkConsumer": _bean(1, 15)}]))
    assert idle["WorkConsumer"]["in_use"] == 0
    queues = courses.queue_depths(_Management([{}], [{"tlWork": {"message-count": 40,
                                                                 "delivering-count": 15}}]))
    assert queues == {"tlWork": {"messages": 40, "delivering": 15}}


def test_the_course_samples_while_the_block_runs_and_says_where_a_read_failed():
    management = _Management([{"WorkConsumer": _bean(15, 0)}, {"WorkConsumer": _bean(15, 5)}],
                             fail_at=3)
    with courses.sampling(_Stack(management), {"arm-a": "app-a"}, ("mdb-pool",),
                          interval_s=0.01) as found:
        deadline = time.monotonic() + 10  # a busy host may run the sampler late: wait for it
        while management.reads < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert found["arm-a"] == []  # filled when the block ends
    samples = found["arm-a"]
    assert len(samples) >= 4
    # the first read at the block's start, then in time order
    assert [s["t"] for s in samples] == sorted(s["t"] for s in samples) and samples[0]["t"] < 1
    assert samples[0]["mdb-pool"]["WorkConsumer"]["in_use"] == 15
    assert samples[1]["mdb-pool"]["WorkConsumer"]["in_use"] == 10
    assert samples[2]["mdb-pool"] == {"error": "the server did not answer"}


def test_a_recipe_without_courses_samples_nothing():
    management = _Management([{"WorkConsumer": _bean(4, 0)}])
    with courses.sampling(_Stack(management), {"arm-a": "app"}, ()) as found:
        time.sleep(0.02)
    assert found == {"arm-a": []} and management.reads == 0


def test_the_figure_draws_every_valid_window_of_each_arm_and_nothing_without_courses():
    matplotlib.use("Agg")

    def trial(arm, used, in_use):
        return {"arm": arm, "used": used, "telemetry": {"courses": [
            {"t": 0.25 * i, "mdb-pool": {"WorkConsumer": {"in_use": n}}}
            for i, n in enumerate(in_use)]}}
    result = {"recipe": "r", "plan": {"arms": [{"id": "1", "label": "maxSession 1"},
                                               {"id": "25", "label": "maxSession 25"}]},
              "trials": [trial("1", True, [0, 1, 1, 0]), trial("25", True, [0, 15, 10, 15]),
                         trial("25", True, [0, 15, 15, 10]), trial("25", False, [0, 3, 3])]}
    fig = plot.courses(result, "mdb-pool")
    left, right = fig.axes[:2]
    assert len(left.lines) == 1 and len(right.lines) == 2  # the invalid window is left out
    assert list(right.lines[0].get_ydata()) == [0, 15, 10, 15]
    assert plot.courses({"recipe": "r", "trials": [trial("1", True, [])]}, "mdb-pool") is None


def test_a_result_names_the_courses_its_valid_windows_hold_and_a_failed_read_is_none():
    def trial(used, sample):
        return {"used": used, "telemetry": {"courses": [{"t": 0.0, **sample}]}}
    result = {"trials": [trial(True, {"mdb-pool": {"WorkConsumer": {"in_use": 3}},
                                      "queue-depth": {"error": "no answer"}}),
                         trial(False, {"queue-depth": {"tlWork": {"messages": 9}}})]}
    from tuninglab import result as results
    assert results.course_sources(result) == ["mdb-pool"]
