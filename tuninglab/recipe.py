"""Recipes: parse and validate ``recipes/<area>/<id>/recipe.toml`` into frozen dataclasses.

A recipe declares; the library runs. Everything the runner needs is checked here, before a
container starts, so that a typo costs a second and not a ten-minute run. What the recipe
compiles to (its arms) is ``plan.py``'s job. Validation has two
stages: the published JSON Schema (``recipe.schema.json``, the reference readers see on the
docs site) checks structure, types, ranges and unknown keys; then rules spanning several
keys (a change kind's own keys, the load model's keys, the id matching its folder, the mix
existing, named files existing) are checked here. Every problem is reported as
``<file>: <dotted.key>: <what is wrong>; <what is allowed>``, all problems at once.

Defaults live in the schema (``default``) and, for measurement profiles, in
``profiles.toml``: the documentation and the behaviour cannot drift apart, and a recipe states
only what differs.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import tomllib
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, NamedTuple

import jsonschema

from . import apps, database_stats, drivers, images, server_modules

__all__ = [
    "scan_recipes",
    "AREAS",
    "RECIPE_FILE",
    "SCHEMA_PATH",
    "RecipeError",
    "Recipe",
    "Source",
    "StackSpec",
    "Setup",
    "Change",
    "ContainerLimits",
    "Workload",
    "Metrics",
    "Tolerance",
    "Profile",
    "Sweep",
    "Rung",
    "ClusterTable",
    "LoadLevels",
    "SourceCurve",
    "PLACEHOLDER",
    "load_recipe",
    "discover_recipes",
    "find_recipe",
    "recipe_hash",
    "recipe_schema",
]

# The site's sections, and "own": the recipes of a workspace of your own (tuninglab init)
AREAS = ("method", "guide", "thesis", "articles", "own")
RECIPE_FILE = "recipe.toml"
SCHEMA_PATH = Path(__file__).with_name("recipe.schema.json")
PROFILES_PATH = Path(__file__).with_name("profiles.toml")
PLACEHOLDER = "{value}"  # where a sweep's value goes in the change

# Keys that only one value of a selector may use: the rest of the table is common.
CHANGE_KEYS = {
    "jboss-cli": ("file", "switch"),
    "postgresql-conf": ("file",),
    "jvm-options": ("jvm_options",),
    "app-properties": ("properties",),
    "container-limits": ("limits",),
    "workload": ("workload",),
    "client-jvm-options": ("client_jvm_options",),
    "ladder": ("rungs",),
    "balancer-policy": ("policy",),
    "active-nodes": ("active_nodes",),
    "deployment": ("deployment",),
    "database-split": ("deployment", "db_cpus"),
    "jdk": ("jdk",),
    "node-image": ("node_image",),
    "jvm-agent": ("agent", "agent_options"),
    "network-delay": ("delay_ms", "delayed"),
    "network-rate": ("rate_mbit", "capped"),
    "front-protocol": ("protocol", "baseline_protocol"),
    "none": ("switch",),
}
CHANGE_REQUIRED = {**CHANGE_KEYS, "jboss-cli": ("file",), "none": (), "jvm-agent": ("agent",),
                   "database-split": ("deployment",), "network-delay": ("delay_ms",),
                   "network-rate": ("rate_mbit",), "front-protocol": ("protocol",)}
# Change kinds whose arms choose which of the app's deployments they drive.
DEPLOYMENT_KINDS = ("deployment", "database-split")
# Change kinds that act on a cluster's balancer: a recipe with one needs [cluster].
CLUSTER_KINDS = ("balancer-policy", "active-nodes")
# The primary metric of a recipe whose expected outcome is failed requests: they are then what
# it measures, not a reason to discard a trial (analysis/trials.py).
MEASURES_ERRORS = "error_rate"
# What a recipe's metrics.primary may name (recipe.schema.json's enum): the drain rate only
# where the app's load fills a queue and reports it (apps/messages, mix drain).
PRIMARY_METRICS = ("throughput", "cpu_per_tx", MEASURES_ERRORS, "drain_rate")
MODEL_KEYS = {"closed": ("users", "think_time_ms"), "open": ("rate", "max_users")}
MODEL_REQUIRED = {"closed": ("users",), "open": ("rate",)}


class RecipeError(Exception):
    """A recipe that cannot be used; the message names the file, the key and what is allowed
    (one line per problem)."""


# --------------------------------------------------------------------------- dataclasses


@dataclass(frozen=True)
class SourceCurve:
    """The source's own points of a curve the recipe sweeps or loads."""

    x: tuple[float, ...]
    y: tuple[float, ...]
    y_unit: str
    label: str
    normalize: bool
    scale_to: str = "maximum"  # the source's point that meets ours: "maximum" or "first"

    def as_dict(self) -> dict:
        return {"x": list(self.x), "y": list(self.y), "y_unit": self.y_unit, "label": self.label,
                "normalize": self.normalize, "scale_to": self.scale_to}


@dataclass(frozen=True)
class Source:
    """Where the claim under test comes from, and what it leads us to expect."""

    document: str
    section: str | None
    table: str | None
    claim: str
    expected: str  # better | worse | no-change | none
    effect: float | None = None  # the relative effect the source reports, if any
    curve: SourceCurve | None = None
    contrast: str = "best-vs-reference"  # a sweep's comparison the claim is about
    curves: tuple[SourceCurve, ...] = ()  # several of the source's curves (one a JVM, ...)


@dataclass(frozen=True)
class StackSpec:
    """Container resources and the baseline server configuration."""

    app_cpuset: str
    db_cpuset: str
    loadgen_cpuset: str
    app_memory: str
    db_memory: str
    jvm_options: str
    server_config: str
    app_cpus: float | None = None
    databases: tuple[str, ...] = ("db",)  # the stack's PostgreSQL containers, by name
    db_cpus: float | None = None  # each database's CPU quota (None: its cpuset, no quota)
    side_by_side: bool = False  # a sweep's nodes measured in one window (plan.py, per-level)


@dataclass(frozen=True)
class Setup:
    """The baseline set-up, applied to both arms (absolute paths)."""

    cli: Path | None
    pg_conf: Path | None
    properties: dict[str, str] = field(default_factory=dict)
    modules: tuple[str, ...] = ()  # server modules installed on every node (server_modules.py)


@dataclass(frozen=True)
class ContainerLimits:
    """Application-server container limits of the variant arm (None: as in the stack)."""

    app_cpus: float | None
    app_memory: str | None
    app_cpuset: str | None
    app_disk_write_iops: int | str | None = None  # a number, or the sweep's placeholder


@dataclass(frozen=True)
class ClusterTable:
    """``[cluster]``: nodes behind a balancer (checked and built by cluster.ClusterSpec.of)."""

    nodes: int
    cpus: float | tuple[float, ...]
    policy: str = "roundrobin"
    server_maxconn: int = 0


@dataclass(frozen=True)
class Rung:
    """One configuration of a ladder: its JVM options and the recipes whose change it adopts
    (their ids; changes/ladder.py reads them)."""

    name: str
    jvm_options: str
    adopts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Change:
    """The one change applied to the variant arm; only the fields of its kind are set."""

    kind: str
    file: Path | None = None
    jvm_options: str | None = None
    properties: dict[str, str] = field(default_factory=dict)
    limits: ContainerLimits | None = None
    workload: dict = field(default_factory=dict)  # kind workload: the variant's client keys
    client_jvm_options: str | None = None  # kind client-jvm-options: the variant's (or {value})
    switch: str | None = None  # jboss-cli and none: how an arm's setting is put on a server
    rungs: tuple[Rung, ...] = ()  # kind ladder: the configurations, in the ladder's order
    policy: str | None = None  # kind balancer-policy: the variant's policy (or {value})
    active_nodes: int | str | None = None  # kind active-nodes: nodes in rotation (or {value})
    deployment: str | None = None  # kind deployment: the app's deployment the variant drives
    db_cpus: float | None = None  # kind database-split: each database's quota in the variant
    jdk: str | None = None  # kind jdk: the variant's JDK (a major version the images offer)
    node_image: str | None = None  # kind node-image: the variant's image (images.NODE_IMAGES)
    agent: str | None = None  # kind jvm-agent: the agent the variant loads (images.JVM_AGENTS)
    agent_options: str | None = None  # kind jvm-agent: its options, after -agentpath:<lib>=
    delay_ms: float | str | None = None  # kind network-delay: the added round trip (or {value})
    delayed: str | None = None  # kind network-delay: the database behind it (default: the first)
    rate_mbit: float | str | None = None  # kind network-rate: the link's cap (0: none; or {value})
    capped: str | None = None  # kind network-rate: the database behind it (default: the first)
    protocol: str | None = None  # kind front-protocol: how the variant's load reaches its node
    baseline_protocol: str | None = None  # kind front-protocol: the baseline's (default: http)
    # any kind: what each arm does to the database per window, {"baseline"|"variant": {figure:
    # (low, high)}}, read back after every window (changes/database_read_back.py)
    database: dict = field(default_factory=dict)
    # any kind: what each arm's nodes send and receive on their networks per window, as
    # ``database`` (changes/database_read_back.py reads both)
    network: dict = field(default_factory=dict)
    # any kind: what the app's data-source pool held at each window's start and opened during
    # it, as ``database`` (changes/database_read_back.py), where the pause was as asked
    pool: dict = field(default_factory=dict)
    # any kind: what the running server reports for each arm, {"baseline"|"variant": {address:
    # {attribute: value}}}, read back on every node (changes/runtime_read_back.py)
    runtime: dict = field(default_factory=dict)
    # any kind: what each arm's client JVM reports of itself per window, {"baseline"|"variant":
    # {figure: value or (low, high)}} (changes/client_read_back.py)
    client: dict = field(default_factory=dict)

    @property
    def is_none(self) -> bool:
        """True for kind none: an A/A calibration, or a curve of the load alone."""
        return self.kind == "none"


