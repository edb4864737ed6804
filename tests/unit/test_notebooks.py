"""The notebooks in the repository: one per recipe, from the one skeleton, and every cell whose
output CI compares has an output to compare with (a checked cell stored empty would pass
whatever it printed)."""
from __future__ import annotations

import json

from tuninglab import layout
from tuninglab.recipe import discover_recipes

CHECKED = "# NBVAL_CHECK_OUTPUT"


def _notebooks():
    return sorted((layout.REPO_ROOT / "notebooks").glob("*/*.ipynb"))


def test_every_recipe_has_its_notebook_and_every_notebook_its_recipe():
    recipes = {(r.area, r.id) for r in discover_recipes(layout.recipes_dir())}
    notebooks = {(p.parent.name, p.stem) for p in _notebooks()}
    assert recipes == notebooks


def test_every_checked_cell_has_a_stored_output():
    empty = []
    for path in _notebooks():
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        checked = [c for c in cells if c["cell_type"] == "code"
                   and "".join(c["source"]).startswith(CHECKED)]
        assert checked, f"{path.name}: no checked cell"
        empty += [path.name for c in checked if not c.get("outputs")]
        # nbval fails a reference cell that has outputs and no execution count ("unrun")
        empty += [f"{path.name} (no execution count)" for c in checked
                  if c.get("outputs") and c.get("execution_count") is None]
    assert not empty, ("checked cells stored without output (CI would compare with nothing); "
                       f"run scripts/new_notebook.py --all --check-outputs: {', '.join(empty)}")
