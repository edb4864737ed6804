"""A workload's pause before each window (workload.idle_before_s): the published profile keeps
it as the recipe asks (the pause is what the recipe measures after), CI's profile caps it so a
notebook fits its budget; and the pool's figures at a window's start say what the pause left."""
from __future__ import annotations

from tuninglab import layout, telemetry
from tuninglab.recipe import load_recipe

PAUSING = layout.REPO_ROOT / "recipes" / "guide" / "datasource-min-pool-size"


def test_the_published_profile_keeps_the_pause_and_ci_caps_it():
    recipe = load_recipe(PAUSING)
    asked = recipe.workload.idle_before_s
    assert asked > 60  # past the one-minute idle timeout its baseline sets
    assert recipe.profile("full").idle_s(asked) == asked
    capped = recipe.profile("quick").idle_s(asked)
    assert 0 < capped < asked
    assert recipe.profile("quick").idle_s(2) == 2  # a short pause is not lengthened


def test_a_window_records_the_connections_it_found_and_opened():
    before = {"ActiveCount": 0, "CreatedCount": 16, "TotalCreationTime": 2040,
              "TotalBlockingTime": 0, "WaitCount": 0}
    after = {"ActiveCount": 16, "CreatedCount": 32, "TotalCreationTime": 4100,
             "TotalBlockingTime": 30, "WaitCount": 2}
    window = telemetry._pool_window(before, after, transactions=100)
    assert window["active_at_start"] == 0 and window["active"] == 16
    assert window["created"] == 16 and window["creation_ms"] == 2060
    summed = telemetry._summed([(before, after), (after, after)])
    assert telemetry._pool_window(*summed, transactions=100)["created"] == 16
