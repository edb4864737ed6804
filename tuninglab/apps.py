"""Applications under test: what a node serves and what the load generator sends it.

Every app is a folder under ``apps/`` with an ``app.toml``; its ``artifact`` says where the
nodes get it. No image carries an app: a node gets each app's archives copied in when its
container is made.

- ``folder`` (the default): a web application folder (``webapp``, zipped into a WAR when a
  node is created, so there is no build step) and a k6 script (``workload``) that prints its
  summary in the contract of ``workloads/mix.js``; an app that answers a part of another app's
  API names that app as its ``workload`` and is driven by its script (``apps/ordermfg``). A
  recipe picks one with ``[workload] app``; every node of its stack then deploys it, and the
  load generator runs its script. An app is a stack input of its own
  (staleness.role_inputs): a change to it stales only the results of the recipes that drive it.
- ``maven``: as ``folder``, but its ``webapp`` is the WAR (or EAR) that scripts/setup.sh builds
  from the folder's Maven project (``pom.xml``, ``src/``) under ``target/``; its inputs are the
  folder without ``target/``, so a rebuild of the same sources stales nothing.

An app that says ``resident = true`` is deployed on every node of its workspace, whatever app
a recipe drives (``node_apps``): in this checkout the lab's own app, beside which the other
apps were measured and through which they read the tl.* properties back. A workspace of one's
own has none unless it declares one, so a user's app runs alone. The library's resident app is
also the one a recipe that names no app drives (``default_app``), and a workspace without a
folder of that name finds it in the library. Its k6 script is in the load generator's image
(``workload`` an absolute path there), its mixes in a JSON file (``mixes_file``) and its
smoke set a list (``smoke``), which any app may use too.

An app declares what the library would otherwise have to know about it: its data sources by
role (``[datasources] <role> = "<WildFly data-source name>"``: what telemetry, provenance, the
change kinds and the safety rules read), its database, the endpoint that reports its
configuration as it runs, its smoke set and the load models its script drives.

What a user's app needs of the server and the database, it brings along:

- ``server_setup``: a jboss-cli file of its folder (the subset jboss_cli.py reads: ``add`` and
  ``write-attribute`` lines) that creates what it expects to find: its data sources, JMS
  destinations, system properties. A node applies it through the management API once it has
  booted, and only then deploys the app (stack.py), so the app never meets a server without
  them; its archives wait in HELD_DIR until then instead of the scanner's folder.
- ``server_config``: the WildFly configuration it needs (``standalone-full.xml`` for the
  embedded broker); the recipes that drive it start their nodes with it.
- ``seed``: SQL files of its folder, loaded in order into its ``database`` (which the lab
  creates), and baked into an image of the lab's PostgreSQL once per seed (seeding.py): every
  database of a stack starts from the same data in about a second. ``seed_role``: a role of
  the lab's image the files run as, which then owns the database and what they create (the
  lab's own app: "lab", the role its data source connects as); the superuser by default.
  ``[seed_variables]``: psql variables the files read (``-v name=value``).

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
import re
import tomllib
import zipfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from . import jboss_cli, layout
from .drivers import DRIVERS

__all__ = ["App", "AppError", "Deployment", "load", "available", "default_app",
           "default_app_name", "resident_apps", "node_apps", "DEPLOYMENTS_DIR", "HELD_DIR",
           "LOADGEN_APPS_DIR", "ARTIFACTS", "ARCHIVES", "MODELS", "archive_suffix"]

DEPLOYMENTS_DIR = "/opt/wildfly/standalone/deployments"
# Where a node keeps the archives of an app with a server set-up until the set-up is applied
# (the scanner does not look there; stack.py deploys them through the management API).
HELD_DIR = "/opt/tuninglab/apps"
LOADGEN_APPS_DIR = "/apps"  # where an app's workload script goes in the load generator
ARTIFACTS = ("folder", "maven")  # where the nodes get an app from (see above)
BUILD_OUTPUT = "target"  # where Maven puts what it builds, in a "maven" app's folder
MODELS = ("closed", "open")  # the load models a k6 script may drive (workloads/mix.js)
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
    # What its jboss-ejb3.xml makes of its stateful beans' cache on a cluster, read back as
    # session_cache is: "replicated", "distributed" or "" (nothing to check).
    bean_cache: str = ""


@dataclass(frozen=True)
class App:
    name: str
    context_root: str  # the URL path a workload's BASE_URL ends with (its own deployment)
    script: str  # the k6 script's path in the load generator
    mixes: dict[str, dict[str, int]]
    transactions: tuple[str, ...]  # what a smoke test runs, each in turn
    folder: Path | None = None  # its folder under apps/
    webapp: str = ""
    workload: str = ""
    inputs: tuple[str, ...] = field(default=())  # repository paths it is made from
    overlay: str = ""  # its own deployment's overlay folder, if any
    # its own deployment's session_cache, affinity and bean_cache (keys of CHOICES), as
    # Deployment's
    sessions: dict[str, str] = field(default_factory=dict)
    others: tuple[Deployment, ...] = ()  # further deployments ([deployments.<name>])
    artifact: str = "folder"  # ARTIFACTS
    resident: bool = False  # deployed on every node of its workspace (see the module's text)
    datasources: dict[str, str] = field(default_factory=dict)  # role -> WildFly data source
    database: str = ""  # its database in the lab's PostgreSQL image ("": none of its own)
    config_endpoint: str = ""  # URL path reporting the settings it runs with ("": none)
    models: tuple[str, ...] = ("closed",)  # the load models its script drives (MODELS)
    driver: str = "k6"  # what sends it its load (drivers.DRIVERS)
    mixes_from: str = ""  # where its mixes are named, for messages
    mixes_trouble: str = ""  # why its mixes file could not be read ("": it could)
    server_setup: str = ""  # a jboss-cli file of its folder, applied before it deploys
    # the server configuration it needs ("": any; e.g. standalone-full.xml for the broker): a
    # recipe that drives it runs its nodes on it (recipe.py refuses another)
    server_config: str = ""
    seed: tuple[str, ...] = ()  # SQL files of its folder, loaded in order into ``database``
    seed_role: str = ""  # the role the seed runs as and its database belongs to ("": superuser)
    seed_variables: dict = field(default_factory=dict)  # psql variables the seed reads
    # What its script reads beside the generic load keys ([parameters.<name>]): each a JSON
    # Schema fragment of one number (type, bounds, default, description), and the value a smoke
    # test uses (``smoke``; the default if none). A recipe sets them in its [workload] and may
    # take levels of one (load_levels); the driver hands each to the script by its name in
    # capitals (k6: an environment variable).
    parameters: dict[str, dict] = field(default_factory=dict)
    # The system properties it reads (``tl.<section>.<key>``) that take a number or a word from
    # a list, declared as parameters are ([properties."tl.<section>.<key>"]): a recipe that
    # sets one outside its bounds or its list is refused before anything starts (preflight,
    # changes/model.py).
    properties: dict[str, dict] = field(default_factory=dict)

    def parameter_defaults(self) -> dict[str, int | float]:
        return {name: fragment["default"] for name, fragment in self.parameters.items()}

    def smoke_parameters(self) -> dict[str, int | float]:
        return {name: fragment.get("smoke", fragment["default"])
                for name, fragment in self.parameters.items()}

    def datasource(self, role: str = "") -> str:
        """The WildFly name of the data source in ``role`` (its first one by default);
        AppError names the roles it declares."""
        if not role and self.datasources:
            return next(iter(self.datasources.values()))
        if role in self.datasources:
            return self.datasources[role]
        known = ", ".join(self.datasources) or "none"
        raise AppError(f"apps/{self.name}/app.toml: no data source for role {role!r}; "
                       f"allowed: {known} (table [datasources])")

    @property
    def war_name(self) -> str:
        return f"{self.name}{archive_suffix(self.webapp)}"

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
        """A deployment's archive (the app's own by default): the web folder's files, or a
        prebuilt WAR's or EAR's entries, with the overlay's files on top, in path order, with
        a fixed timestamp (the same bytes on every node)."""
        deployment = deployment or self.deployments[0]
        source = self.folder / self.webapp
        files = _archive_entries(source) if source.is_file() else {
            name: path.read_bytes() for name, path in _tree(source).items()}
        files.update({name: path.read_bytes()
                      for name, path in self.overlay_files(deployment).items()})
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as war:
            for name in sorted(files):
                war.writestr(zipfile.ZipInfo(name, _ZIP_TIME), files[name])
        return buffer.getvalue()

    def overlay_files(self, deployment: Deployment) -> dict[str, Path]:
        """The files a deployment adds to the web app, by their path in its WAR."""
        return _tree(self.folder / deployment.overlay) if deployment.overlay else {}

    def node_files(self) -> dict[str, bytes]:
        """What a node gets before it boots: every deployment's WAR in its deployments folder,
        or, for an app with a server set-up, where they wait for it (held_archives)."""
        folder = HELD_DIR if self.server_setup else DEPLOYMENTS_DIR
        return {f"{folder}/{d.war_name}": self.war(d) for d in self.deployments}

    def held_archives(self) -> dict[str, str]:
        """An app with a server set-up: each archive's name and its path on a node, to deploy
        once the set-up is applied (stack.py); none for an app the scanner deploys at boot."""
        if not self.server_setup:
            return {}
        return {d.war_name: f"{HELD_DIR}/{d.war_name}" for d in self.deployments}

    def setup_operations(self) -> list:
        """The server set-up's operations (jboss_cli.Operation), in the file's order."""
        if not self.server_setup:
            return []
        return jboss_cli.parse_text((self.folder / self.server_setup).read_text(encoding="utf-8"),
                                    f"apps/{self.name}/{self.server_setup}")

    def seed_files(self) -> list[tuple[str, bytes]]:
        """The seed's SQL files, in loading order: (path in the app's folder, bytes)."""
        return [(path, (self.folder / path).read_bytes()) for path in self.seed]

    def loadgen_files(self) -> dict[str, bytes]:
        """What the load generator needs to drive it: its k6 script (none for an app whose
        script is in the load generator's image, or that is driven by another app's)."""
        if not self.script.startswith(f"{LOADGEN_APPS_DIR}/{self.name}/"):
            return {}
        return {self.script: (self.folder / self.workload).read_bytes()}


def _tree(root: Path) -> dict[str, Path]:
    return {p.relative_to(root).as_posix(): p for p in root.rglob("*") if p.is_file()}


ARCHIVES = (".war", ".ear")  # a prebuilt ``webapp``: deployed as it is (plus any overlay)


def archive_suffix(webapp: str) -> str:
    """What a node's deployments folder calls the app's archive: .ear for an EAR, else .war
    (a folder is zipped into a WAR)."""
    return ".ear" if webapp.lower().endswith(".ear") else ".war"


def _archive_entries(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()
                if not info.is_dir()}


def _webapp_problem(name: str, folder: Path, relative: str) -> str | None:
    """Why ``webapp`` (a folder, or a prebuilt WAR or EAR) cannot be deployed, or None."""
    webapp, shown = folder / relative, f"apps/{name}/{relative}"
    if webapp.is_dir():
        return None if any(webapp.rglob("*")) else f"webapp: {shown}/ is an empty folder"
    if not webapp.name.lower().endswith(ARCHIVES):
        return (f"webapp: {shown} is a file that is not a WAR or an EAR; allowed: a folder of "
                f"the web application, or a file ending in {' or '.join(ARCHIVES)}")
    try:
        with zipfile.ZipFile(webapp) as archive:
            entries = [i for i in archive.infolist() if not i.is_dir()]
            broken = archive.testzip()
    except (zipfile.BadZipFile, OSError) as exc:
        return f"webapp: {shown} is not a readable archive ({exc}); allowed: a WAR or an EAR"
    if broken is not None:
        return f"webapp: {shown} has a damaged entry ({broken})"
    if not entries:
        return f"webapp: {shown} is an empty archive"
    return None


def available(root: Path | None = None) -> list[str]:
    base = Path(root or layout.workspace()) / "apps"
    return sorted(p.name for p in base.iterdir() if (p / "app.toml").is_file()) \
        if base.is_dir() else []


def default_app_name() -> str:
    """The name of the library's resident app, read from its app.toml alone."""
    return _default_app_name(str(layout.REPO_ROOT))


