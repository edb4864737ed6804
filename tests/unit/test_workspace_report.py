"""`tuninglab report` (site/workspace_report.py): a workspace's own results as one page, with
the site's result blocks and forest plot, from the results it stored; a run from a tree with
changes, a quick run and a recipe never measured in full are not shown as measurements."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from tuninglab import cli, layout
from tuninglab.recipe import find_recipe
from tuninglab.store import list_results

REPO = Path(__file__).resolve().parents[2]


def _workspace(tmp_path: Path) -> Path:
    """Two recipes of the catalogue copied into a workspace that is not a git repository:
    ccm-debug with its newest published result stored as a user's run would store it (no
    commit), and aa-noise with a quick run only."""
    root = tmp_path / "mine"
    for recipe_id in ("ccm-debug", "aa-noise"):
        recipe = find_recipe(layout.recipes_dir(), recipe_id)
        shutil.copytree(recipe.folder, root / "recipes" / "own" / recipe_id)
    (root / "apps").mkdir()
    published = json.loads(list_results(REPO / "results", "ccm-debug")[-1].read_text())
    published["provenance"].update(git_commit=None, git_dirty=None)
    _store(root, "ccm-debug", "20301201T000000Z-vm.json", published)
    dirty = json.loads(json.dumps(published))
    dirty["provenance"]["git_dirty"] = True  # newer, but measured from a tree with changes
    _store(root, "ccm-debug", "20301202T000000Z-vm.json", dirty)
    quick = json.loads(list_results(REPO / "results", "aa-noise")[-1].read_text())
    quick["profile"] = "quick"
    _store(root, "aa-noise", "20301201T000000Z-vm.json", quick)
    return root


def _store(root: Path, recipe_id: str, name: str, data: dict) -> None:
    folder = root / "results" / recipe_id
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps(data))


def test_the_report_shows_each_recipe_s_newest_full_result_as_the_site_does(tmp_path,
                                                                           monkeypatch, capsys):
    root = _workspace(tmp_path)
    monkeypatch.chdir(root)
    monkeypatch.delenv(layout.WORKSPACE_ENV, raising=False)
    assert cli.main(["report"]) == 0
    assert f"report: {root.resolve()}/report/index.html" in capsys.readouterr().out
    page = (root / "report" / "index.md").read_text()
    sections = {part.split("\n", 1)[0]: part for part in page.split("\n## ")[1:]}
    ccm, noise = (sections[find_recipe(layout.recipes_dir(), recipe_id).title]
                  for recipe_id in ("ccm-debug", "aa-noise"))
    # the clean run without a commit, not the newer one from a tree with changes
    assert "results/ccm-debug/20301201T000000Z-vm.json" in ccm
    assert "20301202T000000Z" not in page
    assert "| **throughput**" in ccm and "worse" in ccm  # the site's comparison table
    assert "No full-profile result yet: `tuninglab run aa-noise --profile full`" in noise
    assert "(2 recipe(s), 1 measured)" in page
    for figure in ("figures/ccm-debug.png", "figures/forest.png"):
        assert (root / "report" / figure).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"({figure})" in page
    html = (root / "report" / "index.html").read_text()
    assert "<table>" in html and "figures/forest.png" in html
    # made anew on the next call, nothing left of the staging folder
    assert cli.main(["report"]) == 0
    assert sorted(p.name for p in root.iterdir()) == ["apps", "recipes", "report", "results"]
