"""What can be known about a recipe before the stack starts, checked the way the run will use it.

recipe.py checks the recipe file against its schema and rules; this module goes on from the
parsed recipe, arm by arm (a sweep's values substituted), so that a mistake fails in a second,
naming the file and the key, instead of after a network, a database and a JVM have started:

- offline: every change and baseline file reads as UTF-8 and parses with the parser the run
  uses; JVM options split as a shell splits them; CPU sets and quotas fit the machine; each
  node's memory cap leaves room above the heap its JVM options ask for;
- with the images (a Docker ``client`` given): the JVM of the app image accepts each
  arm's options, the database image knows each PostgreSQL parameter, and the server
  configuration exists in the app image. A probe is a throw-away container of the image that
  runs one command (``java ... -version``, ``postgres --describe-config``) with no network;
  answers are cached per image id under the cache folder, so a second check costs nothing.

``check`` raises RecipeError with one line per problem (the CLI's exit code 2).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
from pathlib import Path

from . import changes, layout, server_modules
from .interference import cpuset_cpus
from .plan import DATABASE, RELOAD, RUNTIME, compile_plan
from .recipe import Recipe, RecipeError

__all__ = ["check", "problems", "HEADROOM_MB", "heap_mb", "memory_mb"]

# A WildFly JVM needs memory beyond its heap: metaspace (about 100 MB for the server and the
# app), the code cache, thread stacks and direct buffers. Below heap + this, the kernel kills
# the JVM while it starts, with no word about memory.
HEADROOM_MB = 192

_SIZE = re.compile(r"^(\d+)([kKmMgG]?)$")
_UNIT_MB = {"": 1 / (1024 * 1024), "k": 1 / 1024, "m": 1, "g": 1024}


def memory_mb(text: str) -> float | None:
    """'768m' -> 768, '2g' -> 2048, '1048576k' -> 1024; None when it is not a size."""
    match = _SIZE.match(str(text).strip())
    if not match:
        return None
    return int(match.group(1)) * _UNIT_MB[match.group(2).lower()]


def heap_mb(options: list[str]) -> float | None:
    """The maximum heap the options ask for (the last -Xmx wins, as in the JVM)."""
    found = None
    for token in options:
        if token.startswith("-Xmx"):
            found = memory_mb(token[4:])
        elif token.startswith("-XX:MaxHeapSize="):
            found = memory_mb(token.split("=", 1)[1])
    return found


def check(recipe: Recipe, *, client=None) -> None:
    """Raise RecipeError listing every problem; with a Docker ``client``, ask the images too."""
    found = problems(recipe, client=client)
    if found:
        raise RecipeError("\n".join(found))


def problems(recipe: Recipe, *, client=None) -> list[str]:
    """Every problem found, as "<file>: <key>: <what is wrong>; <what is allowed>". The
    images are asked (``client`` given) only when the offline checks pass."""
    where = _shown(recipe.toml_path)
    kind, plan, found = _bind(recipe, where)
    if kind is None:
        return found
    found += _baseline_files(recipe)
    found += _cluster_problems(recipe, where, kind)
    nodes = {}
    for arm in plan.arms:
        try:
            _parse_change(kind, arm)
            nodes[arm.id] = _node(recipe, kind, arm)
        except (ValueError, RecipeError) as error:
            # An A/B recipe's arms parse one file: say it once. A sweep's value may be the cause.
            label = f" ({arm.label})" if arm.value is not None else ""
            found.append(f"{where}: change{label}: {error}")
    cpus = _machine_cpus(client)
    options_by_arm = {}
    for arm_id, node in nodes.items():
        found += _node_problems(where, arm_id, node, cpus)
        try:
            options_by_arm[arm_id] = shlex.split(node["jvm_options"])
        except ValueError as error:
            found.append(f"{where}: {_options_key(recipe)}: {error} in '{node['jvm_options']}'; "
                         f"allowed: options split as a shell would (balanced quotes)")
    found += _stack_problems(recipe, where, cpus)
    if client is not None and not found:
        found += _probe(recipe, where, kind, plan, options_by_arm, nodes, client)
    return list(dict.fromkeys(found))


# --------------------------------------------------------------------------- offline


def _bind(recipe, where):
    try:
        kind = changes.kind_for(recipe)
    except UnicodeDecodeError as error:
        return None, None, [f"{_shown(recipe.change.file)}: change.file: not UTF-8 text "
                            f"(byte {error.start}); allowed: a UTF-8 text file"]
    except OSError as error:
        return None, None, [f"{where}: change.file: cannot be read ({error.strerror})"]
    except RecipeError as error:  # what the kind found wrong (a ladder's adopted recipes)
        return None, None, [str(error)]
    plan = compile_plan(recipe, switch=kind.switch)
    kind.bind(plan.arms)
    return kind, plan, []


def _cluster_problems(recipe, where, kind) -> list[str]:
    """A [cluster] that cannot be formed, or a change that cannot switch on a running one."""
    if recipe.cluster is None:
        return []
    from .topology import cluster_spec
    try:
        cluster_spec(recipe)
    except RecipeError as error:
        return [str(error)]
    if kind.switch not in (RUNTIME, DATABASE, RELOAD):
        return [f"{where}: change.kind: {recipe.change.kind} switches by {kind.switch}, and a "
                f"cluster's arms share its nodes, switched on them between windows (a fresh "
                f"JVM for every node at every turn would re-form the cluster each time); "
                f"allowed with [cluster]: a change that switches at runtime, in the database or "
                f"with a reload (balancer-policy, jboss-cli, app-properties, postgresql-conf, "
                f"workload, none)"]
    if kind.switch == RELOAD and recipe.sweep:
        return [f"{where}: [sweep] with change.kind {recipe.change.kind}: on a cluster a change "
                f"that needs a reload compares two arms, whose turns pair up (turn 1 with 2, 3 "
                f"with 4; analysis/comparisons.py); allowed: a baseline and a variant, one "
                f"recipe per value"]
    return []


def _baseline_files(recipe) -> list[str]:
    from .changes.nodes import baseline_operations
    from .changes.postgresql_conf import parse_pg_fragment
    found = []
    setup = recipe.baseline
    if setup.cli:
        try:
            baseline_operations(setup)
        except UnicodeDecodeError as error:
            found.append(f"{_shown(setup.cli)}: baseline.cli: not UTF-8 text (byte {error.start})")
        except ValueError as error:
            found.append(f"{_shown(setup.cli)}: baseline.cli: {_short(error)}")
    if setup.pg_conf:
        try:
            parse_pg_fragment(setup.pg_conf.read_text(encoding="utf-8"), _shown(setup.pg_conf))
        except UnicodeDecodeError as error:
            found.append(f"{_shown(setup.pg_conf)}: baseline.pg_conf: not UTF-8 text "
                         f"(byte {error.start})")
        except ValueError as error:
            found.append(f"{_shown(setup.pg_conf)}: baseline.pg_conf: {_short(error)}")
    for folder in setup.modules:
        try:
            server_modules.load(folder)
        except server_modules.ServerModuleError as error:
            found.append(f"{_shown(recipe.toml_path)}: baseline.modules: {error}")
    return found


def _parse_change(kind, arm) -> None:
    """The arm's change parsed by the kind itself, as the run would parse it (raises)."""
    kind.operations(arm)
    if kind.applies(arm):
        kind.check_arm(arm)


