"""A ladder's rungs: whole configurations assembled from other recipes. Each rung applies the
changes it adopts and proves it holds the baseline for the others; bad ladders are refused
with the file and the key before anything starts."""
from __future__ import annotations

import shutil
from types import SimpleNamespace

import pytest

from tuninglab import changes, layout
from tuninglab.changes import nodes
from tuninglab.plan import PER_LEVEL, SWEEP_BY_LOAD, compile_plan
from tuninglab.recipe import RecipeError, Setup, load_recipe, measured_hash

LADDER = "configuration-ladder"
ADOPTED = ("production-like-configuration", "hibernate-batch-inserts",
           "jvm-transparent-huge-pages", "deployment-scanner-interval",
           "io-task-max-threads")


@pytest.fixture
def repo(tmp_path):
    """The ladder and the recipes it can adopt, in a throw-away repository root."""
    for rid in (LADDER, *ADOPTED):
        shutil.copytree(layout.recipes_dir() / "guide" / rid, tmp_path / "recipes" / "guide" / rid)
    (tmp_path / "workloads").mkdir()
    shutil.copy(layout.REPO_ROOT / "workloads" / "mixes.json", tmp_path / "workloads")
    return tmp_path


def _toml(repo):
    return repo / "recipes" / "guide" / LADDER / "recipe.toml"


def _bound(repo):
    recipe = load_recipe(repo / "recipes" / "guide" / LADDER)
    kind = changes.kind_for(recipe)
    plan = compile_plan(recipe, switch=kind.switch)
    kind.bind(plan.arms)
    return recipe, kind, plan


def _edit(repo, old: str, new: str):
    text = _toml(repo).read_text()
    assert text.count(old) == 1, old
    _toml(repo).write_text(text.replace(old, new))


def test_rungs_are_a_sweep_with_a_node_each(repo):
    recipe, kind, plan = _bound(repo)
    assert recipe.sweep.values == ("out of the box", "production-like", "plus 1 GB heap", "tuned")
    assert recipe.sweep.reference == "out of the box"
    assert plan.kind == SWEEP_BY_LOAD and plan.layout == PER_LEVEL
    assert plan.nodes == ["app-out-of-the-box", "app-production-like", "app-plus-1-gb-heap",
                          "app-tuned"]


def test_side_by_side_rungs_share_each_window_and_the_quota(repo):
    # [stack] side_by_side: every rung's node in the window of its load level, so what the
    # host does during a window touches every rung alike; each node gets a quarter of the quota.
    from tuninglab.experiment import node_config
    recipe, _, plan = _bound(repo)
    assert recipe.stack.side_by_side
    assert plan.concurrency == 4 and len(plan.slots) == 3
    assert plan.slots[0] == ("out of the box/users=1", "production-like/users=1",
                             "plus 1 GB heap/users=1", "tuned/users=1")
    assert node_config(recipe, share=plan.concurrency).cpus == recipe.stack.app_cpus / 4
    _edit(repo, "side_by_side = true", "side_by_side = false")
    _, _, alone = _bound(repo)
    assert alone.concurrency == 1 and len(alone.slots) == 12


def test_side_by_side_is_refused_where_the_arms_have_a_layout_of_their_own(repo):
    from tuninglab import preflight
    toml = repo / "recipes" / "guide" / "hibernate-batch-inserts" / "recipe.toml"
    toml.write_text(toml.read_text().replace("[workload]", "[stack]\nside_by_side = true\n\n"
                                             "[workload]", 1))
    found = "\n".join(preflight.problems(load_recipe(toml.parent)))
    assert ("recipes/guide/hibernate-batch-inserts/recipe.toml: stack.side_by_side: this "
            "recipe's arms run crossover") in found
    assert "allowed: true only for a sweep or a ladder" in found


def test_each_rung_applies_what_it_adopts_and_no_more(repo):
    _, kind, plan = _bound(repo)
    applied = {arm.level: [a for _, a in kind.operation_groups(arm)]
               for arm in plan.arms if arm.load == {"users": 1}}
    # Groups in the order the rungs first adopt them: production-like, then batch inserts.
    assert applied == {"out of the box": [False, False], "production-like": [True, False],
                       "plus 1 GB heap": [True, False], "tuned": [True, True]}
    tuned = plan.arm("tuned/users=1")
    assert "-XX:+UseTransparentHugePages" in kind.options(tuned)
    assert not kind.applies(plan.arm("out of the box/users=1")) and kind.applies(tuned)


class _Management:
    """A management model of attributes and resources, enough for configure and verify."""

    def __init__(self):
        self.attributes: dict = {}
        self.resources: dict = {}  # address -> its attributes
        self.reloads = 0

    def read_attribute(self, address, name, include_defaults=True):
        return self.attributes.get((tuple(address), name))

    def resource_exists(self, address):
        return tuple(address) in self.resources

    def read_resource(self, address):
        return self.resources[tuple(address)]

    def execute(self, operation, address=(), **params):
        address = tuple(address)
        if operation == "add":
            self.resources[address] = params
        elif operation == "write-attribute":
            self.attributes[(address, params["name"])] = params["value"]
        return SimpleNamespace(needs_reload=False)

    def server_state(self):  # the ladder's rungs write attributes WildFly applies on a reload
        return "reload-required" if self.attributes else "running"

    def reload(self):
        self.reloads += 1


