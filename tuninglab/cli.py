"""`tuninglab`: list, validate, run, show and compare recipes.

Exit codes (errors.EXIT_CODES): 0 done; 1 a defect of the lab (run again with --debug); 2 bad
input (a recipe, a change file, a profile, a result file, an argument); 3 nothing could be
measured (the change did not take effect, a node did not start or failed its smoke test, the
warm-up found no working server; nothing stored); 4 the run was invalid (stored, with its
problems); 5 the environment failed (no engine, an image missing, the disk full, a container
that died); 130 interrupted (containers removed, nothing stored). No error prints a traceback
unless --debug is given.
"""
from __future__ import annotations

import argparse
import os
import sys
import traceback
from pathlib import Path

from . import api, layout, placement, report
from .errors import EXIT_CODES, classify
from .recipe import RecipeError, profile_defaults
from .store import ResultError


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.workspace is not None:  # an environment variable, so notebooks and runs see it too
        if not (args.workspace / "recipes").is_dir():
            print(f"tuninglab: --workspace {args.workspace}: no recipes/ folder there; allowed: a "
                  f"folder holding recipes/ (and apps/, server-modules/, results/ as needed)",
                  file=sys.stderr)
            return EXIT_CODES["input"]
        os.environ[layout.WORKSPACE_ENV] = str(args.workspace.resolve())
    if layout.carried_library() and args.handler not in _WITHOUT_WORKSPACE:
        print("tuninglab: no workspace here (a folder holding recipes/ and apps/, in this folder "
              "or above it); allowed: run it inside one, pass --workspace DIR, or write one with "
              "tuninglab init DIR", file=sys.stderr)
        return EXIT_CODES["input"]
    try:
        if getattr(args, "placement", None) is not None:  # for the run and its notebooks
            os.environ[placement.ENV] = str(args.placement.resolve())
            placement.current()  # a placement that cannot be used fails before anything starts
        return args.handler(args)
    except BaseException as exc:  # noqa: BLE001 - every failure ends in a message and a code
        if isinstance(exc, SystemExit):
            raise
        failure = classify(exc)
        if args.debug:
            traceback.print_exc()
        print(f"tuninglab: {failure.message}", file=sys.stderr)
        return failure.exit_code


