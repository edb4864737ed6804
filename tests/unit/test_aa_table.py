"""The A/A claims table (tuninglab/site/aa_table.py): which runs it counts, the exact interval
of the claim rate, and the sentence that reads it against the 5 % a 95 % interval promises."""
from types import SimpleNamespace

import pytest

from tuninglab.site import aa_table
from tuninglab.stats import binomial_interval


def run(verdict, layout="crossover", switch="runtime", kind="none", result_kind="ab",
        valid=True):
    return {"kind": result_kind, "verdict": verdict, "change": {"kind": kind},
            "plan": {"layout": layout, "switch": switch}, "validity": {"valid": valid}}


def fake_site(runs: dict[str, list[dict]]):
    return SimpleNamespace(entries=[SimpleNamespace(id=i) for i in runs],
                           runs=lambda i: [(None, r) for r in runs[i]])


@pytest.mark.parametrize("k, n, low, high", [
    (2, 28, 0.00877, 0.23503), (0, 6, 0.0, 0.45926), (1, 20, 0.00127, 0.24873),
    (5, 5, 0.47818, 1.0)])
def test_the_claim_rate_interval_is_the_exact_binomial_one(k, n, low, high):
    # Clopper-Pearson bounds (beta quantiles) of the textbook tables
    assert binomial_interval(k, n) == pytest.approx((low, high), abs=1e-4)


def test_only_crossover_runs_of_identical_arms_count():
    site = fake_site({
        "aa": [run("worse", layout="per-node")]  # before the crossover: the nodes' difference
              + [run("no-change")] * 18 + [run("better"), run("worse")],
        "aa-reload": [run("no-change", switch="reload")] * 6
                     + [run("invalid", switch="reload", valid=False)],  # no interval to claim
        "pool": [run("better", kind="datasource")] * 4,  # a real change: not an A/A run
        "curve": [run("no-change", result_kind="sweep")] * 3,
    })
    counted = aa_table.claims(site)
    assert counted == {"aa": {"switch": "runtime", "runs": 20, "claims": 2},
                       "aa-reload": {"switch": "reload", "runs": 6, "claims": 0}}
    text = aa_table.render(site)
    assert "| `aa` | runtime (arms swap every block) | 20 | 2 | 10.0 % [1.2 %, 31.7 %] |" in text
    assert "| **all** | | 26 | 2 |" in text
    assert "do not show the intervals claiming too often" in text


def test_a_rate_whose_interval_lies_above_five_per_cent_is_called_so():
    site = fake_site({"aa": [run("better")] * 4 + [run("no-change")] * 6})
    assert "claim too often" in aa_table.render(site)
    assert "No published A/A run" in aa_table.render(fake_site({"aa": []}))
