"""Where the project's files are: the library's own files, and the workspace a user works in.

The library's root (``REPO_ROOT``) holds the image contexts, the workloads and the lab's own
app. Installed editable from its repository, that is the checkout (the package's
parent); installed as a package, the copy of those files the package carries
(``tuninglab/_library/``, made by setup.py when the wheel is built), with the same relative
paths, so the command works from any folder and hashes the stack's inputs alike. A
**workspace** owns what a user adds and measures: ``recipes/``, ``apps/``, ``server-modules/``
and ``results/``. It is the folder ``TUNINGLAB_WORKSPACE`` (``tuninglab --workspace DIR``)
names; else the nearest folder, from the current one upward, that holds both ``recipes/`` and
``apps/`` (what ``tuninglab init`` writes, and this checkout), as git finds its repository;
else the checkout. A user's own apps and recipes never go into the library's tree: the copy an
installed package carries is never a workspace (``carried_library``), so a command run outside
any workspace says so instead of writing results into the package.
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
    if override:
        return Path(override).resolve()
    return find_workspace(Path.cwd()) or REPO_ROOT


def find_workspace(start: Path) -> Path | None:
    """The nearest folder from ``start`` upward holding both recipes/ and apps/, or None."""
    for folder in (start.resolve(), *start.resolve().parents):
        if (folder / "recipes").is_dir() and (folder / "apps").is_dir():
            return folder
    return None


def carried_library() -> bool:
    """Whether the workspace would be the copy of the library an installed package carries:
    its catalogue names apps the package does not carry, and its results/ would be written
    inside the Python installation, so no command may use it as a workspace."""
    return workspace() == _CARRIED.resolve()


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
