"""Where the project's files are: the library's own files, and the workspace a user works in.

The library's root (``REPO_ROOT``) holds the image contexts, the workloads and the app baked
into the images. Installed editable from its repository, that is the checkout (the package's
parent); installed as a package, the copy of those files the package carries
(``tuninglab/_library/``, made by setup.py when the wheel is built), with the same relative
paths, so the command works from any folder and hashes the stack's inputs alike. A
**workspace** owns what a user adds and measures: ``recipes/``, ``apps/``, ``server-modules/``
and ``results/``. It is this checkout unless ``TUNINGLAB_WORKSPACE`` (``tuninglab --workspace
DIR``) names another folder, so a user's own apps and recipes never go into the library's tree.
`TUNINGLAB_RESULTS_DIR` redirects where results are written (tests use a temporary folder so a
test run never adds files to the repository's `results/`).
"""
from __future__ import annotations

import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
# An installed package has its copy of the library's files and no checkout around it; anything
# else (a checkout, or a partial copy of one such as the site tests' fixture project) is read
# beside the package.
_CARRIED = PACKAGE / "_library"
REPO_ROOT = (_CARRIED if _CARRIED.is_dir() and not (PACKAGE.parent / "images").is_dir()
             else PACKAGE.parent)
WORKSPACE_ENV = "TUNINGLAB_WORKSPACE"


def workspace() -> Path:
    """The folder holding the recipes, apps, server modules and results a run uses."""
    override = os.environ.get(WORKSPACE_ENV)
    return Path(override).resolve() if override else REPO_ROOT


def recipes_dir() -> Path:
    return workspace() / "recipes"


def workloads_dir() -> Path:
    return REPO_ROOT / "workloads"


def results_dir() -> Path:
    override = os.environ.get("TUNINGLAB_RESULTS_DIR")
    return Path(override) if override else workspace() / "results"


def cache_dir() -> Path:
    """Downloads, tools and cached answers (scripts/setup.sh uses the same folder)."""
    override = os.environ.get("TUNINGLAB_CACHE")
    return Path(override) if override else Path.home() / ".cache" / "tuninglab"
