"""Two changes alone against both together (analysis/parts.py, site/parts_table.py): the
prediction multiplies the parts, the interaction's interval combines three runs' errors, and
the page's table says which way the pair went, or that a result is missing."""
import math

import pytest

from tuninglab import stats
from tuninglab.analysis import parts
from tuninglab.site import parts_table
from tuninglab.site.markers import expand_markers


def entry(change: float, half_width_log: float, df: float = 19.0, confidence: float = 0.95):
    """A stored relative comparison: a t interval symmetric on the log-ratio scale."""
    centre = math.log1p(change)
    return {"delta": change, "delta_kind": "relative", "df": df, "confidence": confidence,
            "ci_low": math.expm1(centre - half_width_log),
            "ci_high": math.expm1(centre + half_width_log)}


def test_the_standard_error_comes_back_from_the_stored_interval():
    found = parts.log_effect(entry(0.10, 0.05, df=11.0))
    assert found.centre == pytest.approx(math.log(1.10))
    assert found.se == pytest.approx(0.05 / stats.t_quantile(0.95, 11.0))


def test_parts_that_multiply_show_no_interaction():
    both = entry(1.10 * 1.05 - 1, 0.04)
    found = parts.combine([entry(0.10, 0.04), entry(0.05, 0.04)], both)
    assert found.predicted.interval()[0] == pytest.approx(0.155)
    change, low, high = found.interaction.interval()
    assert change == pytest.approx(0.0, abs=1e-12)
    # three errors in quadrature: wider than any one run's
    assert high - low > 2 * 0.04
    assert "as their parts predict" in found.reading()


def test_a_pair_far_above_its_parts_is_an_interaction():
    found = parts.combine([entry(0.0, 0.03), entry(0.04, 0.03)], entry(0.50, 0.03))
    assert found.interaction.interval()[1] > 0
    assert found.reading().startswith("Together the changes gave more than")
    below = parts.combine([entry(0.20, 0.03), entry(0.20, 0.03)], entry(0.0, 0.03))
    assert below.reading().startswith("Together the changes gave less than")


def test_only_relative_changes_with_bounded_intervals_combine():
    with pytest.raises(ValueError, match="relative"):
        parts.log_effect({**entry(0.1, 0.05), "delta_kind": "absolute"})
    with pytest.raises(ValueError, match="unbounded"):
        parts.log_effect({**entry(0.1, 0.05), "ci_low": None})


class FakeSite:
    def __init__(self, results: dict):
        self.results = results

    def newest(self, recipe_id):
        found = self.results.get(recipe_id)
        return None if found is None else (None, found)


def stored(change: float, metric: str = "throughput", confidence: float = 0.95) -> dict:
    return {"primary_metric": metric, "verdict": "better",
            "analysis": {"comparisons": [{"metrics": {metric: entry(change, 0.04,
                                                                   confidence=confidence)}}]}}


def test_the_page_table_reads_the_three_newest_results():
    site = FakeSite({"a": stored(0.02), "b": stored(0.05, confidence=0.978), "ab": stored(0.07)})
    page = expand_markers("# T\n\n<!-- parts: a + b = ab -->\n", "thesis/x.md", site)
    assert "| the first change alone | `a` | +2.0 % [" in page
    assert "] | 95 % |" in page
    assert "| what the parts predict for both, (1 + a)(1 + b) − 1 | | +7.1 % [" in page
    assert "] | 95 %, combined |" in page
    assert "| both changes, measured | `ab` | +7.0 % [" in page
    assert "interaction: both, against the prediction" in page
    assert "as their parts predict" in page
    assert "] | 97.8 % |" in page  # a run stopped at a look keeps its look's level


def test_a_missing_or_unlike_result_is_said_not_computed():
    site = FakeSite({"a": stored(0.02), "ab": stored(0.07)})
    assert "No valid full result of `b`" in parts_table.render(site, "a + b = ab", "x.md")
    site.results["b"] = stored(0.05, metric="cpu_per_tx")
    assert "primary metrics differ" in parts_table.render(site, "a + b = ab", "x.md")
    assert "Marker not understood" in parts_table.render(site, "a + b", "x.md")
