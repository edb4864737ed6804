"""staleness.py: a publishing run re-measures what changed since the published result, and
nothing else."""
from __future__ import annotations

import io
import shutil
import subprocess
import tarfile
from datetime import timedelta

import pytest
from test_store import START, make_result

from tuninglab import layout, staleness
from tuninglab.recipe import find_recipe, load_recipe, measured_hash, recipe_hash
from tuninglab.store import write_result

INPUTS = "f" * 64


def _recipe_copy(tmp_path):
    folder = tmp_path / "recipes" / "method" / "aa-noise"
    shutil.copytree(find_recipe(layout.recipes_dir(), "aa-noise").folder, folder)
    shutil.copytree(layout.workloads_dir(), tmp_path / "workloads")
    return load_recipe(folder)


def _published(recipe, results, minutes=0, **prov):
    provenance = {"started": (START + timedelta(minutes=minutes)).isoformat(), "host": "lab",
                  "git_dirty": False, "recipe_hash": recipe_hash(recipe),
                  "stack_inputs": INPUTS, "versions": {"tuninglab": "9.9"}, **prov}
    # What a run stores of the recipe's claim: the old hash rules are checked against it.
    write_result(make_result(recipe=recipe.id, provenance=provenance,
                             expected=recipe.source.expected,
                             source={"effect": recipe.source.effect}), results)


def _old_reading(recipe):
    """The reading keys as the rules before 27 November 2026 23:00 hashed them."""
    return {("source", "expected"): recipe.source.expected,
            ("source", "effect"): recipe.source.effect}


def _why(recipe, results):
    return staleness.why_stale(recipe, results, stack_inputs=INPUTS, version="9.9")


def test_an_unchanged_recipe_is_up_to_date(tmp_path):
    recipe = _recipe_copy(tmp_path)
    _published(recipe, tmp_path / "results")
    assert _why(recipe, tmp_path / "results") is None


def test_each_input_makes_it_stale(tmp_path):
    recipe = _recipe_copy(tmp_path)
    results = tmp_path / "results"
    assert _why(recipe, results) == "no published result"
    _published(recipe, results, stack_inputs="0" * 64)
    assert "stack's inputs changed" in _why(recipe, results)
    _published(recipe, results, minutes=1, versions={"tuninglab": "9.8"})
    assert _why(recipe, results) == "the library changed (9.8 -> 9.9)"
    _published(recipe, results, minutes=2)
    assert _why(recipe, results) is None
    (recipe.folder / "recipe.toml").write_text(
        (recipe.folder / "recipe.toml").read_text() + "\n# edited\n")
    assert _why(recipe, results) == "the recipe changed"


def test_corrected_prose_leaves_a_result_current_but_a_measured_key_does_not(tmp_path):
    recipe = _recipe_copy(tmp_path)
    results = tmp_path / "results"
    _published(recipe, results, measured_hash=measured_hash(recipe))
    toml = recipe.folder / "recipe.toml"
    text = toml.read_text()
    toml.write_text(text.replace('title = "', 'title = "Reworded: ', 1)
                    .replace("claim = ", "# a comment\nclaim = ", 1))
    assert _why(load_recipe(recipe.folder), results) is None
    toml.write_text(text.replace("[workload]", "[workload]\nthink_time_ms = 1", 1))
    assert _why(load_recipe(recipe.folder), results) == "the recipe changed"


def test_a_ci_profile_edit_leaves_a_result_current_but_a_published_profile_edit_does_not(
        tmp_path):
    recipe = _recipe_copy(tmp_path)
    results = tmp_path / "results"
    _published(recipe, results, measured_hash=measured_hash(recipe))
    toml = recipe.folder / "recipe.toml"
    text = toml.read_text()
    assert "[profiles.quick]" in text  # aa-noise asks CI for two blocks
    toml.write_text(text.replace("[profiles.quick]", "[profiles.quick]\nwindow_s = 5", 1))
    assert _why(load_recipe(recipe.folder), results) is None
    toml.write_text(text + "\n[profiles.full]\nblocks = 30\n"
                    if "[profiles.full]" not in text
                    else text.replace("[profiles.full]", "[profiles.full]\nsettle_s = 4", 1))
    assert _why(load_recipe(recipe.folder), results) == "the recipe changed"


def test_a_result_hashed_with_every_profile_stays_current_until_the_recipe_changes(tmp_path):
    recipe = _recipe_copy(tmp_path)
    results = tmp_path / "results"
    # The rule of results from 25 November 21:00 to 27 November 2026: every profile's table.
    old = measured_hash(recipe, every_profile=True, reading=_old_reading(recipe))
    _published(recipe, results, measured_hash=old)
    assert old != measured_hash(recipe)
    assert _why(recipe, results) is None
    toml = recipe.folder / "recipe.toml"
    toml.write_text(toml.read_text().replace("[profiles.quick]", "[profiles.quick]\nwindow_s = 5",
                                             1))
    assert _why(load_recipe(recipe.folder), results) == "the recipe changed"


