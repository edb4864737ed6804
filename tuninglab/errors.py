"""Errors a user can cause or fix, each with its CLI exit code (cli.py maps them).

Only failure classes that several modules raise live here; a module's own error stays with it
(RecipeError in recipe.py, ResultError in store.py, ChangeNotEffective in changes/checks.py).
"""
from __future__ import annotations

__all__ = ["DirtyTree"]


class DirtyTree(RuntimeError):
    """A run meant for the site, from a tree whose measured inputs have uncommitted changes."""
