"""Which recipes a publishing run must measure again, and why.

A published result stays valid while the four things it was measured with are unchanged:
the recipe folder (``measured_hash``: every file, recipe.toml without its prose and without the
profiles CI runs), the stack's
inputs that every recipe uses (what the images and the workloads are built from:
``stack_inputs_hash``), the inputs of the roles only some recipes add (``role_inputs``: a
cluster's balancer image, a server module, each app its nodes deploy), and the
library that ran it (its version). A role
input of its own means a change to a balancer or a module stales only the results that used
it.
When the stack's inputs are reorganised without changing what a run measures (the lab's own
app moved out of the images on 5 December 2026), a succession record
(``stack_successions.toml``) says which earlier stack hash stands for which later inputs, and
why; a test recomputes both from the commits it names.
A result measured on a stack taken over warm before 29 November 2026 is stale too when an
earlier run of that stack set system properties: its JVMs kept them (``_inherited_properties``).
Image ids cannot serve: the base image is built with debootstrap, so the same inputs give a
different id on every machine.
"""
from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from . import apps, changes, drivers, images, layout, server_modules
from .recipe import Recipe, RecipeError, find_recipe, measured_hash, recipe_hash
from .store import ResultError, list_results, load_result

__all__ = ["stack_inputs", "stack_inputs_hash", "role_inputs", "library_version", "why_stale"]

# Repository paths the images of every stack are built from (scripts/setup.sh), then the load
# generator's scripts and the versions. The balancer's image (images/balancer) is not among
# them: a stack without a balancer does not change when it does. The order is part of the hash.
IMAGES = ("images/base", "images/db", "images/k6", "images/wildfly")
AFTER_THE_IMAGES = ("workloads", "scripts/lib/versions.sh")
SUCCESSIONS_FILE = Path(__file__).with_name("stack_successions.toml")


def stack_inputs() -> tuple[str, ...]:
    """Every path the common stack is made from, in the order they are hashed."""
    return (*IMAGES, *AFTER_THE_IMAGES)


def stack_inputs_hash(root: Path | None = None) -> str:
    """sha256 over the files of stack_inputs() (path and content, in path order)."""
    return _hash_paths(stack_inputs(), root)


def role_inputs(recipe: Recipe, root: Path | None = None) -> dict[str, str]:
    """The hash of each role the recipe adds to the common stack, by role."""
    roles = {}
    if recipe.cluster is not None:
        roles["balancer"] = ("images/balancer",)
    if recipe.change.kind == "jdk":  # the common image with another JDK added
        roles[f"jdk {recipe.change.jdk}"] = ("images/wildfly-next-jdk",)
    if recipe.change.node_image is not None:  # the common image with one thing added
        roles[f"node-image {recipe.change.node_image}"] = (
            images.NODE_IMAGES[recipe.change.node_image][1],)
    if recipe.change.agent is not None:  # the common image with a JVM agent on disk
        roles[f"jvm-agent {recipe.change.agent}"] = (images.JVM_AGENTS[recipe.change.agent].folder,)
    app = apps.load(recipe.workload.app, recipe.repo_root)
    driver = drivers.driver_for(app)
    if driver.inputs:  # a load generator of its own (a client JVM's image); k6's is common
        roles[f"driver {driver.name}"] = driver.inputs
    roles.update(changes.kind_for(recipe).role_inputs())  # what the kind adds to the stack
    for folder in recipe.baseline.modules:
        roles[f"server-module {folder}"] = tuple(f"server-modules/{folder}/{name}"
                                                 for name in server_modules.INPUT_FILES)
    hashes = {role: _hash_paths(paths, root or recipe.repo_root) for role, paths in roles.items()}
    # every app its nodes deploy, hashed where its folder is (the library's default app lives
    # in the library when the workspace has no folder of that name)
    for name in apps.node_apps(app, recipe.repo_root):
        deployed = apps.load(name, recipe.repo_root)
        hashes[f"app {name}"] = _hash_paths(deployed.inputs, root or deployed.folder.parent.parent)
    return dict(sorted(hashes.items()))


@dataclass(frozen=True)
class Succession:
    """An earlier stack-inputs hash that stands for later inputs, the same stack measured."""
    before: str  # the stack-inputs hash the results measured before the move stored
    stack: str  # the stack-inputs hash after it
    roles: dict  # role inputs the move made or changed, by role, as they hash after it
    commit: str  # the commit that made the move (``before`` was hashed at its parent)
    before_inputs: tuple[str, ...]  # the paths ``before`` was hashed from, in order
    why: str
    # the roles the move changed, as a result stored them before it: only a result that
    # stored these is carried across (a record says what one tree became, not any tree)
    before_roles: dict = field(default_factory=dict)


@lru_cache(maxsize=None)
def successions() -> dict[str, Succession]:
    """The succession records (stack_successions.toml), by the hash they succeed."""
    if not SUCCESSIONS_FILE.is_file():
        return {}
    found = {}
    for entry in tomllib.loads(SUCCESSIONS_FILE.read_text(encoding="utf-8"))["succession"]:
        record = Succession(entry["before"], entry["stack"], dict(entry["roles"]),
                            entry["commit"], tuple(entry["before_inputs"]), entry["why"],
                            dict(entry.get("before_roles", {})))
        found[record.before] = record
    return found