@dataclass(frozen=True)
class Sweep:
    """The values of the one setting a sweep recipe varies (``{value}`` in its change)."""

    name: str
    unit: str
    values: tuple
    reference: object  # the value the headline delta is measured against
    # "lower" or "higher": the end of the axis that costs less; "none": unordered choices;
    # "condition": no choice at all (a network's delay), read as costs against the first value
    cheaper: str


@dataclass(frozen=True)
class LoadLevels:
    """Levels of one workload key that every arm runs at (users, rate, lines, note_chars)."""

    key: str
    values: tuple


@dataclass(frozen=True)
class Workload:
    """The load of each trial; closed-model fields are None for the open model and vice versa."""

    mix: str
    model: str
    users: int | None
    think_time_ms: int | None
    rate: float | None
    max_users: int | None
    requests_per_connection: int = 0  # 0: keep each virtual user's connection
    idle_before_s: int = 0  # > 0: each window follows a pause without load, not settling
    app: str = ""  # the application under test (apps.py; the schema's default when built)
    deployment: str = ""  # which of the app's deployments every arm drives ("" its own)
    # the app's workload parameters (apps.App.parameters), each the recipe's value or the
    # app's default
    parameters: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Metrics:
    primary: str  # throughput | cpu_per_tx | error_rate (MEASURES_ERRORS)
    runtime: tuple[str, ...]
    margin: float = 0.05  # the smallest loss that matters (analysis/advice.py)
    courses: tuple[str, ...] = ()  # figures sampled through each window (courses.py)
    profiled_pass: bool = False  # a JFR pass of the last slot's arms after the trials

    @property
    def reads_database(self) -> bool:
        """Whether every window reads the app's database's figures (database_stats.py)."""
        return database_stats.RUNTIME_NAME in self.runtime


@dataclass(frozen=True)
class Tolerance:
    """Limits beyond which a trial is not a valid measurement: errors of the system under test
    (error_rate) invalidate it; disturbances of the machine, and a node whose compiler was busy
    during the window (the rest), send its block back to be run again."""

    error_rate: float
    loadgen_cpu: float
    steal: float = 0.02
    outside_cpu: float = 0.3
    db_core_busy: float = 0.85
    # Of the node's CPU, its compiler's threads' share (compiler_cpu.py). The wall-time rule it
    # replaced on 26 November 2026 (30 % of the window) read a median 3.4 times the CPU share in
    # 12 trial windows of a quarter-core node with 8 users, so 10 % is about where that node's
    # rule was; on nodes of 0.35 CPU with 25 task threads the wall figure read 9 to 30 times.
    jit_share: float = 0.1
    dropped_share: float = 0.0


@dataclass(frozen=True)
class Profile:
    """Timing and repetition of one measurement profile (defaults: profiles.toml)."""

    name: str
    blocks: int
    window_s: int
    settle_s: int
    compile_max_s: int
    plateau_max_s: int
    max_retries: int
    points: str = "all"  # "ends": only a sweep's and load levels' ends (plan.compile_plan)
    interference: str = "enforce"  # "record": disturbances noted, trials not re-run
    periods: int = 4  # a crossover whose arms swap with a reload or a restart: its periods
    launches: int = 1  # a sweep with a node per value: how often each node starts anew
    compile_side_by_side: bool = False  # nodes compile together (CI) or alone
    recompile_side_by_side: bool = False  # nodes whose JVMs compiled before (a reload) together
    rewarm_windows: int = 0  # such nodes' plateau: windows with the compiler quiet (0: full rule)
    min_usable_share: float = 1.0  # of the planned blocks, usable after re-runs, for validity
    reuse_stack: bool = False  # take and leave a parked stack (stackpool.py), if enabled
    reuse_runs: int = 0  # how many runs a kept stack may serve (0: no limit)
    reuse_alone: bool = False  # a run removes the parked stacks it does not take
    reuse_parked: int = 0  # stacks parked at once, the oldest removed first (0: no limit)
    jit: str = "tiered"  # "c1": the nodes' JVMs compile with C1 only (CI; stack.NodeConfig)
    calibrate: bool = False  # time the host's speed before the first warm-up (calibration.py)
    sequential: bool = False  # an A/B run stops at a planned look once the answer is known
    claims: bool = True  # its results carry a verdict; False: they prove the recipe runs (CI)
    min_transactions: int = 0  # per arm and window, else the window grows (window_length.py)
    window_max_s: int = 0  # the longest a growing window may become
    drain_max_s: int = 30  # the longest a window waits for the last one's requests to end
    idle_max_s: int = 0  # the longest pause before a window (workload.idle_before_s); 0: no cap
    cluster_nodes: int = 0  # a cluster recipe's nodes in this profile (0: its [cluster] table's)
    cluster_cpus: float = 0  # each of those nodes' CPU quota in this profile (0: the table's)

    def idle_s(self, asked: int) -> int:
        """The pause before each window in this profile, for a workload that asks for
        ``asked`` seconds: capped where the profile caps it (CI: no claim rests on it)."""
        return min(asked, self.idle_max_s) if self.idle_max_s else asked


@dataclass(frozen=True)
class Recipe:
    id: str
    area: str
    title: str
    summary: str
    folder: Path  # absolute
    toml_path: Path  # absolute
    source: Source
    stack: StackSpec
    baseline: Setup
    change: Change
    workload: Workload
    metrics: Metrics
    tolerance: Tolerance
    profiles: dict[str, Profile]
    sweep: Sweep | None = None
    load_levels: LoadLevels | None = None
    cluster: ClusterTable | None = None

    @property
    def repo_root(self) -> Path:
        """The folder holding ``recipes/`` (and ``workloads/``)."""
        return self.folder.parent.parent.parent

    @property
    def server_config(self) -> str:
        """The WildFly configuration its nodes start with: the one its app needs (app.toml
        ``server_config``, which the recipe may only repeat), else the stack's."""
        return (apps.load(self.workload.app, self.repo_root).server_config
                or self.stack.server_config)

    def as_run_in(self, profile: Profile) -> "Recipe":
        """The recipe as a run in ``profile`` builds its stack: on the profile's cluster_nodes
        (the first of them, where the table gives each node its quota) at the profile's
        cluster_cpus each, else as written."""
        if self.cluster is None or not (profile.cluster_nodes or profile.cluster_cpus):
            return self
        n = profile.cluster_nodes or self.cluster.nodes
        cpus = profile.cluster_cpus or self.cluster.cpus
        return replace(self, cluster=replace(
            self.cluster, nodes=n, cpus=cpus[:n] if isinstance(cpus, tuple) else cpus))

    def profile(self, name: str) -> Profile:
        """The named profile, or a RecipeError listing the allowed names."""
        try:
            return self.profiles[name]
        except KeyError:
            allowed = ", ".join(self.profiles)
            raise RecipeError(
                f"{_shown(self.toml_path)}: profiles.{name}: unknown profile; allowed: {allowed}"
            ) from None


# --------------------------------------------------------------------------- public API