def test_a_corrected_claim_leaves_a_result_current_under_the_old_rule_and_the_new(tmp_path):
    """How a result is read (the claim, the margin) is not what was measured: correcting it
    stales nothing, also for results hashed before the reading keys were left out, whose
    stored claim restores what they hashed."""
    recipe = _recipe_copy(tmp_path)
    toml = recipe.folder / "recipe.toml"
    text = toml.read_text()
    assert 'expected = "no-change"' in text and "[metrics]" in text
    for rule in ("new", "old"):
        results = tmp_path / f"results-{rule}"
        toml.write_text(text)
        recipe = load_recipe(recipe.folder)
        hashed = (measured_hash(recipe) if rule == "new"
                  else measured_hash(recipe, reading=_old_reading(recipe)))
        _published(recipe, results, measured_hash=hashed)
        toml.write_text(text.replace('expected = "no-change"', 'expected = "no-change"\n'
                                     'effect = 0.01', 1)
                        .replace("[metrics]", "[metrics]\nmargin = 0.02", 1))
        assert _why(load_recipe(recipe.folder), results) is None, rule
        toml.write_text(text.replace("[workload]", "[workload]\nthink_time_ms = 1", 1))
        assert _why(load_recipe(recipe.folder), results) == "the recipe changed", rule


def test_an_older_result_without_the_measured_hash_goes_stale_on_any_edit(tmp_path):
    recipe = _recipe_copy(tmp_path)
    results = tmp_path / "results"
    _published(recipe, results)  # recipe_hash only, as results before 2026-11-25 21:00
    toml = recipe.folder / "recipe.toml"
    toml.write_text(toml.read_text().replace('title = "', 'title = "Reworded: ', 1))
    assert _why(load_recipe(recipe.folder), results) == "the recipe changed"


def test_dirty_and_quick_results_do_not_count(tmp_path):
    recipe = _recipe_copy(tmp_path)
    results = tmp_path / "results"
    _published(recipe, results, git_dirty=True)
    write_result(make_result(recipe=recipe.id, profile="quick", provenance={
        "started": (START + timedelta(minutes=5)).isoformat(), "host": "lab",
        "git_dirty": False}), results)
    assert _why(recipe, results) == "no published result"


def test_the_stack_inputs_hash_follows_the_files(tmp_path):
    (tmp_path / "workloads").mkdir()
    (tmp_path / "workloads" / "mix.js").write_text("a")
    first = staleness.stack_inputs_hash(tmp_path)
    (tmp_path / "workloads" / "mix.js").write_text("b")
    assert staleness.stack_inputs_hash(tmp_path) != first
    (tmp_path / "workloads" / ".mix.js.swp").write_text("editor")
    (tmp_path / "workloads" / "mix.js").write_text("a")
    assert staleness.stack_inputs_hash(tmp_path) == first


def test_the_balancer_image_is_not_an_input_of_a_stack_without_one(tmp_path):
    for folder in ("images/wildfly", "images/balancer"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "Dockerfile").write_text("FROM base\n")
    before = staleness.stack_inputs_hash(tmp_path)
    (tmp_path / "images/balancer/Dockerfile").write_text("FROM base\nRUN true\n")
    assert staleness.stack_inputs_hash(tmp_path) == before
    (tmp_path / "images/wildfly/Dockerfile").write_text("FROM base\nRUN true\n")
    assert staleness.stack_inputs_hash(tmp_path) != before


def _module_recipe_copy(tmp_path):
    """logging-guarded-debug (a server module) with the module's sources, in a tree of its own."""
    folder = tmp_path / "recipes" / "guide" / "logging-guarded-debug"
    shutil.copytree(find_recipe(layout.recipes_dir(), "logging-guarded-debug").folder, folder)
    shutil.copytree(layout.workloads_dir(), tmp_path / "workloads")
    module = layout.REPO_ROOT / "server-modules" / "debug-statements"
    shutil.copytree(module, tmp_path / "server-modules" / "debug-statements",
                    ignore=shutil.ignore_patterns("target"))
    return load_recipe(folder)


def test_a_role_input_stales_only_the_recipes_that_use_it(tmp_path):
    recipe = _module_recipe_copy(tmp_path)
    plain = load_recipe(shutil.copytree(find_recipe(layout.recipes_dir(), "aa-noise").folder,
                                        tmp_path / "recipes" / "method" / "aa-noise"))
    results = tmp_path / "results"
    roles = staleness.role_inputs(recipe)
    # the app its nodes deploy is a role of every recipe (no image carries one)
    assert list(roles) == ["app orderentry", "server-module debug-statements"]
    assert list(staleness.role_inputs(plain)) == ["app orderentry"]
    _published(recipe, results, role_inputs=roles)
    _published(plain, results, role_inputs=staleness.role_inputs(plain))
    assert _why(recipe, results) is None
    source = next((tmp_path / "server-modules").rglob("*.java"))
    source.write_text(source.read_text() + "\n// edited\n")
    assert _why(recipe, results) == ("the inputs of its roles changed "
                                     "(server-module debug-statements)")
    assert _why(plain, results) is None


def test_a_cluster_recipe_hashes_its_balancer_image():
    recipe = find_recipe(layout.recipes_dir(), "cluster-balancing-policy")
    assert list(staleness.role_inputs(recipe)) == ["app orderentry", "balancer"]