def _succeeded(stack: str | None, roles: dict | None) -> tuple[str | None, dict | None]:
    """A result's stored stack hash and role inputs, carried through every succession that
    followed it: what they are called after the moves."""
    seen = set()
    while stack in successions() and stack not in seen:
        seen.add(stack)
        record = successions()[stack]
        if roles is not None and any(roles.get(role) != digest
                                     for role, digest in record.before_roles.items()):
            break  # a tree the record does not describe
        stack = record.stack
        roles = None if roles is None else {**roles, **record.roles}
    return stack, roles


def _accepted_hashes(recipe: Recipe, result: dict) -> set[str]:
    """The recipe's measured hash under every rule a stored result may have used. The rules
    before the reading keys were left out hashed them: they are restored from what the result
    stored (a key with its default value may have been written or left out, so both)."""
    found = {measured_hash(recipe)}
    for reading in _stored_readings(result):
        found.add(measured_hash(recipe, reading=reading))
        found.add(measured_hash(recipe, every_profile=True, reading=reading))
    return found


def _stored_readings(result: dict) -> list[dict]:
    source = result.get("source") or {}
    base = {("source", "expected"): result.get("expected"),
            ("source", "effect"): source.get("effect")}
    cheaper = ((result.get("change") or {}).get("sweep") or {}).get("cheaper")
    options = [cheaper, None] if cheaper == "lower" else [cheaper]
    return [{**base, ("sweep", "cheaper"): c} for c in options]


def _inherited_properties(origin: dict, root: Path) -> list[str]:
    """The earlier runs of a stack taken over before its JVMs' system properties were cleared
    (no ``system_properties_cleared`` in its origin) whose recipes set system properties: the
    run measured with them still in force."""
    if not origin.get("taken_over") or "system_properties_cleared" in origin:
        return []
    found = []
    for run in origin.get("served_before", ()):
        try:
            earlier = find_recipe(root, run.split("/")[0])
        except (RecipeError, OSError):
            continue  # a recipe since removed: nothing to say of it
        if sets_system_properties(earlier):
            found.append(earlier.id)
    return list(dict.fromkeys(found))


def sets_system_properties(recipe: Recipe) -> bool:
    """Whether a recipe's baseline or change sets a system property (its properties tables,
    or a system-property operation in one of its files)."""
    if recipe.baseline.properties or recipe.change.properties:
        return True
    return any("system-property" in path.read_text(encoding="utf-8", errors="replace")
               for path in recipe.folder.iterdir() if path.suffix == ".cli")


def _hash_paths(paths, root: Path | None = None) -> str:
    root = Path(root or layout.REPO_ROOT)
    digest = hashlib.sha256()
    for top in paths:
        base = root / top
        files = sorted(p for p in base.rglob("*") if p.is_file()) if base.is_dir() else [base]
        for path in files:
            if not path.is_file() or any(part.startswith(".") or part == "__pycache__"
                                         for part in path.relative_to(root).parts):
                continue
            content = path.read_bytes()
            digest.update(f"{path.relative_to(root).as_posix()}\0{len(content)}\0".encode())
            digest.update(content)
    return digest.hexdigest()


def library_version() -> str:
    try:
        return metadata.version("tuninglab")
    except metadata.PackageNotFoundError:
        return "unknown"


def why_stale(recipe: Recipe, results_dir: Path, *, stack_inputs: str | None = None,
              version: str | None = None) -> str | None:
    """None when the newest publishable result still describes this recipe; else the reason."""
    newest = None
    for path in reversed(list_results(results_dir, recipe.id)):
        try:
            data = load_result(path)
        except ResultError:
            continue
        prov = data.get("provenance") or {}
        if data.get("profile") == "full" and prov.get("git_dirty") is False:
            newest = data
            break
    if newest is None:
        return "no published result"
    prov = newest["provenance"]
    # Results since 2026-11-25 21:00 carry the hash without the recipe's prose (until 27
    # November 2026 with every profile's table in it, since then the published profile's only;
    # until 27 November 23:00 with the reading keys in it); older ones only the hash of every
    # byte, so a corrected claim makes them stale.
    if "measured_hash" in prov:
        if prov["measured_hash"] not in _accepted_hashes(recipe, newest):
            return "the recipe changed"
    elif prov.get("recipe_hash") != recipe_hash(recipe):
        return "the recipe changed"
    wanted = stack_inputs or stack_inputs_hash()
    stored, then = _succeeded(prov.get("stack_inputs"), prov.get("role_inputs"))
    if stored != wanted:
        return ("the stack's inputs changed (images or workloads)" if stored
                else "measured before stack inputs were recorded")
    # Results before 2026-11-26 17:30 recorded no role inputs (a cluster's balancer image was
    # in no hash then): they are judged by the common inputs alone.
    if then is not None:
        now = role_inputs(recipe)
        changed = sorted(role for role in then.keys() | now.keys()
                         if then.get(role) != now.get(role))
        if changed:
            return f"the inputs of its roles changed ({', '.join(changed)})"
    inherited = _inherited_properties(prov.get("stack_origin") or {}, recipe.repo_root)
    if inherited:
        return (f"its stack was taken over from {', '.join(inherited)}, whose system "
                f"properties its JVMs kept (a reload does not clear them; fixed 29 November 2026)")
    running = version or library_version()
    measured = (prov.get("versions") or {}).get("tuninglab")
    if measured != running:
        return f"the library changed ({measured} -> {running})"
    return None
