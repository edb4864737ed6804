"""The small surface notebooks and the CLI use: find a recipe, run it, load its results."""
from __future__ import annotations

from pathlib import Path

from . import experiment, layout, store
from .recipe import Recipe, discover_recipes, find_recipe


def list_recipes() -> list[Recipe]:
    return discover_recipes(layout.recipes_dir())


def get_recipe(recipe_id: str) -> Recipe:
    return find_recipe(layout.recipes_dir(), recipe_id)


def run(recipe_id: str, profile: str = "quick", *, save: bool = True, progress=print) -> dict:
    return experiment.run_recipe(get_recipe(recipe_id), profile, progress=progress, save=save)


def load_result(path: str | Path) -> dict:
    return store.load_result(Path(path))


def latest_result(recipe_id: str, profile: str | None = "full") -> dict | None:
    """The newest stored result of the recipe (of that profile; None: any profile)."""
    if profile is not None:
        return store.latest_result(layout.results_dir(), recipe_id, profile)
    paths = store.list_results(layout.results_dir(), recipe_id)
    return store.load_result(paths[-1]) if paths else None