def _node(recipe, kind, arm) -> dict:
    """The arm's application-server node as the run would start it (no Docker needed)."""
    s = recipe.stack
    node = {"cpuset": s.app_cpuset, "cpus": s.app_cpus, "memory": s.app_memory,
            "jvm_options": s.jvm_options, "server_config": s.server_config, "keys": {}}
    if hasattr(kind, "options"):
        node["jvm_options"] = kind.options(arm)
    if hasattr(kind, "limits") and kind.applies(arm):
        limits = kind.change.limits
        node.update({k: v for k, v in kind.limits(arm).items() if v is not None})
        node["keys"] = {k: f"change.limits.app_{k}" for k in ("cpuset", "cpus", "memory")
                        if getattr(limits, f"app_{k}") is not None}
    return node


def _options_key(recipe) -> str:
    return {"jvm-options": "change.jvm_options", "ladder": "change.rungs.jvm_options"}.get(
        recipe.change.kind, "stack.jvm_options")


def _node_problems(where, arm_id, node, cpus) -> list[str]:
    found = []
    label = f" ({arm_id})" if arm_id not in ("baseline", "variant") else ""

    def key(name):
        return node["keys"].get(name, f"stack.app_{name}") + label
    found += _cpuset_problems(where, key("cpuset"), node["cpuset"], cpus)
    if node["cpus"] is not None and node["cpus"] > cpus:
        found.append(f"{where}: {key('cpus')}: {node['cpus']} CPUs; allowed: at most {cpus} "
                     f"(the CPUs of this machine)")
    cap = memory_mb(node["memory"])
    try:
        heap = heap_mb(shlex.split(node["jvm_options"]))
    except ValueError:
        heap = None  # reported once, by the caller
    if cap is not None and heap is not None and cap < heap + HEADROOM_MB:
        found.append(f"{where}: {key('memory')}: {node['memory']} is below the heap the JVM "
                     f"options ask for ({heap:.0f} MB) plus {HEADROOM_MB} MB for metaspace, code "
                     f"cache and threads; allowed: at least {heap + HEADROOM_MB:.0f}m, or a "
                     f"smaller -Xmx")
    return found


def _stack_problems(recipe, where, cpus) -> list[str]:
    s = recipe.stack
    return (_cpuset_problems(where, "stack.db_cpuset", s.db_cpuset, cpus)
            + _cpuset_problems(where, "stack.loadgen_cpuset", s.loadgen_cpuset, cpus))


