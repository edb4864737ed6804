"""The publishing queue (scripts/publish.sh): full runs one after another on a quiet machine,
each committed as it lands.

    bash scripts/publish.sh                  every stale recipe (`tuninglab stale` says why)
    bash scripts/publish.sh <id> ...         these recipes
    bash scripts/publish.sh --all            every recipe
    bash scripts/publish.sh --resume         the queue an interruption left (.build/publish-queue.json)
    bash scripts/publish.sh --dry-run ...    the queue, its order and its estimated time; nothing runs
    bash scripts/publish.sh --repeat 3 aa-noise   each recipe three times in a row (an A/A series)
    bash scripts/publish.sh --placement placements/FILE.toml <id> ...
                                             the runs on a Docker Swarm's hosts (tuninglab run
                                             --placement); --resume keeps the queue's placement

Each recipe runs by executing its notebook in the full profile (the notebook then shows that
run), into a temporary copy so a failed run leaves the published outputs alone; its new result
file and notebook are then committed, one commit per result, so every result comes from a
clean tree and an interruption loses at most the run in progress. The queue's state file
names what is done, so ``--resume`` neither loses nor repeats a finished result. Recipes whose
stacks are alike follow each other (``stack_signature``), and before each one the queue waits
for the host to be quiet (quiet.py). A run that ends well hands its warm stack to the next one
of the same kind (``TUNINGLAB_REUSE_STACKS``; stackpool.py, and the full profile's
``reuse_runs``); whatever is parked when the queue ends, or is interrupted, is removed. The
site is built at the end.

With a placement every run of the queue puts its roles on the swarm's hosts (the placement
file is checked against the swarm before the first run, and kept in the queue's state). A
stack spread over hosts is not parked for the next run, and the quiet wait reads this machine
only: each run reads every host's interference itself, per machine, and the result names the
host of every role.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import layout, placement, quiet, stackpool, staleness, store
from .recipe import Recipe, discover_recipes, find_recipe
from .result import headline

__all__ = ["stack_signature", "order", "estimate_s", "main"]

STATE = "publish-queue.json"  # under .build/
UNKNOWN_S = 16 * 60  # a recipe never published: the catalogue's median A/B run (issue 31)


def stack_signature(recipe: Recipe) -> tuple:
    """What a stack is made of: recipes with the same signature can follow each other on
    alike stacks (the same node count, configuration, JVM options, app and databases)."""
    s = recipe.stack
    return (recipe.cluster.nodes if recipe.cluster else 0, recipe.server_config, s.jvm_options,
            recipe.workload.app, len(s.databases), s.db_cpus or 0.0, recipe.change.kind)


def order(recipes: list[Recipe]) -> list[Recipe]:
    """Alike stacks next to each other, and within a group by id (a stable, readable order)."""
    return sorted(recipes, key=lambda r: (stack_signature(r), r.id))


def estimate_s(recipe: Recipe, results_dir: Path) -> float:
    """The recipe's newest full run's wall time, or the catalogue's median for a new one."""
    for path in reversed(store.list_results(results_dir, recipe.id)):
        try:
            found = store.load_result(path)
        except store.ResultError:
            continue
        if found.get("profile") == "full" and (found.get("provenance") or {}).get("wall_s"):
            return float(found["provenance"]["wall_s"])
    return float(UNKNOWN_S)


def _clean_tree(root: Path) -> bool:
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                            capture_output=True, text=True, check=True)
    return not status.stdout.strip()


# The notebook's run cell may take this long. The engine bounds every window itself (its load's
# timeouts, the drain's limit, the stack's start-up); this only ends a kernel that hangs. An
# hour was too short for a real run: blog-notifier-sessions's eight arms of eight blocks, with
# a reload before each window, were stopped at 60 minutes on 1 December 2026.
RUN_TIMEOUT_S = 4 * 3600


def run_environment(placement_file: str | None) -> dict[str, str]:
    """The environment a queued notebook runs in: the full profile, stacks handed on, and the
    queue's placement (or none: everything on the environment's engine)."""
    env = {**os.environ, "TUNINGLAB_PROFILE": "full", stackpool.ENV: "1"}
    env.pop(placement.ENV, None)  # the queue's own, not one left in the shell
    if placement_file:
        env[placement.ENV] = placement_file
    return env


