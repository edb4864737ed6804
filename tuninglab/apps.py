"""Applications under test: what a node serves and what the load generator sends it.

``orderentry`` is built into the WildFly image and driven by ``workloads/mix.js``: both are
stack inputs of every recipe. Any other application is a folder under ``apps/`` with an
``app.toml`` (see ``apps/sessioncart``): a web application (a folder zipped into a WAR when a
node is created, so there is no build step) and a k6 script that prints its summary in the
contract of ``workloads/mix.js``; an app that answers a part of orderentry's API says
``workload = "orderentry"`` and is driven by mix.js itself (``apps/ordermfg``). A recipe picks
one with ``[workload] app``; every node of its stack then deploys it beside orderentry, and the
load generator runs its script. Such an app is a stack input of its own
(staleness.role_inputs): a change to it stales only the results of the recipes that drive it.

An app may be deployed more than once on every node (``[deployments.<name>]``): the same web
app with a few files of its own (an overlay folder, e.g. a ``WEB-INF/distributable-web.xml``
naming another session cache) under another context root. Two configurations then live side
by side on the same running nodes, and a recipe's arms choose between them by the URL they
drive (changes/deployment.py) instead of reconfiguring and reloading the cluster.

An app's script repeats mix.js's metrics and summary code (the contract). Sharing it means a
k6 module under workloads/ that mix.js imports, and any edit to workloads/ makes every
published result stale: extract it the next time mix.js has to change anyway.
"""
from __future__ import annotations

import io
import json
import tomllib
import zipfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from . import layout

__all__ = ["App", "AppError", "Deployment", "ORDERENTRY", "load", "available", "DEPLOYMENTS_DIR",
           "LOADGEN_APPS_DIR"]

ORDERENTRY = "orderentry"
DEPLOYMENTS_DIR = "/opt/wildfly/standalone/deployments"
LOADGEN_APPS_DIR = "/apps"  # where an app's workload script goes in the load generator
# Orderentry's transaction types: its smoke test runs each in turn (workloads/mix.js).
ORDERENTRY_SMOKE = ("Ping", "NewOrder", "OrderStatus", "CustomerStatus", "ChangeOrder",
                    "ItemBrowse", "ScheduleWorkOrder", "BulkLoad", "Quote")
_ZIP_TIME = (2026, 1, 1, 0, 0, 0)  # same bytes on every node: their models stay comparable


class AppError(ValueError):
    """An app folder that cannot be used: the message names the file, the key and the fix."""


@dataclass(frozen=True)
class Deployment:
    """One WAR of an app on every node: the app's web folder plus an overlay's files."""
    name: str  # "" for the app's own deployment, else the key of its [deployments.<name>]
    war_name: str
    context_root: str  # the URL path a workload's BASE_URL ends with
    overlay: str = ""  # an app folder whose files are added to the web app's, or replace them
    # What its distributable-web.xml makes of its sessions, for the run to read back:
    # "replicated", "distributed" or "" (nothing to check; changes/deployment.py)
    session_cache: str = ""
    # Whether its session ids name the node to come back to: "primary-owner" (they do: sticky
    # sessions), "none" (they do not) or "" (nothing to check), read back from the answers.
    affinity: str = ""


@dataclass(frozen=True)
class App:
    name: str
    context_root: str  # the URL path a workload's BASE_URL ends with (its own deployment)
    script: str  # the k6 script's path in the load generator
    mixes: dict[str, dict[str, int]]
    transactions: tuple[str, ...]  # what a smoke test runs, each in turn
    folder: Path | None = None  # None: built into the images (orderentry)
    webapp: str = ""
    workload: str = ""
    inputs: tuple[str, ...] = field(default=())  # repository paths it is made from
    overlay: str = ""  # its own deployment's overlay folder, if any
    # its own deployment's session_cache and affinity (keys of CHOICES), as Deployment's
    sessions: dict[str, str] = field(default_factory=dict)
    others: tuple[Deployment, ...] = ()  # further deployments ([deployments.<name>])

    @property
    def built_in(self) -> bool:
        return self.folder is None

    @property
    def war_name(self) -> str:
        return f"{self.name}.war"

    @property
    def deployments(self) -> tuple[Deployment, ...]:
        """Every WAR of the app a node deploys, its own first."""
        own = Deployment("", self.war_name, self.context_root, self.overlay, **self.sessions)
        return (own, *self.others)

    def deployment(self, name: str = "") -> Deployment:
        """The deployment called ``name`` ("" for the app's own); AppError lists the others."""
        for deployment in self.deployments:
            if deployment.name == name:
                return deployment
        known = ", ".join(d.name for d in self.others) or "none"
        raise AppError(f"apps/{self.name}/app.toml: no deployment {name!r}; allowed: {known} "
                       f"(tables [deployments.<name>])")

    def war(self, deployment: Deployment | None = None) -> bytes:
        """A deployment's WAR (the app's own by default): the web folder with the overlay's
        files on top, in path order, with a fixed timestamp."""
        deployment = deployment or self.deployments[0]
        files = _tree(self.folder / self.webapp)
        files.update(self.overlay_files(deployment))
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as war:
            for name in sorted(files):
                war.writestr(zipfile.ZipInfo(name, _ZIP_TIME), files[name].read_bytes())
        return buffer.getvalue()

    def overlay_files(self, deployment: Deployment) -> dict[str, Path]:
        """The files a deployment adds to the web app, by their path in its WAR."""
        return _tree(self.folder / deployment.overlay) if deployment.overlay else {}

    def node_files(self) -> dict[str, bytes]:
        """What a node gets before it boots: every deployment's WAR in its deployments folder."""
        if self.built_in:
            return {}
        return {f"{DEPLOYMENTS_DIR}/{d.war_name}": self.war(d) for d in self.deployments}

    def loadgen_files(self) -> dict[str, bytes]:
        """What the load generator needs to drive it: its k6 script (none for an app driven by
        orderentry's own, which the load generator's image has)."""
        if self.built_in or self.workload == ORDERENTRY:
            return {}
        return {self.script: (self.folder / self.workload).read_bytes()}


