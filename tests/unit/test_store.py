"""store.py: append-only, atomic result files."""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from tuninglab import store
from tuninglab.store import (
    ResultError,
    ResultExistsError,
    latest_result,
    list_results,
    load_result,
    result_path,
    write_result,
)

START = datetime(2025, 3, 4, 5, 6, 7, tzinfo=timezone.utc)


def make_result(recipe="aa-noise", profile="full", started=START, host="lab-1", **extra):
    return {
        "recipe": recipe,
        "profile": profile,
        "verdict": "no significant change",
        "metrics": {"throughput": {"delta": 0.01, "ci_low": -0.02, "ci_high": 0.04}},
        "trials": [{"arm": "baseline", "throughput": 1000.0},
                   {"arm": "variant", "throughput": 1010.0}],
        "provenance": {"started": started.isoformat().replace("+00:00", "Z"), "host": host},
        **extra,
    }


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.is_file())


# --------------------------------------------------------------------------- naming


def test_result_path_uses_utc_stamp_and_sanitised_host(tmp_path):
    started = datetime(2025, 3, 4, 7, 6, 7, tzinfo=timezone(timedelta(hours=2)))

    path = result_path(tmp_path, "aa-noise", started, "Lab_Box.example.ORG")
    assert path == tmp_path / "aa-noise" / "20250304T050607Z-lab-box-example-org.json"
    assert result_path(tmp_path, "x", START, "--").name == "20250304T050607Z-unknown-host.json"


def test_result_path_refuses_naive_times_and_path_like_ids(tmp_path):
    with pytest.raises(ValueError, match="no time zone"):
        result_path(tmp_path, "aa-noise", datetime(2025, 1, 1), "h")
    with pytest.raises(ValueError, match="recipe id '../x'"):
        result_path(tmp_path, "../x", START, "h")


# --------------------------------------------------------------------------- writing


def test_write_then_load_round_trips_with_sorted_keys(tmp_path):
    result = make_result()

    path = write_result(result, tmp_path)

    assert path == tmp_path / "aa-noise" / "20250304T050607Z-lab-1.json"
    assert load_result(path) == result
    text = path.read_text()
    assert text == json.dumps(result, sort_keys=True, indent=2) + "\n"
    assert files_in(tmp_path) == [path.name]  # the temp file is gone
    assert oct(path.stat().st_mode & 0o777) == oct(0o644)


def test_a_taken_name_gets_a_suffix_and_the_first_result_is_kept(tmp_path):
    first = write_result(make_result(), tmp_path)
    original = first.read_bytes()

    second = write_result(make_result(verdict="better"), tmp_path)

    assert second.name == first.name.replace(".json", "-2.json")
    assert first.read_bytes() == original  # never overwritten
    assert load_result(second)["verdict"] == "better"  # never lost
    assert files_in(tmp_path) == sorted([first.name, second.name])


def test_every_suffix_taken_raises_and_loses_nothing(tmp_path):
    first = write_result(make_result(), tmp_path)
    write_result(make_result(), tmp_path, attempts=2)  # the name, then -2
    with pytest.raises(ResultExistsError) as caught:
        write_result(make_result(), tmp_path, attempts=2)
    assert caught.value.path == first and isinstance(caught.value, FileExistsError)


def test_stale_temp_files_of_killed_writes_are_swept_young_ones_kept(tmp_path):
    import os
    import time
    folder = tmp_path / "x"
    folder.mkdir()
    old, young = folder / ".a.json.123.tmp", folder / ".b.json.456.tmp"
    old.write_text("{"), young.write_text("{")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    assert store.sweep_stale_temp_files(folder) == [old]
    assert not old.exists() and young.exists()


@pytest.mark.parametrize("crash_point", ["fsync", "link"])
def test_a_crash_mid_write_leaves_neither_result_nor_temp(tmp_path, monkeypatch, crash_point):
    def crash(*args, **kwargs):
        raise OSError("simulated crash")

    monkeypatch.setattr(store.os, crash_point, crash)

    with pytest.raises(OSError, match="simulated crash"):
        write_result(make_result(), tmp_path)

    assert files_in(tmp_path) == []


