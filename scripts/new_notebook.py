"""Write notebooks/<area>/<id>.ipynb for a recipe from the one notebook skeleton.

    .venv/bin/python scripts/new_notebook.py <recipe-id> [--force]

The narrative cells come from the recipe's own title, summary and source claim (our words);
the code cells run the recipe through the library, check what must hold in any run, and plot
the stored result. `TUNINGLAB_PROFILE` picks the profile: quick in CI, full when publishing
(scripts/publish.sh executes the notebook in place, so its outputs are those of a full run).
"""
import argparse
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tuninglab.recipe import find_recipe  # noqa: E402

SOURCE_NAMES = {"guide": "JBoss EAP 5 Performance Tuning Guide", "thesis": "the thesis",
                "blog": "the blog post", "ecperf-slides": "the ECperf slides",
                "client-threads": "the client-threads note", "none": "no source"}


def cells(recipe):
    src = recipe.source
    where = ", ".join(x for x in (src.section and f"section {src.section}", src.table) if x)
    yield new_markdown_cell(
        f"# {recipe.title}\n\n{recipe.summary}\n\n"
        f"**Source** ({SOURCE_NAMES[src.document]}{', ' + where if where else ''}): {src.claim}\n\n"
        f"This notebook runs the recipe `{recipe.id}` against the real stack, checks that the "
        f"change took effect and that every trial was valid, then shows the stored result.")
    yield new_code_cell('import os\n\n# Parameters: "quick" in CI, "full" for the published run.\n'
                        'profile = os.environ.get("TUNINGLAB_PROFILE", "full")',
                        metadata={"tags": ["parameters"]})
    yield new_markdown_cell("## The change\n\nThe recipe and the file it applies, as stored in "
                            "the repository (this output is compared in CI).")
    yield new_code_cell(
        "# NBVAL_CHECK_OUTPUT\nimport tuninglab as tl\n\n"
        f'recipe = tl.get_recipe("{recipe.id}")\n'
        'print(f"change kind: {recipe.change.kind}")\n'
        "if recipe.change.file:\n    print(recipe.change.file.read_text())\n"
        "if recipe.change.jvm_options:\n"
        '    print(f"baseline JVM options: {recipe.stack.jvm_options}")\n'
        '    print(f"variant JVM options:  {recipe.change.jvm_options}")')
    yield new_markdown_cell("## Run it\n\nStart the stack, verify, run the interleaved trials "
                            "and store the result (progress is printed as it goes).")
    yield new_code_cell(f'result = tl.run("{recipe.id}", profile=profile)')
    yield new_markdown_cell("## What must hold in any run\n\nThe change was read back from the "
                            "running system before every trial, every trial is valid (no failed "
                            "requests, no saturated load generator) and all trials ran.")
    yield new_code_cell(
        'assert all(c["ok"] for c in result["change"]["verified"])\n'
        'assert all(c["ok"] for t in result["trials"] for c in t["checks"])\n'
        'assert result["validity"]["valid"], result["validity"]["problems"]\n'
        'assert len(result["trials"]) == 2 * recipe.profile(profile).pairs\n'
        'print("verified, valid, complete")')
    yield new_markdown_cell("## The result\n\nErrors come first, then the verdict for the "
                            "primary metric and every metric's delta with its 95 % interval.")
    yield new_code_cell("print(tl.summary(result))")
    yield new_code_cell("import matplotlib.pyplot as plt\n\ntl.plot_trials(result)\nplt.show()")
    yield new_code_cell("tl.plot_deltas(result)\nplt.show()")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("id")
    parser.add_argument("--force", action="store_true")
    args = parser.parse_args()
    recipe = find_recipe(ROOT / "recipes", args.id)
    path = ROOT / "notebooks" / recipe.area / f"{recipe.id}.ipynb"
    if path.exists() and not args.force:
        sys.exit(f"{path.relative_to(ROOT)} exists; --force to overwrite")
    nb = new_notebook(cells=list(cells(recipe)), metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
