"""Append-only storage of results: ``results/<recipe id>/<UTC start>-<host>.json``.

A result is the record of a measurement that may have taken half an hour, and the published
site shows it, so the store never overwrites one and never lets a half-written file appear
under a result's name. A result is written to a temporary file in the same folder, flushed
to disk, then hard-linked to its final name: ``os.link`` fails if the name exists (so two
runs can never clobber each other, unlike ``os.replace``), and a crash leaves at most a temp
file, whose name starts with "." and ends with ".tmp" so that readers skip it.

Files are strict JSON (sorted keys, indent 2, no NaN or Infinity) so that diffs stay small
and any JSON reader can open them.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from datetime import datetime, timezone
from pathlib import Path

__all__ = [
    "REQUIRED_KEYS",
    "REQUIRED_KEYS_BY_FORMAT",
    "ResultError",
    "ResultExistsError",
    "run_label",
    "result_path",
    "write_result",
    "sweep_stale_temp_files",
    "load_result",
    "list_results",
    "latest_result",
    "write_record",
    "write_probe",
]

# Keys every stored result has, by format (format 1: two arms, before 2026-11-24; result.py
# says what each later format added).
_PLANNED = ("recipe", "profile", "verdict", "kind", "plan", "analysis", "trials", "provenance")
REQUIRED_KEYS_BY_FORMAT = {
    1: ("recipe", "profile", "verdict", "metrics", "trials", "provenance"),
    2: _PLANNED,
    3: _PLANNED,
    4: _PLANNED,
}
REQUIRED_KEYS = _PLANNED
REQUIRED_PROVENANCE_KEYS = ("started", "host")
# The JSON type of each key a result may hold (None: also null), so that a key that exists
# with another type is the file's error, named here, not a crash in what reads it.
KEY_TYPES = {"agreement": (str,), "agrees_with_source": (bool, type(None)), "analysis": (dict,),
             "change": (dict,), "design": (dict,), "expected": (str,), "kind": (str,),
             "method": (dict,), "metrics": (dict,), "plan": (dict,), "primary_metric": (str,),
             "source": (dict,), "title": (str,), "trials": (list,), "validity": (dict,),
             "verdict": (str, type(None)), "verified": (dict,), "warmup": (dict,),
             "workload": (dict,)}
_JSON_NAMES = {dict: "an object", list: "a list", str: "a string", bool: "true or false",
               type(None): "null", int: "a number"}

_STAMP_FORMAT = "%Y%m%dT%H%M%SZ"
_RECIPE_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_RESULT_NAME = re.compile(r"^(?P<stamp>\d{8}T\d{6}Z)-(?P<host>[a-z0-9-]+)\.json$")
_TEMP_SUFFIX = ".tmp"


class ResultError(ValueError):
    """A result that is not well-formed (missing keys, bad timestamp, not JSON)."""


class ResultExistsError(FileExistsError):
    """A result file of that name exists already; results are never overwritten."""

    def __init__(self, path: Path):
        super().__init__(f"{path}: a result of that name exists already; results are never "
                         f"overwritten")
        self.path = path


def run_label(recipe_id: str, started: datetime) -> str:
    """A run's name where other records refer to it: ``<recipe id>/<UTC start>``, the start
    of its result file's path under results/."""
    return f"{recipe_id}/{started.astimezone(timezone.utc).strftime(_STAMP_FORMAT)}"


def result_path(results_dir: Path, recipe_id: str, started: datetime, host: str) -> Path:
    """``<results_dir>/<recipe_id>/<YYYYMMDDTHHMMSSZ>-<host>.json``, the start in UTC.

    ``started`` must be timezone-aware: a naive time would be filed under the wrong hour on
    any machine not running in UTC.
    """
    if not _RECIPE_ID.match(recipe_id):
        raise ValueError(f"recipe id {recipe_id!r}; allowed: ^[a-z0-9]+(-[a-z0-9]+)*$")
    if started.tzinfo is None or started.utcoffset() is None:
        raise ValueError(f"started {started.isoformat()} has no time zone; allowed: an "
                         f"aware datetime (e.g. datetime.now(timezone.utc))")
    stamp = started.astimezone(timezone.utc).strftime(_STAMP_FORMAT)
    return Path(results_dir) / recipe_id / f"{stamp}-{_host_label(host)}.json"


