"""Misused commands and broken stored results: a clear message and exit 2, never a traceback;
`compare` warns when its two results cannot be compared; a result is never lost."""
from __future__ import annotations

import copy
import json
import os
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from advkit import assert_clean_error
from tuninglab import store

FIXTURE = Path(__file__).resolve().parents[1] / "site" / "data" / "fixture-result-full.json"


def _result(recipe_id: str = "pool-size") -> dict:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    data["recipe"] = recipe_id
    return data


# --------------------------------------------------------------------------- arguments


def test_no_command(repo, capsys):
    with pytest.raises(SystemExit) as exit_info:
        repo.cli()
    assert exit_info.value.code == 2
    assert "command" in capsys.readouterr().err


def test_an_unknown_command(repo, capsys):
    with pytest.raises(SystemExit) as exit_info:
        repo.cli("launch", "pool-size")
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_run_an_unknown_recipe(repo):
    assert_clean_error(repo.cli("run", "no-such"), 2, "'no-such' not found", "pool-size")


def test_run_an_unknown_profile(repo):
    assert_clean_error(repo.cli("run", "pool-size", "--profile", "huge"), 2,
                       "profiles.huge", "allowed: quick, full")


@pytest.mark.parametrize("args, needles", [
    (("--nodes", "0"), ("--nodes is 0", "at least one node")),
    (("--nodes", "4", "--cpus", "0.5"), ("need 2 CPUs", "at most 1")),
    (("--policy", "weighted"), ("--policy 'weighted'", "allowed: roundrobin, leastconn")),
    (("--nodes", "2", "--cpus", "0.3", "0.3", "0.3"), ("--cpus lists 3 quota(s) for 2",)),
])
def test_cluster_that_cannot_be_formed(repo, args, needles):
    # refused before any container starts: no engine is needed to say so
    assert_clean_error(repo.cli("cluster", *args), 2, *needles)


def test_show_an_unknown_id(repo):
    assert_clean_error(repo.cli("show", "no-such"), 2, "'no-such' not found", "known ids")


def test_show_a_recipe_without_results(repo):
    assert_clean_error(repo.cli("show", "pool-size"), 2, "no stored result of pool-size",
                       "tuninglab run pool-size")


def test_show_an_unknown_profile(repo):
    assert_clean_error(repo.cli("show", "pool-size", "--profile", "huge"), 2, "profiles.huge")


def test_show_a_profile_without_results(repo):
    repo.store("pool-size", _result())
    assert_clean_error(repo.cli("show", "pool-size", "--profile", "quick"), 2,
                       "no stored result of pool-size in profile quick")


def test_show_a_folder(repo):
    assert_clean_error(repo.cli("show", str(repo.results)), 2, "is a folder")


def test_show_an_overlong_argument(repo):
    assert_clean_error(repo.cli("show", "x" * 5000), 2, "5000 characters")


def test_show_a_missing_file(repo):
    assert_clean_error(repo.cli("show", "results/pool-size/nope.json"), 2, "no such result file")


@pytest.mark.parametrize("content, needles", [
    ("{not json", ["not a JSON result"]),
    ("[1, 2]", ["a JSON object"]),
    (json.dumps({"recipe": "pool-size", "profile": "full"}), ["missing keys", "verdict"]),
    (json.dumps({"format": 9, "recipe": "pool-size"}), ["format: 9", "allowed: 1, 2"]),
    (b"\xff\xfe{}", ["not a JSON result"]),
], ids=["not JSON", "not an object", "keys missing", "unknown format", "not UTF-8"])
def test_show_a_broken_result_file(repo, content, needles):
    path = repo.results / "pool-size" / "20300101T000000Z-host.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    assert_clean_error(repo.cli("show", str(path)), 2, str(path), *needles)


def test_show_a_result_with_a_broken_timestamp(repo):
    bad = _result()
    bad["provenance"]["started"] = "yesterday"
    path = repo.store("pool-size", bad)
    assert_clean_error(repo.cli("show", str(path)), 2, "provenance.started")


def test_show_a_good_result(repo):
    """The control: a well-formed stored result prints its verdict."""
    path = repo.store("pool-size", _result())
    outcome = repo.cli("show", str(path))
    assert outcome.code == 0, outcome.text
    assert "verdict: better" in outcome.out


def test_compare_two_different_recipes_warns(repo):
    a = repo.store("pool-size", _result("pool-size"))
    b = repo.store("other-one", _result("other-one"))
    outcome = repo.cli("compare", str(a), str(b))
    assert outcome.code == 0
    assert "different recipes" in outcome.err


def test_compare_a_file_with_itself_warns(repo):
    a = repo.store("pool-size", _result())
    outcome = repo.cli("compare", str(a), str(a))
    assert outcome.code == 0
    assert "the same result" in outcome.err


def test_compare_with_a_broken_file(repo):
    a = repo.store("pool-size", _result())
    bad = repo.results / "pool-size" / "20310101T000000Z-host.json"
    bad.write_text("{", encoding="utf-8")
    assert_clean_error(repo.cli("compare", str(a), str(bad)), 2, "not a JSON result")


def test_debug_shows_the_traceback(repo):
    outcome = repo.cli("--debug", "show", "no-such")
    assert outcome.code == 2
    assert "Traceback" in outcome.err and "'no-such' not found" in outcome.err


# --------------------------------------------------------------------------- the store


def test_a_taken_name_gets_another_never_lost(tmp_path):
    result = _result()
    first = store.write_result(result, tmp_path)
    second = store.write_result(copy.deepcopy(result), tmp_path)
    assert first != second and first.exists() and second.exists()
    assert second.name.endswith("-2.json")
    assert json.loads(first.read_text()) == json.loads(second.read_text())
    assert store.list_results(tmp_path, "pool-size") == [first, second]


def test_a_killed_write_leaves_a_temp_file_that_the_next_write_sweeps(tmp_path):
    folder = tmp_path / "pool-size"
    folder.mkdir()
    stale = folder / ".20300101T000000Z-host.json.1234.tmp"
    stale.write_text("{half", encoding="utf-8")
    old = time.time() - 2 * 3600
    os.utime(stale, (old, old))
    fresh = folder / ".20300101T000001Z-host.json.5678.tmp"
    fresh.write_text("{", encoding="utf-8")  # a write still under way: it stays
    store.write_result(_result(), tmp_path)
    assert not stale.exists() and fresh.exists()
    assert store.list_results(tmp_path, "pool-size")  # temp files are never results


def test_a_malformed_result_is_refused_before_the_disk(tmp_path):
    bad = _result()
    del bad["provenance"]["host"]
    with pytest.raises(store.ResultError, match="provenance: missing keys: host"):
        store.write_result(bad, tmp_path)
    assert not any(tmp_path.rglob("*"))


def test_result_path_needs_an_aware_time(tmp_path):
    with pytest.raises(ValueError, match="no time zone"):
        store.result_path(tmp_path, "pool-size", datetime(2030, 1, 1), "host")
    assert store.result_path(tmp_path, "pool-size", datetime(2030, 1, 1, tzinfo=timezone.utc),
                             "Host.Example").name == "20300101T000000Z-host-example.json"
