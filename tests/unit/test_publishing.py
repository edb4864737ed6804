"""The publishing queue (tuninglab/publishing.py) without running anything: its order keeps
alike stacks together, its estimate comes from each recipe's newest full run, --resume takes
up exactly what an interruption left, and the wait for a quiet host waits only while the host
is noisy."""
from __future__ import annotations

import json
from types import SimpleNamespace

from tuninglab import layout, publishing, quiet
from tuninglab.recipe import discover_recipes


def test_alike_stacks_follow_each_other():
    recipes = publishing.order(discover_recipes(layout.recipes_dir()))
    signatures = [publishing.stack_signature(r) for r in recipes]
    seen, previous = set(), None
    for signature in signatures:  # each signature is one unbroken stretch of the queue
        assert signature == previous or signature not in seen, signature
        seen.add(signature)
        previous = signature


def test_the_estimate_is_the_newest_full_runs_wall_time(tmp_path):
    recipe = discover_recipes(layout.recipes_dir())[0]
    assert publishing.estimate_s(recipe, tmp_path) == publishing.UNKNOWN_S
    assert 60 < publishing.estimate_s(
        next(r for r in discover_recipes(layout.recipes_dir()) if r.id == "aa-noise"),
        layout.results_dir()) < 4 * 3600


def test_resume_takes_up_what_is_left(tmp_path):
    state = tmp_path / "queue.json"
    state.write_text(json.dumps({"queue": ["a", "a", "a", "b"], "done": [["a", "abc1234"]],
                                 "failed": [], "started": 0}))
    queue, loaded = publishing._queue_from(SimpleNamespace(resume=True), tmp_path, tmp_path, state)
    assert queue == ["a", "a", "b"] and loaded["done"] == [["a", "abc1234"]]
    # a state file written before repeats were possible (done: id -> commit)
    state.write_text(json.dumps({"queue": ["a", "b", "c"], "done": {"a": "abc1234"},
                                 "failed": [], "started": 0}))
    queue, loaded = publishing._queue_from(SimpleNamespace(resume=True), tmp_path, tmp_path, state)
    assert queue == ["b", "c"] and loaded["done"] == [["a", "abc1234"]]


def test_a_repeated_recipe_runs_in_a_row_so_its_warm_stack_is_handed_on(capsys):
    assert publishing.main(["--dry-run", "--repeat", "3", "aa-noise", "pg-synchronous-commit"]) == 0
    listed = [i.strip() for i in capsys.readouterr().out.rsplit(": ", 1)[1].split(", ")]
    assert sorted(listed) == ["aa-noise"] * 3 + ["pg-synchronous-commit"] * 3
    assert listed[:3] == [listed[0]] * 3 and listed[3:] == [listed[3]] * 3


def test_a_repeated_recipe_counts_in_the_queue_s_time_each_time(capsys):
    def hours(argv):
        publishing.main(["--dry-run", *argv])
        return float(capsys.readouterr().out.split("about ", 1)[1].split(" h", 1)[0])
    # printed to a tenth of an hour: four runs read at least twice one (0.3 h against 0.1 h)
    assert hours(["--repeat", "4", "aa-noise"]) >= 2 * hours(["aa-noise"]) > 0


def test_a_dry_run_lists_the_queue_and_runs_nothing(capsys):
    assert publishing.main(["--dry-run", "aa-noise", "pg-synchronous-commit"]) == 0
    out = capsys.readouterr().out
    assert "2 recipe(s) in the queue" in out and "aa-noise" in out


def test_the_quiet_wait_waits_only_while_the_host_is_noisy():
    readings = iter([0.10, 0.08, 0.0, 0.01, 0.0])
    said = []
    quiet.wait_for_quiet(0.02, say=said.append, window_s=0, windows=3,
                         measure=lambda s: next(readings))
    assert any("noisy" in s for s in said) and any("quiet again" in s for s in said)
    said.clear()
    quiet.wait_for_quiet(0.02, say=said.append, window_s=0, windows=2,
                         measure=lambda s: 0.0)
    assert said == []


def test_a_verdict_that_changed_between_runs_is_flagged_with_what_differed(tmp_path):
    from pathlib import Path

    from tuninglab.site import runs_table
    fixture = Path(__file__).resolve().parents[1] / "site" / "data" / "fixture-result-full.json"
    first = json.loads(fixture.read_text())
    second = json.loads(json.dumps(first))
    second["verdict"] = "no significant change"
    second["provenance"]["versions"] = {**first["provenance"].get("versions", {}),
                                        "wildfly": "WildFly 40.0.0.Final"}
    site = SimpleNamespace(runs=lambda rid: [(tmp_path / "r" / "a.json", first),
                                             (tmp_path / "r" / "b.json", second)])
    text = runs_table.render(site, "pool-size", "guide/x.md")
    assert "(changed)" in text and "WildFly 40.0.0.Final" in text
    assert "no input" in runs_table.differing_inputs(first, first)