def write_result(result: dict, results_dir: Path, *, attempts: int = 20) -> Path:
    """Validate ``result`` and write it under its own name; return the path.

    A name already taken (two runs started in the same second) gets a suffix (-2, -3, ...; at
    most ``attempts`` names in all): a finished measurement is never lost and never overwrites
    another. Stale temporary files of
    writes that were killed are removed first. Raises ResultError for a malformed result
    (before touching the disk); in every failure no file is left behind.
    """
    _raise_if_any("result", _result_problems(result))
    provenance = result["provenance"]
    final = result_path(results_dir, result["recipe"], _parse_utc(provenance["started"]),
                        provenance["host"])
    return _write_unique(final, _serialise(result), attempts)


def write_record(record: dict, folder: Path, started: str, host: str, *,
                 attempts: int = 20) -> Path:
    """Write a record that is not a recipe's result (a probe's answers) the way results are
    written: ``<folder>/<UTC start>-<host>.json``, atomically, never over another file."""
    stamp = _parse_utc(started).strftime(_STAMP_FORMAT)
    final = Path(folder) / f"{stamp}-{_host_label(host)}.json"
    return _write_unique(final, _serialise(record), attempts)


def write_probe(record: dict, probe: str, results_dir: Path | None = None) -> Path:
    """A probe's record (``record["provenance"]`` has its start and host) under
    ``results/probes/<probe>/``."""
    from . import layout
    folder = Path(results_dir or layout.results_dir()) / "probes" / probe
    return write_record(record, folder, record["provenance"]["started"],
                        record["provenance"]["host"])


def _write_unique(final: Path, text: str, attempts: int) -> Path:
    """Write ``text`` under ``final``, or under the first free name with a suffix (-2, -3,
    ...): never over another file. Stale temporary files of killed writes go first."""
    final.parent.mkdir(parents=True, exist_ok=True)
    sweep_stale_temp_files(final.parent)
    candidate = final
    for n in range(2, attempts + 2):
        try:
            _write_new_file(candidate, text)
            return candidate
        except ResultExistsError:
            candidate = final.with_name(f"{final.stem}-{n}{final.suffix}")
    raise ResultExistsError(final)


def sweep_stale_temp_files(folder: Path, older_than_s: float = 3600.0) -> list[Path]:
    """Remove temporary files of writes that never finished (a killed process leaves them);
    a younger one may belong to a write still under way, so it stays."""
    import time
    removed = []
    for path in Path(folder).glob(f".*{_TEMP_SUFFIX}"):
        try:
            if time.time() - path.stat().st_mtime > older_than_s:
                path.unlink()
                removed.append(path)
        except OSError:
            pass
    return removed


def load_result(path: Path) -> dict:
    """Read one result; ResultError names the file if it is not JSON or lacks keys."""
    path = Path(path)
    try:
        result = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ResultError(f"{path}: not a JSON result: {error}") from None
    _raise_if_any(str(path), _result_problems(result))
    return result


def list_results(results_dir: Path, recipe_id: str | None = None,
                 profile: str | None = None) -> list[Path]:
    """Result files, oldest start first (ties by recipe id, then host).

    Only names that result_path() makes are results; temp files and anything else in the
    folders are skipped. Filtering by ``profile`` reads the files.
    """
    results_dir = Path(results_dir)
    if not results_dir.is_dir():
        return []
    folders = [results_dir / recipe_id] if recipe_id else sorted(results_dir.iterdir())
    found = [(match["stamp"], folder.name, match["host"], path)
             for folder in folders if folder.is_dir()
             for path in folder.iterdir()
             if (match := _RESULT_NAME.match(path.name)) and path.is_file()]
    paths = [path for *_, path in sorted(found)]
    if profile is not None:
        paths = [path for path in paths if load_result(path)["profile"] == profile]
    return paths


# What makes two runs the same experiment: the recipe as written, the code and the stack.
SAME_RUN_KEYS = ("recipe_hash", "git_commit", "git_dirty", "stack_inputs", "role_inputs")


def repeats(result: dict, results_dir: Path) -> list[Path]:
    """Stored results of the same recipe and profile, run from the same recipe files, commit
    and stack inputs: a retry that stores a second sample of one experiment (never a
    replacement; both are kept), which the run says instead of storing it silently."""
    wanted = {key: result.get("provenance", {}).get(key) for key in SAME_RUN_KEYS}
    if wanted["git_commit"] is None:
        return []
    found = []
    for path in list_results(results_dir, result["recipe"]):
        try:
            other = load_result(path)
        except ResultError:
            continue
        if other["profile"] == result["profile"] and all(
                other["provenance"].get(key) == value for key, value in wanted.items()):
            found.append(path)
    return found


