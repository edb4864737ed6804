"""apps.py: an application under test is a folder (app.toml, a web app, a k6 script), named by
a recipe's [workload] app; bad folders and bad recipe keys are refused with file, key and what
is allowed."""
from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path

import pytest

from tuninglab import apps, staleness
from tuninglab.changes import kind_for
from tuninglab.load import LoadSpec
from tuninglab.plan import compile_plan
from tuninglab.recipe import RecipeError, find_recipe, load_recipe

REPO = Path(__file__).resolve().parents[2]


def test_orderentry_is_resident_and_driven_by_the_shared_workload():
    """No image carries it (5 December 2026): a node gets its WAR like any app's, in the
    scanner's folder (it needs no server set-up), and this checkout's every node deploys it."""
    app = apps.default_app()
    assert app.name == "orderentry" and app == apps.load("orderentry")
    assert app.resident and app.artifact == "maven" and app.script == "/workloads/mix.js"
    assert list(app.node_files()) == [f"{apps.DEPLOYMENTS_DIR}/orderentry.war"]
    assert app.loadgen_files() == {}  # its script is in the load generator's image
    assert apps.resident_apps() == (app,)
    assert apps.node_apps(apps.load("sessioncart")) == ("orderentry", "sessioncart")
    assert apps.node_apps(app) == ("orderentry",)
    assert "default" in app.mixes and "NewOrder" in app.transactions
    assert LoadSpec(mix={"Ping": 1}).base_url == "http://app:8080/orderentry/api"
    # what the library reads of it instead of naming it (apps/orderentry/app.toml)
    assert app.datasource() == app.datasource("orders") == "OrderDS"
    assert (app.database, app.config_endpoint, app.models) == (
        "orderentry", "/orderentry/api/config", ("closed", "open"))
    assert app.inputs == ("apps/orderentry/API.md", "apps/orderentry/app.toml",
                          "apps/orderentry/database", "apps/orderentry/pom.xml",
                          "apps/orderentry/src")


