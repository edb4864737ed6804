"""Where the project's files are: the repository root and its well-known folders.

The library is installed editable from the repository, so the root is the package's parent.
`TUNINGLAB_RESULTS_DIR` redirects where results are written (tests use a temporary folder so a
test run never adds files to the repository's `results/`).
"""
from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def recipes_dir() -> Path:
    return REPO_ROOT / "recipes"


def workloads_dir() -> Path:
    return REPO_ROOT / "workloads"


def results_dir() -> Path:
    override = os.environ.get("TUNINGLAB_RESULTS_DIR")
    return Path(override) if override else REPO_ROOT / "results"


def cache_dir() -> Path:
    """Downloads, tools and cached answers (scripts/setup.sh uses the same folder)."""
    override = os.environ.get("TUNINGLAB_CACHE")
    return Path(override) if override else Path.home() / ".cache" / "tuninglab"