def default_app(root: Path | None = None) -> App:
    """The library's resident app: the one a recipe that names no app drives, found in the
    workspace ``root`` if it has a folder of that name, else in the library."""
    return load(default_app_name(), root)


def resident_apps(root: Path | None = None) -> tuple[App, ...]:
    """The apps of the workspace ``root`` (its own folders) that every node deploys."""
    base = Path(root or layout.workspace())
    return tuple(load(name, base) for name in _resident_names(str(base)))


def node_apps(app: App, root: Path | None = None) -> tuple[str, ...]:
    """What every node of a stack driving ``app`` deploys, by name: the workspace's resident
    apps, then ``app``."""
    return tuple(dict.fromkeys([*(a.name for a in resident_apps(root)), app.name]))


def _known(root: str) -> list[str]:
    """The apps a workspace can name: its own folders and the library's default app."""
    return sorted({*available(Path(root)), _default_app_name(str(layout.REPO_ROOT))})


@lru_cache(maxsize=None)
def _resident_names(root: str) -> tuple[str, ...]:
    apps_dir = Path(root) / "apps"
    return tuple(name for name in available(Path(root))
                 if _read_toml(apps_dir / name / "app.toml").get("resident") is True)


@lru_cache(maxsize=None)
def _default_app_name(root: str) -> str:
    found = _resident_names(root)
    if len(found) != 1:
        raise AppError(f"apps/*/app.toml: the library has exactly one resident app (resident = "
                       f"true), the one a recipe naming no app drives; found: "
                       f"{', '.join(found) or 'none'}")
    return found[0]


