"""The notebooks' check cell (api.assert_sound): a sweep's value whose every trial failed
requests is an answer (reported, left out of the curve), while an arm with no measurement
and no error, or a comparison's arm lost to errors, is not a sound run."""
from __future__ import annotations

import copy

import pytest

from tuninglab import api, layout

# The pool-size sweep whose 64-connection point failed requests in every trial.
SWEEP = layout.REPO_ROOT / "results/datasource-pool-size-sweep/20261127T235814Z-vm.json"


@pytest.fixture
def sweep():
    return api.load_result(SWEEP)


def test_a_sweep_with_a_failed_point_is_sound_and_says_which(sweep):
    assert "except 64" in api.assert_sound(sweep)


def test_a_sweep_with_every_point_measured_says_so(sweep):
    measured = copy.deepcopy(sweep)
    measured["trials"] = [t for t in measured["trials"] if t["arm"] != "64"]
    measured["plan"]["arms"] = [a for a in measured["plan"]["arms"] if a["id"] != "64"]
    assert api.assert_sound(measured) == "verified, valid, every arm measured"


def test_an_arm_without_measurement_or_error_fails(sweep):
    for trial in sweep["trials"]:
        if trial["arm"] == "64":
            trial["errors"] = []
    with pytest.raises(AssertionError, match="64"):
        api.assert_sound(sweep)


def test_a_comparison_that_lost_an_arm_to_errors_fails(sweep):
    sweep["kind"] = "ab"
    with pytest.raises(AssertionError, match="comparison"):
        api.assert_sound(sweep)


def test_a_failed_read_back_fails(sweep):
    sweep["trials"][0]["checks"] = [{"ok": False}]
    with pytest.raises(AssertionError, match="before a trial"):
        api.assert_sound(sweep)
