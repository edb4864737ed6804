"""A load curve read the thesis's way (site/peak_table.py): every choice of n complete blocks
is n repetitions of the ramp, the peak of their averages is taken, and its spread and median
are set beside the best point of the run's stored curve (the figure its result block shows).
Blocks missing a level are left out."""
from __future__ import annotations

import pytest

from tuninglab.site import peak_table
from tuninglab.site.markers import find_markers


def _result(rows):
    """rows: {rate: {block: throughput}} of the baseline arm (a variant arm beside it too)."""
    arms, trials = [], []
    for rate, blocks in rows.items():
        for level in ("baseline", "variant"):
            arm_id = f"{level}/rate={rate}"
            arms.append({"id": arm_id, "level": level, "load": {"rate": rate}})
            for block, value in blocks.items():
                trials.append({"arm": arm_id, "block": block, "used": True,
                               "metrics": {"throughput": value if level == "baseline" else 1.0}})
    trials.append({"arm": "baseline/rate=50", "block": 0, "used": False,  # a re-run window
                   "metrics": {"throughput": 999.0}})
    curve = {"level": "baseline", "metric": "throughput", "key": "rate",
             "points": [{"load": {"rate": rate}, **point} for rate, point in CURVE.items()]}
    return {"plan": {"load_key": "rate", "arms": arms}, "trials": trials,
            "analysis": {"curves": [curve]}}


# The run's stored baseline curve (analysis/curves.py): each level's mean and interval.
CURVE = {50: {"mean": 50.0, "ci_low": 50.0, "ci_high": 50.0},
         100: {"mean": 100.0, "ci_low": 90.0, "ci_high": 110.0},
         150: {"mean": 90.0, "ci_low": 60.0, "ci_high": 120.0}}

ROWS = {50: {0: 50.0, 1: 50.0, 2: 50.0, 3: 50.0},
        100: {0: 90.0, 1: 100.0, 2: 110.0, 3: 100.0},
        150: {0: 80.0, 1: 120.0, 2: 70.0},  # block 3 missing: not a whole ramp
        }


def test_the_baseline_arms_used_trials_by_level_and_block():
    key, series = peak_table.level_series(_result(ROWS))
    assert key == "rate" and list(series) == [50.0, 100.0, 150.0]
    assert series[50.0][0] == 50.0  # the unused re-run window is not read
    assert peak_table.complete_blocks(series) == [0, 1, 2]


def test_every_choice_of_blocks_gives_the_peak_of_its_averages():
    _, series = peak_table.level_series(_result(ROWS))
    found = sorted(peak_table.peaks(series, [0, 1, 2], 2))
    # blocks (0,1): 100 -> 95, 150 -> 100; (0,2): 100 -> 100, 150 -> 75; (1,2): 105 vs 95
    assert found == [(100.0, 100.0), (100.0, 150.0), (105.0, 100.0)]


def test_the_reading_gives_the_spread_and_where_the_median_lies():
    result = _result(ROWS)
    _, series = peak_table.level_series(result)
    points = peak_table.curve_points(result)
    assert points[100.0]["mean"] == 100.0 and set(points) == set(series)
    blocks = [0, 1, 2]
    words = peak_table.reading(points, blocks, 2, peak_table.peaks(series, blocks, 2), "rate")
    assert "3 ways to pick 2 of the run's 3 complete blocks" in words
    assert "from 100.0 to 105.0 (median 100.0" in words
    assert "is 100.0 [90.0, 110.0] at 100" in words and "inside its interval" in words


def test_the_table_shows_the_curves_figures_not_figures_of_its_own(monkeypatch):
    monkeypatch.setattr(peak_table.results, "is_valid", lambda result: True)
    text = peak_table.render(_Site(_result(ROWS)), "arrival repetitions 2", "x.md")
    assert "| 150 | 90.0 [60.0, 120.0] | 70.0 to 120.0 |" in text


class _Site:
    def __init__(self, result):
        self.result = result

    def newest(self, recipe_id):
        return ("x.json", self.result)


@pytest.mark.parametrize("spec, words", [("arrival 3", "Marker not understood"),
                                         ("arrival repetitions 0", "Marker not understood")])
def test_a_malformed_marker_is_shown_as_such(spec, words):
    assert words in peak_table.render(None, spec, "x.md")


def test_too_few_complete_blocks_are_said_so(monkeypatch):
    monkeypatch.setattr(peak_table.results, "is_valid", lambda result: True)
    text = peak_table.render(_Site(_result(ROWS)), "arrival repetitions 3", "x.md")
    assert "Not enough to read" in text and "3 blocks" in text


def test_the_marker_is_found():
    assert find_markers("<!-- peak-of-averages: arrival-rate-admission repetitions 3 -->") == [
        (0, "peak-of-averages", "arrival-rate-admission repetitions 3")]