def load_recipe(path: Path | str) -> Recipe:
    """Parse and validate one recipe; ``path`` is its folder or its recipe.toml."""
    try:
        toml_path = _toml_path(Path(path))
        data = _read_toml(toml_path)
        folder = toml_path.parent.resolve()
        _raise_if_any(toml_path, _schema_problems(data, folder))
        _raise_if_any(toml_path, _rule_problems(data, folder))
        return _build_recipe(data, folder, toml_path.resolve())
    except OSError as error:  # a name too long, no permission...
        where = error.filename or path
        raise RecipeError(f"{_shown(Path(str(where)))}: cannot be read: "
                          f"{error.strerror or error}") from None
    except RuntimeError as error:  # Path.resolve() on a symlink loop
        raise RecipeError(f"{path}: cannot be read: {error}") from None


def scan_recipes(root: Path | str) -> list[tuple[Path, Recipe | None, str | None]]:
    """Every recipe folder under ``root`` with its recipe, or why it cannot be used: one
    broken recipe does not hide the others (``list`` shows it as broken)."""
    found = []
    for folder in _recipe_folders(_recipes_dir(Path(root))):
        try:
            found.append((folder, load_recipe(folder), None))
        except RecipeError as error:
            found.append((folder, None, str(error)))
    # one id in two areas: both are refused (which one would `run` take?)
    duplicates = {line.split("duplicate recipe id ", 1)[1].split(",", 1)[0].strip("'"): line
                  for line in _duplicate_id_problems([r for _, r, _ in found if r is not None])}
    return [(folder, None, duplicates[recipe.id]) if recipe is not None
            and recipe.id in duplicates else (folder, recipe, error)
            for folder, recipe, error in found]


def discover_recipes(root: Path | str) -> list[Recipe]:
    """All recipes under ``root`` (the ``recipes/`` folder or the repo root), sorted by id.

    Every broken recipe is reported at once; two recipes with one id are an error.
    """
    recipes_dir = _recipes_dir(Path(root))
    recipes, errors = [], []
    for folder in _recipe_folders(recipes_dir):
        try:
            recipes.append(load_recipe(folder))
        except RecipeError as error:
            errors.append(str(error))
    errors += _duplicate_id_problems(recipes)
    if errors:
        raise RecipeError("\n".join(errors))
    return sorted(recipes, key=lambda recipe: recipe.id)


def find_recipe(root: Path | str, recipe_id: str) -> Recipe:
    """The recipe with this id under ``root``; only that recipe is parsed."""
    recipes_dir = _recipes_dir(Path(root))
    folders = [f for f in _recipe_folders(recipes_dir) if f.name == recipe_id]
    if not folders:
        known = ", ".join(sorted(f.name for f in _recipe_folders(recipes_dir))) or "(none)"
        raise RecipeError(
            f"{_shown(recipes_dir)}/: recipe {recipe_id!r} not found; known ids: {known}"
        )
    if len(folders) > 1:
        places = " and ".join(f"{_shown(f)}/" for f in folders)
        raise RecipeError(f"{_shown(recipes_dir)}/: duplicate recipe id {recipe_id!r}: {places}")
    return load_recipe(folders[0])


def recipe_hash(recipe: Recipe) -> str:
    """sha256 (hex) over every file of the recipe folder, recipe.toml included.

    Files are taken in order of their relative path, and each path is hashed with its
    content, so renaming a file changes the hash too. Hidden files and ``__pycache__`` are
    skipped: editors and tools leave them behind, and they never reach the server.
    """
    return _folder_digest(recipe, lambda relative, content, own=True: content)


# recipe.toml keys that are words for the reader and never reach a server or the analysis: a
# page's wording can be corrected without making the published result stale.
PROSE_KEYS = {"": ("title", "summary"), "source": ("document", "section", "table", "claim")}
# Keys that say how a stored result is read (the claim it is tested against, which end of a
# sweep is cheap, the margin that counts as "as good"), never what is run: the site reads every
# stored result with the recipe's current values (analysis/advice.py, agreement.py), so a
# correction does not make the result stale. Results written before 27 November 2026 23:00
# hashed them (staleness.py restores the values such a result stored to check its hash).
READING_KEYS = {"source": ("expected", "effect", "contrast"), "sweep": ("cheaper",),
                "metrics": ("margin",)}


# The profile whose results the site publishes. Only its own [profiles.<name>] table counts
# in measured_hash: making CI cheaper must not make a published result stale.
PUBLISHED_PROFILE = "full"


def measured_hash(recipe: Recipe, *, every_profile: bool = False,
                  reading: dict | None = None) -> str:
    """Like ``recipe_hash``, but recipe.toml counts by its parsed content without its prose
    (PROSE_KEYS), without the keys that only say how a result is read (READING_KEYS), without
    comments and without the tables of profiles other than the published one: what a
    publishing run does, not how the pages describe or read it, nor how CI runs it.

    The rules of older results: ``every_profile`` keeps every profile table (results written
    from 25 November 21:00 to 27 November 2026); ``reading`` keeps the reading keys, set to the
    given values ({(table, key): value, or None for a key that was absent}), as results written
    before 27 November 2026 23:00 hashed them (staleness.py accepts each rule)."""
    def without_prose(relative: str, content: bytes, own: bool = True) -> bytes:
        if relative != "recipe.toml":
            return content
        data = tomllib.loads(content.decode("utf-8"))
        for table, keys in PROSE_KEYS.items():
            section = data.get(table, {}) if table else data
            for key in keys:
                section.pop(key, None)
        # The old rule kept an adopted recipe's reading keys as they are: the result stored
        # only its own recipe's.
        for table, keys in (READING_KEYS.items() if own or reading is None else ()):
            section = data.get(table)
            if section is None:
                continue
            for key in keys:
                section.pop(key, None)
                if reading is not None and reading.get((table, key)) is not None:
                    section[key] = reading[(table, key)]
            if not section and reading is None:
                del data[table]
        # A ladder takes an adopted recipe's change, never its profiles (how long that recipe
        # measures its own A/B run): eight periods for datasource-max-pool-size staled the
        # ladder's result on 29 November 2026 under the rule that kept them.
        if not own and reading is None and not every_profile:
            data.pop("profiles", None)
        if not every_profile and "profiles" in data:
            data["profiles"] = {name: table for name, table in data["profiles"].items()
                                if name == PUBLISHED_PROFILE}
            if not data["profiles"]:
                del data["profiles"]
        return json.dumps(data, sort_keys=True).encode()

    return _folder_digest(recipe, without_prose)


def _folder_digest(recipe: Recipe, content_of) -> str:
    """sha256 over the recipe folder's files in path order, each path with
    ``content_of(path, bytes, own)`` (own: False for the files of an adopted recipe)."""
    digest = hashlib.sha256()
    for relative in _content_files(recipe.folder):
        content = content_of(relative, (recipe.folder / relative).read_bytes())
        digest.update(f"{relative}\0{len(content)}\0".encode())
        digest.update(content)
    # A ladder measures the changes of the recipes its rungs adopt: their folders count too.
    adopted = sorted({rid for rung in recipe.change.rungs for rid in rung.adopts})
    for rid in adopted:
        for folder in sorted((recipe.repo_root / "recipes").glob(f"*/{rid}")):
            for relative in _content_files(folder):
                content = content_of(relative, (folder / relative).read_bytes(), False)
                digest.update(f"adopts/{rid}/{relative}\0{len(content)}\0".encode())
                digest.update(content)
    return digest.hexdigest()


