"""Helpers of the adversarial suite (see conftest.py): broken recipes, change files, arguments, stored results and a broken
environment, each through the real CLI (in-process, for speed), with no Docker engine: every
case must end in its exit code and a message that names what it should, never a traceback,
and no container may be created.

Fixtures: a throw-away repository (tests/unit/data: one complete recipe, `pool-size`, and
workloads/mixes.json) that the CLI reads as its recipes/ and results/; DOCKER_HOST points at a
socket nobody listens on, so a case that got as far as the engine would fail loudly (exit 5)
instead of starting anything.
"""
from __future__ import annotations

import json
import os
import shutil
import socket
from dataclasses import dataclass
from pathlib import Path

from tuninglab import cli

DATA = Path(__file__).resolve().parents[1] / "unit" / "data"
NO_ENGINE = "unix:///tmp/tuninglab-no-engine-here.sock"


@dataclass
class Outcome:
    code: int
    out: str
    err: str

    @property
    def text(self) -> str:
        return self.out + self.err


class Repo:
    """The throw-away repository and a way to run the CLI against it."""

    def __init__(self, root: Path, capsys):
        self.root = root
        self.capsys = capsys
        self.sample = root / "recipes" / "guide" / "pool-size"
        self.results = root / "results"

    # -- editing ---------------------------------------------------------------------------
    def edit(self, old: str, new: str, name: str = "recipe.toml") -> Path:
        path = self.sample / name
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{old!r} must occur once in {name}"
        path.write_text(text.replace(old, new), encoding="utf-8")
        return path

    def write(self, name: str, content: str | bytes) -> Path:
        path = self.sample / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    def copy_sample(self, recipe_id: str, area: str = "guide") -> Path:
        folder = self.root / "recipes" / area / recipe_id
        shutil.copytree(self.sample, folder)
        toml = folder / "recipe.toml"
        toml.write_text(toml.read_text().replace('id = "pool-size"', f'id = "{recipe_id}"'))
        return folder

    def store(self, recipe_id: str, result: dict, name: str = "20300101T000000Z-host.json") -> Path:
        path = self.results / recipe_id / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(result), encoding="utf-8")
        return path

    # -- running -----------------------------------------------------------------------------
    def cli(self, *argv: str) -> Outcome:
        self.capsys.readouterr()
        code = cli.main(list(argv))
        captured = self.capsys.readouterr()
        return Outcome(code, captured.out, captured.err)


def own_containers() -> set[str] | None:
    """Containers this process created (the lab labels every one with its pid), or None
    without an engine."""
    try:
        import docker
        client = docker.DockerClient(base_url=os.environ.get("TUNINGLAB_REAL_DOCKER_HOST",
                                                             "unix:///var/run/docker.sock"),
                                     timeout=5)
        found = client.containers.list(all=True, filters={
            "label": [f"tuninglab.pid={os.getpid()}", f"tuninglab.host={socket.gethostname()}"]})
        return {c.id for c in found}
    except Exception:  # noqa: BLE001 - no engine: nothing can have been created
        return None


def assert_clean_error(outcome: Outcome, code: int, *needles: str) -> None:
    """The exit code, each needle in the message, and no traceback."""
    assert outcome.code == code, (outcome.code, outcome.text)
    assert "Traceback" not in outcome.text, outcome.text
    for needle in needles:
        assert needle in outcome.text, (needle, outcome.text)
