"""Broken recipes of a client JVM's change (article 004's P3): client JVM options that are not
JVM options, a client change for an app that no client JVM drives, a thread kind the app does
not have, and a change of the app's parameter that nothing proves are refused by `validate`
and `run` with exit 2, naming the key and what is allowed, before any container."""
from __future__ import annotations

import shutil

import pytest

from advkit import assert_clean_error

from tuninglab import layout

ARTICLES = layout.REPO_ROOT / "recipes" / "articles"


@pytest.fixture
def remote(repo):
    """The throw-away repository with the remote app (as set-up built it) and the two client
    recipes."""
    shutil.copytree(layout.REPO_ROOT / "apps" / "remote", repo.root / "apps" / "remote",
                    ignore=shutil.ignore_patterns("src"))
    for rid in ("remote-client-collector", "remote-client-virtual-threads"):
        shutil.copytree(ARTICLES / rid, repo.root / "recipes" / "articles" / rid)
    return repo


def _edit(repo, rid: str, old: str, new: str) -> None:
    path = repo.root / "recipes" / "articles" / rid / "recipe.toml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must occur once in {rid}"
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.parametrize("rid", ["remote-client-collector", "remote-client-virtual-threads"])
def test_the_client_recipes_pass_offline(remote, rid):
    """The control for the cases below."""
    outcome = remote.cli("validate", rid)
    assert outcome.code == 0, outcome.text


@pytest.mark.parametrize("command", ["validate", "run"])
def test_client_options_with_shell_syntax(remote, command):
    _edit(remote, "remote-client-collector", '"-Xms256m -Xmx256m {value}"',
          '"-Xms256m -Xmx256m {value} $(id)"')
    assert_clean_error(remote.cli(command, "remote-client-collector"), 2,
                       "change.client_jvm_options", "shell syntax", "allowed")


def test_client_options_for_an_app_that_no_client_jvm_drives(remote):
    _edit(remote, "remote-client-collector", 'app = "remote"\n', "")  # the images' app (k6)
    _edit(remote, "remote-client-collector", 'mix = "call"', 'mix = "default"')
    assert_clean_error(remote.cli("validate", "remote-client-collector"), 2,
                       "change.kind client-jvm-options", "driven by k6",
                       'allowed: an app whose driver is a client JVM')


def test_a_thread_kind_the_app_does_not_have(remote):
    _edit(remote, "remote-client-virtual-threads", "virtual_threads = 1", "virtual_threads = 2")
    assert_clean_error(remote.cli("validate", "remote-client-virtual-threads"), 2,
                       "change.workload.virtual_threads", "2")


def test_a_change_of_the_app_s_parameter_that_nothing_proves(remote):
    _edit(remote, "remote-client-virtual-threads",
          '[change.client.baseline]\nthread_kind = "platform"\n\n'
          '[change.client.variant]\nthread_kind = "virtual"\n', "")
    assert_clean_error(remote.cli("validate", "remote-client-virtual-threads"), 2,
                       "change.client", "nothing proves the client ran it",
                       "allowed: [change.client.baseline]")


def test_what_a_client_reports_asked_of_an_app_that_k6_drives(remote):
    _edit(remote, "remote-client-virtual-threads", 'app = "remote"\n', "")
    _edit(remote, "remote-client-virtual-threads", 'mix = "call"', 'mix = "default"')
    _edit(remote, "remote-client-virtual-threads", "virtual_threads = 1",
          "requests_per_connection = 10")
    assert_clean_error(remote.cli("validate", "remote-client-virtual-threads"), 2,
                       "change.client", "driven by k6", "no client figures")
