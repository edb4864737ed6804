"""An app of the user's own, end to end on the real stack: the example workspace that
`tuninglab init` writes boots with its own data source (server set-up applied before it
deploys) and its own database (its seed baked into an image), and answers its smoke set; a
set-up the server refuses and a seed that does not load are named before anything is
measured, with the server's or PostgreSQL's own message."""
import os
import subprocess
import sys

import pytest

from tuninglab import apps, appcheck, layout, scaffold, seeding
from tuninglab.containers import StartupError


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    folder = tmp_path / "mine"
    scaffold.init(folder)
    monkeypatch.setenv(layout.WORKSPACE_ENV, str(folder))
    apps._load.cache_clear()
    yield folder
    apps._load.cache_clear()


def test_app_check_boots_the_example_on_its_own_data_source_and_database(workspace):
    lines = []
    metrics = appcheck.check("shop", workspace, progress=lines.append)
    assert metrics["failed"] == 0
    assert {name: row["count"] > 0 for name, row in metrics["transactions"].items()} == {
        "Browse": True, "Order": True}
    text = "\n".join(lines)
    assert 'Deployed "shop.war"' in text  # the deployment's log, shown
    assert "answers every transaction correctly" in text


def test_the_example_recipe_runs_in_the_quick_profile_with_the_cli(workspace):
    done = subprocess.run([sys.executable, "-m", "tuninglab.cli", "--workspace", str(workspace),
                           "run", "shop-task-threads", "--no-save"], capture_output=True,
                          text=True, env=dict(os.environ), timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "quick run, no claim: the change applied and read back" in done.stdout
    assert "0 failed" in done.stdout
    assert not any((workspace / "results").iterdir())  # --no-save


def test_a_setup_operation_the_server_refuses_names_its_line_and_the_server_s_message(workspace):
    setup = workspace / "apps" / "shop" / "setup.cli"
    setup.write_text(setup.read_text().replace("driver-name=postgresql", "driver-name=nosuch"))
    apps._load.cache_clear()
    with pytest.raises(StartupError) as caught:
        appcheck.check("shop", workspace, progress=lambda line: None)
    message = str(caught.value)
    assert "apps/shop/setup.cli:" in message and "nosuch" in message
    assert "--- last log lines ---" in message


def test_a_seed_that_does_not_load_names_the_file_and_postgresql_s_line(workspace, client):
    data = workspace / "apps" / "shop" / "database" / "data.sql"
    data.write_text(data.read_text() + "\nINSERT INTO product (id) VALUES ('not a number');\n")
    apps._load.cache_clear()
    app = apps.load("shop", workspace)
    with pytest.raises(apps.AppError) as caught:
        seeding.image_for(client, [app], labels={"tuninglab.test": "seed"},
                          progress=lambda l: None)
    message = str(caught.value)
    assert message.startswith("apps/shop/database/data.sql: the seed did not load")
    assert "apps/shop/database/data.sql:6: ERROR:" in message
    tag = seeding.seed_tag(app, client.images.get(seeding.images.DB).id)
    assert not client.images.list(name=tag)  # nothing baked
    assert not client.containers.list(all=True, filters={"label": "tuninglab.test=seed"})
