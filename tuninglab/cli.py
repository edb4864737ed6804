"""`tuninglab`: list, validate, run, show and compare recipes.

Exit codes: 0 done; 2 bad input (a recipe, a profile, a result file, no engine, no image);
3 nothing could be measured (the change did not take effect, a node did not start or failed its
smoke test, the warm-up found no working server; nothing stored); 4 the run was invalid (stored, with its
problems); 130 interrupted (containers removed, nothing stored).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import docker.errors

from . import api, report
from .changes.checks import ChangeNotEffective
from .errors import DirtyTree
from .images import ImageMissingError
from .recipe import RecipeError
from .store import ResultError
from .containers import StartupError
from .load import SmokeTestFailed
from .warmup import WarmUpFailed


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.handler(args)
    except (RecipeError, ResultError, ImageMissingError, FileNotFoundError) as exc:
        print(f"tuninglab: {exc}", file=sys.stderr)
        return 2
    except DirtyTree as exc:
        print(f"tuninglab: {exc}", file=sys.stderr)
        return 2
    except docker.errors.DockerException as exc:
        where = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
        print(f"tuninglab: no Docker engine answers at {where} ({exc}); start one with: "
              f"bash scripts/setup.sh", file=sys.stderr)
        return 2
    except (ChangeNotEffective, WarmUpFailed, SmokeTestFailed, StartupError) as exc:
        print(f"tuninglab: {exc}\nnothing was measured or stored", file=sys.stderr)
        return 3
    except KeyboardInterrupt as exc:
        print(f"tuninglab: interrupted ({exc or 'Ctrl-C'}); the run's containers were removed "
              f"and no result was stored", file=sys.stderr)
        return 130


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tuninglab", description=__doc__.splitlines()[0])
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
    return p


def _list(args) -> int:
    rows = [("id", "area", "change", "source", "latest full verdict")]
    for recipe in api.list_recipes():
        latest = api.latest_result(recipe.id, "full")
        verdict = latest["verdict"] if latest else "not measured"
        where = f"{recipe.source.document} {recipe.source.section or ''}".strip()
        rows.append((recipe.id, recipe.area, recipe.change.kind, where, verdict))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    return 0


def _validate(args) -> int:
    recipes = [api.get_recipe(i) for i in args.ids] if args.ids else api.list_recipes()
    for recipe in recipes:
        print(f"ok  {recipe.id}  ({recipe.toml_path.relative_to(recipe.repo_root)})")
    return 0


def _run(args) -> int:
    result = api.run(args.id, args.profile, save=not args.no_save, allow_dirty=args.allow_dirty,
                     progress=lambda line: print(line, flush=True))
    print()
    print(report.summary(result))
    return 0 if result["validity"]["valid"] else 4


def _stale(args) -> int:
    """Stale recipe ids on stdout (for scripts/publish.sh), each with its reason on stderr."""
    from . import layout, staleness
    recipes = [api.get_recipe(i) for i in args.ids] if args.ids else api.list_recipes()
    inputs = staleness.stack_inputs_hash()
    for recipe in recipes:
        reason = staleness.why_stale(recipe, layout.results_dir(), stack_inputs=inputs)
        if reason:
            print(recipe.id)
        print(f"{recipe.id}: {reason or 'up to date'}", file=sys.stderr)
    return 0


def _show(args) -> int:
    print(report.summary(_resolve(args.result, args.profile)))
    return 0


def _compare(args) -> int:
    print(report.comparison(_resolve(args.a), _resolve(args.b)))
    return 0


def _resolve(text: str, profile: str | None = None) -> dict:
    if Path(text).suffix == ".json" or Path(text).exists():
        return api.load_result(text)
    result = api.latest_result(text, profile)
    if result is None:
        raise FileNotFoundError(f"no stored result for '{text}'"
                                + (f" in profile {profile}" if profile else ""))
    return result


if __name__ == "__main__":
    sys.exit(main())
