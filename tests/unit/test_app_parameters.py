"""An app's workload parameters ([parameters] in its app.toml): the keys a recipe of that app
may set in [workload] and take levels of, checked against the app's bounds, handed to the
load script by the driver; the generic schema names none of them."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tuninglab import apps, load
from tuninglab.drivers.load_environment import environment
from tuninglab.recipe import RecipeError, load_recipe, recipe_schema

REPO = Path(__file__).resolve().parents[2]


def test_the_generic_schema_names_no_app_s_parameter():
    workload = recipe_schema()["properties"]["workload"]["properties"]
    assert not {"lines", "note_chars", "bulk_rows"} & set(workload)
    assert set(apps.default_app().parameters) == {"lines", "note_chars", "bulk_rows"}


def test_a_recipe_gets_the_app_s_defaults_and_its_own_values(tree):
    recipe = load_recipe(tree.edit("users = 32", "users = 32\nlines = 20"))
    assert recipe.workload.parameters == {"lines": 20, "note_chars": 100, "bulk_rows": 10000}
    spec = load.LoadSpec.from_workload(recipe.workload, recipe.repo_root)
    assert spec.parameters["lines"] == 20
    env = environment(spec, 10)
    assert (env["LINES"], env["NOTE_CHARS"], env["BULK_ROWS"]) == ("20", "100", "10000")


def test_a_value_outside_the_app_s_bounds_is_refused_with_the_bounds(tree):
    with pytest.raises(RecipeError, match=r"workload\.lines: 500; allowed: .*100"):
        load_recipe(tree.edit("users = 32", "users = 32\nlines = 500"))


def test_levels_of_a_parameter_run_as_each_arm_s_load(tree):
    recipe = load_recipe(tree.edit("users = 32", "users = 32\n\n[load_levels]\nnote_chars = [0, 1000]"))
    assert recipe.load_levels.key == "note_chars"
    spec = load.LoadSpec.from_workload(recipe.workload, recipe.repo_root)
    level = spec.with_load({"note_chars": 1000, "users": 4})
    assert (level.parameters["note_chars"], level.users, level.parameters["lines"]) == (1000, 4, 5)


def test_a_smoke_test_uses_the_app_s_smoke_values():
    assert apps.default_app().smoke_parameters() == {"lines": 5, "note_chars": 100,
                                                   "bulk_rows": 200}


@pytest.mark.parametrize("table, said", [
    ('[parameters.Lines]\ntype = "integer"\ndefault = 1\ndescription = "x"\n',
     "parameters.Lines: not a name"),
    ('[parameters.items]\ntype = "string"\ndefault = "a"\ndescription = "x"\n',
     "parameters.items.type: 'string'; allowed: integer, number"),
    ('[parameters.items]\ntype = "integer"\nminimum = 1\ndefault = 0\ndescription = "x"\n',
     r"parameters.items.default: 0 is outside \[1, None\]"),
    ('[parameters.items]\ntype = "integer"\ndefault = 3\n',
     "parameters.items.description: required"),
])
def test_a_broken_parameters_table_names_the_key_and_what_is_allowed(tmp_path, table, said):
    shutil.copytree(REPO / "apps" / "sessioncart", tmp_path / "apps" / "sessioncart")
    toml = tmp_path / "apps" / "sessioncart" / "app.toml"
    toml.write_text(toml.read_text() + "\n" + table)
    with pytest.raises(apps.AppError, match=said):
        apps.load("sessioncart", tmp_path)
