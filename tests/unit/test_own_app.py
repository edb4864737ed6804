"""What a user's app brings along (apps.py: server_setup, seed; seeding.py), the workspace that
`tuninglab init` writes (scaffold.py), the k6 summary contract an app's script imports
(drivers/k6_contract.js), and `tuninglab app check`'s log filter: each without Docker."""
from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from tuninglab import apps, appcheck, cli, scaffold, seeding
from tuninglab.drivers.k6 import CONTRACT_MODULE, K6
from tuninglab.errors import classify
from tuninglab.recipe import discover_recipes

EXAMPLE = scaffold.EXAMPLE


@pytest.fixture
def shop(tmp_path):
    """A copy of the example workspace, to edit."""
    shutil.copytree(EXAMPLE, tmp_path / "ws")
    apps._load.cache_clear()
    yield tmp_path / "ws"
    apps._load.cache_clear()


def test_an_app_with_a_server_setup_waits_for_it_and_its_setup_is_read_operation_by_operation(shop):
    app = apps.load("shop", shop)
    assert app.server_setup == "setup.cli" and app.datasource() == "ShopDS"
    # its archive waits outside the scanner's folder until the set-up is applied (stack.py)
    assert list(app.node_files()) == [f"{apps.HELD_DIR}/shop.war"]
    assert app.held_archives() == {"shop.war": f"{apps.HELD_DIR}/shop.war"}
    [operation] = app.setup_operations()
    assert operation.name == "add" and operation.address == (
        ("subsystem", "datasources"), ("data-source", "ShopDS"))
    assert operation.params["connection-url"] == "jdbc:postgresql://db:5432/shop"
    assert operation.params["statistics-enabled"] is True
    # an app without one is deployed by the scanner at boot, as before
    assert apps.load("sessioncart").held_archives() == {}
    assert all(path.startswith(apps.DEPLOYMENTS_DIR) for path in apps.load("sessioncart").node_files())


@pytest.mark.parametrize("edit, expected", [
    (lambda f: (f / "setup.cli").write_text("/subsystem=datasources:reload\nbatch\n"),
     r"server_setup: apps/shop/setup.cli:1: .*allowed"),
    (lambda f: (f / "setup.cli").unlink(), r"server_setup: 'setup.cli' is not a file in apps/shop/"),
    (lambda f: (f / "database" / "data.sql").unlink(), r"seed: 'database/data.sql' is not a file"),
    (lambda f: _replace(f, 'seed = ["database/schema.sql", "database/data.sql"]',
                        'seed = ["database/schema.txt"]'), r"seed: a list of \.sql files"),
    (lambda f: _replace(f, 'database = "shop"\n', ''), r"seed: needs database"),
    (lambda f: _replace(f, 'database = "shop"', 'database = "shop; DROP"'),
     r"database: 'shop; DROP'; allowed: a PostgreSQL name"),
    (lambda f: _replace(f, 'database = "shop"', 'database = "shop"\nseed_role = "lab; DROP"'),
     r"seed_role: 'lab; DROP'; allowed: a role of the lab's database image"),
    (lambda f: _replace(f, 'database = "shop"', 'database = "shop"\nseed_variables = '
                                                 '{ scale = true }'),
     r"seed_variables: a table of psql variables"),
])
def test_a_bad_setup_or_seed_is_refused_with_the_file_and_key(shop, edit, expected):
    edit(shop / "apps" / "shop")
    with pytest.raises(apps.AppError, match=expected) as caught:
        apps.load("shop", shop)
    assert str(caught.value).startswith("apps/shop/app.toml: ")
    assert classify(caught.value).exit_code == 2  # bad input, not a defect of the lab


def _replace(folder: Path, old: str, new: str) -> None:
    toml = folder / "app.toml"
    assert old in toml.read_text()
    toml.write_text(toml.read_text().replace(old, new))


def test_a_seed_is_baked_again_only_when_it_or_its_base_changes(shop):
    tag = seeding.seed_tag(apps.load("shop", shop), "sha256:base")
    assert tag.startswith(f"{seeding.REPOSITORY}:shop-")
    assert seeding.seed_tag(apps.load("shop", shop), "sha256:base") == tag
    assert seeding.seed_tag(apps.load("shop", shop), "sha256:other") != tag
    data = shop / "apps" / "shop" / "database" / "data.sql"
    data.write_text(data.read_text().replace("10000", "20000"))
    apps._load.cache_clear()
    assert seeding.seed_tag(apps.load("shop", shop), "sha256:base") != tag