def _placement_option(command) -> None:
    command.add_argument("--placement", type=Path, default=None, metavar="FILE",
                         help="put each role on a host of a Docker Swarm by the constraints of "
                              "this file (placements/; default: $TUNINGLAB_PLACEMENT, else "
                              "every role on the one engine)")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tuninglab", description=__doc__.splitlines()[0])
    p.add_argument("--debug", action="store_true", help="print the traceback of an error")
    p.add_argument("--workspace", type=Path, default=None, metavar="DIR",
                   help="the folder of your recipes/, apps/ and results/ (default: "
                        "$TUNINGLAB_WORKSPACE, else the nearest folder from here upward "
                        "holding recipes/ and apps/, else this checkout)")
    sub = p.add_subparsers(required=True, metavar="command")

    c = sub.add_parser("list", help="list the recipes and their latest full-profile verdicts")
    c.set_defaults(handler=_list)

    c = sub.add_parser("validate", help="validate every recipe (or the named ones)")
    c.add_argument("ids", nargs="*")
    c.set_defaults(handler=_validate)

    c = sub.add_parser("run", help="run a recipe and store its result")
    c.add_argument("id")
    c.add_argument("--profile", default="quick", help="quick (CI) or full (publishing)")
    c.add_argument("--no-save", action="store_true", help="do not store the result")
    _placement_option(c)
    c.add_argument("--allow-dirty", action="store_true",
                   help="run the full profile from a tree with uncommitted changes (the site "
                        "will not show the result)")
    c.set_defaults(handler=_run)

    c = sub.add_parser("stale", help="print the recipes a publishing run must measure again")
    c.add_argument("ids", nargs="*")
    c.set_defaults(handler=_stale)

    c = sub.add_parser("show", help="show a result: a file, or the newest result of a recipe id")
    c.add_argument("result")
    c.add_argument("--profile", default=None, help="with a recipe id: newest of this profile")
    c.set_defaults(handler=_show)

    c = sub.add_parser("compare", help="put two results side by side")
    c.add_argument("a")
    c.add_argument("b")
    c.set_defaults(handler=_compare)

    c = sub.add_parser("flags", help="ask the image's JVM what it makes of the JVM options the "
                                     "sources name (probes/jvm-flags.toml), and store it")
    c.add_argument("--no-save", action="store_true", help="print, do not store")
    c.set_defaults(handler=_flags)

    c = sub.add_parser("cluster", help="form a cluster of nodes behind the balancer on the "
                                       "engine (local, or DOCKER_HOST) or a swarm's hosts "
                                       "(--placement), verify it, remove it and store what it "
                                       "took")
    _placement_option(c)
    c.add_argument("--nodes", type=int, default=3)
    c.add_argument("--cpus", type=float, nargs="+", default=None,
                   help="CPU quota of every node (one number) or of each (one per node); "
                        "default: the nodes' core divided among them")
    c.add_argument("--policy", default="roundrobin")
    c.add_argument("--server-maxconn", type=int, default=0)
    c.add_argument("--profile", choices=tuple(profile_defaults()), default="full",
                   help="boot the nodes as this profile's runs do (quick: C1 alone)")
    c.add_argument("--no-save", action="store_true", help="print, do not store")
    c.set_defaults(handler=_cluster)

    c = sub.add_parser("clean", help="remove stacks parked for reuse and leftovers of dead runs")
    _placement_option(c)
    c.set_defaults(handler=_clean)

    c = sub.add_parser("init", help="write a workspace of your own into a new folder: an "
                                    "example app and three recipes to run on it")
    c.add_argument("folder", type=Path)
    c.set_defaults(handler=_init)

    c = sub.add_parser("port", help="copy a recipe of the lab's catalogue into your workspace "
                                    "(recipes/own/) to run on one of its apps")
    c.add_argument("id")
    c.add_argument("--app", required=True, help="an app of the workspace (apps/<name>/)")
    c.add_argument("--mix", default=None, help="one of the app's mixes (default: the recipe's "
                                               "mix if the app has it, else 'default')")
    c.set_defaults(handler=_port)

    c = sub.add_parser("report", help="write the workspace's results as one page (report/: "
                                      "Markdown, HTML and figures), as the site shows the lab's")
    c.set_defaults(handler=_report)

    c = sub.add_parser("app", help="what an app of the workspace does on a node")
    app_sub = c.add_subparsers(required=True, metavar="action")
    a = app_sub.add_parser("check", help="boot one node with the app, run its smoke set and "
                                         "print what the server logged about its deployment")
    a.add_argument("name")
    a.add_argument("--profile", choices=tuple(profile_defaults()), default="quick",
                   help="boot the node as this profile's runs do")
    a.set_defaults(handler=_app_check)
    return p


def _init(args) -> int:
    from . import scaffold
    written = scaffold.init(args.folder)
    print(f"init: wrote {len(written)} files into {args.folder}; next:\n"
          f"  cd {args.folder}\n"
          f"  tuninglab app check shop\n"
          f"  tuninglab run shop-task-threads\n"
          f"({args.folder}/README.md says how to put your own app in the example's place)")
    return 0


def _port(args) -> int:
    from . import porting
    from .recipe import find_recipe
    recipe = find_recipe(layout.REPO_ROOT, args.id)  # the catalogue's, whatever the workspace
    folder = porting.port(recipe, args.app, layout.workspace(), args.mix)
    print(f"port: {recipe.id} copied to {folder} to run on {args.app} (its recipe.toml's first "
          f"line says what changed); next:\n  tuninglab --workspace {layout.workspace()} run "
          f"{recipe.id}")
    return 0


def _report(args) -> int:
    from .site import workspace_report
    page = workspace_report.build(layout.workspace())
    print(f"report: {page} (and index.md beside it)")
    return 0


def _app_check(args) -> int:
    from . import appcheck
    appcheck.check(args.name, layout.workspace(), args.profile,
                   progress=lambda line: print(line, flush=True))
    return 0


def _flags(args) -> int:
    from . import jvmflags
    client = _engine()
    if client is None:
        print("flags: no Docker engine answers; run scripts/setup.sh", file=sys.stderr)
        return EXIT_CODES["environment"]
    record = jvmflags.probe(client)
    for row in record["flags"]:
        value = f" (now {row['final_value']})" if row.get("final_value") else ""
        print(f"{row['option']:<32} {row['answer']}{value} {row['message']}".rstrip())
    if not args.no_save:
        print(f"stored {jvmflags.store(record)}")
    return 0


