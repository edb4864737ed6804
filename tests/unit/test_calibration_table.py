"""Which value of a sweep stands R times below its largest (site/calibration_table.py): the
ratios invert the sweep's intervals against its best, a value whose interval holds R is named,
otherwise the bracketing values and an interpolation, and a sweep whose largest value was not
the best is refused rather than read against the wrong value."""
from __future__ import annotations

import pytest

from tuninglab.site import calibration_table
from tuninglab.site.markers import find_markers


def _point(delta, low, high):
    return {"delta": delta, "ci_low": low, "ci_high": high}


# Throughput against the whole core's: -80 % is a ratio of 5, -75 % of 4, -70 % of 3.33.
CURVE = {"best": "1", "against_best": {
    "0.3": _point(-0.80, -0.81, -0.79), "0.35": _point(-0.75, -0.77, -0.73),
    "0.4": _point(-0.70, -0.72, -0.68), "1": {"delta": 0.0, "ci_low": 0.0, "ci_high": 0.0}}}


def test_ratios_invert_the_interval_against_the_best():
    rows, top = calibration_table.ratios(CURVE)
    assert top == 1.0 and [v for v, _ in rows] == [0.3, 0.35, 0.4]
    ratio, low, high = dict(rows)[0.35]
    assert ratio == pytest.approx(4.0)
    assert low == pytest.approx(1 / 0.27) and high == pytest.approx(1 / 0.23)


def test_the_value_whose_interval_holds_the_ratio_stands_in():
    rows, top = calibration_table.ratios(CURVE)
    words = calibration_table.reading(rows, top, 4.16)
    assert "inside the interval of 0.35" in words and "0.3 " not in words


def test_between_two_values_the_estimate_is_said_to_be_one():
    narrow = {"best": "1", "against_best": {
        "0.3": _point(-0.80, -0.801, -0.799), "0.4": _point(-0.70, -0.701, -0.699),
        "1": {"delta": 0.0, "ci_low": 0.0, "ci_high": 0.0}}}
    rows, top = calibration_table.ratios(narrow)
    words = calibration_table.reading(rows, top, 4.16)
    assert "between 0.3 (5.00) and 0.4 (3.33)" in words and "an estimate" in words
    # log-linear: log(5/4.16)/log(5/3.33) of the way from 0.3 to 0.4
    assert "about 0.35" in words


def test_a_ratio_the_sweep_does_not_reach_asks_for_wider_values():
    rows, top = calibration_table.ratios(CURVE)
    assert "must be widened" in calibration_table.reading(rows, top, 9.0)


def test_a_sweep_whose_largest_value_was_not_the_best_is_not_read():
    with pytest.raises(ValueError, match="largest value .1. was not the best"):
        calibration_table.ratios({**CURVE, "best": "0.4"})


def test_the_marker_is_found_and_a_malformed_one_is_shown_as_such():
    assert find_markers("<!-- calibration: node-calibration ratio 4.16 -->") == [
        (0, "calibration", "node-calibration ratio 4.16")]
    assert "Marker not understood" in calibration_table.render(None, "node-calibration 4.16", "x.md")