def _execute(notebook: Path, placement_file: str | None = None) -> bool:
    """Run the notebook in the full profile into a temporary copy; replace the published one
    only when the run succeeded. The run may take over the stack the previous one parked."""
    with tempfile.TemporaryDirectory() as tmp:
        process = subprocess.Popen([sys.executable, "-m", "jupyter", "nbconvert", "--to",
                                    "notebook", "--execute", "--output-dir", tmp,
                                    f"--ExecutePreprocessor.timeout={RUN_TIMEOUT_S}",
                                    str(notebook)],
                                   env=run_environment(placement_file))
        try:
            returncode = process.wait()
        except KeyboardInterrupt:
            stop_tree(process)
            raise
        if returncode != 0:
            return False
        (notebook).write_bytes((Path(tmp) / notebook.name).read_bytes())
    return True


# How long an interrupted run may take to remove its containers before it is made to stop.
STOP_GRACE_S = 120.0


def stop_tree(process: subprocess.Popen, grace_s: float = STOP_GRACE_S) -> None:
    """Stop a notebook's execution the way Ctrl-C stops a run: SIGINT to every process below
    it first. Jupyter starts its kernel in a session of its own, so a signal to the queue
    never reaches the kernel, which went on measuring after its queue had stopped (28 November
    2026). Interrupted, the run in the kernel removes its containers and stores nothing; after
    ``grace_s`` whatever is left is terminated."""
    below = _descendants(process.pid)
    for pid in below:
        _signal(pid, signal.SIGINT)
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline and any(_alive(pid) for pid in below):
        time.sleep(0.2)
    for pid in [*below, process.pid]:
        _signal(pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (children first), from /proc."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = [], [pid]
    while frontier:
        children = [child for child, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has stopped; it waits for its parent to be reaped


def _signal(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass


def _commit(root: Path, recipe: Recipe, notebook: Path, new: list[Path], minutes: float) -> str:
    result = store.load_result(new[-1])
    commit = (result.get("provenance") or {}).get("git_commit", "?")[:7]
    subprocess.run(["git", "add", "--", str(notebook), *map(str, new)], cwd=root, check=True)
    message = (f"Result: {recipe.id} (full, from {commit}, {minutes:.0f} min, publishing "
               f"queue): {headline(result)}")
    subprocess.run(["git", "commit", "-q", "-m", message], cwd=root, check=True)
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True,
                          text=True, check=True).stdout.strip()


def _queue_from(args, root: Path, results_dir: Path, state_path: Path) -> tuple[list[str], dict]:
    """The recipes still to run, in order, and the queue's state. ``state["done"]`` holds one
    ``[id, commit]`` per finished place in the queue (commit None: it failed), so a recipe
    queued several times (``--repeat``) resumes at the right repetition."""
    if args.resume:
        if not state_path.is_file():
            raise SystemExit(f"publish: nothing to resume ({state_path} does not exist)")
        state = json.loads(state_path.read_text(encoding="utf-8"))
        if isinstance(state["done"], dict):  # a state file from before --repeat
            state["done"] = [[i, state["done"][i]] for i in state["queue"] if i in state["done"]]
        return state["queue"][len(state["done"]):], state
    recipes_dir = root / "recipes"
    if args.all:
        recipes = discover_recipes(recipes_dir)
    elif args.ids:
        recipes = [find_recipe(recipes_dir, i) for i in args.ids]
    else:
        inputs = staleness.stack_inputs_hash(root)
        recipes = [r for r in discover_recipes(recipes_dir)
                   if staleness.why_stale(r, results_dir, stack_inputs=inputs)]
    queue = [r.id for r in order(recipes) for _ in range(max(1, args.repeat))]
    return queue, {"queue": queue, "done": [], "failed": [], "started": time.time(),
                   "placement": _placement_file(args.placement)}


def _placement_file(path: Path | None) -> str | None:
    """The placement file as the runs will read it (absolute), checked against its swarm now:
    a placement that cannot be used stops the queue before its first run, with the reason."""
    if path is None:
        return None
    resolved = str(path.resolve())
    previous = os.environ.get(placement.ENV)
    os.environ[placement.ENV] = resolved
    try:
        placement.current()
    except placement.PlacementError as exc:
        _refuse(f"publish: {exc}")
    finally:
        if previous is None:
            os.environ.pop(placement.ENV, None)
        else:
            os.environ[placement.ENV] = previous
    return resolved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="publish", description=__doc__.split("\n\n")[0])
    parser.add_argument("ids", nargs="*")
    parser.add_argument("--all", action="store_true")
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="run each recipe N times in a row (an A/A series)")
    parser.add_argument("--placement", type=Path, default=None, metavar="FILE",
                        help="run on a Docker Swarm's hosts by the constraints of this file")
    args = parser.parse_args(argv)
    if args.resume and args.placement is not None:
        _refuse("publish: --resume runs the rest of a queue on the placement it was started "
                "with; --placement cannot change it")
    root, results_dir = layout.REPO_ROOT, layout.results_dir()
    state_path = root / ".build" / STATE
    queue, state = _queue_from(args, root, results_dir, state_path)
    recipes = {i: find_recipe(root / "recipes", i) for i in queue}
    estimates = {i: estimate_s(recipes[i], results_dir) for i in queue}  # read once
    left = sum(estimates[i] for i in queue)  # by place: a repeated recipe counts each time
    print(f"publish: {len(queue)} recipe(s) in the queue, about {left / 3600:.1f} h: "
          f"{', '.join(queue) or 'none'}"
          + (f"; on the hosts of {state['placement']}" if state.get("placement") else ""))
    if args.dry_run or not queue:
        return 0
    if not _clean_tree(root):
        print("publish: the tree has uncommitted changes; a published result must come from a "
              "clean commit: commit first", file=sys.stderr)
        return 2
    state_path.parent.mkdir(parents=True, exist_ok=True)
    # A queue started in the background ignores SIGINT (the shell sets it so), and Python ends
    # on SIGTERM without running ``finally``: both now stop the queue the way Ctrl-C does, so
    # that the parked stack is removed (28 November 2026: a stopped queue left it to `clean`).
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    try:
        _run_queue(root, results_dir, state_path, queue, state, recipes, estimates, left)
    except KeyboardInterrupt as stop:  # between runs or inside one: said, not a traceback
        print(f"{stop or 'publish: stopped'}; the results committed so far stay; the rest: "
              f"bash scripts/publish.sh --resume", file=sys.stderr)
        return 130
    finally:  # a warm stack outlives its run only to serve the next one in this queue
        _clear_parked_stacks()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                    "--site-dir", "site"], cwd=root, check=False,
                   env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    print(f"publish: done; {len(state['done']) - len(state['failed'])} committed, "
          f"{len(state['failed'])} failed{': ' + ', '.join(state['failed']) if state['failed'] else ''}")
    return 1 if state["failed"] else 0


