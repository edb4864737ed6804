"""A workspace of one's own (``tuninglab --workspace DIR``): recipes and apps outside this
checkout are found there, with the lab's own app still coming from the library;
a folder that is not a workspace is refused with what is allowed."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # advkit, whatever the import mode

from advkit import DATA, NO_ENGINE, Repo, assert_clean_error  # noqa: E402

from tuninglab import apps, layout  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def workspace(tmp_path, monkeypatch, capsys) -> Repo:
    """recipes/ of the unit tests' sample and an app of its own, ``shop`` (sessioncart under
    another name), and nothing of the library's: no workloads/, no orderentry."""
    root = tmp_path / "mine"
    shutil.copytree(DATA / "recipes", root / "recipes")
    shutil.copytree(REPO / "apps" / "sessioncart", root / "apps" / "shop")
    # set, then removed: monkeypatch remembers it was absent and removes what the CLI sets
    monkeypatch.setenv(layout.WORKSPACE_ENV, "")
    monkeypatch.delenv(layout.WORKSPACE_ENV)
    monkeypatch.delenv("TUNINGLAB_RESULTS_DIR", raising=False)
    monkeypatch.setenv("TUNINGLAB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("DOCKER_HOST", NO_ENGINE)
    monkeypatch.chdir(tmp_path)
    repo = Repo(root, capsys)
    repo.edit('app_memory = "768m"', 'app_memory = "2g"')
    return repo


def test_a_workspace_s_recipes_and_apps_are_the_ones_a_command_sees(workspace):
    workspace.edit('mix = "default"', 'app = "shop"\nmix = "cart"')
    workspace.edit('runtime = ["datasource-pool"]', 'runtime = []')
    outcome = workspace.cli("--workspace", str(workspace.root), "validate")
    assert outcome.code == 0 and "ok    pool-size" in outcome.out, outcome.text
    assert layout.recipes_dir() == workspace.root.resolve() / "recipes"
    assert layout.results_dir() == workspace.root.resolve() / "results"
    assert apps.load("shop").folder == workspace.root.resolve() / "apps" / "shop"
    assert apps.default_app().folder == REPO / "apps" / "orderentry"  # it comes with the library
    assert apps.resident_apps() == ()  # and is not deployed beside the workspace's own apps


def test_a_recipe_naming_an_app_the_workspace_lacks_lists_what_it_has(workspace):
    workspace.edit('mix = "default"', 'app = "sessioncart"\nmix = "cart"')
    outcome = workspace.cli("--workspace", str(workspace.root), "validate")
    assert_clean_error(outcome, 2, "workload.app: apps/sessioncart/app.toml: no such app; "
                                   "allowed: orderentry, shop")


def test_a_folder_that_is_not_a_workspace_is_refused(workspace, tmp_path):
    outcome = workspace.cli("--workspace", str(tmp_path / "nothing-here"), "validate")
    assert_clean_error(outcome, 2, "no recipes/ folder there", "allowed: a folder holding recipes/")


def test_a_command_run_inside_a_workspace_uses_it_without_being_told(workspace, monkeypatch):
    workspace.edit('mix = "default"', 'app = "shop"\nmix = "cart"')
    workspace.edit('runtime = ["datasource-pool"]', 'runtime = []')
    (workspace.root / "apps" / "shop" / "deeper").mkdir()
    monkeypatch.chdir(workspace.root / "apps" / "shop" / "deeper")  # as git finds its repository
    outcome = workspace.cli("validate")
    assert outcome.code == 0 and "ok    pool-size" in outcome.out, outcome.text
    assert layout.results_dir() == workspace.root.resolve() / "results"


def test_outside_any_workspace_the_package_s_own_copy_is_not_taken_for_one(workspace, monkeypatch,
                                                                           tmp_path):
    """Installed as a package, the library's carried copy would otherwise be the workspace: its
    catalogue names apps the package does not carry, and results would land in site-packages."""
    carried = tmp_path / "site-packages" / "tuninglab" / "_library"
    (carried / "recipes").mkdir(parents=True)
    monkeypatch.setattr(layout, "_CARRIED", carried)
    monkeypatch.setattr(layout, "REPO_ROOT", carried)
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path / "empty")
    assert_clean_error(workspace.cli("validate"), 2, "no workspace here",
                       "tuninglab init DIR")
    assert workspace.cli("init", "mine-too").code == 0  # init needs none: it writes one
    monkeypatch.chdir(tmp_path / "empty" / "mine-too")
    assert layout.workspace() == (tmp_path / "empty" / "mine-too").resolve()