def test_a_result_from_before_role_inputs_is_judged_by_the_common_inputs(tmp_path):
    recipe = _module_recipe_copy(tmp_path)
    _published(recipe, tmp_path / "results")  # no role_inputs, as results before 2026-11-26
    assert _why(recipe, tmp_path / "results") is None


def test_a_stack_taken_over_from_a_run_that_set_system_properties_is_stale_until_cleared(
        tmp_path):
    """Until 29 November 2026 a taken-over stack's JVMs kept the system properties of the runs
    before (a reload does not clear them): a result measured so is stale when one of those runs
    set any; one whose takeover cleared them (its origin says which) is current."""
    recipe = _recipe_copy(tmp_path)
    results = tmp_path / "results"
    setter = tmp_path / "recipes" / "guide" / "logging-async-handler"
    shutil.copytree(find_recipe(layout.recipes_dir(), "logging-async-handler").folder, setter)
    assert staleness.sets_system_properties(load_recipe(setter))
    assert not staleness.sets_system_properties(recipe)
    origin = {"taken_over": True, "served_before": ["logging-async-handler/20261128T051813Z",
                                                    "aa-noise/20261128T044659Z"]}
    _published(recipe, results, stack_origin=origin)
    assert "taken over from logging-async-handler, whose system properties" in _why(
        recipe, results)
    _published(recipe, results, minutes=1,
               stack_origin={**origin, "system_properties_cleared": {"app": ["tl.x.y"]}})
    assert _why(recipe, results) is None
    _published(recipe, results, minutes=2,
               stack_origin={**origin, "served_before": ["aa-noise/20261128T044659Z"]})
    assert _why(recipe, results) is None


def test_a_succession_record_carries_a_result_across_a_move_of_the_stack_s_inputs(
        tmp_path, monkeypatch):
    """A result measured under an earlier stack hash stays current when a record says which
    later inputs that hash stands for, and goes stale when those later inputs change."""
    recipe = _recipe_copy(tmp_path)
    results = tmp_path / "results"
    now_roles = staleness.role_inputs(recipe)
    _published(recipe, results, stack_inputs="e" * 64, role_inputs={})
    assert _why(recipe, results) == "the stack's inputs changed (images or workloads)"
    record = staleness.Succession("e" * 64, INPUTS, dict(now_roles), "0" * 40, ("images",), "")
    monkeypatch.setattr(staleness, "successions", lambda: {record.before: record})
    assert _why(recipe, results) is None
    moved = {role: "d" * 64 for role in now_roles}  # the app changed after the move
    record = staleness.Succession("e" * 64, INPUTS, moved, "0" * 40, ("images",), "")
    monkeypatch.setattr(staleness, "successions", lambda: {record.before: record})
    assert _why(recipe, results).startswith("the inputs of its roles changed (app orderentry")
    # a record that says what a role was before the move carries only results that stored it
    record = staleness.Succession("e" * 64, INPUTS, dict(now_roles), "0" * 40, ("images",), "",
                                  before_roles={"app orderentry": "c" * 64})
    monkeypatch.setattr(staleness, "successions", lambda: {record.before: record})
    assert _why(recipe, results) == "the stack's inputs changed (images or workloads)"


def test_every_succession_record_is_what_its_commits_hash_to(tmp_path):
    """A record is a claim that two trees hold the same measured stack: its earlier hash must be
    the one its commit's parent gives, its later hash and roles the ones its commit gives."""
    def tree(commit: str, paths, into):
        into.mkdir()
        archive = subprocess.run(["git", "-C", str(layout.REPO_ROOT), "archive", "--format=tar",
                                  commit, "--", *paths], capture_output=True, check=True)
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(into, filter="data")
        return into

    shallow = subprocess.run(["git", "-C", str(layout.REPO_ROOT), "rev-parse",
                              "--is-shallow-repository"], capture_output=True, text=True)
    if shallow.stdout.strip() == "true":
        pytest.skip("a shallow clone holds no commit a record names")
    records = staleness.successions()
    assert records, "stack_successions.toml holds no record"
    for number, record in enumerate(records.values()):
        before = tree(f"{record.commit}^", record.before_inputs, tmp_path / f"before{number}")
        assert staleness._hash_paths(record.before_inputs, before) == record.before
        after = tree(record.commit, staleness.stack_inputs(), tmp_path / f"after{number}")
        assert staleness._hash_paths(staleness.stack_inputs(), after) == record.stack
        for commit, roles, when in ((record.commit, record.roles, "after"),
                                    (f"{record.commit}^", record.before_roles, "before")):
            for role, digest in roles.items():
                kind, name = role.split(" ", 1)
                assert kind == "app", role
                folder = tree(commit, [f"apps/{name}"], tmp_path / f"{name}{number}{when}")
                inputs = [f"apps/{name}/{entry.name}" for entry in sorted(
                    (folder / "apps" / name).iterdir())  # a Maven app's, as apps.App.inputs
                    if entry.name != "target" and not entry.name.startswith(".")]
                assert staleness._hash_paths(inputs, folder) == digest, (role, when)
