"""The pieces of article 001's recipes without a server: what an app's own script finds wrong
after a window (a failed back-end call) fails the window and a smoke test, its figures are kept
with the window, and a property that takes a word is checked against its list."""
from __future__ import annotations

import pytest

from tuninglab import apps, layout, load
from tuninglab.analysis import trial_errors
from tuninglab.changes.model import declared_property_problem
from tuninglab.jboss_cli import Operation
from tuninglab.recipe import load_recipe

FIGURES = {"sessions": 200, "backend_calls": 12000, "backend_failed": 0, "jvm_threads_peak": 260}
SUMMARY = {"transactions": {"Page": {"count": 2, "failed": 0, "latency_ms": {}}},
           "trial_s": 1, "app": FIGURES, "problems": []}


def _recipe():
    return load_recipe(layout.recipes_dir() / "articles" / "blog-notifier")


def test_the_apps_figures_are_kept_and_its_problems_fail_the_window():
    clean = load.load_metrics(SUMMARY)
    assert clean["app"] == FIGURES and trial_errors(_recipe(), clean) == []
    failed = load.load_metrics({**SUMMARY, "problems": ["3 of 12000 back-end calls failed"]})
    assert trial_errors(_recipe(), failed) == ["3 of 12000 back-end calls failed"]


def test_a_smoke_test_whose_back_end_failed_fails_before_anything_is_measured(monkeypatch):
    class Driver:
        def smoke(self, client, spec, rounds):
            return {**SUMMARY, "problems": ["1 of 2 back-end calls failed"]}
    monkeypatch.setattr(load, "driver_for", lambda app: Driver())
    app = apps.load("notify", _recipe().repo_root)
    with pytest.raises(load.SmokeTestFailed, match="1 of 2 back-end calls failed"):
        load.smoke_test(None, app=app)


def _design(value: str) -> Operation:
    return Operation((("system-property", "tl.notify.design"),), "add", {"value": value},
                     "change.properties.tl.notify.design")


def test_a_word_valued_property_takes_only_its_words():
    app = apps.load("notify", _recipe().repo_root)
    assert declared_property_problem(_design("notifier"), app) is None
    problem = declared_property_problem(_design("threads"), app)
    assert "'threads'" in problem and "allowed: per-session, notifier, virtual" in problem


@pytest.mark.parametrize("fragment, words", [
    ({"type": "string", "description": "d", "default": "a"}, "enum: required for a string"),
    ({"type": "string", "enum": ["a", "b"], "default": "c", "description": "d"},
     "default: 'c'; allowed: a, b"),
    ({"type": "string", "enum": ["a"], "minimum": 1, "description": "d"},
     "a string takes no bound"),
])
def test_a_word_valued_property_must_list_its_words(fragment, words):
    problems = apps._parameter_problems({"tl.x.y": fragment}, "properties")
    assert len(problems) == 1 and words in problems[0]
    assert apps._parameter_problems(
        {"tl.x.y": {"type": "string", "enum": ["a", "b"], "default": "a", "description": "d"}},
        "properties") == []
