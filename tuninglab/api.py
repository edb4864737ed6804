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


def assert_sound(result: dict) -> str:
    """What must hold in any stored run (each notebook's check cell): every check read back
    from the running system passed, the run is valid, and every arm was measured, except a
    sweep's value whose every trial failed requests: the result reports it with its errors
    and leaves it out of the curve (a point with errors is an answer, not a defect). Raises
    AssertionError naming what does not hold; returns the line the notebook prints."""
    assert all(c["ok"] for checks in result["verified"].values() for c in checks), \
        "a check before the trials failed"
    assert all(c["ok"] for t in result["trials"] for c in t["checks"]), \
        "a check before a trial failed"
    assert result["validity"]["valid"], result["validity"]["problems"]
    arms = [a["id"] for a in result["plan"]["arms"]]
    measured = {t["arm"] for t in result["trials"] if t["used"]}
    failed = {arm for arm in arms if arm not in measured and all(
        t["errors"] for t in result["trials"] if t["arm"] == arm)}
    unmeasured = [arm for arm in arms if arm not in measured and arm not in failed]
    assert not unmeasured, f"arms without a measurement or an error: {', '.join(unmeasured)}"
    assert not failed or result.get("kind") == "sweep", \
        f"arms whose every trial failed requests in a comparison: {', '.join(sorted(failed))}"
    if not failed:
        return "verified, valid, every arm measured"
    return (f"verified, valid, every arm measured except {', '.join(a for a in arms if a in failed)}"
            f" (every trial failed requests: reported first, left out of the curve)")
