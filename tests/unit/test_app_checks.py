"""The app's own report proves a tl.* property: its value, and what the value must make the app
do (the shared cache mode must put an Item in the second-level cache, or keep it out)."""
from __future__ import annotations

import pytest

from tuninglab.changes import model
from tuninglab.jboss_cli import Operation

MODE = "tl.jpa.shared_cache_mode"
OP = Operation((("system-property", MODE),), "add", {"value": "ENABLE_SELECTIVE"}, "change")


def _checks(monkeypatch, report: dict, applied: bool, existed: bool = False):
    monkeypatch.setattr(model, "app_config", lambda base_url: report)
    before = {model.target(OP): model.Recorded(existed=existed)}
    return model.app_checks(None, "http://node", [OP], applied, before)


@pytest.mark.parametrize("applied, mode, cached, ok", [
    (True, "ENABLE_SELECTIVE", True, True),
    (True, "ENABLE_SELECTIVE", False, False),  # the unit got the mode, the cache holds nothing
    (False, "NONE", False, True),
    (False, "NONE", True, False),  # back to the default, yet Items are still cached
])
def test_the_cache_mode_is_proven_by_the_cache_itself(monkeypatch, applied, mode, cached, ok):
    checks = _checks(monkeypatch, {"hibernate": {"shared_cache_mode": mode,
                                                 "second_level_cache": cached}}, applied)
    effect = [c for c in checks if "second_level_cache" in c.what]
    assert len(effect) == 1 and effect[0].ok is ok, checks
    assert all(c.ok for c in checks if c not in effect)


def test_a_property_without_an_effect_is_checked_by_its_value_only(monkeypatch):
    op = Operation((("system-property", "tl.app.log_each_transaction"),), "add",
                   {"value": "true"}, "change")
    monkeypatch.setattr(model, "app_config", lambda base_url: {"app": {"log_each_transaction": True}})
    checks = model.app_checks(None, "http://node", [op], True, {})
    assert [c.ok for c in checks] == [True]
