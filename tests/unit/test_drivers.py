"""The load-driver seam (tuninglab/drivers/): the engine's load calls go through the driver an
app names, any driver's summary is read the same way, k6's environment carries the load, and
an app naming no known driver is refused."""
from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from tuninglab import apps, drivers, images, load
from tuninglab.drivers.load_environment import environment

REPO = Path(__file__).resolve().parents[2]


class FakeDriver:
    """Answers every window with a fixed summary in the contract and records the calls: a
    stand-in for a tool, not for a measurement (nothing here is ever stored as a result)."""

    name = "fake"
    image, inputs = images.LOADGEN, ()  # the common load generator

    def __init__(self):
        self.calls = []

    def _summary(self, spec, seconds):
        return {"trial_s": seconds, "transactions": {
            name: {"count": 10, "failed": 0, "latency_ms": {"p(50)": 1.0}} for name in spec.mix}}

    def install(self, client, app, specs=()):
        self.calls.append(("install", app.name))

    def run(self, client, spec, seconds):
        self.calls.append(("run", spec.target, seconds))
        return self._summary(spec, seconds)

    def smoke(self, client, spec, rounds):
        self.calls.append(("smoke", spec.deployment, rounds))
        return self._summary(spec, 1)

    def version(self, client):
        return "0.0"


@pytest.fixture
def fake(monkeypatch):
    driver = FakeDriver()
    monkeypatch.setitem(drivers.DRIVERS, "fake", driver)
    return driver


def test_the_engine_s_load_calls_go_through_the_app_s_driver(fake):
    app = replace(apps.load("sessioncart"), driver="fake")
    spec = load.LoadSpec(app=app, mix=app.mixes["cart"], target="app-2")
    load.install("client", app)
    numbers = load.load_metrics(load.run("client", spec, 10))
    assert numbers["throughput"] == 2.0 and numbers["error_rate"] == 0.0
    load.smoke_test("client", rounds=3, app=app)
    assert fake.calls == [("install", "sessioncart"), ("run", "app-2", 10),
                          ("smoke", "", 3), ("smoke", "replicated", 3), ("smoke", "anywhere", 3)]


def test_a_smoke_test_told_which_deployments_a_run_drives_tests_those_alone(fake):
    app = replace(apps.load("sessioncart"), driver="fake")
    load.smoke_test("client", rounds=2, app=app, deployments=("", "anywhere"))
    assert fake.calls == [("smoke", "", 2), ("smoke", "anywhere", 2)]
    with pytest.raises(apps.AppError, match="no deployment 'elsewhere'"):
        load.smoke_test("client", app=app, deployments=("elsewhere",))


def test_k6_gets_the_load_as_its_script_reads_it():
    spec = load.LoadSpec(mix={"Ping": 1}, users=8, think_time_ms=100, target="lb")
    env = environment(spec, 10)
    assert env["BASE_URL"] == "http://lb:8080/orderentry/api" and env["TRIAL_S"] == "10"
    assert json.loads(env["MIX"]) == {"Ping": 1} and (env["USERS"], env["THINK_MS"]) == ("8", "100")
    assert "RATE" not in env
    open_model = environment(replace(spec, model="open", rate=75.0, max_users=None), 10)
    assert (open_model["RATE"], open_model["MAX_USERS"]) == ("75", "200")
    assert drivers.driver_for(apps.default_app()).name == "k6"


def test_an_app_naming_an_unknown_driver_is_refused(tmp_path):
    shutil.copytree(REPO / "apps" / "sessioncart", tmp_path / "apps" / "sessioncart")
    toml = tmp_path / "apps" / "sessioncart" / "app.toml"
    toml.write_text('driver = "jmeter"\n' + toml.read_text())  # a top-level key: before tables
    with pytest.raises(apps.AppError, match="driver: 'jmeter'; allowed: k6"):
        apps.load("sessioncart", tmp_path)


class _BrokenScript(FakeDriver):
    """A script that prints no summary, or one that is not the contract's."""

    def __init__(self, failure):
        super().__init__()
        self.failure = failure

    def smoke(self, client, spec, rounds):
        if isinstance(self.failure, Exception):
            raise self.failure
        return self.failure


@pytest.mark.parametrize("failure, said", [
    (RuntimeError("k6 printed no summary: ReferenceError: lab is not defined"),
     "RuntimeError: k6 printed no summary: ReferenceError"),
    ({"trial_s": 1, "counts": {}}, "KeyError: 'transactions'"),
])
def test_a_load_script_that_breaks_the_contract_fails_the_smoke_test_naming_the_script(
        monkeypatch, failure, said):
    from tuninglab.errors import classify
    monkeypatch.setitem(drivers.DRIVERS, "fake", _BrokenScript(failure))
    app = replace(apps.load("sessioncart"), driver="fake")
    with pytest.raises(load.SmokeTestFailed) as caught:
        load.smoke_test("client", app=app)
    message = str(caught.value)
    assert message.startswith("sessioncart's load script (/apps/sessioncart/workload.js) did "
                              "not give the fake driver a summary in the lab's contract")
    assert said in message
    assert classify(caught.value).exit_code == 3  # named before anything is measured