def test_a_rung_proves_it_holds_the_baseline_for_what_it_does_not_adopt(repo):
    _, kind, plan = _bound(repo)
    m = _Management()
    stack = SimpleNamespace(management_of=lambda node: m,
                            nodes={"n": SimpleNamespace(app_url=lambda: "http://n")},
                            config_endpoint=lambda: "/api/config")
    kind.read_back = lambda *a: []  # the JVM's arguments are another test's
    arm = plan.arm("production-like/users=1")
    state = nodes.configure(stack, "n", kind, arm, Setup(None, None))
    assert (m.reloads, state.pending) == (0, nodes.RELOAD)
    nodes.settle(stack, "n", state)
    assert (m.reloads, state.pending) == (1, None)
    level = ((("subsystem", "logging"), ("console-handler", "CONSOLE")), "level")
    assert m.attributes[level] == "OFF"
    # The batch-insert group is not applied: its data-source property was not added.
    batching = (("subsystem", "datasources"), ("data-source", "OrderDS"),
                ("connection-properties", "reWriteBatchedInserts"))
    assert batching not in m.resources
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(nodes.model, "app_checks", lambda *a: [])
        patch.setattr(nodes, "limits_checks", lambda *a: [])
        checks = nodes.verify(stack, "n", kind, arm, state)
        assert any("reWriteBatchedInserts exists" in c.what and c.expected == "false"
                   for c in checks)
        m.resources[batching] = {"value": True}  # the rung now holds a setting it must not have
        with pytest.raises(changes.ChangeNotEffective, match="reWriteBatchedInserts"):
            nodes.verify(stack, "n", kind, arm, state)


def test_an_adopted_recipes_change_makes_the_ladder_stale(repo):
    recipe, _, _ = _bound(repo)
    before = measured_hash(recipe)
    cli = repo / "recipes" / "guide" / "hibernate-batch-inserts" / "change.cli"
    cli.write_text(cli.read_text().replace("value=20", "value=50"))
    assert measured_hash(load_recipe(recipe.folder)) != before


def test_an_adopted_recipes_profiles_leave_the_ladder_as_it_is(repo):
    # The ladder measures an adopted recipe's change, not how long that recipe's own run is.
    recipe, _, _ = _bound(repo)
    before = measured_hash(recipe)
    toml = repo / "recipes" / "guide" / "hibernate-batch-inserts" / "recipe.toml"
    text = toml.read_text()
    assert "[profiles.full]\nblocks = 16\nperiods = 8\n" in text
    toml.write_text(text.replace("blocks = 16\nperiods = 8", "blocks = 12\nperiods = 6"))
    assert measured_hash(load_recipe(recipe.folder)) == before


@pytest.mark.parametrize("old, new, message", [
    ('adopts = ["production-like-configuration"]\n\n[[change.rungs]]\nname = "plus',
     'adopts = ["no-such-recipe"]\n\n[[change.rungs]]\nname = "plus',
     "change.rungs: adopts 'no-such-recipe', which cannot be used: .*not found"),
    ('adopts = ["production-like-configuration"]\n\n[[change.rungs]]\nname = "plus',
     'adopts = ["io-task-max-threads"]\n\n[[change.rungs]]\nname = "plus',
     "adopts 'io-task-max-threads', which is a sweep; allowed: a recipe of kind jboss-cli or "
     "jvm-options without a sweep"),
    ('-XX:CICompilerCount=3 -XX:+UseTransparentHugePages"',
     '-XX:CICompilerCount=3"',
     r"change.rungs\[3\].jvm_options: rung 'tuned' adopts 'jvm-transparent-huge-pages' but "
     "lacks -XX:\\+UseTransparentHugePages"),
    ('"hibernate-batch-inserts",', '"hibernate-batch-inserts", "deployment-scanner-interval",',
     "'deployment-scanner-interval' and 'production-like-configuration' both write "
     "/subsystem=deployment-scanner/scanner=default"),
])
def test_a_bad_ladder_names_file_key_and_what_is_allowed(repo, old, new, message):
    _edit(repo, old, new)
    with pytest.raises(RecipeError, match=f"recipes/guide/{LADDER}/recipe.toml: .*{message}"):
        _bound(repo)


@pytest.mark.parametrize("old, new, message", [
    ('name = "tuned"', 'name = "plus 1 GB heap"', "change.rungs: two rungs are named 'plus 1 GB heap'"),
    ('name = "tuned"\njvm_options = "-Xms1g -Xmx1g -XX:CICompilerCount=3 -XX:+UseTransparentHugePages"\n'
     'adopts = ["production-like-configuration", "hibernate-batch-inserts",\n'
     '          "jvm-transparent-huge-pages"]',
     'name = "tuned"\njvm_options = "-Xms1g -Xmx1g -XX:CICompilerCount=3"\n'
     'adopts = ["production-like-configuration"]',
     r"change.rungs\[3\]: 'tuned' configures the same as 'plus 1 GB heap'"),
    ('[workload]', '[sweep]\nname = "x"\nvalues = [1, 2]\n\n[workload]',
     "sweep: a ladder's rungs are its values"),
])
def test_rungs_that_cannot_be_a_ladder_are_refused_when_the_recipe_loads(repo, old, new, message):
    _edit(repo, old, new)
    with pytest.raises(RecipeError, match=message):
        load_recipe(_toml(repo))
