"""The client JVM in its own image (drivers/java_client.py, apps/remote), with no server to
reach: a client that cannot connect reports the failure in its own words and its trial fails
with them; bad settings are answered with one line, which the driver raises, and the client
serves the next window all the same."""
import pytest

from tuninglab import apps, drivers, layout, load
from tuninglab.analysis.trials import trial_errors
from tuninglab.containers import LoadGenerator
from tuninglab.recipe import load_recipe


@pytest.fixture(scope="module")
def client_jvm():
    app = apps.load("remote")
    driver = drivers.driver_for(app)
    with LoadGenerator(driver.image) as container:
        driver.install(container, app)
        yield app, driver, container


def test_a_client_that_cannot_connect_fails_its_trial_with_its_own_message(client_jvm):
    app, driver, container = client_jvm
    recipe = load_recipe(layout.recipes_dir() / "articles" / "remote-call-threads")
    # nothing listens on the container's own port 8080
    spec = load.LoadSpec(app=app, mix=app.mixes["call"], users=2, target="127.0.0.1",
                         parameters=app.parameter_defaults())
    metrics = load.load_metrics(driver.run(container, spec, 2))
    assert metrics["requests"] > 0 and metrics["failed"] == metrics["requests"]
    errors = trial_errors(recipe, metrics)
    said = [e for e in errors if " x Call: " in e]
    assert said, errors
    assert any("could not be read" in e and "127.0.0.1" in e for e in errors)
    assert metrics["client"]["threads"] == 2


def test_a_transaction_the_client_does_not_know_stops_it_with_one_line(client_jvm):
    app, driver, container = client_jvm
    spec = load.LoadSpec(app=app, mix={"Transfer": 1}, users=1, target="127.0.0.1",
                         parameters=app.parameter_defaults())
    with pytest.raises(RuntimeError, match="java-client printed no summary: remote client: "
                                           "unknown transaction 'Transfer'; allowed: Lookup, "
                                           "Call"):
        driver.run(container, spec, 1)
    good = load.LoadSpec(app=app, mix=app.mixes["lookup"], users=1, target="127.0.0.1",
                         parameters=app.parameter_defaults())
    assert load.load_metrics(driver.run(container, good, 1))["client"]["threads"] == 1