def _cpuset_problems(where, key, cpuset, cpus) -> list[str]:
    try:
        wanted = cpuset_cpus(str(cpuset))
    except ValueError:
        return [f"{where}: {key}: '{cpuset}'; allowed: CPU numbers and ranges such as \"1\" or "
                f"\"0-1\""]
    beyond = sorted(c for c in wanted if c >= cpus)
    if beyond:
        return [f"{where}: {key}: '{cpuset}' names CPU {', '.join(map(str, beyond))}, and this "
                f"machine has CPUs 0-{cpus - 1}; allowed: CPUs from 0 to {cpus - 1}"]
    return []


def _machine_cpus(client) -> int:
    """The engine's CPU count when one answers (it is what Docker checks), else this host's."""
    if client is not None:
        try:
            return int(client.info().get("NCPU") or os.cpu_count() or 1)
        except Exception:  # noqa: BLE001 - an engine that does not answer: use the host's count
            pass
    return os.cpu_count() or 1


# --------------------------------------------------------------------------- probes of the images


def _probe(recipe, where, kind, plan, options_by_arm, nodes, client) -> list[str]:
    from . import images
    ids = images.require_images(client, [images.WILDFLY, images.DB])
    found = []
    for options in dict.fromkeys(" ".join(o) for o in options_by_arm.values()):
        answer = _cached(ids[images.WILDFLY], "java " + options,
                         lambda: _run(client, images.WILDFLY, ["java", *shlex.split(options),
                                                               "-version"], entrypoint=""))
        if answer["exit"] != 0:
            found.append(f"{where}: {_options_key(recipe)}: the JVM of {images.WILDFLY} refuses "
                         f"'{options}': {_first_error(answer['output'])}")
    configs = _cached(ids[images.WILDFLY], "configurations", lambda: _run(
        client, images.WILDFLY, ["ls", "/opt/wildfly/standalone/configuration"], entrypoint=""))
    known = sorted(n for n in configs["output"].split() if n.endswith(".xml"))
    for config in dict.fromkeys(n["server_config"] for n in nodes.values()):
        if known and config not in known:
            found.append(f"{where}: stack.server_config: '{config}' is not in {images.WILDFLY}; "
                         f"allowed: {', '.join(known)}")
    names = _pg_names(recipe, kind, plan)
    if names:
        def describe():
            run = _run(client, images.DB, ["postgres", "--describe-config"], user="postgres",
                       keep=None)
            return {"exit": run["exit"], "names": sorted(
                line.split("\t", 1)[0] for line in run["output"].splitlines() if "\t" in line)}
        params = set(_cached(ids[images.DB], "describe-config names", describe)["names"])
        for name, key in names.items():
            if params and name not in params and "." not in name:  # "a.b": extension settings
                near = [p for p in sorted(params) if p.startswith(name.split("_")[0])][:5]
                found.append(f"{where}: {key}: PostgreSQL has no parameter '{name}'"
                             + (f"; did you mean {', '.join(near)}?" if near else ""))
    return found


def _pg_names(recipe, kind, plan) -> dict[str, str]:
    from .changes.postgresql_conf import parse_pg_fragment
    names = {}
    if recipe.baseline.pg_conf:
        for name in parse_pg_fragment(recipe.baseline.pg_conf.read_text(encoding="utf-8"), ""):
            names[name] = f"baseline.pg_conf ({_shown(recipe.baseline.pg_conf)})"
    if hasattr(kind, "settings"):
        for arm in plan.arms:
            if kind.applies(arm):
                for name in kind.settings(arm):
                    names.setdefault(name, f"change.file ({_shown(recipe.change.file)})")
    return names


def _run(client, image, command, *, entrypoint=None, user=None, keep: int | None = 4000) -> dict:
    """One command in a throw-away container of the image: exit code and output (its last
    ``keep`` characters; None keeps it all)."""
    from .cleanup import RunScope
    # The run's labels: a probe left by a killed process is swept like any run's container.
    container = client.containers.run(image, command, entrypoint=entrypoint, user=user,
                                      detach=True, network_disabled=True,
                                      labels=RunScope(client).labels("probe"))
    try:
        exit_code = container.wait(timeout=60).get("StatusCode", 1)
        output = container.logs(stdout=True, stderr=True).decode("utf-8", "replace")
    finally:
        container.remove(force=True)
    return {"exit": exit_code, "output": output[-keep:] if keep else output}


def _cached(image_id: str, question: str, ask) -> dict:
    folder = layout.cache_dir() / "probes"
    key = hashlib.sha256(f"{image_id}\n{question}".encode()).hexdigest()[:24]
    path = folder / f"{key}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    answer = ask()
    folder.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(answer), encoding="utf-8")
    os.replace(tmp, path)
    return answer


def _first_error(output: str) -> str:
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    wanted = [line for line in lines if re.search(r"error|unrecognized|invalid|could not",
                                                  line, re.IGNORECASE)]
    return (wanted or lines or ["no output"])[0][:300]


def _short(error: Exception) -> str:
    return " ".join(str(error).split())[:400]


def _shown(path) -> str:
    if path is None:
        return "?"
    path = Path(path)
    try:
        return path.resolve().relative_to(layout.REPO_ROOT).as_posix()
    except ValueError:
        return str(path)
