"""Broken recipe.toml files: `validate` and `run` both stop with exit 2, naming the file and the
key, before any container (the run never reaches the engine: DOCKER_HOST points nowhere)."""
from __future__ import annotations

import pytest

from advkit import assert_clean_error

# (case, old text in the sample recipe.toml, new text, what the message must name)
RECIPE_CASES = [
    ("invalid TOML", 'users = 32', 'users = = 32', ["recipe.toml", "invalid TOML"]),
    ("unknown top-level key", '[workload]', 'colour = "red"\n\n[workload]', ["colour"]),
    ("wrong type", 'users = 32', 'users = "many"', ["workload.users"]),
    ("unknown change kind", 'kind = "jboss-cli"', 'kind = "magic"', ["change.kind", "jboss-cli"]),
    ("change file missing", 'file = "change.cli"', 'file = "nope.cli"', ["nope.cli"]),
    ("kind without its key", 'file = "change.cli"\n', '', ["change"]),
    ("id not the folder's", 'id = "pool-size"', 'id = "pool-sizes"', ["pool-sizes"]),
    ("unknown mix", 'mix = "default"', 'mix = "nonsense"', ["nonsense"]),
    ("expected not allowed", 'expected = "better"', 'expected = "faster"', ["expected"]),
    ("unknown profile key", 'window_s = 2', 'window_secs = 2', ["window_secs"]),
    ("unknown jit", 'window_s = 2', 'window_s = 2\njit = "c2"', ["jit", "tiered", "c1"]),
    ("a profile's cluster without a [cluster]", 'window_s = 2', 'window_s = 2\ncluster_nodes = 2',
     ["profiles.quick.cluster_nodes", "no [cluster] table"]),
    ("a profile's cluster larger than the recipe's", '[profiles.quick]\nwindow_s = 2',
     '[cluster]\nnodes = 3\ncpus = 0.33\n\n[profiles.quick]\ncluster_nodes = 4',
     ["profiles.quick.cluster_nodes", "4", "2 to 3 (cluster.nodes)"]),
    ("a profile's cluster of one node", '[profiles.quick]\nwindow_s = 2',
     '[cluster]\nnodes = 3\ncpus = 0.33\n\n[profiles.quick]\ncluster_nodes = 1',
     ["profiles.quick.cluster_nodes", "2 to 3 (cluster.nodes)"]),
    ("a profile's quota without a [cluster]", 'window_s = 2', 'window_s = 2\ncluster_cpus = 0.5',
     ["profiles.quick.cluster_cpus", "no [cluster] table"]),
    ("a profile's quota beyond the nodes' cpuset", '[profiles.quick]\nwindow_s = 2',
     '[cluster]\nnodes = 3\ncpus = 0.33\n\n[profiles.quick]\ncluster_nodes = 2\ncluster_cpus = 0.6',
     ["profiles.quick.cluster_cpus", "2 node(s) with 0.6 CPU need 1.2 CPUs",
      "cpuset 1", "allowed: quotas that add up to at most 1"]),
    ("negative users", 'users = 32', 'users = -3', ["workload.users"]),
    ("a disk write limit of 0", 'kind = "jboss-cli"\nfile = "change.cli"',
     'kind = "container-limits"\n\n[change.limits]\napp_disk_write_iops = 0',
     ["change.limits.app_disk_write_iops"]),
    ("a disk write limit swept to a fraction",
     'kind = "jboss-cli"\nfile = "change.cli"',
     'kind = "container-limits"\n\n[change.limits]\napp_disk_write_iops = "{value}"\n\n'
     '[sweep]\nname = "limit"\nunit = "writes/s"\nvalues = [50, 12.5]\nreference = 50',
     ["app_disk_write_iops", "'12.5'", "a whole number of write operations a second"]),
    ("app cpuset beyond the CPUs", 'app_cpuset = "1"', 'app_cpuset = "63"',
     ["stack.app_cpuset", "'63'", "allowed: CPUs from 0"]),
    ("db cpuset beyond the CPUs", 'app_cpuset = "1"', 'app_cpuset = "1"\ndb_cpuset = "0-63"',
     ["stack.db_cpuset", "0-63"]),
    ("loadgen cpuset beyond", 'app_cpuset = "1"', 'app_cpuset = "1"\nloadgen_cpuset = "40"',
     ["stack.loadgen_cpuset"]),
    ("memory cap below the heap", 'app_memory = "2g"', 'app_memory = "512m"',
     ["stack.app_memory", "512m", "1024 MB", "at least 1216m"]),
    ("quota above the CPUs", 'app_memory = "2g"', 'app_memory = "2g"\napp_cpus = 64',
     ["stack.app_cpus", "64"]),
    ("unbalanced quote in JVM options", 'app_memory = "2g"',
     'app_memory = "2g"\njvm_options = "-Xmx1g -Dname=\'open"',
     ["stack.jvm_options", "quotation", "balanced quotes"]),
]


