"""The workflow files a hosted CI would run (.github/workflows): valid for GitHub Actions as
actionlint reads them (this machine cannot run them), and running what the README says: the
test command on pull requests, the site built from main."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sitekit import REPO

WORKFLOWS = REPO / ".github" / "workflows"


def _actionlint() -> str:
    candidates = [os.environ.get("ACTIONLINT"),
                  str(Path(os.environ.get("TUNINGLAB_CACHE", Path.home() / ".cache" / "tuninglab"))
                      / "bin" / "actionlint"), shutil.which("actionlint")]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return candidate
    pytest.fail("actionlint is missing: scripts/test.sh builds it (go install "
                "github.com/rhysd/actionlint/cmd/actionlint)")


def test_the_workflows_pass_actionlint():
    files = sorted(WORKFLOWS.glob("*.yml"))
    assert [f.name for f in files] == ["site.yml", "test.yml"]
    done = subprocess.run([_actionlint(), "-no-color", *map(str, files)], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_workflows_run_the_readme_s_commands():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "bash scripts/test.sh" in readme
    test = (WORKFLOWS / "test.yml").read_text(encoding="utf-8")
    assert "pull_request:" in test and "bash scripts/test.sh" in test
    site = (WORKFLOWS / "site.yml").read_text(encoding="utf-8")
    assert "mkdocs build --strict" in site and "actions/deploy-pages" in site
    assert "branches: [main]" in site
