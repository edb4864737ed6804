"""Tuning Lab: run a recipe (one verified change, interleaved trials, a delta with its
confidence interval) against a real WildFly + PostgreSQL stack and store the result.

The public surface, used by notebooks and the CLI:

    import tuninglab as tl
    result = tl.run("aa-noise", profile="quick")   # stores results/aa-noise/<time>-<host>.json
    print(tl.summary(result)); tl.plot_trials(result)
"""
from .api import get_recipe, latest_result, list_recipes, load_result, run
from .changes import ChangeNotEffective
from .plot import deltas as plot_deltas
from .plot import trials as plot_trials
from .recipe import RecipeError
from .report import comparison, summary

__all__ = [
    "ChangeNotEffective",
    "RecipeError",
    "comparison",
    "get_recipe",
    "latest_result",
    "list_recipes",
    "load_result",
    "plot_deltas",
    "plot_trials",
    "run",
    "summary",
]
