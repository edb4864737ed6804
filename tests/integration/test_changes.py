"""A change is read back from the running server before anything is measured; a change that
does not take effect, or a node that drifts from its arm, fails the run and stores nothing."""
from pathlib import Path

import pytest

from tuninglab import changes, layout
from tuninglab.changes import ChangeNotEffective
from tuninglab.changes import nodes as node_setup
from tuninglab.experiment import node_config, run_recipe
from tuninglab.plan import compile_plan
from tuninglab.recipe import RecipeError, find_recipe

DATA = Path(__file__).parent / "data"
POOL = [("subsystem", "datasources"), ("data-source", "OrderDS")]


def _kind_and_arms(recipe):
    kind = changes.kind_for(recipe)
    plan = compile_plan(recipe, switch=kind.switch)
    kind.bind(plan.arms)
    return kind, {arm.level: arm for arm in plan.arms}


def test_a_jboss_cli_change_is_read_back_and_a_drift_is_caught(stack):
    recipe = find_recipe(layout.recipes_dir(), "datasource-max-pool-size")
    kind, arms = _kind_and_arms(recipe)
    state = node_setup.configure(stack, "app", kind, arms["variant"], recipe.baseline)
    checks = node_setup.verify(stack, "app", kind, arms["variant"], state)
    assert stack.management.read_attribute(POOL, "max-pool-size") == 16
    assert any("max-pool-size" in c.what and c.actual == "16" for c in checks)
    # Someone (or something) puts the pool back behind the engine's back: the check before the
    # next trial must notice.
    stack.management.execute("write-attribute", POOL, name="max-pool-size", value=20)
    with pytest.raises(ChangeNotEffective, match="max-pool-size"):
        node_setup.verify(stack, "app", kind, arms["variant"], state)


def test_a_postgresql_change_is_read_back_with_show(stack):
    recipe = find_recipe(layout.recipes_dir(), "pg-synchronous-commit")
    kind, arms = _kind_and_arms(recipe)
    assert all(c.ok for c in kind.prepare(stack))
    kind.apply_arm(stack, "app", arms["variant"])
    assert stack.db.setting("synchronous_commit") == "off"
    kind.apply_arm(stack, "app", arms["baseline"])
    assert stack.db.setting("synchronous_commit") == "on"


@pytest.mark.parametrize("recipe_id, error, reason", [
    # a value PostgreSQL refuses: the preflight judges it against the image's pg_settings,
    # before any stack starts (issue 30)
    ("pg-bad-value", RecipeError, "synchronous_commit: 'maybe' is not one of its values"),
    # a property the app does not read: only the running app can tell
    ("property-typo", ChangeNotEffective, "tl.hibernate.jdbc.batch_sise"),
])
def test_a_change_that_does_not_take_effect_fails_and_stores_nothing(tmp_path, recipe_id,
                                                                     error, reason):
    recipe = find_recipe(DATA, recipe_id)
    with pytest.raises(error) as err:
        run_recipe(recipe, "quick", results_dir=tmp_path, progress=print)
    assert reason in str(err.value)
    assert list(tmp_path.rglob("*")) == [], "nothing may be stored"


def test_container_limits_are_read_back_from_docker(stack):
    recipe = find_recipe(DATA, "half-a-core")
    kind, arms = _kind_and_arms(recipe)
    config = kind.node_config(node_config(recipe), arms["variant"])
    assert config.cpus == 0.5
    stack.replace_node("app", config)
    stack.restore("app")
    checks = node_setup.verify(stack, "app", kind, arms["variant"],
                               node_setup.configure(stack, "app", kind, arms["variant"],
                                                    recipe.baseline))
    assert any("CPU quota" in c.what and c.actual == "0.5" for c in checks)
    # A node left without its quota (as after the warm-up's compile phase) is caught.
    stack.widen("app")
    with pytest.raises(ChangeNotEffective, match="CPU quota"):
        node_setup.verify(stack, "app", kind, arms["variant"],
                          node_setup.NodeState())
    stack.restore("app")