def latest_result(results_dir: Path, recipe_id: str, profile: str = "full") -> dict | None:
    """The newest result of a recipe for a profile, or None if it has none yet."""
    paths = list_results(results_dir, recipe_id, profile)
    return load_result(paths[-1]) if paths else None


# --------------------------------------------------------------------------- validation


def _result_problems(result) -> list[str]:
    if not isinstance(result, dict):
        return [f"a JSON object; got {type(result).__name__}"]
    required = REQUIRED_KEYS_BY_FORMAT.get(result.get("format", 1))
    if required is None:
        return [f"format: {result.get('format')!r}; allowed: {', '.join(map(str, REQUIRED_KEYS_BY_FORMAT))}"]
    missing = [key for key in required if key not in result]
    if missing:
        return [f"missing keys: {', '.join(missing)}; required: {', '.join(required)}"]
    problems = [f"{key}: {_json_name(result[key])}; allowed: "
                f"{' or '.join(_JSON_NAMES[t] for t in types)}"
                for key, types in KEY_TYPES.items()
                if key in result and (not isinstance(result[key], types)
                                      or (bool not in types and isinstance(result[key], bool)))]
    if not isinstance(result["recipe"], str) or not _RECIPE_ID.match(result["recipe"]):
        problems.append(f"recipe: {result['recipe']!r}; allowed: the recipe id")
    if not isinstance(result["profile"], str):
        problems.append(f"profile: {result['profile']!r}; allowed: a profile name")
    if not isinstance(result["provenance"], dict):
        return problems + ["provenance: not an object"]
    problems += _provenance_problems(result["provenance"])
    return problems


def _json_name(value) -> str:
    return next((name for kind, name in _JSON_NAMES.items()
                 if isinstance(value, kind) and (kind is bool or not isinstance(value, bool))),
                type(value).__name__)


def _provenance_problems(provenance: dict) -> list[str]:
    missing = [key for key in REQUIRED_PROVENANCE_KEYS if key not in provenance]
    if missing:
        return [f"provenance: missing keys: {', '.join(missing)}"]
    problems = []
    try:
        _parse_utc(provenance["started"])
    except (TypeError, ValueError) as error:
        problems.append(f"provenance.started: {error}")
    if not isinstance(provenance["host"], str) or not provenance["host"].strip():
        problems.append(f"provenance.host: {provenance['host']!r}; allowed: a host name")
    return problems


def _parse_utc(text) -> datetime:
    """An ISO 8601 timestamp in UTC ('2025-01-31T12:00:00Z' or '+00:00')."""
    if not isinstance(text, str):
        raise TypeError(f"{text!r}; allowed: an ISO 8601 UTC timestamp string")
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text!r}; allowed: an ISO 8601 UTC timestamp") from None
    if moment.utcoffset() is None or moment.utcoffset().total_seconds() != 0:
        raise ValueError(f"{text!r} is not in UTC; allowed: a timestamp ending in Z or +00:00")
    return moment


def _raise_if_any(where: str, problems: list[str]) -> None:
    if problems:
        raise ResultError("\n".join(f"{where}: {problem}" for problem in problems))


# --------------------------------------------------------------------------- writing


def _serialise(result: dict) -> str:
    try:
        return json.dumps(result, sort_keys=True, indent=2, allow_nan=False,
                          ensure_ascii=False) + "\n"
    except ValueError as error:  # NaN or Infinity somewhere
        raise ResultError(f"result: {error}; store non-finite numbers as null "
                          f"(Comparison.to_dict() does)") from None
    except TypeError as error:
        raise ResultError(f"result: {error}") from None


def _write_new_file(final: Path, text: str) -> None:
    """Write ``text`` to ``final`` atomically, failing if ``final`` exists."""
    fd, temp_name = tempfile.mkstemp(dir=final.parent, prefix=f".{final.name}.",
                                     suffix=_TEMP_SUFFIX)
    temp = Path(temp_name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            os.fchmod(stream.fileno(), 0o644)  # mkstemp makes 0600; results are shared
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        try:
            os.link(temp, final)
        except FileExistsError:
            raise ResultExistsError(final) from None
        _fsync_dir(final.parent)
    finally:
        temp.unlink(missing_ok=True)


def _fsync_dir(folder: Path) -> None:
    """Make the new directory entry durable too (best effort: not every OS allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _host_label(host: str) -> str:
    """Lowercase [a-z0-9-] only, so the file name is portable and the pattern above holds."""
    label = re.sub(r"[^a-z0-9-]+", "-", host.lower())
    label = re.sub(r"-{2,}", "-", label).strip("-")
    return label or "unknown-host"
