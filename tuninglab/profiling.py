"""The profiled pass: where each arm's CPU time went, shown rather than argued.

After the timed trials of a run, the arms of its last slot are measured once more (for three
windows' length), on the same nodes with the same load, while Java Flight Recorder samples each
node's JVM (the JDK's ``profile`` settings: a stack every 10 ms of a running thread). The pass
is kept out of every number of the result: a recording costs CPU, so its window is not a trial.
What it stores is each arm's hottest methods, on top of a sampled stack (``self``) and anywhere
in it (``total``), and every package with the samples it was in (``packages``), which a page
draws beside the interval it explains.

The nodes run without their CPU quota for the pass: JFR's sampler is a thread of the node's
JVM and is throttled with it, and under a quarter-core quota it recorded 163 and 144 samples in
30 s (ejb3-pass-by-reference, 28 November 2026), too few for the copier's methods to stand out
among the server's. The methods are the same; their shares are those of an unthrottled node.

The node's image has a JRE, without the JDK's ``jcmd`` and ``jfr`` tools; its ``jdk.jfr``
module is there. So a small web application (``profiler/profile.jsp``, compiled by WildFly's
own JSP compiler) starts and stops the recording inside the node's JVM and reads the samples
back, and the lab deploys it for the pass only, through the management API, and removes it
afterwards. A pass that fails is recorded with its reason; it never fails the run, whose
numbers do not depend on it.
"""
from __future__ import annotations

import io
import json
import urllib.error
import urllib.request
import zipfile
from pathlib import Path
from typing import Callable

from .management import deploy_archive

__all__ = ["PROBE", "SETTINGS", "probe_war", "run_pass", "hottest", "differing", "short_method"]

PROBE = "tl-profiler.war"
SETTINGS = "profile"  # the JDK's JFC: method samples every 10 ms (the default's are 20 ms)
TOP = 25  # methods kept per arm and ranking
# The pass lasts this many of the run's windows: one 5 s window of a cold half-core node gave
# 47 samples (2026-11-28), too few to rank methods by.
PASS_WINDOWS = 3
HELD_PATH = "/opt/tuninglab/profiler/" + PROBE
DEPLOYMENT_STRUCTURE = """<?xml version="1.0" encoding="UTF-8"?>
<jboss-deployment-structure>
    <deployment>
        <dependencies>
            <module name="jdk.jfr"/>
        </dependencies>
    </deployment>
</jboss-deployment-structure>
"""


def probe_war() -> bytes:
    """The profiler's archive: the JSP and the module dependency it needs."""
    jsp = (Path(__file__).with_name("profiler") / "profile.jsp").read_bytes()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as war:
        for name, data in (("profile.jsp", jsp),
                           ("WEB-INF/jboss-deployment-structure.xml", DEPLOYMENT_STRUCTURE)):
            war.writestr(zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0)), data)
    return buffer.getvalue()


def run_pass(stack, nodes: dict[str, str], measure: Callable[[], None], window_s: int) -> dict:
    """Deploy the profiler on each node (arm label -> node), start a recording on each,
    ``measure()`` (one load window of every arm, side by side), stop, read, remove. Returns the
    record a result stores; on a failure, the record says why and holds no arm."""
    record = {"settings": SETTINGS, "window_s": window_s, "nodes": dict(nodes),
              "quota_lifted": True, "arms": {}}
    deployed, widened = [], []
    try:
        war = probe_war()
        for node in nodes.values():
            stack.nodes[node].put_bytes(HELD_PATH, war)
            deploy_archive(stack.management_of(node), PROBE, HELD_PATH)
            deployed.append(node)
        for node in nodes.values():
            stack.widen(node)
            widened.append(node)
        for node in nodes.values():
            _call(stack, node, {"action": "start", "settings": SETTINGS})
        measure()
        for label, node in nodes.items():
            record["arms"][label] = _call(stack, node, {"action": "stop", "top": TOP})
    except Exception as error:  # noqa: BLE001 - the pass is evidence, never the run's verdict
        record["arms"] = {}
        record["error"] = f"{type(error).__name__}: {error}"
    finally:
        for node in widened:
            stack.restore(node)
        for node in deployed:
            try:
                stack.management_of(node).execute("remove", [("deployment", PROBE)])
            except Exception:  # noqa: BLE001 - the node goes with the stack anyway
                pass
    return record


def _call(stack, node: str, params: dict) -> dict:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    url = f"{stack.nodes[node].app_url()}/{PROBE.removesuffix('.war')}/profile.jsp?{query}"
    try:
        with urllib.request.urlopen(url, timeout=120) as answer:
            return json.loads(answer.read().decode("utf-8"))
    except urllib.error.HTTPError as error:
        raise RuntimeError(f"{node}: the profiler answered {error.code}: "
                           f"{error.read().decode(errors='replace')[:500]}") from None


def hottest(record: dict, ranking: str = "self", n: int = 10) -> list[dict]:
    """The methods most often on top of (``self``) or anywhere in (``total``) a sampled stack,
    over the arms of a stored pass: the union of each arm's ``n`` first, each with its share
    of that arm's samples per arm (None where an arm's list does not reach it), hottest
    first."""
    arms = record.get("arms") or {}
    shares: dict[str, dict[str, float | None]] = {}
    for label, arm in arms.items():
        samples = arm.get("samples") or 0
        for method, count in (arm.get(ranking) or [])[:n]:
            shares.setdefault(method, {})
        for method, count in arm.get(ranking) or []:
            if method in shares and samples:
                shares[method][label] = count / samples
    rows = [{"method": m, "shares": {label: by_arm.get(label) for label in arms}}
            for m, by_arm in shares.items()]
    return sorted(rows, key=lambda r: -max((s or 0) for s in r["shares"].values()))


def differing(record: dict, n: int = 8) -> list[dict]:
    """Of a two-arm pass, the packages whose share of the samples (anywhere on the stack)
    differs most between the arms, largest difference first: the component where one arm's
    time went and the other's did not. Every package is stored, so a package an arm lacks had
    none of its samples (0). Empty for a pass without packages or with another number of arms."""
    arms = list(record.get("arms") or {})
    if len(arms) != 2 or not all(record["arms"][a].get("packages") for a in arms):
        return []
    shares: dict[str, dict[str, float]] = {}
    for label in arms:
        arm = record["arms"][label]
        for package, count in arm["packages"]:
            shares.setdefault(package, dict.fromkeys(arms, 0.0))[label] = count / arm["samples"]
    rows = [{"package": p, "shares": by_arm} for p, by_arm in shares.items()]
    rows.sort(key=lambda r: (-abs(r["shares"][arms[0]] - r["shares"][arms[1]]), r["package"]))
    return rows[:n]


def short_method(name: str) -> str:
    """``org.jboss.as.ejb3.Foo.bar`` as ``o.j.a.ejb3.Foo.bar``: packages to their first
    letter except the last, so that a table stays readable."""
    parts = name.split(".")
    if len(parts) <= 3:
        return name
    *packages, cls, method = parts
    return ".".join([p[0] for p in packages[:-1]] + [packages[-1], cls, method])
