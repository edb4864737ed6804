"""A whole run of the engine, recipe to stored result, on a fake stack and a fake load driver
(fakestack.py): preflight, configuration and read-back, warm-up, the trial loop, analysis and
the result file, with no container."""
from __future__ import annotations

import json

import pytest

from tuninglab import drivers, experiment, layout, placement
from tuninglab.changes import model
from tuninglab.changes.checks import ChangeNotEffective
from tuninglab.recipe import load_recipe

from fakestack import FakeDriver, FakeStack, app_config_of, fake_docker_client


@pytest.fixture
def no_docker(monkeypatch):
    """The engine's Docker entry points replaced: the stack, the preflight that asks the
    images, and the load driver."""
    FakeStack.started.clear()
    driver = FakeDriver()
    monkeypatch.setattr(placement, "local_client", fake_docker_client)
    monkeypatch.setattr(experiment, "Stack", FakeStack)
    monkeypatch.setattr(experiment.preflight, "check", lambda recipe, client=None: None)
    monkeypatch.setitem(drivers.DRIVERS, "k6", driver)
    monkeypatch.setattr(model, "app_config", app_config_of(lambda: FakeStack.started[-1]))
    monkeypatch.delenv("TUNINGLAB_REUSE_STACKS", raising=False)
    return driver


RECIPE = ("guide", "logging-console-handler")  # a tl.* property and a runtime jboss-cli change


def test_a_whole_recipe_runs_and_stores_its_result_without_docker(no_docker, tmp_path):
    recipe = load_recipe(layout.recipes_dir().joinpath(*RECIPE))
    said = []
    out = experiment.run_recipe(recipe, "quick", progress=said.append, results_dir=tmp_path)
    [path] = tmp_path.rglob("*.json")
    stored = json.loads(path.read_text())
    assert stored["recipe"] == recipe.id == out["recipe"]
    assert stored["validity"]["valid"] and not stored["validity"]["errors"]
    assert [t["status"] for t in stored["trials"]] == ["valid", "valid"]
    assert {t["arm"] for t in stored["trials"]} == {"baseline", "variant"}
    # every check read back from the fake nodes passed, the app's view of the property included
    checks = [c for found in stored["verified"].values() for c in found]
    assert checks and all(c["ok"] for c in checks)
    assert any("app sees tl.app.log_each_transaction" in c["what"] for c in checks)
    assert {"stack_s", "configure_s", "warmup_s", "trials_s", "analysis_s"} <= set(
        stored["provenance"]["phases"])
    # the load went through the app's driver: installed, smoke-tested, then the windows
    kinds = [call[0] for call in no_docker.calls]
    assert kinds.index("install") < kinds.index("smoke") < kinds.index("run")
    assert FakeStack.started[-1].closed
    assert any("redeployed its apps" in line for line in said)


def test_a_property_the_app_did_not_read_again_fails_the_run_and_stores_nothing(
        no_docker, tmp_path, monkeypatch):
    """The fake is honest: a node that keeps its app as it deployed at boot (no redeployment
    after the property was written) is caught by the read-back, as a real one would be."""
    import fakestack

    monkeypatch.setattr(fakestack.FakeNode, "deploy", lambda self: None)
    recipe = load_recipe(layout.recipes_dir().joinpath(*RECIPE))
    with pytest.raises(ChangeNotEffective, match="app sees tl.app.log_each_transaction"):
        experiment.run_recipe(recipe, "quick", progress=lambda line: None, results_dir=tmp_path)
    assert not list(tmp_path.rglob("*.json"))
    assert FakeStack.started[-1].closed