def test_a_crash_while_serialising_writes_nothing(tmp_path, monkeypatch):
    def crash(*args, **kwargs):
        raise RuntimeError("simulated crash")

    monkeypatch.setattr(store.json, "dumps", crash)

    with pytest.raises(RuntimeError):
        write_result(make_result(), tmp_path)
    assert files_in(tmp_path) == []


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r.pop("trials"), "missing keys: trials"),
        (lambda r: r["provenance"].pop("host"), "provenance: missing keys: host"),
        (lambda r: r["provenance"].update(started="yesterday"),
         "provenance.started: 'yesterday'; allowed: an ISO 8601 UTC timestamp"),
        (lambda r: r["provenance"].update(started="2025-03-04T05:06:07"),
         "is not in UTC"),
        (lambda r: r["provenance"].update(started="2025-03-04T07:06:07+02:00"),
         "is not in UTC"),
        (lambda r: r.update(recipe="../etc"), "recipe: '../etc'; allowed: the recipe id"),
        (lambda r: r["metrics"].update(bad=float("inf")), "non-finite numbers as null"),
    ],
)
def test_malformed_results_are_refused_before_writing(tmp_path, mutate, message):
    result = make_result()
    mutate(result)

    with pytest.raises(ResultError, match=message.replace("(", r"\(").replace(".", r"\.")):
        write_result(result, tmp_path)
    assert files_in(tmp_path) == []


def test_started_may_use_an_explicit_utc_offset(tmp_path):
    result = make_result()
    result["provenance"]["started"] = "2025-03-04T05:06:07.123456+00:00"

    assert write_result(result, tmp_path).name == "20250304T050607Z-lab-1.json"


# --------------------------------------------------------------------------- reading


def test_load_result_names_the_file_when_not_json(tmp_path):
    path = tmp_path / "aa-noise" / "20250304T050607Z-h.json"
    path.parent.mkdir()
    path.write_text("{ not json")

    with pytest.raises(ResultError, match=rf"^{path}: not a JSON result"):
        load_result(path)


def test_load_result_names_the_file_when_keys_are_missing(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"recipe": "x"}))

    with pytest.raises(ResultError, match=rf"^{path}: missing keys: profile, verdict"):
        load_result(path)


def test_list_results_oldest_first_skipping_temp_and_foreign_files(tmp_path):
    later = write_result(make_result(started=START + timedelta(hours=1)), tmp_path)
    earlier = write_result(make_result(started=START, host="b"), tmp_path)
    other = write_result(make_result(recipe="pool-size", started=START + timedelta(minutes=1)),
                         tmp_path)
    (tmp_path / "aa-noise" / f".{later.name}.abc.tmp").write_text("{")
    (tmp_path / "aa-noise" / "notes.json").write_text("{}")
    (tmp_path / "README.md").write_text("results")

    assert list_results(tmp_path, "aa-noise") == [earlier, later]
    assert list_results(tmp_path) == [earlier, other, later]
    assert list_results(tmp_path, "unknown") == []
    assert list_results(tmp_path / "absent") == []


def test_list_and_latest_filter_by_profile(tmp_path):
    full_old = write_result(make_result(started=START), tmp_path)
    write_result(make_result(started=START + timedelta(hours=2), profile="quick"), tmp_path)
    full_new = write_result(make_result(started=START + timedelta(hours=1)), tmp_path)

    assert list_results(tmp_path, "aa-noise", profile="full") == [full_old, full_new]
    assert latest_result(tmp_path, "aa-noise") == load_result(full_new)
    assert latest_result(tmp_path, "aa-noise", "quick")["profile"] == "quick"
    assert latest_result(tmp_path, "pool-size") is None


def test_results_are_written_with_os_link_so_existing_files_win(tmp_path, monkeypatch):
    """Guard against a refactoring to os.replace, which would silently overwrite."""
    calls = []
    real_link = os.link
    monkeypatch.setattr(store.os, "link", lambda *a: (calls.append(a), real_link(*a))[1])

    write_result(make_result(), tmp_path)
    assert len(calls) == 1