def _cluster(args) -> int:
    from . import cluster
    cpus = args.cpus if args.cpus else [round(1.0 / max(args.nodes, 1), 3)]
    spec = cluster.ClusterSpec.of(args.nodes, cpus[0] if len(cpus) == 1 else cpus,
                                  args.policy, args.server_maxconn,
                                  key=lambda name: "--" + name.replace("_", "-"))
    record = cluster.probe(spec, base=_profile_node(args.profile), profile=args.profile)
    report = record["report"]
    for name, view in report["views"].items():
        print(f"{name}: view {view}")
    print(f"balancer policy {report['policy']}; requests by node through it: "
          f"{report['requests_by_node']}")
    print(f"ready in {report['ready_s']:.1f} s after the stack's {report['stack_started_s']:.1f} s")
    hosts = record["provenance"]["placement"]
    if hosts.get("roles"):
        print("placed: " + ", ".join(f"{role} on {host}" for role, host in hosts["roles"].items()))
    if not args.no_save:
        print(f"stored {cluster.store(record)}")
    return 0


def _profile_node(profile: str):
    """A node as the profile's runs boot it (what profiles.toml adds to the JVM)."""
    from .stack import NodeConfig
    return NodeConfig(jit=profile_defaults()[profile]["jit"])


def _clean(args) -> int:
    """What the test command runs when it ends: no stack outlives it."""
    from . import cleanup, stackpool
    client = _engine()
    if client is None:
        print("clean: no Docker engine answers: nothing to remove", file=sys.stderr)
        return 0
    removed = stackpool.clear(client) + cleanup.sweep_dead_runs(client)
    # and on a swarm's hosts: every engine's containers first, then the networks they held
    engines = list(placement.current().clients().values())
    for _ in range(2 if engines else 0):
        for engine in engines:
            removed += cleanup.sweep_dead_runs(engine)
    print(f"clean: removed {len(removed)} object(s)" + (f": {', '.join(removed)}" if removed else ""))
    return 0


def _list(args) -> int:
    """Every recipe folder; a broken one is listed as broken, with its first problem."""
    from .recipe import scan_recipes
    rows = [("id", "area", "change", "source", "latest full verdict")]
    broken = 0
    for folder, recipe, error in scan_recipes(layout.recipes_dir()):
        if recipe is None:
            broken += 1
            rows.append((folder.name, folder.parent.name, "BROKEN", error.splitlines()[0][:70], "-"))
            continue
        try:
            latest = api.latest_result(recipe.id, "full")
            # a valid curve (a sweep, a load curve) has points, not one verdict
            verdict = ("not measured" if latest is None
                       else latest.get("verdict") or "a curve (no single verdict)")
        except ResultError as exc:
            verdict = f"unreadable result ({str(exc)[:40]})"
        where = f"{recipe.source.document} {recipe.source.section or ''}".strip()
        rows.append((recipe.id, recipe.area, recipe.change.kind, where, verdict))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    if broken:
        print(f"\n{broken} broken recipe(s): `tuninglab validate` shows every problem",
              file=sys.stderr)
    return 0


def _validate(args) -> int:
    """Every check that needs no running stack: the recipe file, every change and baseline
    file with the run's own parser, CPUs and memory; with an engine, the images too."""
    from . import preflight
    from .recipe import scan_recipes
    if args.ids:
        found = []
        for recipe_id in args.ids:
            try:
                recipe = api.get_recipe(recipe_id)
                found.append((recipe.folder, recipe, None))
            except RecipeError as exc:
                found.append((Path(recipe_id), None, str(exc)))
    else:
        found = scan_recipes(layout.recipes_dir())
    client = _engine()
    if client is None:
        print("validate: no Docker engine answers: the checks against the images (JVM options, "
              "PostgreSQL parameters, server configurations) are skipped", file=sys.stderr)
    failed = 0
    for folder, recipe, error in found:
        problems = [error] if error else preflight.problems(recipe, client=client)
        if problems:
            failed += 1
            print(f"FAIL  {folder.name}")
            for line in "\n".join(problems).splitlines():
                print(f"      {line}")
        else:
            print(f"ok    {recipe.id}  ({recipe.toml_path.relative_to(recipe.repo_root)})")
    if failed:
        raise RecipeError(f"{failed} of {len(found)} recipe(s) have problems (listed above)")
    return 0


