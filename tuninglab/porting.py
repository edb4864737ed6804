"""`tuninglab port <id> --app <name>`: a recipe of the lab's catalogue, copied into a workspace to
run on another app.

A recipe that changes only the server, the JVM, the container or the database holds for any
Jakarta EE application; one that configures the lab's own app (its ``tl.*`` properties, its
deployments, the size of its orders) does not, and the port says why. The copy is data the
user reads and keeps, not a substitution made at run time: the stored result's recipe hash
then names files that exist. Porting changes three things and lists them in a comment at the
top of the copy:

- ``[workload] app`` names the app, and ``mix`` one of its mixes (the recipe's own if the app
  has one of that name, else ``--mix``, else the app's ``default``);
- every data source the recipe's jboss-cli files name is the catalogue app's data source in
  some role (``[datasources]`` of its app.toml); the copy names the new app's data source in
  the same role. A role the new app does not declare stops the port;
- the copy lives in ``recipes/own/<id>/`` of the workspace, and is validated there before it
  is kept (a copy that does not validate is removed and the reason shown).
"""
from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

from . import apps
from .recipe import Recipe, RecipeError, load_recipe

__all__ = ["PortError", "PORTABLE_KINDS", "port", "why_not_portable"]

# Change kinds that touch the server, the JVM, the container or the database only.
PORTABLE_KINDS = ("jboss-cli", "jvm-options", "jvm-agent", "container-limits", "postgresql-conf",
                  "none")
_DATA_SOURCE = re.compile(r"(data-source=)([A-Za-z0-9_.\-]+)")
# A system property the lab's own app reads at deployment (changes/app_properties.py).
_APP_PROPERTY = re.compile(r"system-property=(tl\.[A-Za-z0-9_.\-]+)")


class PortError(ValueError):
    """The recipe cannot run on that app, or the workspace already holds it: nothing written."""


def why_not_portable(recipe: Recipe) -> list[str]:
    """Why a recipe of the catalogue holds only for the lab's own app (empty: it is portable)."""
    raw = tomllib.loads(recipe.toml_path.read_text(encoding="utf-8"))
    reasons = []
    if recipe.change.kind not in PORTABLE_KINDS:
        reasons.append(f"change.kind {recipe.change.kind!r} changes the lab's own app or its "
                       f"setting (portable kinds: {', '.join(PORTABLE_KINDS)})")
    if recipe.baseline.properties:
        reasons.append("[baseline.properties] sets the lab's own app's tl.* properties")
    # the workload parameters of the recipe's own app size that app's transactions
    own = apps.load(recipe.workload.app, recipe.repo_root).parameters
    set_keys = [k for k in own if k in raw.get("workload", {})]
    if recipe.load_levels is not None and recipe.load_levels.key in own:
        set_keys.append(f"load levels of {recipe.load_levels.key}")
    if set_keys:
        reasons.append(f"[workload] sizes the lab's own app's transactions "
                       f"({', '.join(set_keys)})")
    properties = sorted({m.group(1) for cli in recipe.folder.glob("*.cli")
                         for m in _APP_PROPERTY.finditer(cli.read_text(encoding="utf-8"))})
    if properties:
        reasons.append(f"its jboss-cli files set the lab's own app's properties "
                       f"({', '.join(properties)})")
    if recipe.cluster is not None:
        reasons.append("[cluster]: clusters run the lab's own apps only so far")
    if raw.get("workload", {}).get("app"):
        reasons.append(f"it already names an app of its own ({raw['workload']['app']!r})")
    return reasons


def port(recipe: Recipe, app_name: str, workspace: Path, mix: str | None = None) -> Path:
    """Copy ``recipe`` into ``workspace``/recipes/own/<id>/ to run on ``app_name``; returns the
    folder. PortError with every reason when it cannot."""
    reasons = why_not_portable(recipe)
    if reasons:
        raise PortError(f"{recipe.id}: holds for the lab's own app only: " + "; ".join(reasons))
    app = apps.load(app_name, workspace)
    source_app = apps.load(recipe.workload.app, recipe.repo_root)
    chosen = _mix(recipe, app, mix)
    renames = _data_source_renames(recipe, source_app, app)
    target = Path(workspace) / "recipes" / "own" / recipe.id
    if target.exists():
        raise PortError(f"{target}: exists already; allowed: remove it first, or edit it")
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(recipe.folder, target)
    try:
        for cli in target.glob("*.cli"):
            text = cli.read_text(encoding="utf-8")
            cli.write_text(_DATA_SOURCE.sub(lambda m: m.group(1) + renames.get(m.group(2),
                                                                                 m.group(2)), text),
                           encoding="utf-8")
        toml = target / "recipe.toml"
        toml.write_text(_header(recipe, app, chosen, renames)
                        + _set_workload(toml.read_text(encoding="utf-8"), app.name, chosen),
                        encoding="utf-8")
        load_recipe(target)  # the copy must validate where it lives
    except (RecipeError, OSError) as error:
        shutil.rmtree(target, ignore_errors=True)
        raise PortError(f"{recipe.id}: the copy for {app.name} does not validate, so it was "
                        f"removed: {error}") from None
    return target


def _mix(recipe: Recipe, app: apps.App, wanted: str | None) -> str:
    for name in (wanted, recipe.workload.mix if wanted is None else None,
                 "default" if wanted is None else None):
        if name and name in app.mixes:
            return name
    raise PortError(f"apps/{app.name}/app.toml: no mix {wanted or recipe.workload.mix!r} (and "
                    f"no 'default'); allowed: --mix {' | '.join(app.mixes)}")


def _data_source_renames(recipe: Recipe, source: apps.App, target: apps.App) -> dict[str, str]:
    """Each data source the recipe's jboss-cli files name, by role: the new app's name for it."""
    roles = {name: role for role, name in source.datasources.items()}
    renames = {}
    for cli in sorted(recipe.folder.glob("*.cli")):
        for name in _DATA_SOURCE.findall(cli.read_text(encoding="utf-8")):
            name = name[1]
            if name not in roles:
                raise PortError(f"{cli.name}: data source {name!r} is not one the recipe's app "
                                f"({source.name}) declares by role, so it cannot be mapped")
            role = roles[name]
            if role not in target.datasources:
                raise PortError(f"apps/{target.name}/app.toml: no data source for role {role!r} "
                                f"(the recipe's {cli.name} changes {name}); allowed: "
                                f"{', '.join(target.datasources) or 'none'} (table [datasources])")
            renames[name] = target.datasources[role]
    return renames


def _header(recipe: Recipe, app: apps.App, mix: str, renames: dict[str, str]) -> str:
    mapped = "; ".join(f"{old} -> {new}" for old, new in renames.items()) or "none"
    return (f"# Ported by `tuninglab port {recipe.id} --app {app.name}` from "
            f"recipes/{recipe.area}/{recipe.id}/ of the lab's catalogue: [workload] app = "
            f"\"{app.name}\", mix = \"{mix}\"; data sources renamed by role: {mapped}.\n")


def _set_workload(text: str, app: str, mix: str) -> str:
    """recipe.toml's text with [workload] naming ``app`` and ``mix`` (comments kept)."""
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.strip() == "[workload]")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")),
               len(lines))
    body = [line for line in lines[start + 1:end]
            if not re.match(r"\s*(app|mix)\s*=", line)]
    return "".join([*lines[:start + 1], f'app = "{app}"\n', f'mix = "{mix}"\n', *body,
                    *lines[end:]])
