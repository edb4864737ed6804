"""What can be known about a recipe before the stack starts, checked the way the run will use it.

recipe.py checks the recipe file against its schema and rules; this module goes on from the
parsed recipe, arm by arm (a sweep's values substituted), so that a mistake fails in a second,
naming the file and the key, instead of after a network, a database and a JVM have started:

- offline: every change and baseline file reads as UTF-8 and parses with the parser the run
  uses; what a recipe may not do is refused (tuninglab/safety/: JVM options that are not JVM
  options or hold shell syntax, PostgreSQL parameters that run commands or cut the database
  off, operations on the addresses that carry the lab's own traffic); CPU sets and quotas fit
  the machine; each node's memory cap leaves room above its heap, and the caps together fit
  the machine;
- with the images (a Docker ``client`` given): the JVM of the app image accepts each arm's
  options; the database image knows each PostgreSQL parameter and accepts its value (type,
  unit, range, allowed values from its own pg_settings); each management operation names a
  resource type and attribute of the image's model with a value of its type; and the server
  configuration exists in the app image. A probe is a throw-away container of the image with
  no network (``java ... -version``, pg_settings from a scratch cluster in single-user mode,
  the model from an embedded server in admin-only mode); answers are cached per image id
  under the cache folder, so a second check costs nothing.

``check`` raises RecipeError with one line per problem (the CLI's exit code 2).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
from pathlib import Path

from . import apps, changes, layout, server_modules
from .interference import cpuset_cpus
from .plan import DATABASE, PER_LEVEL, RELOAD, RUNTIME, compile_plan
from .changes.model import app_property_problem, declared_property_problem, destination_problem
from .recipe import Recipe, RecipeError
from .safety import jvm_options as jvm_option_rules
from .safety import postgresql as pg_rules
from .safety import server_model as server_rules

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
    found += _side_by_side_problems(recipe, where, plan)
    found += _memory_problems(recipe, where, len(plan.nodes), _machine_memory_mb(client))
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
        refused = [f"{_options_key(recipe)}: {problem}"
                   for problem in jvm_option_rules.problems(_written_options(node))]
        if node.get("agent_token"):
            refused += [f"change.agent_options: {problem}" for problem in
                        jvm_option_rules.agent_problems(kind.agent_options(plan.arm(arm_id)),
                                                        kind.agent.options,
                                                        kind.agent.file_options)]
        found += [f"{where}: {problem}" for problem in refused]
        if not refused:
            options_by_arm[arm_id] = shlex.split(node["jvm_options"])
    found += _stack_problems(recipe, where, cpus)
    operations, settings = _server_operations(recipe, kind, plan), _pg_settings(recipe, kind, plan)
    app = apps.load(recipe.workload.app, recipe.repo_root)
    found += [f"{where}: {key}: {problem}" for key, op in operations
              if (problem := server_rules.protected_problem(op) or app_property_problem(op)
                  or declared_property_problem(op, app) or destination_problem(op, app))]
    found += [f"{where}: {key}: PostgreSQL parameter '{name}' is refused: {why}; allowed: "
              f"parameters that tune the database (see the reference's security page)"
              for (name, _), key in settings.items()
              if (why := pg_rules.refused(name))]
    if client is not None and not found:
        found += _probe(recipe, where, options_by_arm, nodes, operations, settings, client)
        found += _client_jvm_probe(kind, plan, where, client)
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


def _side_by_side_problems(recipe, where, plan) -> list[str]:
    """``[stack] side_by_side`` lays out the nodes of a sweep whose values need one each; any
    other plan already has its own layout (an A/B crossover is side by side by design)."""
    if not recipe.stack.side_by_side or plan.layout == PER_LEVEL:
        return []
    return [f"{where}: stack.side_by_side: this recipe's arms run {plan.layout} (plan.py), not "
            f"on a node per value; allowed: true only for a sweep or a ladder whose values need "
            f"a node each (a change applied by a reload or at the JVM's start), without "
            f"[cluster]"]


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
            "jvm_options": s.jvm_options, "server_config": recipe.server_config, "keys": {}}
    if hasattr(kind, "options"):
        node["jvm_options"] = kind.options(arm)
    if hasattr(kind, "jdk"):  # its JVM runs on that JDK's image: the options are asked of it
        node["jdk"] = kind.jdk(arm)
    if hasattr(kind, "agent"):  # every arm runs the agent's image, which the options name
        node["image"] = kind.agent.image
        node["agent_token"] = kind.agent_token(arm)
    if hasattr(kind, "limits") and kind.applies(arm):
        limits = kind.change.limits
        node.update({k: v for k, v in kind.limits(arm).items() if v is not None})
        node["keys"] = {k: f"change.limits.app_{k}" for k in ("cpuset", "cpus", "memory")
                        if getattr(limits, f"app_{k}") is not None}
    return node


def _written_options(node: dict) -> str:
    """The JVM options a recipe wrote: without the -agentpath the lab adds for a jvm-agent
    change (its library is the lab's; its options are checked on their own)."""
    token = node.get("agent_token")
    return node["jvm_options"].replace(token, "") if token else node["jvm_options"]


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


def _memory_problems(recipe, where, plan_nodes: int, machine_mb: float | None) -> list[str]:
    """The stack's memory caps together (every node of a cluster, and the database) must fit
    the machine: a cap is a limit, not a reservation, so Docker starts a stack whose caps add
    up to more, and the kernel's OOM killer ends a node in the middle of a measurement."""
    s = recipe.stack
    nodes = recipe.cluster.nodes if recipe.cluster is not None else max(plan_nodes, 2)
    node_mb, db_mb = memory_mb(s.app_memory), memory_mb(s.db_memory)
    if machine_mb is None or node_mb is None or db_mb is None:
        return []
    total = nodes * node_mb + db_mb
    if total <= machine_mb:
        return []
    return [f"{where}: stack.app_memory: {nodes} nodes of {s.app_memory} and a database of "
            f"{s.db_memory} need {total:.0f} MB, and this machine has {machine_mb:.0f} MB; "
            f"allowed: at most {max(0, (machine_mb - db_mb) / nodes):.0f}m a node"]


def _machine_memory_mb(client) -> float | None:
    """The engine's memory when one answers (what its containers share), else this host's."""
    if client is not None:
        try:
            return int(client.info()["MemTotal"]) / 2 ** 20
        except Exception:  # noqa: BLE001 - an engine that does not answer: use the host's
            pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2 ** 20
    except (ValueError, OSError, AttributeError):
        return None


def _machine_cpus(client) -> int:
    """The engine's CPU count when one answers (it is what Docker checks), else this host's."""
    if client is not None:
        try:
            return int(client.info().get("NCPU") or os.cpu_count() or 1)
        except Exception:  # noqa: BLE001 - an engine that does not answer: use the host's count
            pass
    return os.cpu_count() or 1


# --------------------------------------------------------------------------- probes of the images


def _probe(recipe, where, options_by_arm, nodes, operations, settings, client) -> list[str]:
    """The checks only the images can answer, of what problems() gathered from the recipe."""
    from . import images
    jvms = list(dict.fromkeys(n.get("image") or images.JDK_IMAGES.get(n.get("jdk"), images.WILDFLY)
                              for n in nodes.values())) or [images.WILDFLY]
    ids = images.require_images(client, list(dict.fromkeys([images.WILDFLY, images.DB, *jvms])))
    found = []
    for image in jvms:  # each JDK a node runs must accept every arm's options
        for options in dict.fromkeys(" ".join(o) for o in options_by_arm.values()):
            answer = _cached(ids[image], "java " + options,
                             lambda: _run(client, image, ["java", *shlex.split(options),
                                                          "-version"], entrypoint=""))
            if answer["exit"] != 0:
                found.append(f"{where}: {_options_key(recipe)}: the JVM of {image} refuses "
                             f"'{options}': {_first_error(answer['output'])}")
    configs = _cached(ids[images.WILDFLY], "configurations", lambda: _run(
        client, images.WILDFLY, ["ls", "/opt/wildfly/standalone/configuration"], entrypoint=""))
    known = sorted(n for n in configs["output"].split() if n.endswith(".xml"))
    for config in dict.fromkeys(n["server_config"] for n in nodes.values()):
        if known and config not in known:
            found.append(f"{where}: stack.server_config: '{config}' is not in {images.WILDFLY}; "
                         f"allowed: {', '.join(known)}")
    configs = dict.fromkeys(n["server_config"] for n in nodes.values())
    if recipe.cluster is not None:  # a cluster's nodes boot from a copy of standalone-ha.xml
        from .cluster import DERIVED_CONFIGS, SERVER_CONFIG
        configs = {DERIVED_CONFIGS[SERVER_CONFIG].base: None}
    for config in configs if operations and (not known or set(configs) <= set(known)) else ():
        try:
            model = _cached(ids[images.WILDFLY], f"management model of {config}",
                            lambda config=config: {"model": _server_model(client, config)})
        except RuntimeError:  # not cached: asked again next time; the run's read-back remains
            continue
        found += [f"{where}: {key}: {problem}" for key, op in operations
                  if (problem := server_rules.model_problem(op, model["model"], config))]
    if settings:
        table = _cached(ids[images.DB], "pg_settings", lambda: {"text": _run(
            client, images.DB, ["sh", "-c", PG_SETTINGS_SCRIPT], user="postgres",
            entrypoint="", keep=None)["output"]})
        rows = pg_rules.parse_settings_table(table["text"])
        for (name, value), key in settings.items():
            if rows and name not in rows and "." not in name:  # "a.b": extension settings
                near = [p for p in sorted(rows) if p.startswith(name.split("_")[0])][:5]
                found.append(f"{where}: {key}: PostgreSQL has no parameter '{name}'"
                             + (f"; did you mean {', '.join(near)}?" if near else ""))
            elif name in rows and (problem := pg_rules.value_problem(name, value, rows[name])):
                found.append(f"{where}: {key}: {name}: {problem}")
    return found


def _client_jvm_probe(kind, plan, where, client) -> list[str]:
    """A change of the client JVM's options (client_jvm_options.py): the driver's image's JVM
    must accept each arm's, as a node's JVM must accept the server's."""
    if not hasattr(kind, "client_options"):
        return []
    from . import images
    image = kind.driver.image
    ids = images.require_images(client, [image])
    found = []
    for options in dict.fromkeys(kind.client_options(a) for a in plan.arms if kind.applies(a)):
        answer = _cached(ids[image], "java " + options,
                         lambda options=options: _run(client, image, ["java", *shlex.split(
                             options), "-version"], entrypoint=""))
        if answer["exit"] != 0:
            found.append(f"{where}: change.client_jvm_options: the JVM of {image} refuses "
                         f"'{options}': {_first_error(answer['output'])}")
    return found


def _server_operations(recipe, kind, plan) -> list[tuple[str, object]]:
    """Every management operation the recipe writes (its baseline's and each arm's change),
    once each, with the key that writes it."""
    from .changes.nodes import baseline_operations
    found = {}
    try:  # a file that does not parse is reported once, by _baseline_files or _parse_change
        for op in baseline_operations(recipe.baseline):
            key = op.where if op.where.startswith("baseline.") else "baseline.cli"
            found.setdefault(str(op), (key, op))
    except (ValueError, OSError):
        pass
    for arm in plan.arms:
        try:
            for op in kind.operations(arm)[0]:
                found.setdefault(str(op), ("change.file" if recipe.change.file else "change", op))
        except (ValueError, OSError, RecipeError):
            pass
    return list(found.values())


def _server_model(client, config: str) -> dict:
    """The image's management model for one server configuration, as
    safety/server_model.compact_description makes it: an embedded server in admin-only mode
    (no network, no deployment runs) describes every resource type and attribute once."""
    from . import images
    run = _run(client, images.WILDFLY, [
        "/opt/wildfly/bin/jboss-cli.sh", "--output-json",
        f"--commands=embed-server --admin-only --std-out=discard --server-config={config},"
        f":read-resource-description(recursive=true)"],
        entrypoint="", keep=None, environment={"JAVA_OPTS": "-Xmx512m -XX:TieredStopAtLevel=1"},
        timeout=180)
    text = run["output"]
    try:
        answer = json.loads(text[text.index("{"):])
    except ValueError:
        raise RuntimeError(f"the management model of {config} could not be read from "
                           f"{images.WILDFLY}: {_first_error(text)}") from None
    return server_rules.compact_description(answer.get("result") or {})


# The image's pg_settings, read from a throw-away cluster in single-user mode (no server, no
# network): one row per parameter, the columns of safety/postgresql.py's COLUMNS.
PG_SETTINGS_SCRIPT = (
    "initdb -D /tmp/probe -A trust >/dev/null 2>&1 || exit 99; "
    "echo \"COPY (SELECT name, vartype, coalesce(unit, ''), coalesce(min_val, ''), "
    "coalesce(max_val, ''), coalesce(array_to_string(enumvals, ','), ''), context "
    "FROM pg_settings) TO STDOUT\" | postgres --single -D /tmp/probe -j postgres")


def _pg_settings(recipe, kind, plan) -> dict[tuple[str, str], str]:
    """Every (parameter, value) the recipe sets in PostgreSQL, each arm's value substituted,
    with the key that sets it."""
    from .changes.postgresql_conf import parse_pg_fragment
    settings = {}
    try:  # a file that does not parse is reported once, by _baseline_files or _parse_change
        if recipe.baseline.pg_conf:
            text = recipe.baseline.pg_conf.read_text(encoding="utf-8")
            for name, value in parse_pg_fragment(text, "").items():
                settings[(name, value)] = f"baseline.pg_conf ({_shown(recipe.baseline.pg_conf)})"
        for arm in plan.arms if hasattr(kind, "settings") else ():
            if kind.applies(arm):
                for name, value in kind.settings(arm).items():
                    settings.setdefault((name, value), f"change.file ({_shown(recipe.change.file)})")
    except (ValueError, OSError):
        pass
    return settings


def _run(client, image, command, *, entrypoint=None, user=None, keep: int | None = 4000,
         environment=None, timeout: int = 60) -> dict:
    """One command in a throw-away container of the image: exit code and output (its last
    ``keep`` characters; None keeps it all)."""
    from .cleanup import RunScope
    # The run's labels: a probe left by a killed process is swept like any run's container.
    container = client.containers.run(image, command, entrypoint=entrypoint, user=user,
                                      detach=True, network_disabled=True,
                                      environment=environment,
                                      labels=RunScope(client).labels("probe"))
    try:
        exit_code = container.wait(timeout=timeout).get("StatusCode", 1)
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
        return path.resolve().relative_to(layout.workspace()).as_posix()
    except ValueError:
        return str(path)
