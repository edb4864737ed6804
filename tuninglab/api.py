"""The small surface notebooks and the CLI use: find a recipe, run it, load its results."""
from __future__ import annotations

from pathlib import Path

from . import layout, result, store
from .recipe import Recipe, discover_recipes, find_recipe


def list_recipes() -> list[Recipe]:
    return discover_recipes(layout.recipes_dir())


def get_recipe(recipe_id: str) -> Recipe:
    return find_recipe(layout.recipes_dir(), recipe_id)


def run(recipe_id: str, profile: str = "quick", *, save: bool = True, progress=print,
        allow_dirty: bool | None = None) -> dict:
    from . import experiment  # Docker and Testcontainers load only when something runs
    return experiment.run_recipe(get_recipe(recipe_id), profile, progress=progress, save=save,
                                 allow_dirty=allow_dirty)


def load_result(path: str | Path) -> dict:
    """A stored result, in the current shape whatever format it was stored in."""
    return result.upgrade(store.load_result(Path(path)))


def latest_result(recipe_id: str, profile: str | None = "full") -> dict | None:
    """The newest stored result of the recipe (of that profile; None: any profile)."""
    paths = store.list_results(layout.results_dir(), recipe_id, profile)
    return load_result(paths[-1]) if paths else None
