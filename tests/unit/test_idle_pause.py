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


def test_the_pool_ranges_fail_a_window_whose_pool_did_not_hold():
    from tuninglab.changes import database_read_back as read_back
    recipe = load_recipe(PAUSING)
    held = {"active_at_start": 16.0, "created": 0.0}
    emptied = {"active_at_start": 0.0, "created": 16.0}
    def run(variant, pool):
        return read_back.checks(recipe.change.pool, variant, pool, where="in the pool",
                                window_figures=read_back.POOL_FIGURES)
    assert all(c.ok for c in run(True, held)) and all(c.ok for c in run(False, emptied))
    # what the run of 6 December 2026 03:57 saw: the minimum alone emptied like the baseline
    assert [c.ok for c in run(True, emptied)] == [False, False]
    assert not all(c.ok for c in run(False, held))


def test_pool_ranges_need_the_pool_sampled(tmp_path):
    import shutil

    import pytest

    from tuninglab.recipe import RecipeError
    folder = tmp_path / "recipes" / "guide" / PAUSING.name
    shutil.copytree(PAUSING, folder)
    toml = folder / "recipe.toml"
    toml.write_text(toml.read_text().replace('runtime = ["datasource-pool"]', 'runtime = []'))
    with pytest.raises(RecipeError, match="change.pool.*datasource-pool"):
        load_recipe(folder)
