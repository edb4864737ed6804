"""Change kind jdk: the variant's node runs the common server image with the next JDK added;
the read-back is the running JVM's own specification version, so an image whose default `java`
stayed 21 fails before anything is measured."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from tuninglab import changes, images, layout, staleness
from tuninglab.experiment import node_config
from tuninglab.plan import compile_plan
from tuninglab.recipe import RecipeError, load_recipe

RECIPE = layout.recipes_dir() / "guide" / "jdk-next-lts"


def _kind():
    recipe = load_recipe(RECIPE)
    kind = changes.kind_for(recipe)
    plan = compile_plan(recipe, switch=kind.switch)
    kind.bind(plan.arms)
    return recipe, kind, plan


def _stack(spec_version: str):
    runtime = {"spec-version": spec_version, "vm-version": f"{spec_version}.0.1+1-Debian"}
    return SimpleNamespace(management_of=lambda node: SimpleNamespace(
        read_resource=lambda *a, **k: runtime))


def test_each_arm_runs_on_its_jdks_image_and_nothing_else_differs():
    recipe, kind, plan = _kind()
    base = node_config(recipe)
    baseline = kind.node_config(base, plan.arm("baseline"))
    variant = kind.node_config(base, plan.arm("variant"))
    assert baseline.image == images.WILDFLY and variant.image == images.JDK_IMAGES["25"]
    assert baseline.with_changes(image=variant.image) == variant
    assert kind.switch == "restart"  # a JDK is fixed when the JVM starts: a node per arm


@pytest.mark.parametrize("arm, running, ok", [
    ("variant", "25", True), ("variant", "21", False), ("baseline", "21", True),
    ("baseline", "25", False)])
def test_the_running_jvm_must_report_its_arms_version(arm, running, ok):
    _, kind, plan = _kind()
    [check] = kind.read_back(_stack(running), "app-1", plan.arm(arm))
    assert check.ok is ok and check.actual.startswith(running)


@pytest.mark.parametrize("jdk, message", [("21", "'21'; allowed: 25 (the baseline runs JDK 21"),
                                          ("17", "'17'; allowed: 25")])
def test_a_jdk_without_an_image_of_its_own_is_refused(tmp_path, jdk, message):
    folder = tmp_path / "recipes" / "guide" / "jdk-x"
    folder.mkdir(parents=True)
    text = (RECIPE / "recipe.toml").read_text().replace('id = "jdk-next-lts"', 'id = "jdk-x"')
    (folder / "recipe.toml").write_text(text.replace('jdk = "25"', f'jdk = "{jdk}"'))
    with pytest.raises(RecipeError) as error:
        load_recipe(folder)
    assert "change.jdk" in str(error.value) and message in str(error.value)


def test_the_next_jdks_image_is_an_input_of_these_recipes_only():
    recipe, _, _ = _kind()
    assert "jdk 25" in staleness.role_inputs(recipe)
    other = load_recipe(layout.recipes_dir() / "guide" / "jvm-compressed-oops")
    assert not any(role.startswith("jdk") for role in staleness.role_inputs(other))