def test_an_app_without_a_seed_uses_the_lab_s_database_image():
    assert seeding.image_for(client=None, deployed=[apps.load("sessioncart")],
                             labels={}) == seeding.images.DB


def test_a_seed_s_role_and_variables_are_part_of_what_it_is_baked_from(shop):
    """order-entry's data runs as the role its data source connects as, with scale = 1: a
    seed run as another role, or at another scale, is another image."""
    app = apps.default_app()
    assert (app.seed_role, app.seed_variables) == ("lab", {"scale": 1})
    tag = seeding.seed_tag(app, "sha256:base")
    assert seeding.seed_tag(dataclasses.replace(app, seed_variables={"scale": 3}),
                            "sha256:base") != tag
    assert seeding.seed_tag(dataclasses.replace(app, seed_role=""), "sha256:base") != tag


def test_the_seeds_of_every_app_the_nodes_deploy_are_baked_in_a_chain(shop, monkeypatch):
    """order-entry (resident in the checkout) first, the driven app's seed on top of it; an
    app without a seed adds nothing."""
    baked = []

    def bake(client, app, base, labels, progress):
        baked.append((app.name, base))
        return f"{seeding.REPOSITORY}:{app.name}-on-{base}"

    monkeypatch.setattr(seeding, "_baked", bake)
    last = seeding.image_for(None, [apps.default_app(), apps.load("sessioncart"),
                                    apps.load("shop", shop)], labels={})
    assert baked == [("orderentry", seeding.images.DB),
                     ("shop", f"{seeding.REPOSITORY}:orderentry-on-{seeding.images.DB}")]
    assert last == f"{seeding.REPOSITORY}:shop-on-{baked[1][1]}"


def test_init_writes_a_workspace_whose_app_and_recipes_validate(tmp_path, capsys):
    folder = tmp_path / "mine"
    assert cli.main(["init", str(folder)]) == 0
    assert "app check shop" in capsys.readouterr().out
    assert {p.name for p in folder.iterdir()} == {"apps", "recipes", "results", "README.md"}
    recipes = discover_recipes(folder)
    assert [r.id for r in recipes] == ["shop-parallel-collector", "shop-pool-size",
                                       "shop-task-threads"]
    assert {r.workload.app for r in recipes} == {"shop"}
    assert all(r.folder.parent.name == "own" for r in recipes)
    apps._load.cache_clear()
    app = apps.load("shop", folder)
    # its own data source, schema, seed and server set-up: what a user's app needs
    assert app.datasource() != "OrderDS" and app.seed and app.server_setup
    assert str(folder) in (folder / "README.md").read_text()


def test_init_refuses_a_folder_that_holds_files(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    assert cli.main(["init", str(tmp_path)]) == 2
    assert "is not empty; allowed: a new or empty folder" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


class _Client:
    def __init__(self):
        self.files = {}

    def put_files(self, files):
        self.files.update(files)


def test_the_k6_driver_installs_the_summary_contract_beside_an_app_s_script(shop):
    client = _Client()
    K6().install(client, apps.load("shop", shop))
    assert set(client.files) == {"/apps/shop/workload.js", f"/apps/shop/{CONTRACT_MODULE}"}
    script = client.files["/apps/shop/workload.js"].decode()
    assert f"from './{CONTRACT_MODULE}'" in script
    assert b"--- tuninglab summary ---" in client.files[f"/apps/shop/{CONTRACT_MODULE}"]
    # the lab's own app's script is in the load generator's image: nothing to install
    client = _Client()
    K6().install(client, apps.default_app())
    assert client.files == {}


def test_app_check_shows_what_the_server_said_about_deployments():
    log = "\n".join([
        "07:00:01,000 INFO  [org.jboss.as.server.deployment] (MSC) WFLYSRV0027: Starting deployment of \"shop.war\"",
        "07:00:01,100 INFO  [org.jboss.as.connector] (MSC) WFLYJCA0098: Bound non-transactional data source",
        "07:00:02,000 ERROR [org.jboss.msc.service.fail] (MSC) MSC000001: Failed to start service",
        "07:00:03,000 INFO  [org.wildfly.extension.undertow] (MSC) WFLYUT0021: Registered web context: '/shop'",
        "\x1b[0m\x1b[0m07:00:03,100 INFO  [org.jboss.as.server] (Controller) WFLYSRV0010: Deployed \"shop.war\"",
    ])
    lines = appcheck.deployment_lines(log)
    assert [line.split(") ", 1)[1][:11] for line in lines] == [
        "WFLYSRV0027", "MSC000001: ", "WFLYUT0021:", "WFLYSRV0010"]
    assert lines[-1].startswith("07:00:03,100 INFO")  # colour codes gone