def load(name: str, root: Path | None = None) -> App:
    """The app called ``name`` in the workspace ``root`` (layout.workspace()); AppError
    names what is wrong and what is allowed. The library's default app is found in the library
    when the workspace has no folder of that name."""
    return _load(name, str(Path(root or layout.workspace())))


def _read_toml(toml_path: Path) -> dict:
    where = f"apps/{toml_path.parent.name}/app.toml"
    try:
        return tomllib.loads(toml_path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise AppError(f"{where}: not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise AppError(f"{where}: not UTF-8 text (byte {exc.start}); allowed: a "
                       f"UTF-8 TOML file") from None


@lru_cache(maxsize=None)
def _load(name: str, root: str) -> App:
    folder = Path(root) / "apps" / name
    toml_path = folder / "app.toml"
    if not toml_path.is_file() and name == _default_app_name(str(layout.REPO_ROOT)):
        folder = layout.REPO_ROOT / "apps" / name
        toml_path = folder / "app.toml"
    if not toml_path.is_file():
        raise AppError(f"apps/{name}/app.toml: no such app; allowed: {', '.join(_known(root))}")
    data = _read_toml(toml_path)
    artifact = data.get("artifact", "folder")
    if artifact not in ARTIFACTS:
        raise AppError(f"apps/{name}/app.toml: artifact: {artifact!r}; allowed: "
                       f"{', '.join(ARTIFACTS)}")
    problems = _described_problems(data) + _brought_problems(name, folder, data)
    for key in ("context_root", "webapp", "workload"):
        if not isinstance(data.get(key), str) or not data[key]:
            problems.append(f"{key}: required, a non-empty string")
    if "overlay" in data and not isinstance(data["overlay"], str):
        problems.append("overlay: a folder of the app's, as a string")
    problems += _choice_problems("session_cache", data)
    problems += _choice_problems("affinity", data)
    driver = _driving_app(data.get("workload"), folder, root)
    in_image = isinstance(data.get("workload"), str) and data["workload"].startswith("/")
    for key in ("webapp", "workload", "overlay"):
        if key == "workload" and (driver is not None or in_image):
            continue  # another app's script drives it (it answers a part of that app's API),
            # or the script is a path in the load generator's image
        if isinstance(data.get(key), str) and data[key] and not (folder / data[key]).exists():
            problems.append(f"{key}: {data[key]!r} does not exist in apps/{name}/"
                            + (_unbuilt(name, folder, data[key]) if artifact == "maven" else ""))
        elif key == "webapp" and isinstance(data.get(key), str) and data[key]:
            problems += filter(None, [_webapp_problem(name, folder, data[key])])
    suffix = archive_suffix(data["webapp"]) if isinstance(data.get("webapp"), str) else ".war"
    others = _deployments(name, data.get("deployments", {}), folder, problems, suffix)
    roots = [data.get("context_root"), *(d.context_root for d in others)]
    if len(set(roots)) < len(roots):
        problems.append(f"context_root: every deployment needs its own; given: {roots}")
    mixes, mixes_from, mixes_trouble = _mixes(name, root, data, problems)
    smoke = data.get("smoke")
    if smoke is not None and (not isinstance(smoke, list) or not smoke
                              or not all(isinstance(t, str) and t for t in smoke)):
        problems.append("smoke: the transactions a smoke test runs, a list of names (default: "
                        "every transaction of its mixes)")
    if not isinstance(data.get("resident", False), bool):
        problems.append("resident: true or false (deployed on every node of its workspace)")
    if problems:
        raise AppError(f"apps/{name}/app.toml: " + "; ".join(problems))
    transactions = tuple(smoke or sorted({t for mix in mixes.values() for t in mix}))
    script = (driver.script if driver is not None else data["workload"] if in_image
              else f"{LOADGEN_APPS_DIR}/{name}/{data['workload']}")
    return App(name, data["context_root"], script,
               mixes, transactions, folder, data["webapp"], data["workload"],
               inputs=_inputs(name, folder, artifact), artifact=artifact,
               resident=data.get("resident", False), overlay=data.get("overlay", ""),
               sessions=_sessions(data), others=others, mixes_from=mixes_from,
               mixes_trouble=mixes_trouble, **_described(data))


def _mixes(name: str, root: str, data: dict, problems: list[str]) -> tuple[dict, str, str]:
    """An app's named mixes, where they were read and why they could not be: its [mixes]
    table, or a JSON file (``mixes_file``, shared with a script in the load generator's image),
    the workspace's if it has one (it may name mixes of its own: the script reads each mix's
    weights from the engine), else the library's. A run cannot start without the file, but a
    recipe check says so on the recipe's own mix key (``mixes_trouble``)."""
    relative = data.get("mixes_file")
    if relative is None:
        mixes = data.get("mixes")
        problems += _mixes_problems(mixes, "mixes: required (or mixes_file), named tables")
        return mixes, f"apps/{name}/app.toml, [mixes]", ""
    if not isinstance(relative, str) or not relative or "mixes" in data:
        problems.append("mixes_file: a JSON file of the workspace, instead of [mixes]")
        return {}, "", ""
    mixes_root = Path(root) if (Path(root) / relative).exists() else layout.REPO_ROOT
    mixes, trouble = _mixes_file(mixes_root, relative)
    return mixes, f"the keys of {relative}", trouble


def _unbuilt(name: str, folder: Path, webapp: str) -> str:
    """What to do about a Maven app's archive that is not there."""
    if not (folder / "pom.xml").is_file():
        return f" (artifact maven needs apps/{name}/pom.xml, and there is none)"
    if Path(webapp).parts[:1] != (BUILD_OUTPUT,):
        return f" (artifact maven: webapp is what Maven builds, under {BUILD_OUTPUT}/)"
    return " (artifact maven: run bash scripts/setup.sh, whose app step builds it)"


def _inputs(name: str, folder: Path, artifact: str) -> tuple[str, ...]:
    """The workspace paths an app is made from: its whole folder, or a Maven app's without
    the build's output (the WAR's bytes follow from its sources)."""
    if artifact != "maven":
        return (f"apps/{name}",)
    return tuple(f"apps/{name}/{entry.name}" for entry in sorted(folder.iterdir())
                 if entry.name != BUILD_OUTPUT and not entry.name.startswith("."))


def _driving_app(workload, folder: Path, root: str) -> App | None:
    """The app whose script drives this one, when ``workload`` names an app rather than a file
    of this app's folder (it answers a part of that app's API)."""
    if not isinstance(workload, str) or not workload or (folder / workload).exists() \
            or workload not in _known(root) or workload == folder.name:
        return None
    return _load(workload, root)


def _mixes_file(root: Path, relative: str) -> tuple[dict, str]:
    """The mixes of a JSON file of the workspace, or why they cannot be read."""
    try:
        mixes = json.loads((root / relative).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}, f"{relative} not found"
    except (ValueError, OSError) as error:
        return {}, f"{relative} unreadable: {error}"
    if _mixes_problems(mixes, ""):
        return {}, f"{relative} is not a JSON object of mixes (transaction = weight)"
    return mixes, ""


def _mixes_problems(mixes, what: str) -> list[str]:
    if not isinstance(mixes, dict) or not mixes or not all(
            isinstance(m, dict) and m and all(isinstance(w, int) and w >= 0 for w in m.values())
            for m in mixes.values()):
        return [f"{what} of transaction = weight (whole numbers)"]
    return []


# What any app may declare about itself, beside where it comes from (see the module's text):
# datasources, database, config_endpoint, models, driver, parameters and properties.


PARAMETER_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
# A tl.* property the lab reads back through the app is tl.<section>.<key> (changes/model.py)
PROPERTY_NAME = re.compile(r"tl\.[A-Za-z0-9_-]+\.[A-Za-z0-9_.-]+")
PARAMETER_TYPES = {"integer": int, "number": (int, float)}
# A system property may also take a word from a list (apps/notify's design); a script's
# parameter only a number.
PROPERTY_TYPES = {**PARAMETER_TYPES, "string": str}
PARAMETER_KEYS = ("type", "minimum", "maximum", "enum", "default", "description", "smoke")


def _parameter_problems(parameters, table: str = "parameters") -> list[str]:
    """A [parameters] (or [properties]) table: each entry a number's schema fragment with a
    default inside its bounds (or a word's, with its list) and a description (what a recipe's
    reader and its error messages show)."""
    if not isinstance(parameters, dict):
        return [f"{table}: tables [{table}.<name>] of type, minimum, maximum, default, "
                "description"]
    problems = []
    for name, fragment in parameters.items():
        where = f"{table}.{name}"
        if table == "parameters" and not PARAMETER_NAME.fullmatch(name):
            problems.append(f"{where}: not a name; allowed: lower-case letters, digits and _, "
                            f"starting with a letter")
            continue
        if table == "properties" and not PROPERTY_NAME.fullmatch(name):
            problems.append(f"{where}: not a property the lab reads back; allowed: "
                            f"tl.<section>.<key>")
            continue
        if not isinstance(fragment, dict):
            problems.append(f"{where}: a table of {', '.join(PARAMETER_KEYS)}")
            continue
        unknown = sorted(set(fragment) - set(PARAMETER_KEYS))
        if unknown:
            problems.append(f"{where}: unknown key(s) {', '.join(unknown)}; allowed: "
                            f"{', '.join(PARAMETER_KEYS)}")
        types = PROPERTY_TYPES if table == "properties" else PARAMETER_TYPES
        kind = types.get(fragment.get("type"))
        if kind is None:
            problems.append(f"{where}.type: {fragment.get('type')!r}; allowed: "
                            f"{', '.join(types)}")
            continue
        if not isinstance(fragment.get("description"), str) or not fragment["description"]:
            problems.append(f"{where}.description: required, what the script does with it")
        if kind is str:  # a word from a list: the list is the whole of what is allowed
            problems += _enum_problems(where, fragment)
            continue
        low, high = fragment.get("minimum"), fragment.get("maximum")
        for key in ("default", "smoke", "minimum", "maximum"):
            value = fragment.get(key)
            if value is None and key != "default":
                continue
            if isinstance(value, bool) or not isinstance(value, kind):
                problems.append(f"{where}.{key}: {value!r}; allowed: a{'n' if kind is int else ''}"
                                f" {fragment['type']}")
            elif key in ("default", "smoke") and ((low is not None and value < low)
                                                  or (high is not None and value > high)):
                problems.append(f"{where}.{key}: {value!r} is outside [{low}, {high}]")
    return problems


def _enum_problems(where: str, fragment: dict) -> list[str]:
    """A string's fragment: its enum a list of words, its default and smoke values among them."""
    words = fragment.get("enum")
    if not isinstance(words, list) or not words or not all(isinstance(w, str) and w for w in words):
        return [f"{where}.enum: required for a string, the list of allowed words"]
    problems = [f"{where}.{key}: a string takes no bound; allowed: enum"
                for key in ("minimum", "maximum") if key in fragment]
    for key in ("default", "smoke"):
        if key in fragment and fragment[key] not in words:
            problems.append(f"{where}.{key}: {fragment[key]!r}; allowed: {', '.join(words)}")
    return problems


def _described_problems(data: dict) -> list[str]:
    problems = _parameter_problems(data.get("parameters", {}))
    problems += _parameter_problems(data.get("properties", {}), "properties")
    sources = data.get("datasources", {})
    if not isinstance(sources, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and v for k, v in sources.items()):
        problems.append("datasources: a table of role = \"<WildFly data-source name>\"")
    for key in ("database", "config_endpoint", "server_config"):
        if key in data and (not isinstance(data[key], str) or not data[key]):
            problems.append(f"{key}: a non-empty string")
    if data.get("driver", "k6") not in DRIVERS:
        problems.append(f"driver: {data['driver']!r}; allowed: {', '.join(DRIVERS)}")
    models = data.get("models", ["closed"])
    if not isinstance(models, list) or not models or not set(models) <= set(MODELS):
        problems.append(f"models: a list of {', '.join(MODELS)}")
    return problems


def _described(data: dict) -> dict:
    return {"datasources": dict(data.get("datasources", {})), "database": data.get("database", ""),
            "config_endpoint": data.get("config_endpoint", ""),
            "server_config": data.get("server_config", ""),
            "models": tuple(data.get("models", ["closed"])), "driver": data.get("driver", "k6"),
            "server_setup": data.get("server_setup", ""), "seed": tuple(data.get("seed", ())),
            "seed_role": data.get("seed_role", ""),
            "seed_variables": dict(data.get("seed_variables", {})),
            "parameters": {name: dict(fragment)
                           for name, fragment in data.get("parameters", {}).items()},
            "properties": {name: dict(fragment)
                           for name, fragment in data.get("properties", {}).items()}}


def _brought_problems(name: str, folder: Path, data: dict) -> list[str]:
    """What is wrong with what an app brings along (see the module's text): its server set-up
    must be a file the lab can read operation by operation, its seed SQL files of its folder
    for a database it names."""
    problems = []
    setup = data.get("server_setup")
    if setup is not None:
        if not isinstance(setup, str) or not setup or not (folder / setup).is_file():
            problems.append(f"server_setup: {setup!r} is not a file in apps/{name}/; allowed: "
                            f"a jboss-cli file of the app's folder")
        else:
            try:
                jboss_cli.parse_text((folder / setup).read_text(encoding="utf-8"),
                                     f"apps/{name}/{setup}")
            except (jboss_cli.CliSyntaxError, UnicodeDecodeError) as error:
                problems.append(f"server_setup: {error}")
    seed = data.get("seed")
    if seed is not None:
        if not isinstance(seed, list) or not seed or not all(
                isinstance(p, str) and p.endswith(".sql") for p in seed):
            problems.append("seed: a list of .sql files of the app's folder, loaded in order")
        else:
            problems += [f"seed: {p!r} is not a file in apps/{name}/" for p in seed
                         if not (folder / p).is_file()]
        if not data.get("database"):
            problems.append("seed: needs database, the name of the database it is loaded into")
        elif not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", str(data["database"])):
            problems.append(f"database: {data['database']!r}; allowed: a PostgreSQL name of "
                            f"lower-case letters, digits and _ (the lab creates it)")
    role = data.get("seed_role")
    if role is not None and (not isinstance(role, str)
                             or not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", role)):
        problems.append(f"seed_role: {role!r}; allowed: a role of the lab's database image, "
                        f"lower-case letters, digits and _")
    variables = data.get("seed_variables", {})
    if not isinstance(variables, dict) or not all(
            re.fullmatch(r"[a-z_][a-z0-9_]{0,39}", str(k)) and isinstance(v, (int, str))
            and not isinstance(v, bool) for k, v in variables.items()):
        problems.append("seed_variables: a table of psql variables, name = a number or a word")
    return problems


# What a deployment may say of its sessions and its stateful beans, each key's allowed values
# (checked by a run).
CHOICES = {"session_cache": ("replicated", "distributed"), "affinity": ("primary-owner", "none"),
           "bean_cache": ("replicated", "distributed")}


def _sessions(table: dict) -> dict[str, str]:
    """What a table (app.toml's top, or a [deployments.<name>]) says of its sessions."""
    return {key: table.get(key, "") for key in CHOICES}


def _choice_problems(key: str, table: dict, where: str = "") -> list[str]:
    value = table.get(key, "")
    if value and value not in CHOICES[key]:
        return [f"{where}{key}: {value!r}; allowed: {', '.join(CHOICES[key])}"]
    return []


def _deployments(app: str, table, folder: Path, problems: list[str],
                 suffix: str = ".war") -> tuple[Deployment, ...]:
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
                            f"{', '.join(CHOICES)} (non-empty strings)")
            continue
        choices = [p for key in CHOICES for p in _choice_problems(key, entry, f"{where}.")]
        if choices:
            problems += choices
            continue
        if not (folder / entry["overlay"]).is_dir():
            problems.append(f"{where}.overlay: {entry['overlay']!r} is not a folder in "
                            f"apps/{app}/")
            continue
        found.append(Deployment(name, f"{app}-{name}{suffix}", entry["context_root"],
                                entry["overlay"], **_sessions(entry)))
    return tuple(found)