def _refuse(message: str) -> None:
    """Bad input: said in one line, exit code 2 (as the lab's CLI does), nothing run."""
    print(message, file=sys.stderr)
    raise SystemExit(2)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt(f"publish: stopped by signal {signum}")


def _clear_parked_stacks() -> None:
    try:
        removed = stackpool.clear(placement.local_client())
    except Exception as exc:  # noqa: BLE001 - the engine may be gone; say so, do not hide the run's own error
        print(f"publish: could not remove parked stacks ({exc}); `tuninglab clean` does",
              file=sys.stderr)
        return
    if removed:
        print(f"publish: removed the stack parked by the last run ({len(removed)} objects)")


def _run_queue(root: Path, results_dir: Path, state_path: Path, queue: list[str], state: dict,
               recipes: dict, estimates: dict, left: float) -> None:
    """Run the queue's recipes in order; ``left``: its estimated seconds, counted down."""
    for n, recipe_id in enumerate(queue, start=1):
        state_path.write_text(json.dumps(state, indent=2), encoding="utf-8")
        recipe = recipes[recipe_id]
        quiet.wait_for_quiet(recipe.tolerance.steal, say=lambda t: print(f"publish: {t}"))
        notebook = root / "notebooks" / recipe.area / f"{recipe.id}.ipynb"
        before = set(store.list_results(results_dir, recipe.id))
        began = time.monotonic()
        print(f"publish: [{n}/{len(queue)}] {recipe.id}, about {left / 60:.0f} min left in the "
              f"queue", flush=True)
        ok = _execute(notebook, state.get("placement"))
        new = sorted(set(store.list_results(results_dir, recipe.id)) - before)
        minutes = (time.monotonic() - began) / 60
        if ok and new:
            commit = _commit(root, recipe, notebook, new, minutes)
            state["done"].append([recipe_id, commit])
            print(f"publish: {recipe.id} committed as {commit} after {minutes:.0f} min",
                  flush=True)
        else:
            state["failed"].append(recipe_id)
            state["done"].append([recipe_id, None])  # not retried by --resume: read its output
            subprocess.run(["git", "checkout", "--", str(notebook)], cwd=root, check=False)
            print(f"publish: {recipe.id} FAILED after {minutes:.0f} min (its notebook is left as "
                  f"it was{'; its result is stored but not committed' if new else ''})",
                  file=sys.stderr, flush=True)
        left = sum(estimates[i] for i in queue[n:])
        state_path.write_text(json.dumps(state, indent=2), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
