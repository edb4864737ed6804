"""Fixtures of the unit tests: a throw-away copy of tests/unit/data as a repo root."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # fakestack, whatever the import mode

DATA = Path(__file__).parent / "data"
SAMPLE = "recipes/guide/pool-size"


class RecipeTree:
    """A repo root in a temporary folder (recipes/ and workloads/mixes.json), the cwd."""

    def __init__(self, root: Path):
        self.root = root
        self.sample = root / SAMPLE

    @property
    def sample_toml(self) -> Path:
        return self.sample / "recipe.toml"

    def edit(self, old: str, new: str) -> Path:
        """Replace one exact piece of the sample recipe.toml; return the recipe folder."""
        text = self.sample_toml.read_text()
        assert text.count(old) == 1, f"{old!r} must occur once in the sample"
        self.sample_toml.write_text(text.replace(old, new))
        return self.sample

    def copy_sample(self, area: str, recipe_id: str) -> Path:
        """A second recipe: the sample under another area and id."""
        folder = self.root / "recipes" / area / recipe_id
        shutil.copytree(self.sample, folder)
        toml = folder / "recipe.toml"
        toml.write_text(toml.read_text().replace('id = "pool-size"', f'id = "{recipe_id}"'))
        return folder


@pytest.fixture
def tree(tmp_path, monkeypatch) -> RecipeTree:
    shutil.copytree(DATA, tmp_path, dirs_exist_ok=True)
    monkeypatch.chdir(tmp_path)
    return RecipeTree(tmp_path)
