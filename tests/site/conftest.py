"""Fixtures of the site tests: one strict build of the site per session."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # sitekit, whatever the import mode

from sitekit import REPO, Build, mkdocs_build  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives Debian's chromium through Playwright")


@pytest.fixture(scope="session")
def build(tmp_path_factory) -> Build:
    """The repository's site, built once per session into a temporary folder."""
    return mkdocs_build(REPO, tmp_path_factory.mktemp("site") / "site")


@pytest.fixture(scope="session")
def site_dir(build) -> Path:
    """The built site; tests that need it fail at once if the build failed."""
    if build.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{build.output}", pytrace=False)
    return build.site_dir
