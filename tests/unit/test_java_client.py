"""The java-client driver (tuninglab/drivers/java_client.py) and the app it drives
(apps/remote): the client JVM starts from its jar's own entry point, in the load generator's
place on an image of its own; each window is a request to it with the load's keys; and what it
reports (its figures, what failed) reaches the trial as k6's summary does: a client that fails
fails the trial with its own message."""
from __future__ import annotations

import json
import zipfile

import pytest

from tuninglab import apps, drivers, images, layout, load
from tuninglab.analysis.trials import trial_errors
from tuninglab.drivers import java_client
from tuninglab.recipe import load_recipe


def _jar(tmp_path, manifest: str | None):
    path = tmp_path / "client.jar"
    with zipfile.ZipFile(path, "w") as jar:
        jar.writestr("a/Main.class", b"")
        if manifest is not None:
            jar.writestr("META-INF/MANIFEST.MF", manifest)
    return path


def test_the_client_starts_from_the_main_class_its_jar_names(tmp_path):
    jar = _jar(tmp_path, "Manifest-Version: 1.0\r\nMain-Class: a.Main\r\n\r\n")
    assert java_client.main_class(jar) == "a.Main"


@pytest.mark.parametrize("manifest, said", [(None, "not a client jar with a manifest"),
                                            ("Manifest-Version: 1.0\r\n", "names no Main-Class")])
def test_a_jar_without_an_entry_point_is_named_with_what_it_lacks(tmp_path, manifest, said):
    with pytest.raises(RuntimeError, match=said):
        java_client.main_class(_jar(tmp_path, manifest))


def test_a_window_s_settings_go_to_the_client_as_one_line_of_pairs():
    assert java_client.request_line({"USERS": "4", "MIX": '{"Call": 1}'}) == (
        'USERS=4\tMIX={"Call": 1}')
    with pytest.raises(ValueError, match="NOTE: a tab, a newline or '=' cannot be sent"):
        java_client.request_line({"NOTE": "two\nlines"})


class _Container:
    """Records the command a driver runs in the load generator and answers with a summary as
    the client prints it (a stand-in for the container, never stored as a result)."""

    def __init__(self, summary: dict):
        self.summary, self.commands = summary, []

    def summary_run(self, command, env, tool, ok=(0,)):
        self.commands.append((command, env, tool))
        return self.summary


def _summary(problems: list[str], failed: int = 0) -> dict:
    """A window's summary in the shape the Java client writes (client/Summary.java)."""
    return {"transactions": {"Call": {"count": 900, "failed": failed,
                                      "latency_ms": {"p(50)": 2.1, "p(90)": 3.0, "p(99)": 5.5}}},
            "all": {"p(50)": 2.1, "p(90)": 3.0, "p(99)": 5.5},
            "fail_reasons": {"timeout": 0, "status": failed, "check": 0},
            "dropped_iterations": 0, "iterations": 900 + failed, "trial_s": 10.02,
            "warmup_s": 2, "model": "closed", "mix": {"Call": 1}, "connections": None,
            "connections_expected": 0,
            "client": {"threads": 2, "thread_kind": "platform", "cpu_share": 0.61,
                       "per_thread": [{"count": 450, "mean_ms": 2.2}] * 2,
                       "rx_packets_per_op": 2.0, "tx_packets_per_op": 2.1,
                       "server_calls": 900, "server_calls_per_call": 1.0},
            "problems": problems}


def test_a_window_is_a_request_to_the_app_s_client_jvm_with_the_load_s_keys():
    app = apps.load("remote")
    assert app.driver == "java-client" and drivers.driver_for(app).image == images.CLIENT_JVM
    container = _Container(_summary([]))
    spec = load.LoadSpec(app=app, mix=app.mixes["call"], users=4,
                         parameters=app.parameter_defaults())
    load.run(container, spec, 20)
    command, env, tool = container.commands[0]
    assert tool == "java-client" and command[:2] == ["bash", "-c"] and env == {}
    assert "/dev/tcp/127.0.0.1/$1" in command[2] and command[4] == "7070"  # the default's
    sent = dict(pair.split("=", 1) for pair in command[-1].split("\t"))
    assert sent["BASE_URL"] == "http://app:8080/remote" and json.loads(sent["MIX"]) == {"Call": 1}
    assert (sent["USERS"], sent["TRIAL_S"], sent["CLIENT_WARMUP_S"]) == ("4", "20", "0")
    assert sent["VIRTUAL_THREADS"] == "0"


def test_the_client_s_figures_reach_the_trial_and_its_failures_fail_it_with_its_message():
    recipe = load_recipe(layout.recipes_dir() / "articles" / "remote-call-threads")
    good = load.load_metrics(_summary([]))
    assert good["client"]["server_calls_per_call"] == 1.0 and good["throughput"] == 900 / 10.02
    assert trial_errors(recipe, good) == []
    refused = ("12 x Call: java.net.ConnectException: Connection refused")
    failed = load.load_metrics(_summary([refused], failed=12))
    assert refused in trial_errors(recipe, failed)
