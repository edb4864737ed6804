"""The site builds with --strict, and what the hook generates reaches the pages and the search index.

The second half builds a throw-away copy of the site with a fixture result and a fixture
notebook added (never in the repository's results/ or notebooks/), to check the measured path
and the notebook path before real results and notebooks exist.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sitekit import DATA, REPO, mkdocs_build
from tuninglab.site import Site


def test_strict_build_succeeds(build):
    assert build.returncode == 0, build.output
    assert (build.site_dir / "index.html").is_file()


def test_no_marker_survives(site_dir):
    for page in site_dir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        for marker in ("<!-- result:", "<!-- results-table", "<!-- recipe-schema"):
            assert marker not in text, f"{page}: unexpanded {marker}"


def _search_docs(site: Path) -> list[dict]:
    return json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]


def test_result_blocks_are_searchable(site_dir):
    """Every recipe page shows its result block (measured or not) and search indexes it."""
    docs = _search_docs(site_dir)
    site = Site(REPO)
    assert site.pages, "no page carries a result marker"
    for recipe_id, page_files in site.pages.items():
        page = page_files[0].removesuffix(".md")
        text = " ".join(d["text"] for d in docs if d["location"].startswith(page + "/"))
        if site.newest(recipe_id) is None:
            assert f"tuninglab run {recipe_id} --profile full" in text, page
        else:
            assert "Raw result (JSON)" in text, page


def test_every_marker_names_a_recipe():
    """A page that shows the block of a recipe that does not exist is a broken page."""
    site = Site(REPO)
    known = {entry.id for entry in site.entries}
    unknown = {rid: pages for rid, pages in site.pages.items() if rid not in known}
    assert not unknown, unknown


def test_figures_are_drawn_for_published_results(site_dir):
    site = Site(REPO)
    assert (site_dir / site.FOREST).is_file()
    for entry in site.entries:
        if site.newest(entry.id) is not None:
            png = site_dir / site.figure_path(entry.id)
            assert png.is_file() and png.read_bytes()[:4] == b"\x89PNG", png


def test_results_table_lists_every_recipe(site_dir):
    html = (site_dir / "results" / "index.html").read_text(encoding="utf-8")
    for toml in sorted(REPO.glob("recipes/*/*/recipe.toml")):
        assert f"<code>{toml.parent.name}</code>" in html, toml


def test_schema_reference_rendered(site_dir):
    html = (site_dir / "reference" / "recipe-format" / "index.html").read_text(encoding="utf-8")
    if (REPO / "tuninglab" / "recipe.schema.json").is_file():
        assert "Schema not available" not in html
        assert "<code>workload</code>" in html
    else:
        assert "Schema not available" in html


@pytest.fixture(scope="module")
def fixture_site(tmp_path_factory):
    """A copy of the site with one fixture result and one fixture notebook, built strictly."""
    project = tmp_path_factory.mktemp("fixture-project")
    # results/ too: pages link to the stored results their readings cite; server-modules/
    # and apps/ for the code a page includes (the build outputs left out).
    for name in ("docs", "recipes", "snippets", "results", "server-modules", "apps"):
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, project / name,
                            ignore=shutil.ignore_patterns("target"))
    # but the archives set-up built: a recipe is read with its app, and a Maven app's archive
    # is what its webapp names (order-entry's too, since no image carries it)
    for archive in (REPO / "apps").glob("*/target/*.[we]ar"):
        copy = project / archive.relative_to(REPO)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(archive, copy)
    shutil.copy2(REPO / "mkdocs.yml", project / "mkdocs.yml")
    # The hook imports the library (tuninglab.site); the copy is the one MkDocs imports,
    # because `python -m mkdocs` runs from the project folder.
    shutil.copytree(REPO / "tuninglab", project / "tuninglab",
                    ignore=shutil.ignore_patterns("__pycache__"))

    result = json.loads((DATA / "fixture-result-full.json").read_text(encoding="utf-8"))
    result["recipe"] = "datasource-max-pool-size"
    out = project / "results" / "datasource-max-pool-size" / "20300101T000000Z-fixture-host.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result), encoding="utf-8")

    notebook = project / "notebooks" / "guide" / "datasource-max-pool-size.ipynb"
    notebook.parent.mkdir(parents=True)
    # Stored as .json so that nbval never collects it as a notebook of its own.
    cells = json.loads((DATA / "fixture-notebook.json").read_text(encoding="utf-8"))
    # the line a run cell prints once its result is stored: the notebook page's box names it
    cells["cells"][1]["outputs"].append({"output_type": "stream", "name": "stdout",
                                         "text": f"[09:00] stored {out.relative_to(project)}\n"})
    notebook.write_text(json.dumps(cells), encoding="utf-8")

    build = mkdocs_build(project, project / "site")
    assert build.returncode == 0, build.output
    return build.site_dir


def test_fixture_result_is_rendered(fixture_site):
    html = (fixture_site / "guide" / "05-jca" / "index.html").read_text(encoding="utf-8")
    assert "Verdict: better" in html
    assert "+51.6\u00a0%\u00a0[+50.9,\u00a0+52.2]" in html  # kept on one line in the table
    # the fixture's recipe is measured (another recipe on the page may not be yet)
    assert "No full-profile result of <code>datasource-max-pool-size</code>" not in html
    assert 'href="../../results/datasource-max-pool-size/20300101T000000Z-fixture-host.json"' in html
    assert (fixture_site / "results" / "datasource-max-pool-size" / "20300101T000000Z-fixture-host.json").is_file()


def test_fixture_result_is_searchable(fixture_site):
    text = " ".join(d["text"] for d in _search_docs(fixture_site) if d["location"].startswith("guide/05-jca/"))
    assert "Verdict: better" in text
    assert "+51.6 % [+50.9, +52.2]" in text.replace("\u00a0", " ")


def test_fixture_notebook_is_rendered_and_listed(fixture_site):
    page = fixture_site / "notebooks" / "guide" / "datasource-max-pool-size" / "index.html"
    html = page.read_text(encoding="utf-8")
    assert "data:image/png;base64," in html
    figure = fixture_site / "figures" / "datasource-max-pool-size.png"
    assert figure.is_file(), "the chapter's figure is drawn from the fixture result at build"
    chapter = (fixture_site / "guide" / "05-jca" / "index.html").read_text(encoding="utf-8")
    assert "Notebook: datasource-max-pool-size" in chapter  # the nav entry and the result block link
    # above the outputs, which run they are (site/notebook_note.py), linked from the page
    assert "Which run this is" in html
    assert 'href="../../../results/datasource-max-pool-size/20300101T000000Z-fixture-host.json"' in html
    assert 'href="../../../guide/05-jca/"' in html