def test_no_library_module_names_the_lab_s_own_app():
    """Everything the library knows of an app comes from its app.toml (apps.App): a module that
    names orderentry or its data source welds that app in again."""
    named = [f"{path.relative_to(REPO)}:{n}" for path in sorted((REPO / "tuninglab").rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if "orderentry" in line.lower() or "orderds" in line.lower()]
    assert named == []


def test_an_app_s_data_source_by_role_and_a_role_it_lacks():
    app = apps.default_app()
    with pytest.raises(apps.AppError, match="no data source for role 'billing'; allowed: orders"):
        app.datasource("billing")
    with pytest.raises(apps.AppError, match="allowed: none"):
        apps.load("sessioncart").datasource()


def test_a_pool_metric_needs_an_app_that_declares_its_data_source(tree):
    _drive_app(tree, "sessioncart", "cart", 'kind = "jboss-cli"\nfile = "change.cli"',
               runtime='["datasource-pool"]')
    with pytest.raises(RecipeError) as caught:
        load_recipe(tree.sample)
    assert "metrics.runtime: 'datasource-pool': app 'sessioncart' declares no data source" \
        in str(caught.value)


def test_an_app_driven_by_another_s_script_runs_in_a_workspace_without_that_app(tmp_path):
    """The library's own app comes with the library (this checkout), so a workspace of its own
    need not copy it; an app of the workspace is found in the workspace, not here. It is not
    resident there: only the workspace's own apps can be."""
    root = tmp_path / "workspace"
    shutil.copytree(REPO / "apps" / "ordermfg", root / "apps" / "ordermfg")
    (root / "workloads").mkdir(parents=True)
    shutil.copy(REPO / "workloads" / "mixes.json", root / "workloads")
    app = apps.load("ordermfg", root)
    assert app.folder == root / "apps" / "ordermfg" and app.script == "/workloads/mix.js"
    assert apps.load("orderentry", root).folder == REPO / "apps" / "orderentry"
    assert apps.resident_apps(root) == () and apps.node_apps(app, root) == ("ordermfg",)
    with pytest.raises(apps.AppError, match="no such app; allowed: orderentry, ordermfg"):
        apps.load("sessioncart", root)


def test_an_app_folder_gives_a_war_for_each_deployment_and_a_script_for_the_load_generator():
    app = apps.load("sessioncart")
    files = app.node_files()
    own, replicated, anywhere = (f"{apps.DEPLOYMENTS_DIR}/{n}" for n in (
        "sessioncart.war", "sessioncart-replicated.war", "sessioncart-anywhere.war"))
    assert list(files) == [own, replicated, anywhere]
    caches = {}
    for path in (own, replicated, anywhere):
        with zipfile.ZipFile(io.BytesIO(files[path])) as war:
            assert sorted(war.namelist()) == ["WEB-INF/distributable-web.xml", "WEB-INF/web.xml",
                                              "cart.jsp"]
            assert b"<distributable/>" in war.read("WEB-INF/web.xml")
            caches[path] = war.read("WEB-INF/distributable-web.xml")
    # each overlay differs from the first in one thing: the cache the session management is
    # made from (replicated), or its affinity (anywhere)
    assert b'cache="dist"' in caches[own] and b'cache="sso"' in caches[replicated]
    assert _settings(caches[own]) == _settings(caches[replicated])
    assert b"<primary-owner-affinity/>" in caches[own] and b"<no-affinity/>" in caches[anywhere]
    assert _settings(caches[own]).replace(b"primary-owner-affinity", b"no-affinity") == \
        _settings(caches[anywhere]) and b'cache="dist"' in caches[anywhere]
    assert [(d.session_cache, d.affinity) for d in app.deployments] == [
        ("distributed", "primary-owner"), ("replicated", "primary-owner"), ("distributed", "none")]
    # the same bytes on every node: their management models hold each deployment's hash
    assert app.war() == app.war()
    assert list(app.loadgen_files()) == ["/apps/sessioncart/workload.js"]
    spec = LoadSpec(app=app, mix=app.mixes["cart"], target="lb")
    assert spec.base_url == "http://lb:8080/sessioncart"
    assert spec.with_load({"deployment": "replicated"}).base_url == \
        "http://lb:8080/sessioncart-replicated"
    assert set(app.transactions) == {"AddItem", "ViewCart"}


def test_the_paging_app_s_cluster_wars_differ_from_each_other_in_their_bean_cache_only():
    app = apps.load("paging")
    wars = {}
    for name in ("stateful-distributed", "stateful-replicated"):
        with zipfile.ZipFile(io.BytesIO(app.war(app.deployment(name)))) as war:
            wars[name] = {entry: war.read(entry) for entry in war.namelist()}
    distributed, replicated = wars["stateful-distributed"], wars["stateful-replicated"]
    assert set(replicated) - set(distributed) == {"WEB-INF/jboss-ejb3.xml"}
    assert b"<distributable/>" in distributed["WEB-INF/web.xml"]
    assert b"design = stateful" in distributed["WEB-INF/paging.properties"]
    assert {entry: body for entry, body in replicated.items()
            if entry != "WEB-INF/jboss-ejb3.xml"} == distributed
    # the cache a single node has too when the cluster's set-up did not name one
    assert b"${paging.replicated.sfsb-cache:distributable}" in replicated["WEB-INF/jboss-ejb3.xml"]
    assert {d.name: d.bean_cache for d in app.deployments} == {
        "": "", "stateful": "", "stateful-distributed": "distributed",
        "stateful-replicated": "replicated"}


def _settings(descriptor: bytes) -> bytes:
    """A distributable-web.xml without its comment and its cache attribute."""
    import re
    text = re.sub(rb"<!--.*?-->", b"", descriptor, flags=re.S)
    return re.sub(rb'cache="[a-z]+"', b"", text)


def test_an_unknown_deployment_lists_the_app_s_deployments():
    with pytest.raises(apps.AppError,
                       match="no deployment 'shared'; allowed: replicated, anywhere"):
        apps.load("sessioncart").deployment("shared")


def _app_tree(tmp_path) -> Path:
    shutil.copytree(REPO / "apps" / "sessioncart", tmp_path / "apps" / "sessioncart")
    return tmp_path


@pytest.mark.parametrize("old, new, expected", [
    ('workload = "workload.js"', 'workload = "missing.js"',
     "workload: 'missing.js' does not exist in apps/sessioncart/"),
    ('context_root = "/sessioncart"\n', "", "context_root: required"),
    ("cart = { AddItem = 3, ViewCart = 1 }", 'cart = { AddItem = "3" }', "mixes: required"),
    ('overlay = "replicated"', 'overlay = "gone"',
     "deployments.replicated.overlay: 'gone' is not a folder in apps/sessioncart/"),
    ('context_root = "/sessioncart-replicated"', 'context_root = "/sessioncart"',
     "context_root: every deployment needs its own"),
    ('overlay = "replicated"', 'overlay = "replicated"\nwar = "x.war"',
     "deployments.replicated: context_root and overlay, and optionally session_cache, "
     "affinity, bean_cache"),
    ('session_cache = "replicated"', 'session_cache = "invalidated"',
     "deployments.replicated.session_cache: 'invalidated'; allowed: replicated, distributed"),
    ('affinity = "none"', 'affinity = "sticky"',
     "deployments.anywhere.affinity: 'sticky'; allowed: primary-owner, none"),
    ('distributed"\naffinity = "primary-owner"', 'distributed"\naffinity = "local"',
     "affinity: 'local'; allowed: primary-owner, none"),
    ('session_cache = "replicated"', 'session_cache = "replicated"\nbean_cache = "buddy"',
     "deployments.replicated.bean_cache: 'buddy'; allowed: replicated, distributed"),
])
def test_a_bad_app_folder_is_refused_with_its_file_and_key(tmp_path, old, new, expected):
    root = _app_tree(tmp_path)
    toml = root / "apps" / "sessioncart" / "app.toml"
    assert old in toml.read_text()
    toml.write_text(toml.read_text().replace(old, new))
    with pytest.raises(apps.AppError) as caught:
        apps.load("sessioncart", root)
    assert str(caught.value).startswith("apps/sessioncart/app.toml: ")
    assert expected in str(caught.value)


def _maven_app(tmp_path, built: bool = True, pom: bool = True) -> Path:
    """apps/listings's declaration and sources in a workspace, its WAR built or not."""
    folder = tmp_path / "apps" / "listings"
    shutil.copytree(REPO / "apps" / "listings", folder, ignore=shutil.ignore_patterns("target"))
    if not pom:
        (folder / "pom.xml").unlink()
    if built:
        (folder / "target").mkdir()
        with zipfile.ZipFile(folder / "target" / "listings.war", "w") as war:
            war.writestr("WEB-INF/listing.properties", "access = entities\n")
            war.writestr("WEB-INF/classes/lab/listings/Listings.class", b"built")
    return tmp_path


def test_a_maven_app_is_made_from_its_sources_not_from_what_maven_built(tmp_path):
    """Its inputs leave target/ out, so a rebuild (or a clean checkout before set-up) does not
    change the hash a result was measured under; a source file does."""
    root = _maven_app(tmp_path)
    app = apps.load("listings", root)
    assert app.artifact == "maven" and not app.resident
    assert "apps/listings/target" not in app.inputs and "apps/listings/src" in app.inputs
    # the overlay replaces the WAR's own line: each deployment lists its own way
    war = zipfile.ZipFile(io.BytesIO(app.war(app.deployment("jdbc"))))
    assert war.read("WEB-INF/listing.properties").decode().strip().endswith("access = jdbc")
    assert war.read("WEB-INF/classes/lab/listings/Listings.class") == b"built"
    before = staleness._hash_paths(app.inputs, root)
    (root / "apps" / "listings" / "target" / "listings.war").write_bytes(b"rebuilt")
    assert staleness._hash_paths(app.inputs, root) == before
    (root / "apps" / "listings" / "workload.js").write_text("// changed\n")
    assert staleness._hash_paths(app.inputs, root) != before


@pytest.mark.parametrize("pom, expected", [
    (True, "webapp: 'target/listings.war' does not exist in apps/listings/ (artifact maven: "
           "run bash scripts/setup.sh, whose app step builds it)"),
    (False, "(artifact maven needs apps/listings/pom.xml, and there is none)"),
])
def test_a_maven_app_not_built_says_how_to_build_it(tmp_path, pom, expected):
    with pytest.raises(apps.AppError) as caught:
        apps.load("listings", _maven_app(tmp_path, built=False, pom=pom))
    assert expected in str(caught.value)


def test_an_unknown_app_lists_the_known_ones(tmp_path):
    with pytest.raises(apps.AppError, match="no such app; allowed: orderentry, sessioncart"):
        apps.load("shop", _app_tree(tmp_path))


@pytest.mark.parametrize("workload, expected", [
    ('app = "shop"\nmix = "default"', "workload.app: apps/shop/app.toml: no such app"),
    ('app = "sessioncart"\nmix = "default"',
     "workload.mix: 'default'; allowed for app 'sessioncart': cart"),
])
def test_a_recipe_naming_a_missing_app_or_a_mix_it_lacks_is_refused(tree, workload, expected):
    shutil.copytree(REPO / "apps" / "sessioncart", tree.root / "apps" / "sessioncart")
    text = tree.sample_toml.read_text()
    assert text.count('mix = "default"') == 1
    tree.sample_toml.write_text(text.replace('mix = "default"', workload))
    with pytest.raises(RecipeError) as caught:
        load_recipe(tree.sample)
    assert f"{tree.sample_toml.relative_to(tree.root).as_posix()}: {expected}" in str(caught.value)


def _drive_app(tree, app: str, mix: str, change: str, stack: str = "",
               runtime: str = "[]") -> None:
    """The sample recipe with another app, its mix, a [change] table, [stack] lines and its
    runtime metrics (none by default: the sample's pool is the image's app's)."""
    shutil.copytree(REPO / "apps" / app, tree.root / "apps" / app)
    text = tree.sample_toml.read_text().replace('runtime = ["datasource-pool"]',
                                                f"runtime = {runtime}")
    start, end = text.index("[change]"), text.index("[workload]")
    text = text[:start] + f"[change]\n{change}\n\n" + text[end:]
    text = text.replace('mix = "default"', f'app = "{app}"\nmix = "{mix}"')
    tree.sample_toml.write_text(text.replace("[stack]\n", f"[stack]\n{stack}\n"))


@pytest.mark.parametrize("change, expected", [
    ('deployment = "replicated"', None),
    ('deployment = "shared"', "change.deployment: apps/sessioncart/app.toml: no deployment "
                              "'shared'; allowed: replicated, anywhere"),
])
def test_a_deployment_change_names_one_of_the_app_s_deployments(tree, change, expected):
    _drive_app(tree, "sessioncart", "cart", f'kind = "deployment"\n{change}')
    if expected is None:
        recipe = load_recipe(tree.sample)
        assert recipe.change.deployment == "replicated"
        return
    with pytest.raises(RecipeError) as caught:
        load_recipe(tree.sample)
    assert expected in str(caught.value)


@pytest.mark.parametrize("values, expected", [
    ('["replicated", "anywhere"]', None),
    ('["replicated", "shared"]', "change.deployment: apps/sessioncart/app.toml: no deployment "
                                 "'shared'; allowed: replicated, anywhere"),
])
def test_a_sweep_of_deployments_names_one_in_each_value(tree, values, expected):
    """deployment = "{value}" with a [sweep]: every value must be one of the app's deployments
    (checked before anything starts), and each arm drives the one its value names
    (apps/purchasing: four designs side by side)."""
    _drive_app(tree, "sessioncart", "cart",
               'kind = "deployment"\ndeployment = "{value}"\n\n[sweep]\nname = "design"\n'
               f'values = {values}\ncheaper = "none"')
    if expected is None:
        recipe = load_recipe(tree.sample)
        kind = kind_for(recipe)
        plan = compile_plan(recipe, switch=kind.switch)
        wars = {arm.level: kind.deployment(arm).context_root for arm in plan.arms}
        app = apps.load("sessioncart", recipe.repo_root)
        assert wars == {"replicated": app.deployment("replicated").context_root,
                        "anywhere": app.deployment("anywhere").context_root}
        assert plan.layout == "shared"  # no reload between the values: one node serves them all
        return
    with pytest.raises(RecipeError) as caught:
        load_recipe(tree.sample)
    assert expected in str(caught.value)


def test_a_sweep_value_cannot_name_a_database_split_s_deployment(tree):
    _drive_app(tree, "sessioncart", "cart",
               'kind = "database-split"\ndeployment = "{value}"\ndb_cpus = 0.5\n\n[sweep]\n'
               'name = "design"\nvalues = ["replicated", "anywhere"]\ncheaper = "none"')
    with pytest.raises(RecipeError) as caught:
        load_recipe(tree.sample)
    assert "change.deployment: {value} with change.kind database-split" in str(caught.value)


@pytest.mark.parametrize("change, driven, expected", [
    ('kind = "none"', "replicated", None),
    ('kind = "none"', "shared", "workload.deployment: apps/sessioncart/app.toml: no deployment "
                                "'shared'; allowed: replicated, anywhere"),
    # the baseline's deployment, which the change moves to another: two further WARs compared
    ('kind = "deployment"\ndeployment = "anywhere"', "replicated", None),
    ('kind = "deployment"\ndeployment = "replicated"', "replicated",
     "workload.deployment: 'replicated', the variant's too (change.deployment); allowed: "
     "another of the app's deployments, or none (the app's own)"),
    ('kind = "database-split"\ndeployment = "anywhere"\ndb_cpus = 0.5', "replicated",
     "workload.deployment: 'replicated' with change.kind database-split, whose arms choose "
     "their deployments; allowed: no workload.deployment"),
])
def test_every_arm_may_drive_one_of_the_app_s_deployments(tree, change, driven, expected):
    """[workload] deployment sends every arm's load to that deployment (an isolation level
    measured on the app's sorted variant); the spec the load is built from says so."""
    _drive_app(tree, "sessioncart", "cart", change)
    text = tree.sample_toml.read_text().replace('mix = "cart"', f'mix = "cart"\n'
                                                                f'deployment = "{driven}"')
    tree.sample_toml.write_text(text.replace('expected = "better"', 'expected = "no-change"'))
    if expected is None:
        recipe = load_recipe(tree.sample)
        spec = LoadSpec.from_workload(recipe.workload, recipe.repo_root)
        assert spec.base_url.endswith(spec.app.deployment("replicated").context_root)
        assert spec.app.deployment("replicated").context_root != spec.app.context_root
        if recipe.change.kind == "deployment":
            plan = compile_plan(recipe, switch=kind_for(recipe).switch)
            kind = kind_for(recipe).bind(plan.arms)
            assert [kind.load_for(arm) for arm in plan.arms] == [
                {"deployment": "replicated"}, {"deployment": "anywhere"}]
        return
    with pytest.raises(RecipeError) as caught:
        load_recipe(tree.sample)
    assert expected in str(caught.value)


def test_an_app_is_a_stack_input_of_the_recipes_whose_nodes_deploy_it_only():
    session = find_recipe(REPO, "http-session-replication")
    assert session.workload.app == "sessioncart"
    assert {"app sessioncart", "app orderentry"} <= set(staleness.role_inputs(session))
    other = find_recipe(REPO, "cluster-entity-cache")
    assert [r for r in staleness.role_inputs(other) if r.startswith("app ")] == ["app orderentry"]


def test_an_app_that_answers_orderentry_s_api_is_driven_by_mix_js_itself():
    """ordermfg's two WARs differ in one file, the pool its manufacturing transactions use;
    the load generator runs its image's own workloads/mix.js, so nothing is copied to it."""
    app = apps.load("ordermfg")
    assert app.script == "/workloads/mix.js" and app.loadgen_files() == {}
    files = app.node_files()
    own, split = (f"{apps.DEPLOYMENTS_DIR}/{n}" for n in ("ordermfg.war", "ordermfg-split.war"))
    assert list(files) == [own, split]
    wars = [zipfile.ZipFile(io.BytesIO(files[path])) for path in (own, split)]
    names = [sorted(war.namelist()) for war in wars]
    assert names[0] == names[1] and "WEB-INF/classes/domains.properties" in names[0]
    domains = [war.read("WEB-INF/classes/domains.properties").decode() for war in wars]
    assert "mfg=java:app/MfgDS\n" in domains[0] and "mfg=java:app/MfgSplitDS\n" in domains[1]
    assert [n for n in names[0] if wars[0].read(n) != wars[1].read(n)] == [
        "WEB-INF/classes/domains.properties"]
    assert b"jdbc:postgresql://db2:5432/orderentry" in wars[0].read("WEB-INF/web.xml")
    assert set(app.transactions) <= set(apps.default_app().transactions)


@pytest.mark.parametrize("stack, expected", [
    ('databases = ["db", "db2"]', None),
    ('databases = ["db"]', "stack.databases: ['db']: a database split needs a second database; "
                           "allowed: e.g. [\"db\", \"db2\"]"),
    ('databases = ["db2", "db"]', "stack.databases: ['db2', 'db']: the first is the one the "
                                  "data source of the images' app reaches; allowed: "
                                  "[\"db\", ...]"),
    ('databases = ["orders"]', "stack.databases[0]: 'orders'; allowed: a string matching "
                               "^db[0-9]*$"),
])
def test_a_database_split_needs_a_second_database_after_db(tree, stack, expected):
    _drive_app(tree, "ordermfg", "domains",
               'kind = "database-split"\ndeployment = "split"\ndb_cpus = 0.15', stack)
    if expected is None:
        recipe = load_recipe(tree.sample)
        assert (recipe.stack.databases, recipe.change.db_cpus) == (("db", "db2"), 0.15)
        return
    with pytest.raises(RecipeError) as caught:
        load_recipe(tree.sample)
    assert expected in str(caught.value)


def test_a_database_split_puts_each_arm_s_quotas_and_pools_where_its_recipe_says():
    """The fair recipe halves each database's quota in the variant; the other keeps the
    stack's in both arms. Only the variant sends manufacturing to the second database."""
    from types import SimpleNamespace

    from tuninglab.changes import kind_for
    from tuninglab.plan import compile_plan
    stack = SimpleNamespace(databases={"db": None, "db2": None})
    for recipe_id, quotas in (("two-databases", (0.3, 0.15)),
                              ("two-databases-more-cpu", (0.15, 0.15))):
        recipe = find_recipe(REPO, recipe_id)
        plan = compile_plan(recipe, switch=kind_for(recipe).switch)
        kind = kind_for(recipe).bind(plan.arms)
        baseline, variant = (plan.arm(a) for a in ("baseline", "variant"))
        assert plan.layout == "shared"  # the arms share the databases: one at a time
        assert (kind.database_cpus(baseline), kind.database_cpus(variant)) == quotas
        assert kind.databases_of(baseline, stack) == {"orders": "db", "mfg": "db"}
        assert kind.databases_of(variant, stack) == {"orders": "db", "mfg": "db2"}
        assert kind.load_for(variant) == {"deployment": "split"}


def _prebuilt(tmp_path, archive: str, content: bytes | None = None) -> Path:
    """sessioncart with its web folder replaced by a prebuilt archive (zipped from the folder
    unless ``content`` is given)."""
    root = _app_tree(tmp_path)
    folder = root / "apps" / "sessioncart"
    path = folder / archive
    if content is None:
        with zipfile.ZipFile(path, "w") as war:
            for file in sorted((folder / "webapp").rglob("*")):
                if file.is_file():
                    war.write(file, file.relative_to(folder / "webapp").as_posix())
    else:
        path.write_bytes(content)
    toml = folder / "app.toml"
    toml.write_text(toml.read_text().replace('webapp = "webapp"', f'webapp = "{archive}"'))
    return root


def test_a_prebuilt_war_is_deployed_with_its_entries_and_the_overlay_on_top(tmp_path):
    """Until 28 November 2026 a WAR file given as webapp passed and was deployed as an empty
    22-byte archive (a folder walk of a file finds nothing)."""
    app = apps.load("sessioncart", _prebuilt(tmp_path, "shop.war"))
    files = app.node_files()
    own = files[f"{apps.DEPLOYMENTS_DIR}/sessioncart.war"]
    with zipfile.ZipFile(io.BytesIO(own)) as war:
        assert sorted(war.namelist()) == ["WEB-INF/distributable-web.xml", "WEB-INF/web.xml",
                                          "cart.jsp"]
    assert f"{apps.DEPLOYMENTS_DIR}/sessioncart-replicated.war" in files
    ear = apps.load("sessioncart", _prebuilt(tmp_path / "ear", "shop.ear"))
    assert ear.war_name == "sessioncart.ear" and ear.deployments[1].war_name.endswith(".ear")


def _empty_zip() -> bytes:
    buffer = io.BytesIO()
    zipfile.ZipFile(buffer, "w").close()
    return buffer.getvalue()


@pytest.mark.parametrize("archive, content, expected", [
    ("shop.war", b"not a zip", "webapp: apps/sessioncart/shop.war is not a readable archive"),
    ("shop.jar", b"PK", "webapp: apps/sessioncart/shop.jar is a file that is not a WAR or an EAR"),
    ("shop.war", _empty_zip(), "webapp: apps/sessioncart/shop.war is an empty archive"),
])
def test_a_webapp_file_that_is_not_a_deployable_archive_is_refused(tmp_path, archive, content,
                                                                   expected):
    with pytest.raises(apps.AppError, match=expected):
        apps.load("sessioncart", _prebuilt(tmp_path, archive, content))
