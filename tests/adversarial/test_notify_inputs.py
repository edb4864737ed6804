"""Broken notify recipes and app files (article 001's designs): a design the app does not have
is refused by `validate` and `run` with exit 2, naming the key, the value, the allowed words and
the app's file, before any container; an app.toml whose word-valued property lists no words is
named the same way."""
from __future__ import annotations

import shutil

import pytest

from advkit import assert_clean_error

from tuninglab import layout


@pytest.fixture
def notify(repo):
    """The throw-away repository with the notify app (as set-up built it) and its recipe."""
    shutil.copytree(layout.REPO_ROOT / "apps" / "notify", repo.root / "apps" / "notify",
                    ignore=shutil.ignore_patterns("src"))
    shutil.copytree(layout.REPO_ROOT / "recipes" / "articles" / "blog-notifier",
                    repo.root / "recipes" / "articles" / "blog-notifier")
    return repo


def _edit(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must occur once in {path.name}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_notify_recipe_passes_offline(notify):
    """The control for the cases below."""
    outcome = notify.cli("validate", "blog-notifier")
    assert outcome.code == 0, outcome.text


@pytest.mark.parametrize("command", ["validate", "run"])
def test_a_design_the_app_does_not_have(notify, command):
    _edit(notify.root / "recipes" / "articles" / "blog-notifier" / "recipe.toml",
          '"tl.notify.design" = "notifier"', '"tl.notify.design" = "one-thread"')
    assert_clean_error(notify.cli(command, "blog-notifier"), 2, "change.properties",
                       "tl.notify.design", "'one-thread'",
                       "allowed: per-session, notifier, virtual", "apps/notify/app.toml")


def test_a_word_valued_property_without_its_words(notify):
    _edit(notify.root / "apps" / "notify" / "app.toml",
          'enum = ["per-session", "notifier", "virtual"]\n', "")
    assert_clean_error(notify.cli("validate", "blog-notifier"), 2, "app.toml",
                       'properties.tl.notify.design.enum', "the list of allowed words")
