"""Change kind jvm-agent: both arms run the image that holds the agent, the variant's JVM
loads it with -agentpath; the read-back is the JVM's memory map, so an option the JVM took
without loading the agent, or a baseline that loaded it, fails before anything is measured."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from tuninglab import changes, images, layout, preflight, staleness
from tuninglab.experiment import node_config
from tuninglab.plan import compile_plan
from tuninglab.recipe import RecipeError, load_recipe

RECIPE = layout.recipes_dir() / "guide" / "async-profiler-overhead"
AGENT = images.JVM_AGENTS["async-profiler"]


def _kind():
    recipe = load_recipe(RECIPE)
    kind = changes.kind_for(recipe)
    plan = compile_plan(recipe, switch=kind.switch)
    kind.bind(plan.arms)
    return recipe, kind, plan


class _Container:
    id = "c1"
    attrs = {"Image": "sha256:" + "a" * 64}

    def reload(self):
        pass

    def logs(self, **_):
        yield b"WildFly starting\n"


def _stack(arguments: list[str], maps_answer: str):
    node = SimpleNamespace(get_wrapped_container=_Container,
                           run_on_jvm=lambda per_process: maps_answer)
    return SimpleNamespace(
        nodes={"app-1": node}, image_ids={AGENT.image: _Container.attrs["Image"]},
        management_of=lambda n: SimpleNamespace(
            read_resource=lambda *a, **k: {"input-arguments": arguments}))


def test_both_arms_run_the_agents_image_and_only_the_variant_names_the_agent():
    recipe, kind, plan = _kind()
    base = node_config(recipe)
    baseline = kind.node_config(base, plan.arm("baseline"))
    variant = kind.node_config(base, plan.arm("variant"))
    assert baseline.image == variant.image == AGENT.image
    assert baseline.jvm_options == recipe.stack.jvm_options
    assert variant.jvm_options == (f"{recipe.stack.jvm_options} -agentpath:{AGENT.library}="
                                   f"{recipe.change.agent_options}")
    assert kind.switch == "restart"  # an agent loads when the JVM starts: a node per arm


@pytest.mark.parametrize("arm, mapped, ok", [
    ("variant", "java:3", True), ("variant", "java:0", False), ("variant", "", False),
    ("baseline", "java:0", True), ("baseline", "java:2", False), ("baseline", "", False)])
def test_the_jvms_memory_map_must_show_the_agent_only_in_the_variant(arm, mapped, ok):
    _, kind, plan = _kind()
    arguments = kind.options(plan.arm(arm)).split()
    checks = kind.read_back(_stack(arguments, mapped), "app-1", plan.arm(arm))
    assert checks[0].what == "app-1: the container's image" and checks[0].ok
    loaded = checks[-1]
    assert loaded.what == f"the JVM has {AGENT.library} loaded"
    assert loaded.ok is ok
    assert all(c.ok for c in checks[:-1])  # the image and the JVM's arguments are the arm's


def test_the_baseline_must_not_carry_the_agent_option():
    _, kind, plan = _kind()
    arguments = kind.options(plan.arm("variant")).split()  # a baseline started with the agent
    failed = [c for c in kind.read_back(_stack(arguments, "java:0"), "app-1",
                                        plan.arm("baseline")) if not c.ok]
    assert any("-agentpath" in c.what for c in failed)


@pytest.mark.parametrize("key, value, message", [
    ("agent", '"yourkit"', "change.agent: 'yourkit'; allowed: async-profiler"),
    ("agent_options", '"start, event=cpu"', "change.agent_options: 'start, event=cpu': the "
                                            "agent's options as one word")])
def test_an_unknown_agent_or_options_with_spaces_are_refused(tmp_path, key, value, message):
    folder = tmp_path / "recipes" / "guide" / "agent-x"
    folder.mkdir(parents=True)
    text = (RECIPE / "recipe.toml").read_text().replace('id = "async-profiler-overhead"',
                                                        'id = "agent-x"')
    lines = [f"{key} = {value}" if line.startswith(f"{key} = ") else line
             for line in text.splitlines()]
    (folder / "recipe.toml").write_text("\n".join(lines) + "\n")
    with pytest.raises(RecipeError) as error:
        load_recipe(folder)
    assert message in str(error.value)


def test_preflight_asks_the_agents_image_to_start_with_the_agent():
    recipe, kind, plan = _kind()
    variant = preflight._node(recipe, kind, plan.arm("variant"))
    baseline = preflight._node(recipe, kind, plan.arm("baseline"))
    assert variant["image"] == baseline["image"] == AGENT.image
    assert f"-agentpath:{AGENT.library}=" in variant["jvm_options"]
    assert "-agentpath" not in baseline["jvm_options"]


def test_the_agents_image_is_an_input_of_its_recipes_only():
    recipe, _, _ = _kind()
    assert staleness.role_inputs(recipe)["jvm-agent async-profiler"]
    other = load_recipe(layout.recipes_dir() / "guide" / "jfr-default-overhead")
    assert not any(role.startswith("jvm-agent") for role in staleness.role_inputs(other))


@pytest.mark.parametrize("options, problem", [
    ("start,event=cpu,fdtransfer", "'fdtransfer' is not an option the lab passes to this agent"),
    ("start,file=/opt/wildfly/standalone/configuration/standalone.xml",
     "file='/opt/wildfly/standalone/configuration/standalone.xml': the agent writes it"),
    ("start,log=../x", "log='../x': the agent writes it"),
    ("start;touch", "';' in 'start;touch'")])
def test_the_agents_options_are_its_own_list_and_write_only_under_tmp(options, problem):
    from tuninglab.safety import jvm_options
    found = jvm_options.agent_problems(options, AGENT.options, AGENT.file_options)
    assert len(found) == 1 and found[0].startswith(problem)
    assert jvm_options.agent_problems("start,event=cpu-clock,interval=10ms,file=/tmp/a.jfr,jfr",
                                      AGENT.options, AGENT.file_options) == []
