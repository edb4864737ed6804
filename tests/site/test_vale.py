"""Prose lint: Vale with the project's own style reports no error on docs/, and the style fires.

The Vale binary comes from $VALE or ~/.cache/tuninglab/bin/vale (scripts/setup.sh builds it).
A missing binary is a failure, not a skip: CI installs it, so absence means a broken setup.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sitekit import REPO


def _vale() -> str:
    candidates = [os.environ.get("VALE"), str(Path.home() / ".cache/tuninglab/bin/vale"), shutil.which("vale")]
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    pytest.fail(
        "Vale not found: set VALE=/path/to/vale, or run `bash scripts/setup.sh`, which builds it "
        "into ~/.cache/tuninglab/bin/vale (go install github.com/vale-cli/vale/v3/cmd/vale@v3.22.0)",
        pytrace=False,
    )


def _alerts(*paths: Path) -> list[dict]:
    """Vale's alerts for the given files or folders, as dicts with the file name added."""
    proc = subprocess.run(
        [_vale(), "--config", str(REPO / ".vale.ini"), "--output=JSON", "--no-exit", *map(str, paths)],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, f"vale failed to run:\n{proc.stdout}\n{proc.stderr}"
    report = json.loads(proc.stdout or "{}")
    return [dict(alert, File=name) for name, alerts in report.items() for alert in alerts]


def _show(alerts: list[dict]) -> str:
    return "\n".join(f"{a['File']}:{a['Line']}:{a['Span'][0]} {a['Severity']} {a['Check']}: {a['Message']}"
                     for a in alerts)


def test_docs_have_no_vale_errors():
    errors = [a for a in _alerts(REPO / "docs") if a["Severity"] == "error"]
    assert not errors, "Vale errors in docs/:\n" + _show(errors)


def test_style_fires_on_a_bad_sentence(tmp_path):
    page = tmp_path / "bad.md"
    page.write_text("# Bad\n\nSimply set the Wildfly pool in Postgres to 30secs.\n", encoding="utf-8")
    alerts = _alerts(page)
    found = {(a["Check"], a["Match"]) for a in alerts if a["Severity"] == "error"}
    expected = {
        ("TuningLab.Hedges", "Simply"),
        ("TuningLab.ProductNames", "Wildfly"),
        ("TuningLab.ProductNames", "Postgres"),
        ("TuningLab.Units", "30secs"),
    }
    assert expected <= found, "missing alerts:\n" + _show(alerts)


def test_style_accepts_the_good_version(tmp_path):
    page = tmp_path / "good.md"
    page.write_text(
        "# Good\n\nSet the WildFly pool in PostgreSQL to 30 s, with jboss-cli and Hibernate ORM.\n",
        encoding="utf-8",
    )
    assert not _alerts(page), _show(_alerts(page))


def test_historical_names_warn_unless_marked_as_old(tmp_path):
    page = tmp_path / "old.md"
    page.write_text(
        "# Old names\n\nTune HornetQ for the journal.\n\n"
        "The guide tuned HornetQ, which WildFly replaced with ActiveMQ Artemis.\n",
        encoding="utf-8",
    )
    hits = [a for a in _alerts(page) if a["Check"] == "TuningLab.HistoricalNames"]
    assert [(a["Line"], a["Severity"]) for a in hits] == [(3, "warning")], _show(hits)


def test_code_and_snippet_lines_are_not_prose(tmp_path):
    page = tmp_path / "code.md"
    page.write_text(
        "# Code\n\nThe file `wildfly.cli` sets `max-pool-size`.\n\n"
        '--8<-- "recipes/guide/postgres-thing/change.cli"\n\n'
        "```text\nsimply 512mb Wildfly\n```\n",
        encoding="utf-8",
    )
    assert not _alerts(page), _show(_alerts(page))