def test_a_run_on_a_stack_taken_over_warm_says_so_and_after_which_run(tmp_path):
    from pathlib import Path

    from tuninglab.site import runs_table
    fixture = Path(__file__).resolve().parents[1] / "site" / "data" / "fixture-result-full.json"
    first = json.loads(fixture.read_text())
    first["provenance"]["stack_origin"] = {"taken_over": False, "served_before": [],
                                           "nodes_kept_warm": []}
    second = json.loads(json.dumps(first))
    second["provenance"]["stack_origin"] = {"taken_over": True,
                                            "served_before": ["pool-size/20261128T050000Z"],
                                            "nodes_kept_warm": ["app-1", "app-2"]}
    site = SimpleNamespace(runs=lambda rid: [(tmp_path / "r" / "a.json", first),
                                             (tmp_path / "r" / "b.json", second)])
    text = runs_table.render(site, "pool-size", "guide/x.md")
    assert "a warm stack, its run 2 (after pool-size/20261128T050000Z)" in text
    assert "a stack taken over warm (False → True)" in runs_table.differing_inputs(first, second)


def test_the_time_table_sets_runs_on_a_warm_stack_against_new_ones():
    from tuninglab.site import time_table

    def run(stack_s, warmup_s, taken_over):
        return {"provenance": {"wall_s": stack_s + warmup_s + 200,
                               "phases": {"stack_s": stack_s, "warmup_s": warmup_s,
                                          "trials_s": 200.0},
                               "stack_origin": {"taken_over": taken_over}}}
    results = {"a": run(18, 222, False), "b": run(4, 181, True), "c": run(15, 240, False)}
    site = SimpleNamespace(entries=[SimpleNamespace(id=i) for i in results],
                           newest=lambda i: (None, results[i]))
    text = time_table.render(site)
    assert "1 of them ran on a stack taken over warm" in text
    assert "first warm-up 3.0 min at the median, against 0.3 and 3.9 min on a new stack (2 runs)" \
        in text
    assert "Re-measuring all 3 recipes one after another would take about 0.4 h" in text
    results["b"]["provenance"]["stack_origin"]["taken_over"] = False
    assert "taken over warm" not in time_table.render(site)


def test_the_time_table_gives_the_ab_runs_time_and_interval_apart():
    from tuninglab.site import time_table

    def run(kind, wall_min, low, high, stopped):
        return {"kind": kind, "primary_metric": "throughput",
                "provenance": {"wall_s": wall_min * 60, "phases": {"trials_s": 60.0}},
                "design": {"sequential": {"stopped": stopped}},
                "analysis": {"comparisons": [{"metrics": {"throughput": {
                    "ci_low": low, "ci_high": high}}}]}}
    results = {"a": run("ab", 6, -0.02, 0.04, "equivalent"), "b": run("ab", 10, 0.10, 0.20,
                                                                       "effect"),
               "c": run("ab", 20, -0.05, 0.05, "budget"), "d": run("sweep", 40, -1, 1, None)}
    site = SimpleNamespace(entries=[SimpleNamespace(id=i) for i in results],
                           newest=lambda i: (None, results[i]))
    text = time_table.render(site)
    assert ("The 3 A/B recipes among them (one change against the baseline, no curve) took "
            "10.0 min at the median (6.0 to 20.0), with a median primary half-width of 5.0 %; "
            "2 stopped at a look before their last block.") in text
    assert "Apart" not in text  # no estimate recorded: no split
    for key, delta in (("a", 0.01), ("b", 0.15), ("c", 0.0)):
        results[key]["analysis"]["comparisons"][0]["metrics"]["throughput"]["delta"] = delta
    text = time_table.render(site)
    assert ("the 2 whose estimate was under 10 % took 13.0 min with a half-width of 4.0 %; the 1 "
            "whose estimate was 10 % or more took 10.0 min with a half-width of 5.0 % "
            "(medians).") in text


def test_a_result_block_says_its_stack_was_taken_over_warm_and_from_which_run():
    from tuninglab.site import result_block
    result = {"warmup": {"app-1": {"windows": [{"seconds": 5}], "steady": {"app-1": True}}},
              "provenance": {"stack_origin": {"taken_over": True,
                                              "served_before": ["aa-noise/20261128T044659Z"],
                                              "nodes_kept_warm": ["app-1", "app-2"]}}}
    text = result_block._warmup_text(result)
    assert "taken over warm from 1 earlier run(s), the last `aa-noise/20261128T044659Z` " \
           "(app-1, app-2 kept running)" in text
    result["provenance"]["stack_origin"]["taken_over"] = False
    assert "taken over" not in result_block._warmup_text(result)