@lru_cache(maxsize=1)
def recipe_schema() -> dict:
    """The JSON Schema of recipe.toml (as published on the docs site)."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def recipe_schema_for(app: apps.App | None) -> dict:
    """The schema a recipe of ``app`` is checked against: recipe_schema() with the app's
    workload parameters as [workload] keys, as keys of [load_levels] (a list of values) and
    of a workload change (kind workload: the variant's value). A parameter named like a
    generic workload key is left out (the app's check names it)."""
    if app is None or not app.parameters:
        return recipe_schema()
    schema = copy.deepcopy(recipe_schema())  # the cached one stays the generic schema
    workload = schema["properties"]["workload"]["properties"]
    levels = schema["properties"]["load_levels"]["properties"]
    changed = schema["properties"]["change"]["properties"]["workload"]["properties"]
    for name, fragment in app.parameters.items():
        if name in workload:
            continue
        bounds = {k: v for k, v in fragment.items() if k in ("type", "minimum", "maximum")}
        workload[name] = {**bounds, "description": fragment["description"],
                          "default": fragment["default"]}
        levels[name] = {"description": f"{fragment['description']} One value per level.",
                        "type": "array", "minItems": 2, "maxItems": 16, "uniqueItems": True,
                        "items": bounds}
        changed[name] = {**bounds, "description": f"{fragment['description']} The variant's."}
    return schema


def parameter_clashes(app: apps.App) -> list[str]:
    """The app's workload parameters that carry the name of a generic workload key."""
    generic = recipe_schema()["properties"]["workload"]["properties"]
    return sorted(set(app.parameters) & set(generic))


# --------------------------------------------------------------------------- reading


class Problem(NamedTuple):
    key: str  # dotted path, e.g. change.file
    text: str  # what is wrong; what is allowed


def _raise_if_any(toml_path: Path, problems: list[Problem]) -> None:
    if problems:
        shown = _shown(toml_path)
        unique = sorted(set(problems))
        raise RecipeError("\n".join(f"{shown}: {p.key}: {p.text}" for p in unique))


# A recipe file is text a person writes; the largest in the catalogue is a few kB. A limit
# keeps a pasted or generated monster from being parsed, hashed and rendered.
MAX_RECIPE_BYTES = 256 * 1024


def _toml_path(path: Path) -> Path:
    folder = path.parent if path.name == RECIPE_FILE else path
    if folder.is_symlink():
        raise RecipeError(f"{_shown(folder.parent)}/{folder.name}: is a symbolic link; allowed: a folder (a recipe's "
                          f"files live in the repository, where its hash and its page read "
                          f"them)")
    if not path.exists():
        raise RecipeError(f"{_shown(path)}: not found; allowed: a recipe folder or its "
                          f"{RECIPE_FILE}")
    toml_path = path / RECIPE_FILE if path.is_dir() else path
    if toml_path.name != RECIPE_FILE:
        raise RecipeError(f"{_shown(path)}: not a recipe; allowed: a folder or its {RECIPE_FILE}")
    if toml_path.is_dir():
        raise RecipeError(f"{_shown(toml_path)}: is a folder; allowed: a TOML file")
    if not toml_path.is_file():
        raise RecipeError(f"{_shown(toml_path)}: not found")
    size = toml_path.stat().st_size
    if size > MAX_RECIPE_BYTES:
        raise RecipeError(f"{_shown(toml_path)}: too large ({size:,} bytes); allowed: at most "
                          f"{MAX_RECIPE_BYTES:,} bytes")
    return toml_path


def _read_toml(toml_path: Path) -> dict:
    try:
        with toml_path.open("rb") as stream:
            return tomllib.load(stream)
    except tomllib.TOMLDecodeError as error:
        message, line = _split_toml_position(str(error))
        raise RecipeError(f"{_shown(toml_path)}: {line}: invalid TOML: {message}") from None
    except UnicodeDecodeError as error:
        raise RecipeError(f"{_shown(toml_path)}: not UTF-8 text: {error}") from None


def _split_toml_position(message: str) -> tuple[str, str]:
    """tomllib puts the position at the end: 'Expected ... (at line 3, column 5)'."""
    match = re.search(r"\s*\(at (line \d+, column \d+|end of document)\)$", message)
    if not match:
        return message, "position unknown"
    return message[: match.start()], match.group(1)


# --------------------------------------------------------------------------- schema stage


def _schema_problems(data: dict, folder: Path) -> list[Problem]:
    validator = jsonschema.Draft202012Validator(recipe_schema_for(_app_of(data, folder)))
    problems: list[Problem] = []
    for error in validator.iter_errors(data):
        problems += _problems_from_schema_error(error)
    return problems


def _problems_from_schema_error(error: jsonschema.ValidationError) -> list[Problem]:
    """Turn one jsonschema error into our message form: dotted key, value, what is allowed."""
    path = list(error.absolute_path)
    kind = error.validator
    if "propertyNames" in error.schema_path:
        # Names from a list (a read-back's figures) or of a shape (system properties).
        if "enum" in error.schema:
            return [Problem(_dotted(path + [error.instance]),
                            f"unknown name; allowed: {', '.join(error.schema['enum'])}")]
        return [Problem(_dotted(path + [error.instance]),
                        f"not a system property name; allowed: names matching "
                        f"{error.schema['pattern']} (e.g. tl.hibernate.jdbc.batch_size)")]
    if kind == "additionalProperties":
        known = list(error.schema.get("properties", {}))
        extras = [key for key in error.instance if key not in known]
        return [Problem(_dotted(path + [key]),
                        f"unknown key; allowed keys: {', '.join(known)}") for key in extras]
    if kind == "required":
        required = error.schema["required"]
        missing = [key for key in required if key not in error.instance]
        where = f"of {_dotted(path)}" if path else "at the top level"
        return [Problem(_dotted(path + [key]),
                        f"missing; required keys {where}: {', '.join(required)}")
                for key in missing]
    if kind == "minProperties":
        keys = error.schema.get("properties")
        wanted = f"at least one of: {', '.join(keys)}" if keys else "at least one tl.* property"
        return [Problem(_dotted(path), f"empty; allowed: {wanted}")]
    if kind in ("minItems", "maxItems"):
        bound = "at least" if kind == "minItems" else "at most"
        return [Problem(_dotted(path), f"{_short(error.instance)}; allowed: a list of {bound} "
                                       f"{error.validator_value} items")]
    if kind == "uniqueItems":
        return [Problem(_dotted(path), f"{_short(error.instance)} repeats an item; "
                                       f"allowed: {_allowed(error.schema)}")]
    if kind in ("enum", "type", "pattern", "minimum", "maximum", "exclusiveMinimum",
                "exclusiveMaximum", "minLength"):
        return [Problem(_dotted(path),
                        f"{_short(error.instance)}; allowed: {_allowed(error.schema)}")]
    return [Problem(_dotted(path), error.message)]


def _allowed(schema: dict) -> str:
    """What a schema accepts, in words, for 'allowed: ...'."""
    if "enum" in schema:
        return ", ".join(str(value) for value in schema["enum"])
    kind = schema.get("type")
    if kind == "string":
        if "pattern" in schema:
            return f"a string matching {schema['pattern']}"
        return "a non-empty string" if schema.get("minLength") else "a string"
    if kind in ("integer", "number"):
        return f"{'an integer' if kind == 'integer' else 'a number'}{_range_words(schema)}"
    if kind == "array":
        items = schema.get("items", {})
        each = " (each at most once)" if schema.get("uniqueItems") else ""
        return f"a list of {_allowed(items)}{each}"
    if kind == "object":
        if "properties" in schema:
            return f"a table with keys from: {', '.join(schema['properties'])}"
        return "a table of tl.* properties with string values"
    return kind or "see recipe.schema.json"


def _range_words(schema: dict) -> str:
    bounds = []
    if "minimum" in schema:
        bounds.append(f">= {schema['minimum']}")
    if "exclusiveMinimum" in schema:
        bounds.append(f"> {schema['exclusiveMinimum']}")
    if "maximum" in schema:
        bounds.append(f"<= {schema['maximum']}")
    return " " + " and ".join(bounds) if bounds else ""


def _dotted(path: Iterable[Any]) -> str:
    """['workload', 'users'] -> 'workload.users'; quote keys that contain dots or spaces."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            name = part if re.fullmatch(r"[A-Za-z0-9_-]+", part) else json.dumps(part)
            text += f".{name}" if text else name
    return text or "(top level)"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# --------------------------------------------------------------------------- rule stage


def _rule_problems(data: dict, folder: Path) -> list[Problem]:
    """Rules spanning several keys; ``data`` has passed the schema."""
    return [
        *_location_problems(data, folder),
        *_source_problems(data["source"]),
        *_change_problems(data, folder),
        *_sweep_problems(data, folder),
        *_baseline_problems(data.get("baseline", {}), folder),
        *_workload_problems(data["workload"], folder, data.get("metrics", {}),
                            data.get("stack", {})),
        *_load_level_problems(data),
        *_launch_problems(data),
        *_cluster_node_problems(data),
        *_metric_problems(data),
    ]


def _metric_problems(data: dict) -> list[Problem]:
    """Errors as the primary metric are an A/B question (how many requests does the change
    make fail?); a curve's best value and knee are read from a cost, not from errors."""
    primary = data.get("metrics", {}).get("primary")
    if primary == MEASURES_ERRORS and _swept(data):
        return [Problem("metrics.primary", f"{primary} with a curve of the change (a [sweep] or "
                                           f"a ladder); allowed for a curve: throughput, "
                                           f"cpu_per_tx")]
    return []


def _launch_problems(data: dict) -> list[Problem]:
    """Starting nodes anew between periods is for sweeps whose values need a node each; an A/B
    run has its crossover's periods for that."""
    if _swept(data):
        return []
    return [Problem(f"profiles.{name}.launches",
                    f"{table['launches']} without a [sweep]; launches apply to a sweep whose "
                    f"values each run on a node of their own (A/B runs use periods); allowed: 1")
            for name, table in data.get("profiles", {}).items()
            if table.get("launches", 1) != 1]


def _cluster_node_problems(data: dict) -> list[Problem]:
    """A profile may run a cluster recipe on fewer of its nodes, never on more, and a cluster
    is two nodes at least; only a cluster recipe's nodes take a profile's quota."""
    nodes = data.get("cluster", {}).get("nodes")
    allowed = (f"0 (all of them) or 2 to {nodes} (cluster.nodes)" if nodes
               else "0 (the recipe has no [cluster] table)")
    profiles = data.get("profiles", {}).items()
    return [*(Problem(f"profiles.{name}.cluster_nodes",
                      f"{table['cluster_nodes']}; allowed: {allowed}")
              for name, table in profiles
              if table.get("cluster_nodes", 0)
              and not (nodes and 2 <= table["cluster_nodes"] <= nodes)),
            *filter(None, (_profile_quota_problem(f"profiles.{name}", table, data)
                           for name, table in profiles if table.get("cluster_cpus", 0)))]


def _profile_quota_problem(key: str, table: dict, data: dict) -> Problem | None:
    """A profile's quota for each node must fit, on that profile's nodes, on the cpuset the
    nodes share, as the table's own quotas must (cluster.ClusterSpec.of)."""
    from .cluster_quotas import overflow  # here: it imports interference, which imports this
    nodes = data.get("cluster", {}).get("nodes")
    if not nodes:
        return Problem(f"{key}.cluster_cpus", f"{table['cluster_cpus']}; allowed: 0 (the recipe "
                                              f"has no [cluster] table)")
    count = table.get("cluster_nodes") or nodes
    too_much = overflow([table["cluster_cpus"]] * count,
                        _with_defaults(data.get("stack", {}), "stack")["app_cpuset"])
    return Problem(f"{key}.cluster_cpus", too_much) if too_much else None


def _swept(data: dict) -> bool:
    """Whether the recipe's arms are a curve of the change: a [sweep], or a ladder's rungs."""
    return "sweep" in data or data["change"]["kind"] == "ladder"


def _location_problems(data: dict, folder: Path) -> list[Problem]:
    problems = []
    area_dir, recipes_dir = folder.parent, folder.parent.parent
    if recipes_dir.name != "recipes" or area_dir.name not in AREAS:
        problems.append(Problem(
            "(location)", f"folder {_shown(folder)}/ is not recipes/<area>/<id>/; "
                          f"allowed areas: {', '.join(AREAS)}"))
    if data["id"] != folder.name:
        problems.append(Problem(
            "id", f"{data['id']!r} differs from the folder name; allowed: {folder.name!r}"))
    return problems


def _source_problems(source: dict) -> list[Problem]:
    if source["document"] != "none" and "section" not in source:
        return [Problem("source.section",
                        f"missing; required unless source.document is none "
                        f"(document is {source['document']!r})")]
    return []


def _change_problems(data: dict, folder: Path) -> list[Problem]:
    change = data["change"]
    kind = change["kind"]
    problems = _selector_problems(change, "change", "kind", CHANGE_KEYS, CHANGE_REQUIRED)
    if "file" in change and "file" in CHANGE_KEYS[kind]:
        problems += _file_problems(folder, "change.file", change["file"])
    swept = "sweep" in data
    if kind == "jvm-options" and "jvm_options" in change and not swept:
        problems += _jvm_option_problems(change["jvm_options"], data.get("stack", {}))
    if kind == "app-properties" and "properties" in change and not swept:
        problems += _property_problems(change["properties"], data.get("baseline", {}))
    if kind == "workload" and "workload" in change:
        problems += _workload_change_problems(change["workload"], data.get("workload", {}),
                                              _app_of(data, folder))
    if kind == "ladder" and "rungs" in change:
        problems += _ladder_problems(change["rungs"], data)
    if kind == "jdk" and "jdk" in change:
        problems += _jdk_problems(str(change["jdk"]))
    if kind == "node-image" and change.get("node_image") not in (None, *images.NODE_IMAGES):
        problems.append(Problem("change.node_image", f"{change['node_image']!r}; allowed: "
                                f"{', '.join(images.NODE_IMAGES)} (images set-up builds on the "
                                f"common server image)"))
    if kind == "jvm-agent":
        problems += _agent_problems(change)
    if kind in DEPLOYMENT_KINDS and "deployment" in change:
        problems += _changed_deployment_problems(kind, str(change["deployment"]), data, folder)
    if "deployment" in data.get("workload", {}):
        problems += _driven_deployment_problems(kind, data, folder)
    problems += _database_problems(kind, data.get("stack", {}))
    for table, runtime in WINDOW_READ_BACKS.items():
        problems += _window_read_back_problems(table, runtime, change.get(table, {}),
                                               data.get("metrics", {}))
    problems += _client_read_back_problems(change, _app_of(data, folder))
    if kind == "front-protocol" and "cluster" in data:
        problems.append(Problem("change.kind", "front-protocol puts a web server in front of "
                                               "each node, and a [cluster] has a balancer "
                                               "there; allowed: a recipe without [cluster]"))
    if kind in CLUSTER_KINDS and "cluster" not in data:
        problems.append(Problem("change.kind", f"{kind} changes the balancer in front of a "
                                               f"cluster, and the recipe has no [cluster]; "
                                               f"allowed: a [cluster] table"))
    if kind == "none" and "load_levels" not in data and data["source"]["expected"] != "no-change":
        problems.append(Problem(
            "source.expected", f"{data['source']['expected']!r} with change.kind none (an A/A "
                               f"run, the variant equals the baseline); allowed: no-change"))
    return problems


def _client_read_back_problems(change: dict, app) -> list[Problem]:
    """What an arm's client reports of itself ([change.client]) comes from a client JVM's
    summary; a workload change of one of the app's own parameters must say how it is proven
    (the client's figures, or the database's)."""
    if app is None:
        return []  # the app's own problem is named under workload.app
    problems = []
    if change.get("client") and not drivers.driver_for(app).client_jvm:
        problems.append(Problem("change.client", f"app {app.name!r} is driven by {app.driver}, "
                                f"whose summary has no client figures; allowed: an app whose "
                                f"driver is a client JVM (driver = \"java-client\")"))
    own = sorted(set(change.get("workload", {})) & set(app.parameters))
    if change["kind"] == "workload" and own and not (change.get("client")
                                                     or change.get("database")):
        problems.append(Problem("change.client", f"missing: change.workload sets the app's "
                                f"{', '.join(own)}, and nothing proves the client ran it; "
                                f"allowed: [change.client.baseline] and [change.client.variant] "
                                f"with what the client reports of itself (or [change.database])"))
    return problems


def _agent_problems(change: dict) -> list[Problem]:
    """Kind jvm-agent: an agent set-up builds an image for, and options that stay one JVM
    argument (the agent's own syntax is the JVM's to judge: preflight starts it)."""
    problems = []
    if "agent" in change and change["agent"] not in images.JVM_AGENTS:
        problems.append(Problem("change.agent", f"{change['agent']!r}; allowed: "
                                f"{', '.join(images.JVM_AGENTS)} (set-up builds an image for "
                                f"each on the common server image)"))
    options = change.get("agent_options")
    if options is not None and (not isinstance(options, str) or not options
                                or any(c.isspace() for c in options)):
        problems.append(Problem("change.agent_options", f"{options!r}: the agent's options as one "
                                f"word, e.g. 'start,event=cpu,interval=10ms' (no spaces)"))
    return problems


def _jdk_problems(jdk: str) -> list[Problem]:
    """The variant's JDK is one set-up builds an image for, other than the baseline's."""
    others = [j for j in images.JDK_IMAGES if j != images.JDK]
    if jdk in others:
        return []
    return [Problem("change.jdk", f"{jdk!r}; allowed: {', '.join(others)} (the baseline runs "
                                  f"JDK {images.JDK}, the common image's)")]


def _database_problems(kind: str, stack: dict) -> list[Problem]:
    """The first database is "db" (the data source of the images' app reaches it); a database
    split needs a second one to split to."""
    databases = stack.get("databases", ["db"])
    if not isinstance(databases, list) or not databases:
        return []  # the schema's message
    if databases[0] != "db":
        return [Problem("stack.databases", f"{databases}: the first is the one the data source "
                                           f"of the images' app reaches; allowed: "
                                           f"[\"db\", ...]")]
    if kind == "database-split" and len(databases) < 2:
        return [Problem("stack.databases", f"{databases}: a database split needs a second "
                                           f"database; allowed: e.g. [\"db\", \"db2\"]")]
    return []


def _changed_deployment_problems(kind: str, name: str, data: dict, folder: Path) -> list[Problem]:
    """The deployment the change names, or, in a sweep of deployments ({value}), the one each
    value names: each must be one of the app's."""
    if PLACEHOLDER not in name:
        return _deployment_problems(name, data.get("workload", {}), folder)
    if kind != "deployment":
        return [Problem("change.deployment", f"{PLACEHOLDER} with change.kind {kind}; allowed: "
                                             f"one of the app's further deployments (only kind "
                                             f"deployment sweeps them)")]
    return [problem for value in data.get("sweep", {}).get("values", [])
            for problem in _deployment_problems(name.replace(PLACEHOLDER, str(value)),
                                                data.get("workload", {}), folder)]


def _deployment_problems(name: str, workload: dict, folder: Path) -> list[Problem]:
    """The variant's deployment is one of the recipe's app's further deployments (the schema
    keeps it non-empty: the app's own is the baseline's)."""
    try:
        app = apps.load(_app_name(workload), folder.parent.parent.parent)
    except apps.AppError:
        return []  # reported under workload.app
    try:
        app.deployment(name)
    except apps.AppError as error:
        return [Problem("change.deployment", str(error))]
    return []


def _driven_deployment_problems(kind: str, data: dict, folder: Path) -> list[Problem]:
    """A deployment every arm drives is one of the app's further deployments. With kind
    deployment (no sweep) it is the baseline's, which the change moves to another (two further
    WARs compared with each other); a sweep's or a database split's arms choose their own."""
    workload, change = data["workload"], data.get("change", {})
    if kind in DEPLOYMENT_KINDS and (kind != "deployment" or "sweep" in data):
        return [Problem("workload.deployment", f"{workload['deployment']!r} with change.kind "
                                               f"{kind}, whose arms choose their deployments; "
                                               f"allowed: no workload.deployment")]
    problems = [Problem("workload.deployment", problem.text) for problem in
                _deployment_problems(workload["deployment"], workload, folder)]
    if kind == "deployment" and workload["deployment"] == change.get("deployment"):
        problems.append(Problem("workload.deployment", f"{workload['deployment']!r}, the "
                                "variant's too (change.deployment); allowed: another of the "
                                "app's deployments, or none (the app's own)"))
    return problems


def _ladder_problems(rungs: list[dict], data: dict) -> list[Problem]:
    """A ladder's rungs are its sweep: distinct names, distinct configurations, no [sweep]
    beside them (which recipes a rung adopts is checked against those recipes when the ladder
    is bound: changes/ladder.py)."""
    problems = []
    if "sweep" in data:
        problems.append(Problem("sweep", "a ladder's rungs are its values; allowed: no [sweep] "
                                         "with change.kind ladder"))
    names = [r["name"] for r in rungs]
    for name in sorted({n for n in names if names.count(n) > 1}):
        problems.append(Problem("change.rungs", f"two rungs are named {name!r}; each rung needs "
                                                f"a name of its own"))
    default = data.get("stack", {}).get("jvm_options", _schema_default("stack", "jvm_options"))
    seen: dict[tuple, str] = {}
    for i, rung in enumerate(rungs):
        setting = (" ".join(rung.get("jvm_options", default).split()),
                   tuple(sorted(rung.get("adopts", []))))
        if setting in seen:
            problems.append(Problem(f"change.rungs[{i}]",
                                    f"{rung['name']!r} configures the same as {seen[setting]!r} "
                                    f"(JVM options and adopted recipes); allowed: rungs that "
                                    f"differ"))
        seen.setdefault(setting, rung["name"])
    return problems


def _workload_change_problems(change: dict, workload: dict, app) -> list[Problem]:
    """A client-side change must change something: each key differs from the baseline's (the
    recipe's [workload], the schema's default, or for an app's parameter the app's)."""
    generic = recipe_schema()["properties"]["workload"]["properties"]
    baseline_values = {**(app.parameter_defaults() if app else {}),
                       **_with_defaults(workload, "workload", [k for k in change if k in generic])}
    problems = []
    for key, value in change.items():
        if value == baseline_values.get(key):
            problems.append(Problem(f"change.workload.{key}",
                                    f"{value!r} is the baseline's value (workload.{key}); the "
                                    f"variant must differ from it"))
    return problems


def _sweep_problems(data: dict, folder: Path) -> list[Problem]:
    """A sweep needs a change with {value} in it; {value} without a sweep is a mistake."""
    change = data["change"]
    has_placeholder = PLACEHOLDER in _change_text(change, folder)
    if "sweep" not in data:
        if has_placeholder:
            return [Problem("change", f"contains {PLACEHOLDER} but the recipe has no [sweep]; "
                                      f"allowed: a [sweep] table with the values, or no {PLACEHOLDER}")]
        return []
    problems = []
    if change["kind"] == "none":
        problems.append(Problem("sweep", "a sweep of change.kind none has nothing to vary; "
                                         "allowed: a change kind with {value} in it, or "
                                         "[load_levels] for a curve of the load"))
    elif not has_placeholder:
        problems.append(Problem("change", f"no {PLACEHOLDER} anywhere in the change (its keys or "
                                          f"its file); allowed: {PLACEHOLDER} where each arm's "
                                          f"value goes"))
    sweep = data["sweep"]
    if "reference" in sweep and sweep["reference"] not in sweep["values"]:
        problems.append(Problem("sweep.reference", f"{sweep['reference']!r} is not one of "
                                                   f"sweep.values {sweep['values']!r}"))
    elif sweep.get("cheaper") == "condition" and sweep.get("reference",
                                                           sweep["values"][0]) != sweep["values"][0]:
        problems.append(Problem("sweep.reference", f"a condition is read against its first "
                                                   f"value (none of it), not "
                                                   f"{sweep['reference']!r}; allowed: "
                                                   f"sweep.values starting at the reference"))
    return problems


def _change_text(change: dict, folder: Path) -> str:
    """Every string of the change table, and the change file's text if it can be read."""
    parts = [json.dumps(change)]
    if "file" in change:
        try:
            parts.append((folder / change["file"]).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            pass  # reported by _file_problems
    return "\n".join(parts)


def _load_level_problems(data: dict) -> list[Problem]:
    levels = data.get("load_levels")
    if not levels:
        return []
    key = next(iter(levels))
    model = data["workload"]["model"]
    wanted = {"users": "closed", "rate": "open"}.get(key)
    if wanted and wanted != model:
        return [Problem(f"load_levels.{key}", f"levels of {key} need workload.model {wanted!r}, "
                                              f"the workload is {model!r}")]
    return []


# The change tables whose ranges are read back from a window's figures, each with the
# metrics.runtime group that samples those figures: {table: runtime group}.
WINDOW_READ_BACKS = {"database": database_stats.RUNTIME_NAME, "network": "network",
                     "pool": "datasource-pool"}


def _window_read_back_problems(table: str, runtime: str, ranges_by_arm: dict,
                               metrics: dict) -> list[Problem]:
    """What an arm must do (to the database, on the network) is read from the window's figures
    of that kind, which only a recipe that samples them has; a range must be one."""
    problems = []
    if ranges_by_arm and runtime not in metrics.get("runtime", ()):
        problems.append(Problem(f"change.{table}", f"needs the {table}'s figures of every "
                                f"window; allowed: with \"{runtime}\" in metrics.runtime"))
    problems += [Problem(f"change.{table}.{arm}.{figure}",
                         f"[{low}, {high}]: the low end above the high one; allowed: [low, high] "
                         f"with low <= high")
                 for arm, ranges in ranges_by_arm.items() for figure, (low, high) in ranges.items()
                 if low > high]
    return problems


def _selector_problems(table: dict, section: str, selector: str,
                       own_keys: dict[str, tuple[str, ...]],
                       required_keys: dict[str, tuple[str, ...]]) -> list[Problem]:
    """Keys owned by one value of ``selector``: required for it, refused for the others."""
    value = table[selector]
    own, required = own_keys[value], required_keys[value]
    foreign = {key for keys in own_keys.values() for key in keys} - set(own)
    allowed = ", ".join(own) or "none"
    problems = [Problem(f"{section}.{key}",
                        f"missing; required for {selector} {value!r}")
                for key in required if key not in table]
    problems += [Problem(f"{section}.{key}",
                         f"not used by {selector} {value!r}; its own keys: {allowed}")
                 for key in table if key in foreign]
    return problems


def _jvm_option_problems(variant_options: str, stack: dict) -> list[Problem]:
    baseline_options = stack.get("jvm_options", _schema_default("stack", "jvm_options"))
    if variant_options.split() == baseline_options.split():
        return [Problem("change.jvm_options",
                        "equals stack.jvm_options, so the variant is the baseline; allowed: "
                        "JVM options that differ (use change.kind none for an A/A run)")]
    return []


def _property_problems(variant: dict, baseline: dict) -> list[Problem]:
    baseline_properties = baseline.get("properties", {})
    if all(baseline_properties.get(name) == value for name, value in variant.items()):
        return [Problem("change.properties",
                        "every property equals baseline.properties, so the variant is the "
                        "baseline; allowed: at least one property that differs")]
    return []


def _baseline_problems(baseline: dict, folder: Path) -> list[Problem]:
    problems = []
    for key in ("cli", "pg_conf"):
        if key in baseline:
            problems += _file_problems(folder, f"baseline.{key}", baseline[key])
    known = server_modules.available(folder.parent.parent.parent)  # recipes/<doc>/<id>
    allowed = ", ".join(known) or "(none)"
    problems += [Problem("baseline.modules", f"{name!r} is not a folder of server-modules/ "
                                             f"with a module.xml; allowed: {allowed}")
                 for name in baseline.get("modules", ()) if name not in known]
    return problems


def _file_problems(folder: Path, key: str, name: str) -> list[Problem]:
    """A named file must exist inside the recipe folder (pages include that very file)."""
    target = (folder / name).resolve()
    if not target.is_relative_to(folder.resolve()):
        return [Problem(key, f"{name!r} is outside {_shown(folder)}/; "
                             f"allowed: a file in the recipe folder")]
    if not target.is_file():
        present = ", ".join(_content_files(folder)) or "(none)"
        return [Problem(key, f"{name!r} not found in {_shown(folder)}/ "
                             f"(files there: {present})")]
    return []


# Runtime metrics that read the app's own data source (telemetry.RUNTIME_SOURCES): its app must
# say which data source is its own ([datasources] in its app.toml).
POOL_METRICS = ("datasource-pool", "statement-cache")
# Runtime metrics and courses read from the embedded broker: only the full configurations have
# one (and the message-driven beans whose pools mdb-pool reads need one).
BROKER_METRICS = ("broker", "client-threads")
BROKER_COURSES = ("mdb-pool", "queue-depth")


def _workload_problems(workload: dict, folder: Path, metrics: dict,
                       stack: dict | None = None) -> list[Problem]:
    problems = _selector_problems(workload, "workload", "model", MODEL_KEYS, MODEL_REQUIRED)
    app_name = _app_name(workload)
    try:
        app = apps.load(app_name, folder.parent.parent.parent)
    except apps.AppError as error:
        return problems + [Problem("workload.app", str(error))]
    allowed = "allowed" if app_name == apps.default_app_name() else f"allowed for app {app_name!r}"
    if app.mixes_trouble:
        problems.append(Problem("workload.mix", f"cannot check {workload['mix']!r}: "
                                                f"{app.mixes_trouble}"))
    elif workload["mix"] not in app.mixes:
        problems.append(Problem("workload.mix", f"{workload['mix']!r}; {allowed}: "
                                                f"{', '.join(app.mixes)} ({app.mixes_from})"))
    if workload["model"] not in app.models:
        problems.append(Problem("workload.model", f"{workload['model']!r}: app {app_name!r}'s "
                                f"workload runs the {' and '.join(app.models)} model only; "
                                f"allowed: {', '.join(app.models)}"))
    for name in parameter_clashes(app):
        problems.append(Problem("workload.app", f"apps/{app_name}/app.toml: parameters.{name} "
                                f"has the name of a generic workload key; allowed: another "
                                f"name"))
    if database_stats.RUNTIME_NAME in metrics.get("runtime", ()) and not app.database:
        problems.append(Problem("metrics.runtime", f"'database': app {app_name!r} has no "
                                f"database of its own to read; allowed: a database key in "
                                f"apps/{app_name}/app.toml, or no 'database'"))
    named = (stack or {}).get("server_config")
    if app.server_config and named not in (None, app.server_config):
        problems.append(Problem("stack.server_config", f"{named!r}: app {app_name!r} needs "
                                f"{app.server_config!r} (apps/{app_name}/app.toml); allowed: "
                                f"{app.server_config!r}, or no server_config"))
    fill = workload.get("fill", app.parameter_defaults().get("fill", 0))
    if metrics.get("primary") == "drain_rate" and not (isinstance(fill, int) and fill > 0):
        problems.append(Problem("metrics.primary", f"'drain_rate': the load fills no queue "
                                f"before the window (workload.fill = {fill!r}); allowed: a fill "
                                f"of at least 1 (app messages, mix drain), or another primary"))
    config = named or app.server_config or "standalone.xml"
    for key, names in (("runtime", BROKER_METRICS), ("courses", BROKER_COURSES)):
        for metric in sorted(set(metrics.get(key, ())) & set(names)):
            if not config.startswith("standalone-full"):
                problems.append(Problem(f"metrics.{key}", f"{metric!r}: the nodes run {config}, "
                                        f"which has no broker; allowed: an app whose app.toml "
                                        f"names standalone-full.xml (apps/messages), or no "
                                        f"{metric!r}"))
    for metric in set(metrics.get("runtime", ())) & set(POOL_METRICS):
        if not app.datasources:
            problems.append(Problem("metrics.runtime", f"{metric!r}: app {app_name!r} declares "
                                    f"no data source of its own; allowed: a [datasources] "
                                    f"table in apps/{app_name}/app.toml, or no {metric!r}"))
    return problems


def _app_of(data: dict, folder: Path) -> apps.App | None:
    """The app a recipe's data names, before its schema is checked (None when it cannot be
    loaded: the rules name the problem under workload.app)."""
    workload = data.get("workload") if isinstance(data, dict) else None
    if not isinstance(workload, dict) or not isinstance(workload.get("app", ""), str):
        return None
    try:
        return apps.load(_app_name(workload), folder.parent.parent.parent)
    except apps.AppError:
        return None


def _app_name(workload: dict) -> str:
    """The app a [workload] table names, or the schema's default."""
    return workload.get("app") or recipe_schema()["properties"]["workload"]["properties"][
        "app"]["default"]


# --------------------------------------------------------------------------- building


def _schema_default(section: str, key: str) -> Any:
    return recipe_schema()["properties"][section]["properties"][key]["default"]


def _with_defaults(table: dict, section: str, keys: Iterable[str] | None = None) -> dict:
    """``table`` plus the schema's defaults for absent keys (only ``keys``, if given)."""
    properties = recipe_schema()["properties"][section]["properties"]
    wanted = properties if keys is None else keys
    filled = {key: properties[key]["default"] for key in wanted
              if key not in table and "default" in properties[key]}
    return {**table, **filled}


def _build_stack(table: dict) -> StackSpec:
    values = _with_defaults(table, "stack")
    return StackSpec(**{**values, "databases": tuple(values["databases"]),
                        "db_cpus": _cpus(values.get("db_cpus"))})


def _build_recipe(data: dict, folder: Path, toml_path: Path) -> Recipe:
    return Recipe(
        id=data["id"],
        area=folder.parent.name,
        title=data["title"],
        summary=data["summary"],
        folder=folder,
        toml_path=toml_path,
        source=_build_source(data["source"]),
        stack=_build_stack(data.get("stack", {})),
        baseline=_build_setup(data.get("baseline", {}), folder),
        change=_build_change(data["change"], folder,
                             _with_defaults(data.get("stack", {}), "stack")["jvm_options"]),
        workload=_build_workload(data["workload"], folder),
        metrics=_build_metrics(data.get("metrics", {})),
        tolerance=_build_tolerance(data.get("tolerance", {})),
        profiles=_build_profiles(data.get("profiles", {})),
        sweep=_build_sweep(data.get("sweep")) or _ladder_sweep(data),
        load_levels=_build_load_levels(data.get("load_levels")),
        cluster=_build_cluster(data.get("cluster")),
    )


@lru_cache(maxsize=1)
def profile_defaults() -> dict[str, dict]:
    """The profiles of tuninglab/profiles.toml: every profile a recipe may run in."""
    with PROFILES_PATH.open("rb") as stream:
        return tomllib.load(stream)


def _build_profiles(overrides: dict) -> dict[str, Profile]:
    return {name: Profile(name=name, **{**defaults, **overrides.get(name, {})})
            for name, defaults in profile_defaults().items()}


def _build_sweep(sweep: dict | None) -> Sweep | None:
    if sweep is None:
        return None
    values = tuple(sweep["values"])
    return Sweep(name=sweep["name"], unit=sweep.get("unit", ""), values=values,
                 reference=sweep.get("reference", values[0]),
                 cheaper=sweep.get("cheaper", "lower"))


def _build_cluster(table: dict | None) -> ClusterTable | None:
    if table is None:
        return None
    full = _with_defaults(table, "cluster")
    cpus = full["cpus"]
    return ClusterTable(nodes=full["nodes"], cpus=tuple(cpus) if isinstance(cpus, list) else cpus,
                        policy=full["policy"], server_maxconn=full["server_maxconn"])


def _ladder_sweep(data: dict) -> Sweep | None:
    """A ladder is a sweep whose values are its rungs' names, measured against the first."""
    if data["change"]["kind"] != "ladder":
        return None
    names = tuple(r["name"] for r in data["change"]["rungs"])
    return Sweep(name="configuration", unit="", values=names, reference=names[0],
                 cheaper="lower")


def _build_load_levels(levels: dict | None) -> LoadLevels | None:
    if not levels:
        return None
    (key, values), = levels.items()
    return LoadLevels(key=key, values=tuple(values))


def _build_source(source: dict) -> Source:
    curve = source.get("curve")
    return Source(document=source["document"], section=source.get("section"),
                  table=source.get("table"), claim=source["claim"],
                  expected=source["expected"], effect=source.get("effect"),
                  contrast=source.get("contrast", "best-vs-reference"),
                  curve=None if curve is None else _build_curve(curve),
                  curves=tuple(_build_curve(c) for c in source.get("curves", ())))


def _build_curve(curve: dict) -> SourceCurve:
    return SourceCurve(x=tuple(curve["x"]), y=tuple(curve["y"]), y_unit=curve.get("y_unit", ""),
                       label=curve["label"], normalize=curve.get("normalize", True),
                       scale_to=curve.get("scale_to", "maximum"))


def _build_setup(baseline: dict, folder: Path) -> Setup:
    return Setup(cli=_file_in(folder, baseline.get("cli")),
                 pg_conf=_file_in(folder, baseline.get("pg_conf")),
                 properties=dict(baseline.get("properties", {})),
                 modules=tuple(baseline.get("modules", ())))


def _build_change(change: dict, folder: Path, jvm_options: str) -> Change:
    """``jvm_options``: the stack's, which a ladder's rung has unless it states its own."""
    limits = change.get("limits")
    return Change(
        kind=change["kind"],
        file=_file_in(folder, change.get("file")),
        jvm_options=change.get("jvm_options"),
        properties=dict(change.get("properties", {})),
        workload=dict(change.get("workload", {})),
        client_jvm_options=change.get("client_jvm_options"),
        switch=change.get("switch"),
        policy=change.get("policy"),
        active_nodes=change.get("active_nodes"),
        deployment=change.get("deployment"),
        db_cpus=_cpus(change.get("db_cpus")),
        jdk=None if change.get("jdk") is None else str(change["jdk"]),
        node_image=change.get("node_image"),
        agent=change.get("agent"),
        agent_options=change.get("agent_options"),
        delay_ms=change.get("delay_ms"),
        delayed=change.get("delayed"),
        rate_mbit=change.get("rate_mbit"),
        capped=change.get("capped"),
        protocol=change.get("protocol"),
        baseline_protocol=change.get("baseline_protocol"),
        database={arm: {figure: tuple(bounds) for figure, bounds in ranges.items()}
                  for arm, ranges in change.get("database", {}).items()},
        network={arm: {figure: tuple(bounds) for figure, bounds in ranges.items()}
                 for arm, ranges in change.get("network", {}).items()},
        pool={arm: {figure: tuple(bounds) for figure, bounds in ranges.items()}
              for arm, ranges in change.get("pool", {}).items()},
        runtime={arm: {address: dict(attributes) for address, attributes in table.items()}
                 for arm, table in change.get("runtime", {}).items()},
        client={arm: {figure: tuple(value) if isinstance(value, list) else value
                      for figure, value in figures.items()}
                for arm, figures in change.get("client", {}).items()},
        rungs=tuple(Rung(name=r["name"], jvm_options=r.get("jvm_options", jvm_options),
                         adopts=tuple(r.get("adopts", ())))
                    for r in change.get("rungs", ())),
        limits=None if limits is None else ContainerLimits(
            app_cpus=_cpus(limits.get("app_cpus")),
            app_memory=limits.get("app_memory"),
            app_cpuset=limits.get("app_cpuset"),
            app_disk_write_iops=limits.get("app_disk_write_iops"),
        ),
    )


def _cpus(value) -> float | str | None:
    """A CPU quota as a number, or the sweep's placeholder as it is."""
    if value is None or value == PLACEHOLDER:
        return value
    return float(value)


def _build_workload(workload: dict, folder: Path) -> Workload:
    common = ("app", "mix", "model", "requests_per_connection", "idle_before_s")
    values = _with_defaults(workload, "workload", common + MODEL_KEYS[workload["model"]])
    app = _app_of({"workload": workload}, folder)
    defaults = app.parameter_defaults() if app is not None else {}
    rate = values.get("rate")
    return Workload(
        app=values["app"],
        mix=values["mix"],
        model=values["model"],
        users=values.get("users"),
        think_time_ms=values.get("think_time_ms"),
        rate=None if rate is None else float(rate),
        max_users=values.get("max_users"),
        requests_per_connection=values["requests_per_connection"],
        idle_before_s=values["idle_before_s"],
        deployment=workload.get("deployment", ""),
        parameters={name: workload.get(name, default) for name, default in defaults.items()},
    )


def _build_metrics(metrics: dict) -> Metrics:
    values = _with_defaults(metrics, "metrics")
    return Metrics(primary=values["primary"], runtime=tuple(values["runtime"]),
                   margin=values["margin"], profiled_pass=values["profiled_pass"],
                   courses=tuple(values["courses"]))


def _build_tolerance(tolerance: dict) -> Tolerance:
    values = _with_defaults(tolerance, "tolerance")
    return Tolerance(**{key: float(value) for key, value in values.items()})


def _file_in(folder: Path, name: str | None) -> Path | None:
    return None if name is None else (folder / name).resolve()


# --------------------------------------------------------------------------- folders


def _recipes_dir(root: Path) -> Path:
    """Accept the repo root as well as its recipes/ folder."""
    return root / "recipes" if (root / "recipes").is_dir() else root


def _recipe_folders(recipes_dir: Path) -> list[Path]:
    """Folders recipes/<area>/<id>/; a folder there without recipe.toml is still listed,
    so that load_recipe reports it instead of the recipe silently vanishing."""
    if not recipes_dir.is_dir():
        raise RecipeError(f"{_shown(recipes_dir)}/: no such folder of recipes")
    return sorted(folder for area in recipes_dir.iterdir() if _visible_dir(area)
                  for folder in area.iterdir()
                  if _visible_dir(folder) or (folder.is_symlink() and not folder.name.startswith(
                      (".", "_"))))  # a link (to itself, say) is reported, not skipped


def _visible_dir(path: Path) -> bool:
    return path.is_dir() and not path.name.startswith((".", "_"))


def _duplicate_id_problems(recipes: list[Recipe]) -> list[str]:
    by_id: dict[str, list[Recipe]] = {}
    for recipe in recipes:
        by_id.setdefault(recipe.id, []).append(recipe)
    return [
        f"{_shown(same[0].toml_path)}: id: duplicate recipe id {recipe_id!r}, also in "
        + ", ".join(_shown(other.toml_path) for other in same[1:])
        + "; allowed: one recipe per id"
        for recipe_id, same in sorted(by_id.items()) if len(same) > 1
    ]


def _content_files(folder: Path) -> list[str]:
    """Relative POSIX paths of the recipe's files, sorted; hidden files and caches skipped."""
    files = []
    for path in folder.rglob("*"):
        relative = path.relative_to(folder)
        if path.is_file() and not any(part.startswith(".") or part == "__pycache__"
                                      for part in relative.parts):
            files.append(relative.as_posix())
    return sorted(files)


def _shown(path: Path) -> str:
    """A path for messages: relative to the working directory (the repo root) if inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()
