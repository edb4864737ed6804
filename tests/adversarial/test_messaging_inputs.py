"""Broken messaging recipes: what the broker or the messages app cannot do is refused by
`validate` and `run` with exit 2, naming the file, the key and what is allowed, before any
container: a consumer with no session, a queue the broker will not have, and a drain rate
without a drain."""
from __future__ import annotations

import shutil

import pytest

from advkit import assert_clean_error

from tuninglab import layout

RECIPES = layout.REPO_ROOT / "recipes" / "guide"


@pytest.fixture
def messaging(repo):
    """The throw-away repository with the messages app (as set-up built it) and two of its
    recipes: the sessions' sweep and the file journal against the JDBC store."""
    shutil.copytree(layout.REPO_ROOT / "apps" / "messages", repo.root / "apps" / "messages",
                    ignore=shutil.ignore_patterns("src"))
    for name in ("mdb-max-session", "jms-jdbc-journal"):
        shutil.copytree(RECIPES / name, repo.root / "recipes" / "guide" / name)
    return repo


def _edit(repo, recipe: str, name: str, old: str, new: str) -> None:
    path = repo.root / "recipes" / "guide" / recipe / name
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must occur once in {name}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_messaging_recipes_pass_offline(messaging):
    """The control for the cases below."""
    for name in ("mdb-max-session", "jms-jdbc-journal"):
        outcome = messaging.cli("validate", name)
        assert outcome.code == 0, outcome.text


@pytest.mark.parametrize("command", ["validate", "run"])
def test_a_consumer_without_a_session(messaging, command):
    _edit(messaging, "mdb-max-session", "recipe.toml", "values = [1, 2, 4, 8, 15, 32]",
          "values = [0, 2, 4, 8, 15, 32]")
    assert_clean_error(messaging.cli(command, "mdb-max-session"), 2, "change.cli",
                       "tl.mdb.max_session", "'0'", "allowed: an integer from 1 to 1000",
                       "apps/messages/app.toml")


def test_a_queue_the_broker_does_not_have(messaging):
    _edit(messaging, "jms-jdbc-journal", "change.cli", "server=default:write-attribute",
          "server=default/jms-queue=orders:write-attribute")
    assert_clean_error(messaging.cli("validate", "jms-jdbc-journal"), 2,
                       "jms-queue 'orders'", "no such destination",
                       "allowed: DLQ, ExpiryQueue, tlWork", "apps/messages/setup.cli")


def test_a_drain_rate_without_a_drain(messaging):
    _edit(messaging, "jms-jdbc-journal", "recipe.toml", 'primary = "throughput"',
          'primary = "drain_rate"')
    assert_clean_error(messaging.cli("validate", "jms-jdbc-journal"), 2, "metrics.primary",
                       "'drain_rate'", "fills no queue", "workload.fill = 0")


def test_a_course_of_the_broker_on_nodes_without_one(repo):
    """metrics.courses reads the bean's pool and the broker's queues: a recipe whose nodes run
    standalone.xml (no broker) is refused with the key and what is allowed."""
    path = repo.root / "recipes" / "guide" / "pool-size" / "recipe.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("[metrics]\n", '[metrics]\ncourses = ["mdb-pool"]\n', 1),
                    encoding="utf-8")
    assert_clean_error(repo.cli("validate", "pool-size"), 2, "metrics.courses", "'mdb-pool'",
                       "no broker", "allowed: an app whose app.toml names standalone-full.xml")