def _engine():
    """A Docker client when an engine answers, else None."""
    try:
        import docker
        client = docker.from_env(timeout=5)
        client.ping()
        return client
    except Exception:  # noqa: BLE001 - any failure means: no engine to ask
        return None


def _run(args) -> int:
    result = api.run(args.id, args.profile, save=not args.no_save, allow_dirty=args.allow_dirty,
                     progress=lambda line: print(line, flush=True))
    print()
    print(report.summary(result))
    return 0 if result["validity"]["valid"] else 4


def _stale(args) -> int:
    """Stale recipe ids on stdout (for scripts/publish.sh), each with its reason on stderr."""
    from . import staleness
    recipes = [api.get_recipe(i) for i in args.ids] if args.ids else api.list_recipes()
    inputs = staleness.stack_inputs_hash()
    for recipe in recipes:
        reason = staleness.why_stale(recipe, layout.results_dir(), stack_inputs=inputs)
        if reason:
            print(recipe.id)
        print(f"{recipe.id}: {reason or 'up to date'}", file=sys.stderr)
    return 0


def _show(args) -> int:
    result = _resolve(args.result, args.profile)
    print(_rendered(report.summary, result))
    return 0


# What reading a stored result raises when a key deeper than store.KEY_TYPES checks holds
# another type than the lab writes (an edited file, or not a result of this lab).
_MISREAD = (KeyError, TypeError, ValueError, AttributeError, IndexError)


def _misread(where: str, error: Exception) -> ResultError:
    return ResultError(f"{where}: a key holds a value of another type than a stored result has "
                       f"({type(error).__name__}: {error}); allowed: a result file as the lab "
                       f"wrote it (re-run the recipe to get one)")


def _rendered(render, *results: dict) -> str:
    """The report of stored results: a key of the wrong type is the file's error, named with
    its path, not a defect of the lab."""
    try:
        return render(*results)
    except _MISREAD as error:
        raise _misread(", ".join(r.get("_path") or f"the newest result of {r.get('recipe')}"
                                 for r in results), error) from None


def _compare(args) -> int:
    a, b = _resolve(args.a), _resolve(args.b)
    if a.get("_path") and a.get("_path") == b.get("_path"):
        print(f"tuninglab: warning: both arguments are the same result ({a['_path']})",
              file=sys.stderr)
    if a["recipe"] != b["recipe"]:
        print(f"tuninglab: warning: the results are of different recipes ({a['recipe']} and "
              f"{b['recipe']}); their numbers are not comparable", file=sys.stderr)
    print(_rendered(report.comparison, a, b))
    return 0


def _resolve(text: str, profile: str | None = None) -> dict:
    """A result file, or the newest result of a recipe id (of a profile)."""
    if len(text) > 1024:
        raise ResultError(f"'{text[:40]}...': {len(text)} characters; allowed: a result file "
                          f"or a recipe id")
    path = Path(text)
    if path.suffix == ".json" or path.exists():
        if path.is_dir():
            raise ResultError(f"{text}: is a folder; allowed: a result file "
                              f"(results/<id>/<time>-<host>.json) or a recipe id")
        if not path.is_file():
            raise ResultError(f"{text}: no such result file")
        try:
            result = api.load_result(path)
        except ResultError:
            raise
        except _MISREAD as error:
            raise _misread(str(path), error) from None
        result["_path"] = str(path.resolve())
        return result
    recipe = api.get_recipe(text)  # an unknown id: RecipeError lists the known ones
    if profile is not None:
        recipe.profile(profile)  # an unknown profile: RecipeError lists the profiles
    result = api.latest_result(recipe.id, profile)
    if result is None:
        raise ResultError(f"no stored result of {recipe.id}"
                          + (f" in profile {profile}" if profile else "")
                          + f"; make one with: tuninglab run {recipe.id}"
                          + (f" --profile {profile}" if profile else ""))
    return result



# The commands that need no workspace: init writes one, clean removes containers.
_WITHOUT_WORKSPACE = (_init, _clean)


if __name__ == "__main__":
    sys.exit(main())
