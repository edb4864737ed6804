"""What today's JVM makes of the options a source recommends: each option started on the JVM
of the lab's WildFly image (``java <option> -XX:+PrintFlagsFinal -version``), and the answer
stored as a record with its provenance, so a page shows a table no one typed.

The options are data (``probes/jvm-flags.toml``); ``tuninglab flags`` runs the probe and
stores ``results/probes/jvm-flags/<UTC time>-<host>.json``.
"""
from __future__ import annotations

import re
import shlex
import tomllib
from datetime import datetime, timezone
from pathlib import Path

from . import layout, provenance

__all__ = ["PROBE", "load_flags", "classify", "probe", "newest"]

PROBE = "jvm-flags"
# A row of -XX:+PrintFlagsFinal: type, name, "=" (":=" when set on the command line), value,
# then the {kind} {origin} braces.
FLAG_ROW = re.compile(r"^\S+\s+\w+\s+:?=\s+.*\{[^}]*\}\s*\{[^}]*\}\s*$")


def flags_file() -> Path:
    return layout.REPO_ROOT / "probes" / f"{PROBE}.toml"


def load_flags(path: Path | None = None) -> list[dict]:
    with (path or flags_file()).open("rb") as stream:
        return tomllib.load(stream)["flag"]


def classify(option: str, exit_code: int, output: str) -> dict:
    """The JVM's answer to one option: ``refused`` (it did not start), ``warned`` (it started
    and said something about the option) or ``accepted``; with the final value when the JVM
    printed its flags."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    name = re.sub(r"^-XX:[+-]?", "", option).split("=", 1)[0]
    final = None
    for line in lines:
        match = re.match(rf"^\S+\s+{re.escape(name)}\s+:?=\s+(\S+)", line)
        if match:
            final = match.group(1)
    # PrintFlagsFinal's own rows ("bool CrashOnOutOfMemoryError = false {product} {default}")
    # hold words like "Error"; only the JVM's messages may count as what it said.
    messages = [line for line in lines if not FLAG_ROW.match(line)]
    said = [line for line in messages if re.search(r"warning|ignoring|unrecognized|deprecated|"
                                                   r"removed|obsolete|error|disabled", line, re.I)
            and "PrintFlagsFinal" not in line]
    if exit_code != 0:
        return {"answer": "refused", "message": (said or lines or ["no output"])[0][:300],
                "final_value": None}
    return {"answer": "warned" if said else "accepted",
            "message": said[0][:300] if said else "", "final_value": final}


def probe(client, flags: list[dict] | None = None) -> dict:
    """Start the image's JVM once per option; the record to store."""
    from . import images
    from .preflight import _run
    ids = images.require_images(client, [images.WILDFLY])
    rows = []
    for flag in flags or load_flags():
        answer = _run(client, images.WILDFLY, ["java", *shlex.split(flag["option"]),
                                               "-XX:+PrintFlagsFinal", "-version"],
                      entrypoint="", keep=None)
        rows.append({**flag, **classify(flag["option"], answer["exit"], answer["output"])})
    version = _run(client, images.WILDFLY, ["java", "-version"], entrypoint="")["output"]
    started = datetime.now(timezone.utc)
    return {"probe": PROBE, "flags": rows,
            "provenance": {**provenance.machine(), **provenance.git(),
                           "started": started.isoformat(), "image": images.WILDFLY,
                           "image_id": ids[images.WILDFLY],
                           "java_version": version.strip().splitlines()[0] if version else None}}


def store(record: dict, results_dir: Path | None = None) -> Path:
    from .store import write_probe
    return write_probe(record, PROBE, results_dir)


def newest(results_dir: Path) -> tuple[Path, dict] | None:
    import json
    folder = Path(results_dir) / "probes" / PROBE
    for path in sorted(folder.glob("*.json"), reverse=True):
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if record.get("provenance", {}).get("git_dirty") is False:
            return path, record
    return None
