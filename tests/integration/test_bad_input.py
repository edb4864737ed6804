"""Bad input gets a clear error that says what is wrong and what to do."""
import os
import subprocess
import sys

import pytest

from tuninglab import images, load
from tuninglab.load import LoadSpec


def _cli(*args, **env):
    return subprocess.run([sys.executable, "-m", "tuninglab.cli", *args], capture_output=True,
                          text=True, env={**os.environ, **env}, timeout=120)


def test_an_engine_that_does_not_answer():
    done = _cli("run", "aa-noise", DOCKER_HOST="unix:///tmp/no-engine-here.sock")
    assert done.returncode == 5
    assert "no Docker engine answers at unix:///tmp/no-engine-here.sock" in done.stderr
    assert "bash scripts/setup.sh" in done.stderr


def test_a_missing_image(client):
    with pytest.raises(images.ImageMissingError, match="tuninglab/nope:0.*bash scripts/setup.sh"):
        images.require_images(client, ["tuninglab/nope:0"])


def test_an_unknown_recipe_lists_the_known_ones():
    done = _cli("run", "no-such-recipe")
    assert done.returncode == 2
    assert "no-such-recipe" in done.stderr and "aa-noise" in done.stderr


def test_an_unknown_profile():
    done = _cli("run", "aa-noise", "--profile", "huge")
    assert done.returncode == 2
    assert "profiles.huge: unknown profile; allowed: quick, full" in done.stderr


def test_an_unknown_transaction_name(stack):
    with pytest.raises(RuntimeError, match="unknown transaction 'Pong'; allowed: Ping, NewOrder"):
        load.run(stack.loadgen, LoadSpec(mix={"Pong": 1}), 2, "bad-mix")


def test_a_scale_of_zero(stack):
    with pytest.raises(RuntimeError, match="SCALE must be >= 1"):
        load.run(stack.loadgen, LoadSpec(mix={"Ping": 1}, scale=0), 2, "bad-scale")


# --------------------------------------------------------------------------- the images' answers


def _copy_recipe(tmp_path, area, recipe_id):
    """A copy of a repository recipe, with the mixes it needs, to break one thing in."""
    import shutil
    from tuninglab import layout
    shutil.copytree(layout.recipes_dir() / area / recipe_id, tmp_path / "recipes" / area / recipe_id)
    shutil.copytree(layout.workloads_dir(), tmp_path / "workloads")
    return tmp_path / "recipes" / area / recipe_id


def _edit(folder, name, old, new):
    path = folder / name
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_the_jvm_of_the_image_judges_the_options(tmp_path, client):
    from tuninglab import preflight
    from tuninglab.recipe import load_recipe
    folder = _copy_recipe(tmp_path, "method", "aa-noise")
    _edit(folder, "recipe.toml", "[change]", '[stack]\njvm_options = "-Xmx1g -XX:+NoSuchFlagAtAll"\n\n[change]')
    problems = preflight.problems(load_recipe(folder), client=client)
    assert any("stack.jvm_options" in p and "NoSuchFlagAtAll" in p for p in problems), problems


def test_the_database_image_knows_its_parameters(tmp_path, client):
    from tuninglab import preflight
    from tuninglab.recipe import load_recipe
    folder = _copy_recipe(tmp_path, "thesis", "pg-synchronous-commit")
    (folder / "change.conf").write_text("synchronous_comit = off\n")
    problems = preflight.problems(load_recipe(folder), client=client)
    assert any("synchronous_comit" in p and "synchronous_commit" in p for p in problems), problems
    (folder / "change.conf").write_text("synchronous_commit = off\n")
    assert preflight.problems(load_recipe(folder), client=client) == []


def test_the_server_configuration_must_exist_in_the_image(tmp_path, client):
    from tuninglab import preflight
    from tuninglab.recipe import load_recipe
    folder = _copy_recipe(tmp_path, "method", "aa-noise")
    _edit(folder, "recipe.toml", "[change]", '[stack]\nserver_config = "standalone-nope.xml"\n\n[change]')
    problems = preflight.problems(load_recipe(folder), client=client)
    assert any("standalone-nope.xml" in p and "standalone.xml" in p for p in problems), problems


def test_the_database_image_judges_the_values(tmp_path, client):
    """A value of the wrong type, unit or range is the recipe's error before the stack starts,
    judged against the image's own pg_settings."""
    from tuninglab import preflight
    from tuninglab.recipe import load_recipe
    folder = _copy_recipe(tmp_path, "thesis", "pg-synchronous-commit")
    (folder / "change.conf").write_text("synchronous_commit = maybe\nwork_mem = 10s\n")
    problems = "\n".join(preflight.problems(load_recipe(folder), client=client))
    assert "synchronous_commit: 'maybe' is not one of its values" in problems, problems
    assert "work_mem: '10s': unit 's' does not fit" in problems, problems


def test_the_server_model_of_the_image_judges_the_attributes(tmp_path, client):
    """The issue's misspelt attribute: the recipe's error (exit 2) with the line, before any
    stack starts, from the image's own management model; the real spelling passes."""
    from tuninglab import preflight
    from tuninglab.recipe import load_recipe
    folder = _copy_recipe(tmp_path, "guide", "datasource-max-pool-size")
    change = folder / "change.cli"
    good = change.read_text()
    change.write_text(good.replace("max-pool-size", "max-pool-sise"))
    problems = "\n".join(preflight.problems(load_recipe(folder), client=client))
    assert "no attribute 'max-pool-sise'" in problems and "max-pool-size" in problems, problems
    assert "change.cli:" in problems, problems
    change.write_text(good)
    assert preflight.problems(load_recipe(folder), client=client) == []
