"""Write notebooks/<area>/<id>.ipynb for a recipe from the one notebook skeleton.

    .venv/bin/python scripts/new_notebook.py <recipe-id> [--force]
    .venv/bin/python scripts/new_notebook.py --all --force      (every recipe)
    .venv/bin/python scripts/new_notebook.py --all --check-outputs

CI compares the output of each "# NBVAL_CHECK_OUTPUT" cell (the change as the recipe states
it) with the output stored in the notebook; a cell stored without output would compare with
nothing. So a new notebook gets those outputs at once, and --check-outputs stores them again
in existing notebooks (after a recipe's change changed) without running the recipe: only the
cells up to the last checked one run, and no other cell's stored output is touched.

The notebook holds no prose of its own about the recipe: its first cell renders the recipe's
title, summary, source claim, arms and profile from recipe.toml when it runs (so the text
cannot drift from what the recipe applies), and its other cells run the recipe through the
library, check what must hold in any run, and draw the stored result. `TUNINGLAB_PROFILE`
picks the profile: quick in CI, full when publishing (scripts/publish.sh).
"""
import argparse
import copy
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tuninglab.recipe import MEASURES_ERRORS, discover_recipes, find_recipe  # noqa: E402


def cells(recipe):
    recipe_id = recipe.id
    yield new_code_cell('import os\n\n# Parameters: "quick" in CI, "full" for the published run.\n'
                        'profile = os.environ.get("TUNINGLAB_PROFILE", "full")',
                        metadata={"tags": ["parameters"]})
    yield new_code_cell(f'import tuninglab as tl\n\ntl.recipe_markdown("{recipe_id}", profile)')
    yield new_markdown_cell("## The change\n\nThe files the recipe applies, as stored in the "
                            "repository (this output is compared in CI).")
    yield new_code_cell(
        "# NBVAL_CHECK_OUTPUT\n"
        f'recipe = tl.get_recipe("{recipe_id}")\n'
        'print(f"change kind: {recipe.change.kind}")\n'
        "if recipe.change.file:\n    print(recipe.change.file.read_text())\n"
        "if recipe.change.jvm_options:\n"
        '    print(f"baseline JVM options: {recipe.stack.jvm_options}")\n'
        '    print(f"variant JVM options:  {recipe.change.jvm_options}")\n'
        "if recipe.change.workload:\n"
        '    print(f"variant workload (the load generator): {recipe.change.workload}")\n'
        "if recipe.cluster:\n"
        '    print(f"cluster: {recipe.cluster.nodes} nodes, CPUs {recipe.cluster.cpus}, behind "\n'
        '          f"a balancer with policy {recipe.cluster.policy}")\n'
        "for name, value in recipe.change.properties.items():\n"
        '    print(f"variant system property: {name} = {value}")\n'
        "if recipe.change.policy:\n"
        '    print(f"variant balancer policy: {recipe.change.policy}")\n'
        "for rung in recipe.change.rungs:\n"
        '    print(f"rung {rung.name!r}: JVM options \'{rung.jvm_options}\', adopts "\n'
        '          f"{\', \'.join(rung.adopts) or \'nothing\'}")\n'
        "if recipe.sweep:\n"
        '    print(f"swept: {recipe.sweep.name} = {list(recipe.sweep.values)} {recipe.sweep.unit}")')
    yield new_markdown_cell("## Run it\n\nStart the stack, configure and verify every node, warm "
                            "each one up, run the blocks of trials and store the result (progress "
                            "is printed as it goes).")
    yield new_code_cell(f'result = tl.run("{recipe_id}", profile=profile)')
    yield new_markdown_cell(_must_hold(recipe))
    yield new_code_cell("print(tl.assert_sound(result))")
    yield new_markdown_cell("## The result\n\nErrors come first, then the verdict with the "
                            "smallest effect this run could have detected, then each metric (or "
                            "each point of the curve) with its 95 % interval.")
    yield new_code_cell("print(tl.summary(result))")
    yield new_code_cell("import matplotlib.pyplot as plt\n\ntl.plot_result(result)\nplt.show()")
    yield new_code_cell("tl.plot_warmup(result)\nplt.show()")
    for source in recipe.metrics.courses:  # what a figure did inside the windows
        yield new_code_cell(f'fig = tl.plot_courses(result, "{source}")\nplt.show()')


def _must_hold(recipe) -> str:
    errors = ("no trial had errors of the system under test" if
              recipe.metrics.primary != MEASURES_ERRORS else
              "the requests that failed are this recipe's measurement, not a reason to discard "
              "a trial")
    if recipe.sweep and recipe.metrics.primary != MEASURES_ERRORS:
        errors = ("every value was measured, or every trial of a value failed requests: that "
                  "value is reported with its errors first and left out of the curve")
    return ("## What must hold in any run\n\nEvery check read back from the running system "
            f"passed, before the trials and before each trial; every arm ran; {errors}.")


def write(recipe, force: bool) -> None:
    path = ROOT / "notebooks" / recipe.area / f"{recipe.id}.ipynb"
    if path.exists() and not force:
        sys.exit(f"{path.relative_to(ROOT)} exists; --force to overwrite")
    nb = new_notebook(cells=list(cells(recipe)), metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    store_check_outputs(path)
    print(f"wrote {path.relative_to(ROOT)}")


CHECKED = "# NBVAL_CHECK_OUTPUT"


def store_check_outputs(path: Path) -> None:
    """Run the notebook's cells up to its last checked cell and store the outputs of the
    checked cells and of the introduction (both rendered from recipe.toml alone, so a
    corrected summary or claim reaches a published notebook without a new run; the run's own
    outputs are not touched). Run it with TUNINGLAB_PROFILE unset: the introduction names
    the full profile, as a published notebook does."""
    nb = nbformat.read(path, as_version=4)
    checked = [i for i, c in enumerate(nb.cells)
               if c.cell_type == "code" and (c.source.startswith(CHECKED)
                                             or "tl.recipe_markdown(" in c.source)]
    if not checked:
        return
    head = copy.deepcopy(nb)
    head.cells = head.cells[:checked[-1] + 1]
    NotebookClient(head, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    for i in checked:
        nb.cells[i].outputs = head.cells[i].outputs
        # nbval refuses a reference cell with outputs and no execution count ("unrun")
        nb.cells[i].execution_count = head.cells[i].execution_count
    nbformat.write(nb, path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("id", nargs="?")
    parser.add_argument("--all", action="store_true")
    parser.add_argument("--force", action="store_true")
    parser.add_argument("--check-outputs", action="store_true",
                        help="store the checked cells' outputs of existing notebooks")
    args = parser.parse_args()
    if args.all == bool(args.id):
        parser.error("name one recipe id, or --all")
    recipes = discover_recipes(ROOT / "recipes") if args.all else [find_recipe(ROOT / "recipes", args.id)]
    for recipe in recipes:
        if args.check_outputs:
            path = ROOT / "notebooks" / recipe.area / f"{recipe.id}.ipynb"
            store_check_outputs(path)
            print(f"stored the checked outputs of {path.relative_to(ROOT)}")
        else:
            write(recipe, args.force)


if __name__ == "__main__":
    main()
