"""A change is read back from the running server before anything is measured; a change that
does not take effect fails the run and stores nothing."""
from pathlib import Path

import pytest

from tuninglab import changes, layout
from tuninglab.changes import ChangeNotEffective
from tuninglab.experiment import run_recipe
from tuninglab.recipe import find_recipe

DATA = Path(__file__).parent / "data"
POOL = [("subsystem", "datasources"), ("data-source", "OrderDS")]


def test_a_jboss_cli_change_is_verified_both_ways(stack):
    recipe = find_recipe(layout.recipes_dir(), "datasource-max-pool-size")
    switcher = changes.switcher_for(recipe)
    preflight = switcher.prepare(stack)
    assert all(c.ok for c in preflight)
    checks = switcher.switch(stack, changes.VARIANT)
    assert stack.management.read_attribute(POOL, "max-pool-size") == 16
    assert any("max-pool-size" in c.what and c.actual == "16" for c in checks)
    switcher.switch(stack, changes.BASELINE)
    assert stack.management.read_attribute(POOL, "max-pool-size") == 20  # WildFly's default


def test_a_postgresql_change_is_read_back_with_show(stack):
    recipe = find_recipe(layout.recipes_dir(), "pg-synchronous-commit")
    switcher = changes.switcher_for(recipe)
    assert all(c.ok for c in switcher.prepare(stack))
    switcher.switch(stack, changes.VARIANT)
    assert stack.db.setting("synchronous_commit") == "off"
    switcher.switch(stack, changes.BASELINE)
    assert stack.db.setting("synchronous_commit") == "on"


@pytest.mark.parametrize("recipe_id, reason", [
    ("pg-bad-value", "synchronous_commit"),
    ("property-typo", "tl.hibernate.jdbc.batch_sise"),
])
def test_a_change_that_does_not_take_effect_fails_and_stores_nothing(tmp_path, recipe_id, reason):
    recipe = find_recipe(DATA, recipe_id)
    with pytest.raises(ChangeNotEffective) as err:
        run_recipe(recipe, "quick", results_dir=tmp_path, progress=print)
    assert reason in str(err.value)
    assert list(tmp_path.rglob("*")) == [], "nothing may be stored"


def test_container_limits_are_read_back_from_docker(stack):
    recipe = find_recipe(DATA, "half-a-core")
    switcher = changes.switcher_for(recipe)
    checks = switcher.switch(stack, changes.VARIANT)
    assert any(c.what == "container CPU quota" and c.actual == "0.5" for c in checks)
    assert stack.app.get_wrapped_container().attrs["HostConfig"]["NanoCpus"] == 500_000_000
    checks = switcher.switch(stack, changes.BASELINE)
    assert stack.app.get_wrapped_container().attrs["HostConfig"]["NanoCpus"] == 0
    assert all(c.ok for c in checks)
