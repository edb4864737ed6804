"""Broken change and baseline files: `validate` parses them with the parser `run` uses, so a
defect is exit 2 with the file, the line and what is allowed, before any container."""
from __future__ import annotations

import pytest

from advkit import assert_clean_error

GOOD_LINE = "/subsystem=datasources/data-source=OrderDS:write-attribute(name=max-pool-size, value=40)"

# (case, content of change.cli, what the message must name)
CLI_CASES = [
    ("a reload", f"{GOOD_LINE}\nreload\n", ["change.cli:2", "reloads by itself"]),
    ("no operation", "/subsystem=datasources/data-source=OrderDS\n", ["change.cli:1", ":operation"]),
    ("an unsupported operation", "/subsystem=datasources:read-resource\n",
     ["read-resource", "allowed: write-attribute"]),
    ("only comments", "# nothing here\n# at all\n", ["change.cli", "no operation found"]),
    ("an empty file", "", ["change.cli", "no operation found"]),
    ("unbalanced parentheses", GOOD_LINE.rstrip(")") + "\n", ["unbalanced parentheses"]),
    ("an address element without =", "/subsystem:write-attribute(name=a,value=b)\n",
     ["address element", "type=name"]),
    ("a parameter without =", "/subsystem=x:write-attribute(name)\n", ["name=value"]),
    ("a batch", f"batch\n{GOOD_LINE}\nrun-batch\n", ["change.cli:1", "batch"]),
    ("an if block", f"if (outcome == success) of /subsystem=x:read-resource\n{GOOD_LINE}\nend-if\n",
     ["change.cli:1"]),
]


@pytest.mark.parametrize("content, needles", [c[1:] for c in CLI_CASES],
                         ids=[c[0] for c in CLI_CASES])
@pytest.mark.parametrize("command", ["validate", "run"])
def test_a_broken_change_cli(repo, content, needles, command):
    repo.write("change.cli", content)
    assert_clean_error(repo.cli(command, "pool-size"), 2, "recipe.toml", *needles)


def test_a_change_cli_that_is_not_utf8(repo):
    repo.write("change.cli", b"/subsystem=x:write-attribute(name=a,value=\xff)\n")
    assert_clean_error(repo.cli("validate", "pool-size"), 2, "change.cli", "UTF-8")


@pytest.mark.parametrize("content, needles", [
    (f"{GOOD_LINE}\nreload\n", ["baseline.cli", "reloads by itself"]),
    ("", ["baseline.cli", "no operation found"]),
    (b"/subsystem=x:write-attribute(name=a,value=\xfe)\n", ["baseline.cli", "UTF-8"]),
], ids=["a reload", "empty", "not UTF-8"])
def test_a_broken_baseline_cli(repo, content, needles):
    repo.write("baseline.cli", content)
    assert_clean_error(repo.cli("validate", "pool-size"), 2, *needles)


def _pg_recipe(repo, fragment: str | bytes, baseline: str | bytes | None = None):
    """Turn the sample into a postgresql-conf recipe with this fragment."""
    repo.write("change.conf", fragment)
    repo.edit('kind = "jboss-cli"\nfile = "change.cli"', 'kind = "postgresql-conf"\nfile = "change.conf"')
    if baseline is not None:
        repo.write("baseline.conf", baseline)
        repo.edit('cli = "baseline.cli"', 'cli = "baseline.cli"\npg_conf = "baseline.conf"')


@pytest.mark.parametrize("fragment, needles", [
    ("synchronous_commit off\n", ["change.conf:1", "expected 'name = value'"]),
    ("# only a comment\n", ["change.conf", "no setting found"]),
    ("", ["change.conf", "no setting found"]),
    (b"work_mem = '\xff'\n", ["change.conf", "UTF-8"]),
], ids=["a line without =", "only comments", "empty", "not UTF-8"])
def test_a_broken_postgresql_fragment(repo, fragment, needles):
    _pg_recipe(repo, fragment)
    assert_clean_error(repo.cli("validate", "pool-size"), 2, *needles)


def test_a_broken_postgresql_baseline(repo):
    _pg_recipe(repo, "synchronous_commit = off\n", baseline="shared_buffers 128MB\n")
    assert_clean_error(repo.cli("validate", "pool-size"), 2, "baseline.conf:1", "name = value")


def test_a_good_postgresql_fragment_passes(repo):
    """The control for the cases above: the same recipe with a well-formed fragment."""
    _pg_recipe(repo, "synchronous_commit = off\n")
    outcome = repo.cli("validate", "pool-size")
    assert outcome.code == 0, outcome.text
