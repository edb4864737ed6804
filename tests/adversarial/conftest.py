"""The adversarial suite: broken recipes, change files, arguments, stored results and a broken
environment, each through the real CLI (in-process, for speed), with no Docker engine: every
case must end in its exit code and a message that names what it should, never a traceback,
and no container may be created (checked against the engine's labels when one answers).
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # advkit, whatever the import mode

from advkit import DATA, NO_ENGINE, Repo, own_containers  # noqa: E402

from tuninglab import layout  # noqa: E402


@pytest.fixture
def repo(tmp_path, monkeypatch, capsys) -> Repo:
    shutil.copytree(DATA, tmp_path, dirs_exist_ok=True)
    (tmp_path / "results").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(layout, "recipes_dir", lambda: tmp_path / "recipes")
    monkeypatch.setenv("TUNINGLAB_RESULTS_DIR", str(tmp_path / "results"))
    monkeypatch.setenv("TUNINGLAB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("DOCKER_HOST", NO_ENGINE)
    repo = Repo(tmp_path, capsys)
    # The unit tests' sample caps its node at 768m under a 1 GB heap, which preflight rightly
    # refuses; here it starts valid, so that each case breaks one thing.
    repo.edit('app_memory = "768m"', 'app_memory = "2g"')
    return repo


@pytest.fixture(autouse=True)
def no_container_is_created():
    before = own_containers()
    yield
    after = own_containers()
    if before is not None and after is not None:
        assert after <= before, f"containers created: {sorted(after - before)}"
