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
    assert done.returncode == 2
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