@pytest.mark.parametrize("case, old, new, needles", RECIPE_CASES,
                         ids=[c[0] for c in RECIPE_CASES])
@pytest.mark.parametrize("command", ["validate", "run"])
def test_a_broken_recipe_fails_before_any_container(repo, case, old, new, needles, command):
    repo.edit(old, new)
    outcome = repo.cli(command, "pool-size")
    assert_clean_error(outcome, 2, *needles)
    if command == "run":
        assert "no Docker engine" not in outcome.text  # stopped before asking the engine


def test_the_sample_recipe_passes_offline(repo):
    """The control: the sample recipe validates."""
    outcome = repo.cli("validate", "pool-size")
    assert outcome.code == 0, outcome.text
    assert "ok    pool-size" in outcome.out
    assert "checks against the images" in outcome.err  # it says what it could not check


def test_a_comment_with_a_placeholder_is_not_a_sweep(repo):
    repo.edit('file = "change.cli"', 'file = "change.cli"\n# {value}')
    assert repo.cli("validate", "pool-size").code == 0


def test_recipe_toml_that_is_a_folder(repo):
    toml = repo.sample / "recipe.toml"
    toml.unlink()
    toml.mkdir()
    assert_clean_error(repo.cli("validate", "pool-size"), 2, "recipe.toml", "is a folder")


def test_recipe_toml_that_is_not_utf8(repo):
    (repo.sample / "recipe.toml").write_bytes(b'id = "pool-size"\ntitle = "\xff\xfe"\n')
    assert_clean_error(repo.cli("validate", "pool-size"), 2, "recipe.toml", "UTF-8")


def test_an_unknown_recipe_lists_the_known_ones(repo):
    assert_clean_error(repo.cli("validate", "no-such"), 2, "no-such", "pool-size")


def test_one_broken_recipe_does_not_hide_the_others_in_list(repo):
    broken = repo.copy_sample("broken-one")
    (broken / "recipe.toml").write_text("id = [", encoding="utf-8")
    outcome = repo.cli("list")
    assert outcome.code == 0, outcome.text
    assert "pool-size" in outcome.out and "BROKEN" in outcome.out and "broken-one" in outcome.out
    assert "1 broken recipe" in outcome.err


def test_validate_of_everything_reports_each_broken_recipe_and_fails(repo):
    broken = repo.copy_sample("broken-one")
    (broken / "recipe.toml").write_text("id = [", encoding="utf-8")
    outcome = repo.cli("validate")
    assert_clean_error(outcome, 2, "FAIL  broken-one", "ok    pool-size", "1 of 2 recipe(s)")


def test_a_symlink_loop_in_the_recipes(repo):
    loop = repo.root / "recipes" / "guide" / "loop"
    loop.mkdir()
    (loop / "recipe.toml").symlink_to(loop / "recipe.toml")
    outcome = repo.cli("list")
    assert outcome.code == 0 and "Traceback" not in outcome.text
    assert "loop" in outcome.out and "BROKEN" in outcome.out
    assert_clean_error(repo.cli("validate", "loop"), 2, "loop")
