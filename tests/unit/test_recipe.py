"""recipe.py: parsing, the published schema, and error messages that name file, key and
what is allowed."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import jsonschema
import pytest

from tuninglab import stats
from tuninglab.recipe import (
    AREAS,
    PRIMARY_METRICS,
    Profile,
    RecipeError,
    discover_recipes,
    find_recipe,
    load_recipe,
    profile_defaults,
    recipe_hash,
    recipe_schema,
)

REPO = Path(__file__).resolve().parents[2]
SAMPLE_TOML = "recipes/guide/pool-size/recipe.toml"


def error_of(path) -> str:
    with pytest.raises(RecipeError) as caught:
        load_recipe(path)
    return str(caught.value)


# --------------------------------------------------------------------------- valid recipes


def test_sample_recipe_parses_into_dataclasses(tree):
    recipe = load_recipe(tree.sample)

    assert recipe.id == "pool-size" and recipe.area == "guide"
    assert recipe.folder == tree.sample.resolve() and recipe.folder.is_absolute()
    assert recipe.repo_root == tree.root.resolve()
    assert recipe.source.section == "5.4" and recipe.source.table == "Table 4.1"
    assert recipe.change.kind == "jboss-cli"
    assert recipe.change.file == tree.sample.resolve() / "change.cli"
    assert recipe.baseline.cli == tree.sample.resolve() / "baseline.cli"
    assert recipe.baseline.pg_conf is None
    assert recipe.baseline.properties == {"tl.hibernate.jdbc.batch_size": "0"}
    assert recipe.workload.users == 32 and recipe.workload.think_time_ms == 0
    assert recipe.workload.rate is None and recipe.workload.max_users is None
    assert recipe.metrics.runtime == ("datasource-pool",)
    assert recipe.tolerance.error_rate == 0.01 and recipe.tolerance.loadgen_cpu == 0.9
    # the recipe states blocks and window_s; the rest are the defaults of profiles.toml
    full = profile_defaults()["full"]
    assert recipe.profile("full") == Profile(name="full", **{**full, "blocks": 6, "window_s": 30})
    assert recipe.profile("quick").window_s == 2 and recipe.profile("quick").blocks == 1
    assert recipe.sweep is None and recipe.load_levels is None


def test_stack_defaults_come_from_the_schema(tree):
    stack = load_recipe(tree.sample).stack
    defaults = recipe_schema()["properties"]["stack"]["properties"]

    assert stack.app_memory == "768m"  # set in the sample
    assert stack.db_memory == defaults["db_memory"]["default"] == "2g"
    assert stack.jvm_options == "-Xms1g -Xmx1g -XX:+UseParallelGC -XX:CICompilerCount=3"
    assert stack.app_cpus == 0.5
    assert stack.server_config == "standalone.xml"


def test_folder_and_toml_path_load_the_same_recipe(tree):
    assert load_recipe(tree.sample) == load_recipe(tree.sample_toml)
    assert load_recipe(str(tree.sample)) == load_recipe(tree.sample)


def test_open_model_gets_its_own_defaults_and_no_closed_ones(tree):
    folder = tree.edit('model = "closed"\nusers = 32', 'model = "open"\nrate = 150')
    workload = load_recipe(folder).workload

    assert (workload.rate, workload.max_users) == (150.0, 200)
    assert workload.users is None and workload.think_time_ms is None


def test_each_change_kind_with_its_own_keys_loads(tree):
    (tree.sample / "pool.conf").write_text("shared_buffers = 256MB\n")
    cases = {
        'kind = "postgresql-conf"\nfile = "pool.conf"':
            ("file", tree.sample.resolve() / "pool.conf"),
        'kind = "jvm-options"\njvm_options = "-Xms1g -Xmx1g -XX:+UseG1GC"':
            ("jvm_options", "-Xms1g -Xmx1g -XX:+UseG1GC"),
        'kind = "app-properties"\nproperties = { "tl.hibernate.jdbc.batch_size" = "50" }':
            ("properties", {"tl.hibernate.jdbc.batch_size": "50"}),
    }
    current = 'kind = "jboss-cli"\nfile = "change.cli"'
    for replacement, (field_name, value) in cases.items():
        tree.edit(current, replacement)
        current = replacement
        assert getattr(load_recipe(tree.sample).change, field_name) == value


def test_container_limits_change(tree):
    tree.edit('kind = "jboss-cli"\nfile = "change.cli"',
              'kind = "container-limits"\nlimits = { app_cpus = 1, app_memory = "1g" }')
    limits = load_recipe(tree.sample).change.limits

    assert limits.app_cpus == 1.0 and isinstance(limits.app_cpus, float)
    assert limits.app_memory == "1g" and limits.app_cpuset is None


def test_workload_change_is_the_clients_and_must_differ_from_the_baseline(tree):
    tree.edit('kind = "jboss-cli"\nfile = "change.cli"',
              'kind = "workload"\nworkload = { requests_per_connection = 0 }')
    tree.edit('users = 32', 'users = 32\nrequests_per_connection = 100')
    recipe = load_recipe(tree.sample)
    assert recipe.change.workload == {"requests_per_connection": 0}
    assert recipe.workload.requests_per_connection == 100

    tree.edit('requests_per_connection = 100', 'requests_per_connection = 0')
    message = error_of(tree.sample)
    assert "change.workload.requests_per_connection" in message
    assert "baseline's value" in message


def test_a_pause_before_each_window_is_a_workload_key_with_bounds(tree):
    assert load_recipe(tree.sample).workload.idle_before_s == 0  # settle under load by default
    tree.edit('users = 32', 'users = 32\nidle_before_s = 5')
    assert load_recipe(tree.sample).workload.idle_before_s == 5
    tree.edit('idle_before_s = 5', 'idle_before_s = -1')
    message = error_of(tree.sample)
    assert "workload.idle_before_s" in message and "0" in message


def test_the_repository_aa_noise_recipe():
    recipe = load_recipe(REPO / "recipes" / "method" / "aa-noise")

    assert recipe.change.kind == "none" and recipe.change.is_none
    assert (recipe.source.document, recipe.source.section) == ("guide", "1 and 11.2")
    assert recipe.source.expected == "no-change"
    assert (recipe.workload.mix, recipe.workload.model) == ("default", "closed")
    assert (recipe.workload.users, recipe.workload.think_time_ms) == (8, 0)
    assert recipe.metrics.primary == "throughput"
    assert recipe.metrics.runtime == ("datasource-pool",)
    defaults = profile_defaults()
    # CI swaps the crossover's arms once; the published profile is the default
    assert recipe.profile("quick") == Profile("quick", **{**defaults["quick"], "blocks": 2})
    assert recipe.profile("full") == Profile("full", **defaults["full"])


def test_every_recipe_in_the_repository_is_valid():
    recipes = discover_recipes(REPO)
    assert "aa-noise" in [recipe.id for recipe in recipes]


# --------------------------------------------------------------------------- error messages


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('kind = "jboss-cli"', 'kind = "jboss"',
         "change.kind: 'jboss'; allowed: jboss-cli, jvm-options, postgresql-conf, "
         "app-properties, container-limits, workload, client-jvm-options, ladder, "
         "balancer-policy, active-nodes, deployment, database-split, jdk, node-image, jvm-agent, "
         "network-delay, network-rate, front-protocol, none"),
        ("users = 32", "userz = 32",
         "workload.userz: unknown key; allowed keys: mix, model, users, think_time_ms, rate, "
         "max_users, requests_per_connection, deployment, idle_before_s, app, lines, note_chars, "
         "bulk_rows"),
        ('file = "change.cli"', 'file = "missing.cli"',
         "change.file: 'missing.cli' not found in recipes/guide/pool-size/ "
         "(files there: baseline.cli, change.cli, recipe.toml)"),
        ('file = "change.cli"', 'file = "../../../workloads/mixes.json"',
         "change.file: '../../../workloads/mixes.json' is outside recipes/guide/pool-size/; "
         "allowed: a file in the recipe folder"),
        ('cli = "baseline.cli"', 'cli = "base.cli"',
         "baseline.cli: 'base.cli' not found in recipes/guide/pool-size/"),
        ('cli = "baseline.cli"', 'cli = "baseline.cli"\nmodules = ["no-such-module"]',
         "baseline.modules: 'no-such-module' is not a folder of server-modules/ with a "
         "module.xml; allowed: (none)"),
        ('title = "A', 'titel = "A',
         "titel: unknown key; allowed keys: id, title, summary, source, stack, cluster, "
         "baseline, change, sweep, workload, load_levels, metrics, tolerance, profiles"),
        ('title = "A data-source pool far below the concurrency"\n', "",
         "title: missing; required keys at the top level: id, title, summary, source, "
         "change, workload"),
        ("users = 32", "users = 5000",
         "workload.users: 5000; allowed: an integer >= 1 and <= 2000"),
        ("users = 32", 'users = "32"',
         "workload.users: '32'; allowed: an integer >= 1 and <= 2000"),
        ('id = "pool-size"', 'id = "Pool_Size"',
         "id: 'Pool_Size'; allowed: a string matching ^[a-z0-9]+(-[a-z0-9]+)*$"),
        ('id = "pool-size"', 'id = "pool-sizes"',
         "id: 'pool-sizes' differs from the folder name; allowed: 'pool-size'"),
        ('model = "closed"\nusers = 32', 'model = "open"',
         "workload.rate: missing; required for model 'open'"),
        ("users = 32", "users = 32\nrate = 100",
         "workload.rate: not used by model 'closed'; its own keys: users, think_time_ms"),
        ('file = "change.cli"', 'file = "change.cli"\njvm_options = "-Xmx2g"',
         "change.jvm_options: not used by kind 'jboss-cli'; its own keys: file"),
        ('kind = "jboss-cli"\nfile = "change.cli"', 'kind = "jvm-options"',
         "change.jvm_options: missing; required for kind 'jvm-options'"),
        ('kind = "jboss-cli"\nfile = "change.cli"',
         'kind = "jvm-options"\njvm_options = "-Xms1g  -Xmx1g -XX:+UseParallelGC -XX:CICompilerCount=3"',
         "change.jvm_options: equals stack.jvm_options, so the variant is the baseline"),
        ('kind = "jboss-cli"\nfile = "change.cli"',
         'kind = "app-properties"\nproperties = { "tl.hibernate.jdbc.batch_size" = "0" }',
         "change.properties: every property equals baseline.properties"),
        ('kind = "jboss-cli"\nfile = "change.cli"', 'kind = "container-limits"\nlimits = {}',
         "change.limits: empty; allowed: at least one of: app_cpus, app_memory, app_cpuset"),
        ('kind = "jboss-cli"\nfile = "change.cli"', 'kind = "none"',
         "source.expected: 'better' with change.kind none (an A/A run, the variant equals "
         "the baseline); allowed: no-change"),
        ('section = "5.4"\n', "",
         "source.section: missing; required unless source.document is none "
         "(document is 'guide')"),
        ('mix = "default"', 'mix = "defualt"',
         "workload.mix: 'defualt'; allowed: default, bulk (the keys of workloads/mixes.json)"),
        ('runtime = ["datasource-pool"]', 'runtime = ["datasource-pool", "threads"]',
         "metrics.runtime[1]: 'threads'; allowed: datasource-pool, statement-cache, io-worker, "
         "ejb3-thread-pool, jvm-memory, task-threads, database"),
        ('runtime = ["datasource-pool"]', 'runtime = ["jvm-memory", "jvm-memory"]',
         "metrics.runtime: ['jvm-memory', 'jvm-memory'] repeats an item"),
        ('primary = "throughput"', 'primary = "latency_p99"',
         "metrics.primary: 'latency_p99'; allowed: throughput, cpu_per_tx, error_rate"),
        ('primary = "throughput"\nruntime = ["datasource-pool"]',
         'primary = "error_rate"\n\n[sweep]\nname = "x"\nvalues = [1, 2]',
         "metrics.primary: error_rate with a curve of the change (a [sweep] or a ladder); "
         "allowed for a curve: throughput, cpu_per_tx"),
        ('"tl.hibernate.jdbc.batch_size" = "0"', '"hibernate.jdbc.batch_size" = "0"',
         'baseline.properties."hibernate.jdbc.batch_size": not a system property name; '
         "allowed: names matching ^tl\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_.-]+$"),
        ('"tl.hibernate.jdbc.batch_size" = "0"', '"tl.hibernate.jdbc.batch_size" = 0',
         'baseline.properties."tl.hibernate.jdbc.batch_size": 0; allowed: a string'),
        ('app_memory = "768m"', 'app_memory = "768"',
         "stack.app_memory: '768'; allowed: a string matching ^[1-9][0-9]*[kmg]$"),
        ("error_rate = 0.01", "error_rate = 1.5",
         "tolerance.error_rate: 1.5; allowed: a number >= 0 and <= 1"),
        ("blocks = 6", "blocks = 0", "profiles.full.blocks: 0; allowed: an integer >= 1 and <= 200"),
        ("blocks = 6", "pairs = 5",
         "profiles.full.pairs: unknown key; allowed keys: blocks, window_s, settle_s, "),
        ("[profiles.full]", "[profiles.slow]",
         "profiles.slow: unknown key; allowed keys: quick, full"),
        ('expected = "better"', 'expected = "faster"',
         "source.expected: 'faster'; allowed: better, worse, no-change, none"),
        ("users = 32", "users = 32\n\n[load_levels]\nrate = [10, 20]",
         "load_levels.rate: levels of rate need workload.model 'open', the workload is 'closed'"),
        ("users = 32", "users = 32\n\n[load_levels]\nusers = [4]",
         "load_levels.users: [4]; allowed: a list of at least 2 items"),
        ('file = "change.cli"', 'file = "change.cli"\n\n[sweep]\nname = "pool"\nvalues = [4, 8]',
         "change: no {value} anywhere in the change (its keys or its file); allowed: {value} "
         "where each arm's value goes"),
        ('kind = "jboss-cli"\nfile = "change.cli"', 'kind = "jvm-options"\njvm_options = "-Xmx{value}m"',
         "change: contains {value} but the recipe has no [sweep]"),
    ],
)
def test_error_names_file_key_and_what_is_allowed(tree, old, new, expected):
    message = error_of(tree.edit(old, new))

    assert f"{SAMPLE_TOML}: {expected}" in message


def test_toml_syntax_error_names_file_and_line(tree):
    message = error_of(tree.edit('users = 32', 'users 32'))

    line = tree.sample_toml.read_text().splitlines().index("users 32") + 1
    assert message.startswith(f"{SAMPLE_TOML}: line {line}, column ")
    assert "invalid TOML" in message


def test_all_problems_are_reported_at_once(tree):
    tree.edit("users = 32", "userz = 32")
    message = error_of(tree.edit('kind = "jboss-cli"', 'kind = "jboss"'))

    lines = message.splitlines()
    assert len(lines) == 2
    assert all(line.startswith(f"{SAMPLE_TOML}: ") for line in lines)


def test_recipe_outside_an_area_folder(tree):
    folder = tree.copy_sample("misc", "other")

    message = error_of(folder)
    assert "recipes/misc/other/recipe.toml: (location): folder recipes/misc/other/ is not " \
           "recipes/<area>/<id>/; allowed areas: method, guide, thesis, articles" in message


def test_kind_none_is_allowed_with_expected_no_change(tree):
    tree.edit('kind = "jboss-cli"\nfile = "change.cli"', 'kind = "none"')
    recipe = load_recipe(tree.edit('expected = "better"', 'expected = "no-change"'))

    assert recipe.change.is_none and recipe.change.file is None


def test_an_unreadable_mixes_file_is_reported_on_the_mix_key(tree):
    (tree.root / "workloads" / "mixes.json").write_text("{ not json")

    assert f"{SAMPLE_TOML}: workload.mix: cannot check 'default': workloads/mixes.json " \
           "unreadable" in error_of(tree.sample)


def test_a_workspace_without_a_mixes_file_uses_the_library_s(tree):
    """A user's workspace holds recipes and apps; the mixes of the images' app come with the
    images (this checkout) unless the workspace names mixes of its own."""
    (tree.root / "workloads" / "mixes.json").unlink()
    text = tree.sample_toml.read_text()
    tree.sample_toml.write_text(text.replace('mix = "default"', 'mix = "read-mostly"'))
    assert load_recipe(tree.sample).workload.mix == "read-mostly"


def test_not_a_recipe_path(tree):
    assert "not found" in error_of(tree.root / "recipes" / "guide" / "nothing-here")
    assert "not a recipe" in error_of(tree.sample / "change.cli")


def test_unknown_profile_lists_the_allowed_names(tree):
    with pytest.raises(RecipeError, match=rf"^{SAMPLE_TOML}: profiles.slow: unknown profile; "
                                          r"allowed: quick, full$"):
        load_recipe(tree.sample).profile("slow")


# --------------------------------------------------------------------------- discovery


def test_discover_sorts_by_id_from_repo_root_or_recipes_folder(tree):
    tree.copy_sample("thesis", "a-first")
    tree.copy_sample("method", "z-last")

    ids = [recipe.id for recipe in discover_recipes(tree.root)]
    assert ids == ["a-first", "pool-size", "z-last"]
    assert [r.id for r in discover_recipes(tree.root / "recipes")] == ids


def test_discover_rejects_duplicate_ids(tree):
    tree.copy_sample("thesis", "pool-size")

    with pytest.raises(RecipeError, match="duplicate recipe id 'pool-size'") as caught:
        discover_recipes(tree.root)
    assert "recipes/guide/pool-size/recipe.toml" in str(caught.value)
    assert "recipes/thesis/pool-size/recipe.toml" in str(caught.value)


def test_discover_reports_every_broken_recipe_and_empty_folders(tree):
    broken = tree.copy_sample("thesis", "broken")
    (broken / "recipe.toml").write_text((broken / "recipe.toml").read_text()
                                        .replace("users = 32", "users = 0"))
    (tree.root / "recipes" / "guide" / "no-toml").mkdir()

    with pytest.raises(RecipeError) as caught:
        discover_recipes(tree.root)
    message = str(caught.value)
    assert "recipes/thesis/broken/recipe.toml: workload.users: 0" in message
    assert "recipes/guide/no-toml/recipe.toml: not found" in message


def test_find_recipe_parses_only_the_one_asked_for(tree):
    broken = tree.copy_sample("thesis", "broken")
    (broken / "recipe.toml").write_text("not toml at all")

    assert find_recipe(tree.root, "pool-size").id == "pool-size"


def test_find_recipe_unknown_id_lists_known_ids(tree):
    tree.copy_sample("method", "aa-noise")

    with pytest.raises(RecipeError, match=r"recipe 'pool' not found; known ids: aa-noise, "
                                          r"pool-size$"):
        find_recipe(tree.root, "pool")


# --------------------------------------------------------------------------- hash


def test_recipe_hash_is_stable_and_independent_of_location(tree):
    first = recipe_hash(load_recipe(tree.sample))
    copy = tree.copy_sample("thesis", "pool-size-copy")
    toml = copy / "recipe.toml"
    toml.write_text(toml.read_text().replace('id = "pool-size-copy"', 'id = "pool-size"'))
    (copy / ".recipe.toml.swp").write_text("editor junk")  # hidden files do not count

    assert recipe_hash(load_recipe(tree.sample)) == first
    assert len(first) == 64 and int(first, 16) >= 0
    # Same bytes in another folder: same hash (the id check fails there, so hash directly).
    assert recipe_hash(_FolderOnly(copy)) == first


def test_recipe_hash_changes_with_any_file_content_or_name(tree):
    recipe = load_recipe(tree.sample)
    before = recipe_hash(recipe)

    (tree.sample / "change.cli").write_text("/subsystem=datasources:read-resource\n")
    after_edit = recipe_hash(recipe)
    (tree.sample / "change.cli").rename(tree.sample / "change2.cli")
    after_rename = recipe_hash(recipe)

    assert len({before, after_edit, after_rename}) == 3


class _FolderOnly:
    """What recipe_hash reads from a Recipe: its folder (and a ladder's rungs: none)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.change = SimpleNamespace(rungs=())


# --------------------------------------------------------------------------- the schema


def test_schema_is_valid_draft_2020_12():
    schema = recipe_schema()

    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def _objects(schema: dict, where: str = "(root)"):
    """Every object schema with fixed keys, and the path to it."""
    if schema.get("type") == "object":
        yield where, schema
    for name, child in schema.get("properties", {}).items():
        yield from _objects(child, f"{where}.{name}")
    for name, child in schema.get("$defs", {}).items():
        yield from _objects(child, f"$defs.{name}")


def test_every_schema_property_has_a_description_and_objects_are_closed():
    for where, schema in _objects(recipe_schema()):
        assert schema.get("additionalProperties") is not None, where
        if "properties" in schema:
            assert schema["additionalProperties"] is False, where
        for name, child in schema.get("properties", {}).items():
            assert child.get("description"), f"{where}.{name} has no description"


def test_schema_enums_match_the_library():
    properties = recipe_schema()["properties"]

    assert tuple(properties["metrics"]["properties"]["primary"]["enum"]) == PRIMARY_METRICS
    assert set(properties["metrics"]["properties"]["primary"]["enum"]) <= set(stats.METRIC_RULES)
    kinds = properties["change"]["properties"]["kind"]["enum"]
    assert kinds == ["jboss-cli", "jvm-options", "postgresql-conf", "app-properties",
                     "container-limits", "workload", "client-jvm-options", "ladder",
                     "balancer-policy", "active-nodes", "deployment", "database-split", "jdk",
                     "node-image", "jvm-agent", "network-delay", "network-rate", "front-protocol",
                     "none"]
    from tuninglab.changes import KINDS
    assert set(kinds) == set(KINDS)
    assert list(AREAS) == ["method", "guide", "thesis", "articles", "own"]  # own: a workspace's


def test_schema_file_is_plain_json_shipped_next_to_the_module():
    from tuninglab import recipe as module

    path = Path(module.__file__).with_name("recipe.schema.json")
    assert json.loads(path.read_text()) == recipe_schema()
