"""Tuning Lab: run a recipe (one verified change, or a sweep of one setting, in randomized
blocks of trials) against a real WildFly + PostgreSQL stack and store the result.

The public surface, used by notebooks and the CLI:

    import tuninglab as tl
    result = tl.run("aa-noise", profile="quick")   # stores results/aa-noise/<time>-<host>.json
    print(tl.summary(result)); tl.plot_result(result)

Names load on first use: reading recipes and results (the site build) never imports Docker.
"""
from __future__ import annotations

import importlib

_EXPORTS = {
    "ChangeNotEffective": ("changes.checks", "ChangeNotEffective"),
    "RecipeError": ("recipe", "RecipeError"),
    "assert_sound": ("api", "assert_sound"),
    "comparison": ("report", "comparison"),
    "get_recipe": ("api", "get_recipe"),
    "latest_result": ("api", "latest_result"),
    "list_recipes": ("api", "list_recipes"),
    "load_result": ("api", "load_result"),
    "plot_courses": ("plot", "courses"),
    "plot_result": ("plot", "result_figure"),
    "plot_trials": ("plot", "trials"),
    "plot_warmup": ("plot", "warmup"),
    "recipe_markdown": ("narrative", "recipe_markdown"),
    "run": ("api", "run"),
    "summary": ("report", "summary"),
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'tuninglab' has no attribute {name!r}")
    module, attr = _EXPORTS[name]
    value = getattr(importlib.import_module(f".{module}", __name__), attr)
    globals()[name] = value
    return value