def test_stopping_a_notebook_interrupts_a_kernel_that_runs_in_a_session_of_its_own(tmp_path):
    """Jupyter starts its kernel with a session of its own, out of reach of the queue's
    signals: stop_tree must find it and interrupt it (its run then removes its containers),
    and terminate the rest only after that."""
    import subprocess
    import sys
    import textwrap
    import time

    from tuninglab import publishing

    marker = tmp_path / "interrupted"
    ready = tmp_path / "ready"
    # As ipykernel does while it executes a cell, the stand-in kernel takes SIGINT as Ctrl-C
    # whatever it inherited: a test command started in the background by a non-interactive
    # shell (`... &`) starts with SIGINT ignored, and Python then installs no handler of its
    # own, so the interrupt was lost (twice on 5 December 2026, never in CI).
    kernel = textwrap.dedent(f"""
        import pathlib, signal, time
        signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            pathlib.Path({str(ready)!r}).write_text("sleeping")
            time.sleep(60)
        except KeyboardInterrupt:
            pathlib.Path({str(marker)!r}).write_text("cleaned up")
    """)
    parent = textwrap.dedent(f"""
        import subprocess, sys, time
        subprocess.Popen([sys.executable, "-c", {kernel!r}], start_new_session=True)
        time.sleep(60)
    """)
    process = subprocess.Popen([sys.executable, "-c", parent])
    deadline = time.monotonic() + 20
    # Wait until the kernel is inside its try (a fixed second was too short for a Python start
    # on a machine busy with the notebook suite: the interrupt came first, and no clean-up ran).
    while not ready.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    [kernel_pid] = publishing._descendants(process.pid)
    publishing.stop_tree(process, grace_s=10)
    assert marker.read_text() == "cleaned up"
    assert process.poll() is not None and not publishing._alive(kernel_pid)


def test_a_queue_stopped_by_a_signal_says_so_clears_its_stack_and_leaves_no_traceback(
        monkeypatch, capsys, tmp_path):
    """Stopped while it waited for a quiet host (29 November 2026), the queue ended in a
    traceback; now it says how to resume, still removes its parked stack, and exits 130."""
    cleared = []
    monkeypatch.setattr(publishing, "_clean_tree", lambda root: True)
    monkeypatch.setattr(publishing, "_clear_parked_stacks", lambda: cleared.append(True))
    monkeypatch.setattr(publishing, "STATE", str(tmp_path / "queue.json"))

    def stopped(*args):
        publishing._interrupt(2, None)
    monkeypatch.setattr(publishing, "_run_queue", stopped)
    try:
        assert publishing.main(["aa-noise"]) == 130
    finally:
        import signal
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    assert cleared == [True]
    assert ("publish: stopped by signal 2; the results committed so far stay; the rest: "
            "bash scripts/publish.sh --resume") in capsys.readouterr().err


def test_a_queue_on_a_placement_runs_every_notebook_there_and_none_without_one(monkeypatch):
    monkeypatch.setenv("TUNINGLAB_PLACEMENT", "/left/in/the/shell.toml")
    on_swarm = publishing.run_environment("/srv/lab/placements/hosts.toml")
    assert on_swarm["TUNINGLAB_PLACEMENT"] == "/srv/lab/placements/hosts.toml"
    assert on_swarm["TUNINGLAB_PROFILE"] == "full"
    assert "TUNINGLAB_PLACEMENT" not in publishing.run_environment(None)


def test_a_placement_that_cannot_be_used_stops_the_queue_before_its_first_run(tmp_path, capsys):
    try:
        publishing.main(["--dry-run", "--placement", str(tmp_path / "nope.toml"), "aa-noise"])
    except SystemExit as stop:
        assert stop.code == 2
    else:
        raise AssertionError("the queue took a placement file that does not exist")
    out = capsys.readouterr()
    assert out.err == f"publish: {tmp_path / 'nope.toml'}: no such placement file\n"
    assert "recipe(s) in the queue" not in out.out


def test_resume_keeps_the_placement_the_queue_started_with(capsys):
    try:
        publishing.main(["--resume", "--placement", "placements/test-hosts.toml"])
    except SystemExit as stop:
        assert stop.code == 2
        assert "--placement cannot change it" in capsys.readouterr().err
    else:
        raise AssertionError("--resume took another placement")
