"""The parts of the engine that need no Docker: trial order, validity, agreement, reports."""
import math

from tuninglab import analysis, report
from tuninglab.changes import parse_pg_fragment, same
from tuninglab.experiment import trial_order
from tuninglab.recipe import load_recipe
from tuninglab import layout


def test_trial_order_alternates_within_pairs():
    assert trial_order(3) == ["baseline", "variant", "variant", "baseline", "baseline", "variant"]


def _trial(arm, index, throughput, errors=0.0):
    return {"arm": arm, "index": index, "metrics": {
        "throughput": throughput, "latency_p50": 10.0, "latency_p90": 20.0, "latency_p99": 40.0,
        "error_rate": errors, "cpu_per_tx": 2.0, "gc_time": 0.01, "pool_wait_ms": None}}


def test_compare_trials_pairs_arms_and_skips_missing_metrics():
    trials = [_trial(a, i, 100.0 if a == "baseline" else 150.0 + i)
              for i, a in enumerate(trial_order(3))]
    metrics = analysis.compare_trials(trials)
    assert metrics["throughput"]["verdict"] == "better"
    assert metrics["throughput"]["delta_kind"] == "relative"
    assert metrics["error_rate"]["delta_kind"] == "absolute"
    assert "pool_wait_ms" not in metrics  # None values: not compared
    assert metrics["latency_p50"]["verdict"] == "no significant change"


def _recipe():
    return load_recipe(layout.recipes_dir() / "method" / "aa-noise")


def _telemetry(loadgen_utilisation):
    return {"containers": {"loadgen": {"cpu_utilisation": loadgen_utilisation, "allowed_cpus": 1}}}


def test_errors_dropped_iterations_and_saturation_make_a_trial_invalid():
    load = {"requests": 1000, "failed": 3, "error_rate": 0.003, "dropped_iterations": 7,
            "fail_reasons": {"status": 3}}
    problems = analysis.trial_problems(_recipe(), load, _telemetry(0.97))
    assert any("3 failed requests of 1,000" in p for p in problems)
    assert any("7 dropped iterations" in p for p in problems)
    assert any("load generator saturated: 97%" in p for p in problems)
    clean = {"requests": 1000, "failed": 0, "error_rate": 0.0, "dropped_iterations": 0,
             "fail_reasons": {}}
    assert analysis.trial_problems(_recipe(), clean, _telemetry(0.5)) == []


def test_agreement_maps_no_change_to_no_significant_change():
    assert analysis.agrees("no-change", "no significant change") is True
    assert analysis.agrees("better", "no significant change") is False
    assert analysis.agrees("better", "better") is True
    assert analysis.agrees("better", "invalid") is None


def test_values_read_back_compare_across_types():
    assert same(32, "32") and same(True, "true") and same("off", "OFF")
    assert not same(4, "40") and not same(None, "0")


def test_pg_fragment_parser(tmp_path):
    path = tmp_path / "change.conf"
    path.write_text("# comment\nsynchronous_commit = off  # trailing\nwork_mem='8MB'\n")
    assert parse_pg_fragment(path) == {"synchronous_commit": "off", "work_mem": "8MB"}
    path.write_text("this is not a setting\n")
    try:
        parse_pg_fragment(path)
    except ValueError as exc:
        assert f"{path}:1" in str(exc)
    else:
        raise AssertionError("a malformed fragment must be rejected")


def test_report_formats_intervals_and_puts_problems_first():
    m = {"delta": 0.123, "ci_low": 0.081, "ci_high": None, "delta_kind": "relative", "unit": "tx/s"}
    assert report.format_delta(m) == "+12.3 % [+8.1, inf]"
    share = {"delta": 0.004, "ci_low": -0.001, "ci_high": 0.009, "delta_kind": "absolute",
             "unit": "share of wall time in GC"}
    assert report.format_delta(share) == "+0.4 pp [-0.1, +0.9]"
    result = {"recipe": "x", "title": "t", "profile": "quick", "method": {"pairs": 3},
              "provenance": {"started": "s", "host": "h"}, "validity": {
                  "valid": False, "problems": ["trial 2 (variant): 5 failed requests"]},
              "verdict": "invalid", "primary_metric": "throughput", "expected": "better",
              "agrees_with_source": None, "metrics": {},
              "change": {"description": "d", "verified": []}}
    text = report.summary(result)
    assert text.index("INVALID MEASUREMENT") < text.index("verdict")
    assert not math.isnan(0.0)


def test_steady_state_is_a_plateau_not_a_slow_climb():
    from tuninglab.experiment import _steady
    assert not _steady([500, 500, 500, 500, 500])  # too few windows to tell
    assert not _steady([350, 374, 401, 461, 469, 478])  # three close windows, still climbing
    assert _steady([300, 700, 690, 710, 700, 705, 695])
    assert not _steady([0] * 6)


class _ModelOnly:
    """A management client whose model already holds the change (as after a missed reload)."""

    def __init__(self, value):
        self.value = value

    def read_attribute(self, address, name, include_defaults=True):
        return self.value


def test_an_attribute_the_app_observes_must_be_in_force_not_only_stored(monkeypatch):
    from types import SimpleNamespace

    from tuninglab import changes
    from tuninglab.jboss_cli import parse_text

    ops = parse_text("/subsystem=ejb3:write-attribute("
                     "name=in-vm-remote-interface-invocation-pass-by-value,value=false)", "change.cli")
    stack = SimpleNamespace(management=_ModelOnly(False))
    # The app still copies: the stored value is not in force.
    monkeypatch.setattr(changes, "app_config", lambda s: {"ejb": {"in_vm_remote_pass_by_value": True}})
    [check] = changes._app_checks(stack, ops, True, {})
    assert check.what == "app observes ejb.in_vm_remote_pass_by_value" and not check.ok
    # Once the app passes by reference, the variant checks out; the baseline expects the copy back.
    monkeypatch.setattr(changes, "app_config", lambda s: {"ejb": {"in_vm_remote_pass_by_value": False}})
    assert changes._app_checks(stack, ops, True, {})[0].ok
    stack.management.value = True
    assert not changes._app_checks(stack, ops, False, {})[0].ok