def _tree(root: Path) -> dict[str, Path]:
    return {p.relative_to(root).as_posix(): p for p in root.rglob("*") if p.is_file()}


def available(root: Path | None = None) -> list[str]:
    base = Path(root or layout.REPO_ROOT) / "apps"
    folders = [p.name for p in base.iterdir() if (p / "app.toml").is_file()] \
        if base.is_dir() else []
    return sorted({ORDERENTRY, *folders})


def load(name: str, root: Path | None = None) -> App:
    """The app called ``name``; AppError names what is wrong and what is allowed."""
    return _load(name, str(Path(root or layout.REPO_ROOT)))


@lru_cache(maxsize=None)
def _load(name: str, root: str) -> App:
    if name == ORDERENTRY:
        mixes = json.loads((Path(root) / "workloads" / "mixes.json").read_text())
        return App(ORDERENTRY, "/orderentry/api", "/workloads/mix.js", mixes, ORDERENTRY_SMOKE)
    folder = Path(root) / "apps" / name
    toml_path = folder / "app.toml"
    if not toml_path.is_file():
        raise AppError(f"apps/{name}/app.toml: no such app; allowed: "
                       f"{', '.join(available(Path(root)))}")
    try:
        data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise AppError(f"apps/{name}/app.toml: not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise AppError(f"apps/{name}/app.toml: not UTF-8 text (byte {exc.start}); allowed: a "
                       f"UTF-8 TOML file") from None
    problems = []
    for key in ("context_root", "webapp", "workload"):
        if not isinstance(data.get(key), str) or not data[key]:
            problems.append(f"{key}: required, a non-empty string")
    if "overlay" in data and not isinstance(data["overlay"], str):
        problems.append("overlay: a folder of the app's, as a string")
    problems += _choice_problems("session_cache", data)
    problems += _choice_problems("affinity", data)
    for key in ("webapp", "workload", "overlay"):
        if key == "workload" and data.get(key) == ORDERENTRY:
            continue  # orderentry's own script: the app answers a part of its API
        if isinstance(data.get(key), str) and data[key] and not (folder / data[key]).exists():
            problems.append(f"{key}: {data[key]!r} does not exist in apps/{name}/")
    others = _deployments(name, data.get("deployments", {}), folder, problems)
    roots = [data.get("context_root"), *(d.context_root for d in others)]
    if len(set(roots)) < len(roots):
        problems.append(f"context_root: every deployment needs its own; given: {roots}")
    mixes = data.get("mixes")
    if not isinstance(mixes, dict) or not mixes or not all(
            isinstance(m, dict) and m and all(isinstance(w, int) and w >= 0 for w in m.values())
            for m in mixes.values()):
        problems.append("mixes: required, named tables of transaction = weight (whole numbers)")
    if problems:
        raise AppError(f"apps/{name}/app.toml: " + "; ".join(problems))
    transactions = tuple(sorted({t for mix in mixes.values() for t in mix}))
    script = (_load(ORDERENTRY, root).script if data["workload"] == ORDERENTRY
              else f"{LOADGEN_APPS_DIR}/{name}/{data['workload']}")
    return App(name, data["context_root"], script,
               mixes, transactions, folder, data["webapp"], data["workload"],
               inputs=(f"apps/{name}",), overlay=data.get("overlay", ""),
               sessions=_sessions(data), others=others)


# What a deployment may say of its sessions, each key's allowed values (checked by a run).
CHOICES = {"session_cache": ("replicated", "distributed"), "affinity": ("primary-owner", "none")}


def _sessions(table: dict) -> dict[str, str]:
    """What a table (app.toml's top, or a [deployments.<name>]) says of its sessions."""
    return {key: table.get(key, "") for key in CHOICES}


def _choice_problems(key: str, table: dict, where: str = "") -> list[str]:
    value = table.get(key, "")
    if value and value not in CHOICES[key]:
        return [f"{where}{key}: {value!r}; allowed: {', '.join(CHOICES[key])}"]
    return []


def _deployments(app: str, table, folder: Path, problems: list[str]) -> tuple[Deployment, ...]:
    """The [deployments.<name>] tables: each a context_root, an overlay folder and what its
    session cache and its session ids should show."""
    if not isinstance(table, dict):
        problems.append("deployments: tables [deployments.<name>] with context_root and overlay")
        return ()
    found = []
    for name, entry in table.items():
        where = f"deployments.{name}"
        required, optional = {"context_root", "overlay"}, set(CHOICES)
        if not isinstance(entry, dict) or not required <= set(entry) <= required | optional \
                or not all(isinstance(v, str) and v for v in entry.values()):
            problems.append(f"{where}: context_root and overlay, and optionally "
                            f"{' and '.join(CHOICES)} (non-empty strings)")
            continue
        choices = [p for key in CHOICES for p in _choice_problems(key, entry, f"{where}.")]
        if choices:
            problems += choices
            continue
        if not (folder / entry["overlay"]).is_dir():
            problems.append(f"{where}.overlay: {entry['overlay']!r} is not a folder in "
                            f"apps/{app}/")
            continue
        found.append(Deployment(name, f"{app}-{name}.war", entry["context_root"],
                                entry["overlay"], **_sessions(entry)))
    return tuple(found)
