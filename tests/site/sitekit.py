"""Helpers shared by the site tests: where things are and a strict MkDocs build."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"


@dataclass
class Build:
    returncode: int
    output: str
    site_dir: Path
    seconds: float


def mkdocs_build(project: Path, site_dir: Path) -> Build:
    """``mkdocs build --strict`` of ``project`` into ``site_dir``, run from the project folder."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    began = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
        cwd=project, env=env, capture_output=True, text=True, timeout=600,
    )
    return Build(proc.returncode, proc.stdout + proc.stderr, site_dir, time.monotonic() - began)
