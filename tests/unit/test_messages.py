"""The messaging pieces without a broker: a window that lost or duplicated a message fails (in a
trial and in a smoke test), the ledger's figures become trial metrics, the broker's runtime
read-back fails when the server reports another journal, and an app that needs a server
configuration refuses a recipe that names another."""
from __future__ import annotations

import shutil

import pytest

from tuninglab import layout, load
from tuninglab.analysis import trial_errors
from tuninglab.analysis.trials import trial_metrics
from tuninglab.changes import runtime_read_back
from tuninglab.recipe import RecipeError, load_recipe

LEDGER = {"sent": 1000, "consumed": 1000, "missing": 0, "duplicated": 0, "unconfirmed": 0,
          "stray": 0,
          "peak_in_work": 3, "consuming_s": 10.0, "e2e_p50_ms": 12.5, "e2e_p99_ms": 40.0,
          "drain_s": 0.2}
CLEAN = {"requests": 1000, "failed": 0, "error_rate": 0.0, "dropped_iterations": 0,
         "fail_reasons": {}, "messages": LEDGER}


def _recipe():
    return load_recipe(layout.recipes_dir() / "guide" / "jms-jdbc-journal")


def test_a_clean_ledger_is_no_error_and_its_latencies_are_metrics():
    assert trial_errors(_recipe(), CLEAN) == []
    metrics = trial_metrics({**CLEAN, "throughput": 100.0, "latency_p50": 1, "latency_p90": 2,
                             "latency_p99": 3}, {})
    assert metrics["message_latency_p50"] == 12.5 and metrics["message_latency_p99"] == 40.0


@pytest.mark.parametrize("fault, words", [
    ({"missing": 1, "consumed": 999}, "1 of 1,000 messages sent were never consumed"),
    ({"duplicated": 2}, "2 message(s) consumed more than once"),
    ({"unconfirmed": 1}, "1 message(s) consumed that no request recorded as sent")])
def test_one_lost_or_duplicated_message_fails_the_window(fault, words):
    errors = trial_errors(_recipe(), {**CLEAN, "messages": {**LEDGER, **fault}})
    assert len(errors) == 1 and words in errors[0]


def test_a_smoke_test_whose_message_was_lost_fails_before_anything_is_measured(monkeypatch):
    summary = {"transactions": {"Send": {"count": 2, "failed": 0, "latency_ms": {}}},
               "trial_s": 1, "messages": {**LEDGER, "sent": 2, "consumed": 1, "missing": 1}}

    class Driver:
        def smoke(self, client, spec, rounds):
            return summary
    monkeypatch.setattr(load, "driver_for", lambda app: Driver())
    app = _recipe()
    from tuninglab import apps
    with pytest.raises(load.SmokeTestFailed, match="1 of 2 messages sent were never consumed"):
        load.smoke_test(None, app=apps.load("messages", app.repo_root))


class Management:
    def __init__(self, attributes):
        self.attributes = attributes

    def read_attribute(self, address, name):
        if name not in self.attributes:
            raise RuntimeError(f"WFLYCTL0201: Unknown attribute '{name}'")
        return self.attributes[name]


def test_the_broker_reports_its_journal_and_another_one_fails_the_check():
    expected = _recipe().change.runtime
    running = Management({"started": True, "active": True, "runtime-journal-type": "DATABASE"})
    assert all(c.ok for c in runtime_read_back.checks(running, expected, variant=True))
    fell_back = Management({"started": True, "active": True, "runtime-journal-type": "NIO"})
    failed = [c for c in runtime_read_back.checks(fell_back, expected, variant=True) if not c.ok]
    assert [(c.expected, c.actual) for c in failed] == [("DATABASE", "NIO")]
    [missing] = [c for c in runtime_read_back.checks(Management({}), expected, variant=False)
                 if "started" in c.what]
    assert not missing.ok and "not readable" in missing.actual
    assert runtime_read_back.address_of("/subsystem=messaging-activemq/server=default") == (
        ("subsystem", "messaging-activemq"), ("server", "default"))


def test_the_app_needs_its_server_configuration_and_a_recipe_naming_another_is_refused(tmp_path):
    recipe = _recipe()
    assert recipe.server_config == "standalone-full.xml"  # the app's, the recipe names none
    root = tmp_path / "ws"
    shutil.copytree(layout.REPO_ROOT / "apps" / "messages", root / "apps" / "messages",
                    ignore=shutil.ignore_patterns("src"))
    folder = root / "recipes" / "guide" / "jms-jdbc-journal"
    shutil.copytree(recipe.folder, folder)
    text = (folder / "recipe.toml").read_text()
    (folder / "recipe.toml").write_text(text.replace(
        '[workload]', '[stack]\nserver_config = "standalone.xml"\n\n[workload]'))
    with pytest.raises(RecipeError, match=r"stack.server_config.*needs 'standalone-full.xml'"):
        load_recipe(folder)


def test_the_brokers_queue_counters_are_read_at_both_edges_of_a_window():
    from types import SimpleNamespace

    from tuninglab import telemetry

    def answer(added, count):
        return [{"address": [{"subsystem": "messaging-activemq"}, {"server": "default"},
                             {"jms-queue": "tlWork"}], "outcome": "success",
                 "result": {"messages-added": added, "message-count": count, "paused": False,
                            "entries": ["java:/jms/queue/tlWork"], "consumer-count": 15}}]
    readings = iter([answer(100, 0), answer(1100, 3)])
    management = SimpleNamespace(read_resource=lambda address, runtime: next(readings))
    stack = SimpleNamespace(management_of=lambda node: management)
    before = {"broker": telemetry._broker_queues(stack, "app", None)}
    after = {"broker": telemetry._broker_queues(stack, "app", None)}
    assert before["broker"] == {"tlWork": {"messages-added": 100, "message-count": 0,
                                           "consumer-count": 15}}  # numbers only
    assert telemetry._gauges(before, after)["broker"]["tlWork"]["messages-added"] == {
        "at_start": 100, "at_end": 1100}


def test_broker_counters_need_a_configuration_with_the_broker(tmp_path):
    source = layout.REPO_ROOT / "recipes" / "guide" / "datasource-max-pool-size"
    folder = tmp_path / "ws" / "recipes" / "guide" / source.name
    shutil.copytree(source, folder)
    text = (folder / "recipe.toml").read_text()
    (folder / "recipe.toml").write_text(text.replace('runtime = ["datasource-pool"]',
                                                     'runtime = ["datasource-pool", "broker"]'))
    with pytest.raises(RecipeError, match=r"'broker': the nodes run standalone.xml, which has no"):
        load_recipe(folder)
