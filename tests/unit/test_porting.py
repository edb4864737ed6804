"""`tuninglab port`: a catalogue recipe copied into a workspace to run on another app, with its
data sources renamed by role; a recipe that measures the lab's own app is refused with why."""
from __future__ import annotations

import pytest

from tuninglab import api, apps, cli, layout, porting, scaffold
from tuninglab.recipe import load_recipe


@pytest.fixture
def workspace(tmp_path):
    folder = tmp_path / "mine"
    scaffold.init(folder)
    apps._load.cache_clear()
    yield folder
    apps._load.cache_clear()


def test_a_pool_recipe_is_ported_with_the_data_source_of_the_same_role(workspace):
    recipe = api.get_recipe("datasource-max-pool-size")
    folder = porting.port(recipe, "shop", workspace)
    assert folder == workspace / "recipes" / "own" / "datasource-max-pool-size"
    ported = load_recipe(folder)
    assert (ported.workload.app, ported.workload.mix, ported.workload.users) == ("shop", "default", 32)
    change = (folder / "change.cli").read_text()
    assert "data-source=ShopDS:write-attribute(name=max-pool-size,value=16)" in change
    assert "OrderDS" not in change + (folder / "baseline.cli").read_text()
    assert (folder / "recipe.toml").read_text().startswith(
        "# Ported by `tuninglab port datasource-max-pool-size --app shop` from "
        "recipes/guide/datasource-max-pool-size/")
    assert "OrderDS -> ShopDS" in (folder / "recipe.toml").read_text().splitlines()[0]


@pytest.mark.parametrize("recipe_id, reason", [
    ("logging-console-handler", r"\[baseline.properties\] sets the lab's own app's tl"),
    ("ejb3-pass-by-reference", r"load levels of note_chars"),
    ("hibernate-batch-inserts", r"its jboss-cli files set the lab's own app's properties "
                                r"\(tl\.hibernate"),
    ("http-session-affinity", r"already names an app of its own|\[cluster\]"),
])
def test_a_recipe_that_measures_the_lab_s_own_app_is_refused_with_why(workspace, recipe_id, reason):
    with pytest.raises(porting.PortError, match=reason):
        porting.port(api.get_recipe(recipe_id), "shop", workspace)
    assert not (workspace / "recipes" / "own" / recipe_id).exists()


def test_a_role_the_app_lacks_and_a_copy_that_exists_are_refused(workspace):
    toml = workspace / "apps" / "shop" / "app.toml"
    toml.write_text(toml.read_text().replace('orders = "ShopDS"', 'billing = "ShopDS"'))
    apps._load.cache_clear()
    with pytest.raises(porting.PortError, match=r"no data source for role 'orders' \(the "
                                                r"recipe's baseline.cli changes OrderDS\)"):
        porting.port(api.get_recipe("datasource-max-pool-size"), "shop", workspace)
    porting.port(api.get_recipe("io-worker-core-threads"), "shop", workspace)
    with pytest.raises(porting.PortError, match="exists already"):
        porting.port(api.get_recipe("io-worker-core-threads"), "shop", workspace)


def test_the_command_ports_into_the_workspace_and_says_how_to_run_it(workspace, capsys, monkeypatch):
    monkeypatch.setenv(layout.WORKSPACE_ENV, str(workspace))  # --workspace sets it: undone after
    assert cli.main(["--workspace", str(workspace), "port", "jvm-compressed-oops",
                     "--app", "shop"]) == 0
    out = capsys.readouterr().out
    assert "recipes/own/jvm-compressed-oops" in out and "run jvm-compressed-oops" in out
    assert cli.main(["--workspace", str(workspace), "port", "jvm-compressed-oops",
                     "--app", "shop", "--mix", "nope"]) == 2
    assert "no mix 'nope'" in capsys.readouterr().err
