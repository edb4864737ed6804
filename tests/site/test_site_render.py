"""The site package (tuninglab/site): markers, the "What we measured" block of an A/B result
(format 1, upgraded) and of a sweep (format 2), the Results page and the schema reference.

The fixture results are invented numbers (tests/site/data, and the sweep built below); they are
never copied into results/.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest

from sitekit import DATA, REPO
from tuninglab.analysis import read_stored
from tuninglab.numbers import MINUS
from tuninglab.site import Site, find_markers
from tuninglab.site import notebook_note, result_block, results_table, schema_doc
from tuninglab.site.repository import publishable
from tuninglab.site.text import cite

NBSP = "\u00a0"


def plain(text: str) -> str:
    return text.replace(NBSP, " ")


@pytest.fixture()
def result():
    return json.loads((DATA / "fixture-result-full.json").read_text(encoding="utf-8"))


def sweep_result() -> dict:
    """A format-2 sweep of three heap sizes, in the shape the engine stores."""
    points = [
        {"arm": "p96", "value": 96, "label": "96 MB", "mean": 180.0, "ci_low": 170.0,
         "ci_high": 190.0, "telemetry": {"gc_time": 0.21, "pool_wait_ms": 0.1}},
        {"arm": "p256", "value": 256, "label": "256 MB", "mean": 251.0, "ci_low": 246.0,
         "ci_high": 256.0, "telemetry": {"gc_time": 0.03, "pool_wait_ms": 0.1}},
        {"arm": "p1024", "value": 1024, "label": "1024 MB", "mean": 253.0, "ci_low": 248.0,
         "ci_high": 258.0, "telemetry": {"gc_time": 0.01, "pool_wait_ms": 0.1}},
    ]
    curve = {
        "metric": "throughput", "points": points, "best": "p1024", "knee": "p256",
        "reference": "p1024",
        "against_best": {
            "p96": {"delta": -0.288, "ci_low": -0.31, "ci_high": -0.26},
            "p256": {"delta": -0.008, "ci_low": -0.02, "ci_high": 0.004},
            "p1024": {"is_best": True}},
        "headline": {"delta": 0.0, "ci_low": -0.01, "ci_high": 0.01, "verdict": "no-change",
                     "detectable": 0.014},
        "rule": "knee: the cheapest value whose paired 95 % interval against the best contains zero",
        "recommendation": "Set 256 MB: the cheapest heap within noise of the best (FIXTURE).",
    }
    return {
        "format": 2, "recipe": "fixture-heap", "title": "Fixture heap sweep", "profile": "full",
        "kind": "sweep", "verdict": "no-change", "primary_metric": "throughput",
        "expected": "better", "agrees_with_source": None,
        "source": {"document": "thesis", "section": "6.2", "table": "Table 6.2",
                   "claim": "FIXTURE: throughput rises with the heap up to a knee.", "effect": None},
        "change": {"kind": "jvm-options", "sweep": {"name": "heap size", "unit": "MB",
                                                     "values": [96, 256, 1024], "reference": 1024}},
        "plan": {"kind": "sweep", "arms": [{"id": p["arm"]} for p in points]},
        "design": {"profile": {"blocks": 4, "window_s": 20, "settle_s": 5}},
        "warmup": {"p96": {"steady": True, "windows": [{"seconds": 10}] * 4}},
        "validity": {"valid": True, "problems": []},
        "analysis": {"kind": "sweep", "curves": [curve], "verdict": "no-change"},
        "provenance": {"started": "2030-01-02T00:00:00+00:00", "git_dirty": False,
                       "git_commit": "5weep0000000", "wall_s": 1500},
    }


# --------------------------------------------------------------------------- markers and text


def test_markers_outside_code_only():
    text = "\n".join([
        "# Page",
        "<!-- result: aa-noise -->",
        "```markdown",
        "<!-- result: not-me -->",
        "```",
        "  <!-- results-table -->  ",
        "text <!-- result: inline-is-not-a-marker -->",
        "<!-- recipe-schema -->",
    ])
    assert find_markers(text) == [(1, "result", "aa-noise"), (5, "results-table", None),
                                  (7, "recipe-schema", None)]


def test_citation():
    assert cite({"document": "guide", "section": "4.5.3.1", "table": "Table 4.1"}) == (
        "guide 4.5.3.1, Table 4.1")
    assert cite({"document": "thesis", "section": "6.2 and 7.2"}) == "thesis 6.2 and 7.2"
    assert cite({"document": "none"}) == "our own claim (no source)"
    assert cite(None) == "no source claim"


def test_only_clean_full_runs_are_published(result):
    assert publishable(result)
    for key, value in (("profile", "quick"),):
        other = copy.deepcopy(result)
        other[key] = value
        assert not publishable(other)
    dirty = copy.deepcopy(result)
    dirty["provenance"]["git_dirty"] = True
    assert not publishable(dirty)
    unknown = copy.deepcopy(result)
    unknown["provenance"]["git_dirty"] = None  # no git: not known to be clean
    assert not publishable(unknown)


# --------------------------------------------------------------------------- A/B block (format 1)


def test_ab_block_of_a_format_1_result(result):
    md = result_block.render(result, page="guide/05-jca.md",
                             json_path="results/fixture-pool/20300101T000000Z-fixture-host.json",
                             figure_path="figures/fixture-pool.png",
                             notebook_path="notebooks/guide/fixture-pool.ipynb")
    text = plain(md)
    assert md.startswith("![")
    assert "(../figures/fixture-pool.png)" in md
    assert "**Verdict: better**, throughput +51.6 % [+50.9, +52.2] (95 % interval)" in text
    assert "; against the source: agrees." in text
    assert "- **Run:** 2030-01-01 00:00 UTC, profile full, 2 arms, 5 blocks of 15 s settling + 30 s measured" in text
    assert "- **Host:** Fixture CPU @ 2.00GHz, 2 CPUs" in text
    assert "- **Commit:** `f1x7ure00000`" in text
    assert "WildFly 39.0.1.Final" in text and "WildFly WildFly" not in text
    rows = [plain(line) for line in md.splitlines() if line.startswith("| ")]
    header = next(r for r in rows if r.startswith("| Metric |"))
    assert header.startswith("| Metric | Unit | Baseline | Variant | Delta [95 % interval] | Detectable | Verdict |")
    body = rows[rows.index(header) + 1:]  # the |---| line does not start with "| "
    assert body[0].startswith("| **throughput** ↑ | tx/s | 402.8 | 610.5 | +51.6 % [+50.9, +52.2] |"), body[0]
    assert any(r.startswith("| error_rate ↓ | % of requests | 0.00 | 0.00 | +0.00 pp") for r in body)
    assert "FIXTURE claim" in md and "guide 5.4-5.5" in md
    assert "[Raw result (JSON)](../results/fixture-pool/20300101T000000Z-fixture-host.json)" in md
    assert "[Notebook: fixture-pool](../notebooks/guide/fixture-pool.ipynb)" in md
    assert "danger" not in md and "warning" not in md


def test_a_block_shows_each_course_figure_of_a_valid_run_and_none_of_an_invalid_one(result):
    paths = {"mdb-pool": "figures/fixture-pool-mdb-pool.png"}
    md = result_block.render(result, page="guide/05-jca.md", json_path="results/x/y.json",
                             course_paths=paths)
    assert "mdb-pool through every valid window](../figures/fixture-pool-mdb-pool.png)" in md
    bad = copy.deepcopy(result)
    bad["validity"] = {"valid": False, "problems": ["trial 1 (variant): 3 failed requests"]}
    md = result_block.render(bad, page="guide/05-jca.md", json_path="results/x/y.json",
                             course_paths=paths)
    assert "mdb-pool-mdb-pool.png" not in md and "fixture-pool-mdb-pool.png" not in md


def test_detectable_effect_is_stated(result):
    with_power = copy.deepcopy(result)
    with_power["metrics"]["throughput"]["detectable"] = 0.024
    md = plain(result_block.render(with_power, page="index.md", json_path="results/x/y.json"))
    assert "the smallest effect this run could detect (80 % power) was 2.4 %" in md
    row = next(line for line in md.splitlines() if line.startswith("| **throughput**"))
    assert "| 2.4 % |" in row


def test_invalid_run_lists_problems_first_and_no_delta(result):
    bad = copy.deepcopy(result)
    bad["verdict"] = "invalid"
    bad["agrees_with_source"] = None
    bad["metrics"] = {}
    bad["validity"] = {"valid": False, "problems": [
        "trial 3 (variant): 12 failed requests of 4,210 (0.29 %) > tolerance 0.00 %"]}
    md = result_block.render(bad, page="guide/05-jca.md", json_path="results/x/y.json",
                             figure_path="figures/x.png")
    assert md.startswith('!!! danger "Not a valid measurement"')
    assert md.index("12 failed requests") < md.index("Verdict: invalid")
    assert "| Metric |" not in md and "figures/x.png" not in md
    assert "+51.6" not in md
    assert "server's log" not in md  # none stored: nothing said
    bad["trials"] = [*bad.get("trials", []), {"server_errors": [
        "10:00:00,001 ERROR [org.jboss.jca] IJ000453: Unable to get managed connection"]}]
    md = result_block.render(bad, page="guide/05-jca.md", json_path="results/x/y.json",
                             figure_path="figures/x.png")
    assert md.index("IJ000453") < md.index("Verdict: invalid")


def test_not_measured_invents_no_number():
    md = result_block.render_not_measured("aa-noise", page="method.md",
                                          notebook_path="notebooks/method/aa-noise.ipynb", stored=2)
    assert md.startswith('!!! info "Not measured yet"')
    assert "`tuninglab run aa-noise --profile full`" in md
    assert "2 stored result(s)" in md
    assert "%" not in md


@pytest.mark.parametrize("agrees, expected, word", [
    (True, "better", "agrees"), (False, "better", "disagrees"),
    (None, "none", "no direction claimed"), (None, "better", "not comparable")])
def test_agreement_words(agrees, expected, word):
    assert result_block.agreement({"agrees_with_source": agrees, "expected": expected}) == word


# --------------------------------------------------------------------------- sweep block (format 2)


def test_sweep_block_shows_the_recommendation_and_every_point():
    """The site reads a stored sweep by today's rule (read_stored), whatever the run wrote."""
    md = plain(result_block.render(read_stored(sweep_result()), page="thesis/06.md",
                                   json_path="results/fixture-heap/x.json",
                                   figure_path="figures/fixture-heap.png"))
    assert ("**Set heap size to 256 MB: the cheapest value shown within 5 % of the best "
            "(1024 MB): −0.8 % [−2.0, +0.4]").replace("−", MINUS) in md
    assert "FIXTURE" not in md.split("**Set")[1].split("**")[0]  # the stored sentence is not used
    assert "The best value against the reference: +0.0 % [−1.0, +1.0]".replace("−", MINUS) in md
    rows = [line for line in md.splitlines() if line.startswith("| ") and line[2:3].isdigit()]
    assert [r.split("|")[1].strip() for r in rows] == ["96", "256", "1024"]
    knee = next(r for r in rows if r.startswith("| 256 "))
    assert "recommended" in knee and "within 5.0 % of the best" in knee and f"{MINUS}0.8 %" in knee
    best = next(r for r in rows if r.startswith("| 1024 "))
    assert "best" in best
    assert "| heap size (MB) |" in md
    assert "Rule: a value is as good as the best only when its whole paired 95 % interval" in md
    assert "- **Warm-up:** p96 steady after 40 s" in md


# --------------------------------------------------------------------------- site and results page


def _project(tmp_path: Path, result: dict) -> Path:
    """A miniature repository: three recipes, two pages, results of several profiles."""
    for area, rid, document, expected in (
            ("guide", "fixture-pool", "guide", "better"),
            ("method", "fixture-aa", "guide", "no-change"),
            ("method", "fixture-free", "none", "none")):
        folder = tmp_path / "recipes" / area / rid
        folder.mkdir(parents=True)
        (folder / "recipe.toml").write_text(
            f'id = "{rid}"\ntitle = "Fixture {rid}"\nsummary = "x"\n\n[source]\n'
            f'document = "{document}"\nsection = "5.5"\nclaim = "FIXTURE claim of {rid}."\n'
            f'expected = "{expected}"\n\n[change]\n'
            + ('kind = "none"\n\n' if expected == "no-change"
               else 'kind = "jvm-options"\njvm_options = "-Xms512m -Xmx512m"\n\n')
            + '[workload]\nmix = "default"\nmodel = "closed"\nusers = 8\n\n'
            '[metrics]\nprimary = "throughput"\n',
            encoding="utf-8")
    (tmp_path / "workloads").mkdir()
    shutil.copy2(REPO / "tests" / "unit" / "data" / "workloads" / "mixes.json",
                 tmp_path / "workloads" / "mixes.json")
    docs = tmp_path / "docs"
    (docs / "guide").mkdir(parents=True)
    (docs / "guide" / "05-jca.md").write_text("# 5 Pools\n\n<!-- result: fixture-pool -->\n", encoding="utf-8")
    (docs / "results.md").write_text("# Results\n\n<!-- results-table -->\n", encoding="utf-8")
    out = tmp_path / "results" / "fixture-pool"
    out.mkdir(parents=True)
    older = copy.deepcopy(result)
    older["verdict"] = "worse"
    quick = copy.deepcopy(result)
    quick["profile"] = "quick"
    dirty = copy.deepcopy(result)
    dirty["provenance"]["git_dirty"] = True
    (out / "20290601T000000Z-fixture-host.json").write_text(json.dumps(older), encoding="utf-8")
    (out / "20300101T000000Z-fixture-host.json").write_text(json.dumps(result), encoding="utf-8")
    (out / "20310101T000000Z-fixture-host.json").write_text(json.dumps(quick), encoding="utf-8")
    (out / "20320101T000000Z-fixture-host.json").write_text(json.dumps(dirty), encoding="utf-8")
    (out / ".20330101T000000Z-fixture-host.json.tmp").write_text("{", encoding="utf-8")
    free = tmp_path / "results" / "fixture-free"
    free.mkdir(parents=True)
    mine = copy.deepcopy(result)
    mine.update(recipe="fixture-free", expected="none", agrees_with_source=None, verdict="better")
    (free / "20300101T000000Z-fixture-host.json").write_text(json.dumps(mine), encoding="utf-8")
    return tmp_path


def test_newest_publishable_result(result, tmp_path):
    site = Site(_project(tmp_path, result))
    path, data = site.newest("fixture-pool")
    assert path.name == "20300101T000000Z-fixture-host.json"
    assert data["verdict"] == "better" and data["format"] == 1
    assert "analysis" in data  # upgraded to the current shape
    assert site.newest("fixture-aa") is None
    assert site.unpublishable_count("fixture-pool") == 3


def test_broken_recipe_is_listed_not_hidden(result, tmp_path):
    root = _project(tmp_path, result)
    (root / "recipes" / "guide" / "fixture-pool" / "recipe.toml").write_text("id = [", encoding="utf-8")
    entries = {e.id: e for e in Site(root).entries}
    assert set(entries) == {"fixture-pool", "fixture-aa", "fixture-free"}
    assert entries["fixture-pool"].error and entries["fixture-pool"].recipe is None


def test_expand_page_markers(result, tmp_path):
    root = _project(tmp_path, result)
    site = Site(root)
    out = site.expand((root / "docs" / "guide" / "05-jca.md").read_text(encoding="utf-8"), "guide/05-jca.md")
    assert "<!-- result:" not in out
    assert "**Verdict: better**" in out
    assert "(../results/fixture-pool/20300101T000000Z-fixture-host.json)" in out
    assert "(../figures/fixture-pool.png)" in out


def test_results_table(result, tmp_path):
    root = _project(tmp_path, result)
    site = Site(root)
    out = plain(site.expand((root / "docs" / "results.md").read_text(encoding="utf-8"), "results.md"))
    assert "(figures/results-forest.png)" in out
    rows = [line for line in out.splitlines() if line.startswith("| `")]
    assert len(rows) == 3
    pool = next(r for r in rows if "`fixture-pool`" in r)
    assert "[5 Pools](guide/05-jca.md)" in pool
    assert "FIXTURE claim of fixture-pool. (guide 5.5)" in pool
    assert "**better**: +51.6 % [+50.9, +52.2]" in pool
    assert "[2030-01-01](results/fixture-pool/20300101T000000Z-fixture-host.json)" in pool
    assert pool.rstrip().endswith("| agrees |")
    aa = next(r for r in rows if "`fixture-aa`" in r)
    assert "not measured yet" in aa
    free = next(r for r in rows if "`fixture-free`" in r)
    assert "disagrees" not in free and free.rstrip().endswith("| no direction claimed |")
    # the recipe on a page comes first
    assert rows.index(pool) < rows.index(aa)


def test_forest_rows(result, tmp_path):
    site = Site(_project(tmp_path, result))
    rows = {r["label"]: r for r in results_table.forest_rows(site)}
    assert rows["fixture-pool"]["delta"] == pytest.approx(0.5156, abs=1e-4)
    assert rows["fixture-aa"]["verdict"] == "not measured" and rows["fixture-aa"]["delta"] is None


# --------------------------------------------------------------------------- recipe schema


def test_schema_absent_gives_a_warning():
    assert schema_doc.render(None).startswith('!!! warning "Schema not available"')


def test_schema_tables():
    schema = {
        "description": "A recipe <area>/<id>.",
        "type": "object",
        "additionalProperties": False,
        "required": ["id", "profiles"],
        "properties": {
            "id": {"type": "string", "description": "The name.", "pattern": "^[a-z-]+$"},
            "mode": {"enum": ["a", "b"], "default": "a"},
            "profiles": {"type": "object", "properties": {
                "quick": {"$ref": "#/$defs/profile", "description": "CI"},
                "full": {"$ref": "#/$defs/profile"},
            }},
        },
        "$defs": {"profile": {"type": "object", "required": ["blocks"],
                              "properties": {"blocks": {"type": "integer", "minimum": 2}}}},
    }
    md = schema_doc.render(schema)
    assert "A recipe &lt;area&gt;/&lt;id&gt;." in md
    assert "| `id` | string | yes | The name. Pattern `^[a-z-]+$`. |" in md
    assert "| `mode` | string | no | One of `\"a\"`, `\"b\"`. Default `\"a\"`. |" in md
    assert md.count("| `blocks` |") == 1  # one table for the shared definition
    assert "Other keys are rejected." in md


def test_repository_schema_renders():
    md = schema_doc.render(Site(REPO).schema())
    for key in ("workload", "blocks", "window_s", "sweep"):
        assert f"| `{key}` |" in md, key


def test_the_profiles_table_shows_what_the_engine_reads():
    """The Method page's profile table is the engine's own defaults: every key of every
    profile, with the value profiles.toml gives it."""
    from tuninglab.recipe import profile_defaults
    md = schema_doc.render_profiles("method.md")
    defaults = profile_defaults()
    assert md.startswith("| key | quick | full |")
    for key in defaults["full"]:
        row = next(line for line in md.splitlines() if line.startswith(f"| `{key}` |"))
        assert row.count("|") == 4, row
    blocks = next(line for line in md.splitlines() if line.startswith("| `blocks` |"))
    assert blocks == f"| `blocks` | {defaults['quick']['blocks']} | {defaults['full']['blocks']} |"
    assert "](reference/recipe-format.md)" in md
    assert "](../reference/recipe-format.md)" in schema_doc.render_profiles("guide/x.md")
    assert find_markers("<!-- profiles -->") == [(0, "profiles", None)]


# -- the sources' experiments (recipes/catalogue.toml) ------------------------------------------

def _catalogue(root: Path, text: str) -> None:
    (root / "recipes" / "catalogue.toml").write_text(text, encoding="utf-8")


FIXTURE_CATALOGUE = '''
[[experiment]]
id = "G5.2"
document = "guide"
section = "5.4"
what = "The pool's maximum"
page = "guide/05-jca.md"
recipes = ["fixture-pool"]

[[experiment]]
id = "G5.1"
document = "guide"
section = "5.1"
what = "A pool filled at start"
page = "guide/05-jca.md"
planned = "a cold-start recipe"

[[experiment]]
id = "G6.3"
document = "guide"
section = "6.3"
what = "The journal on a slow disk"
not_measured = "no second disk here"

[[experiment]]
id = "G0"
document = "guide"
section = "1"
what = "An A/A run"
page = "guide/05-jca.md"
recipes = ["fixture-aa"]
'''


def test_a_page_shows_its_experiments_each_with_what_measures_it_or_why_not(result, tmp_path):
    from tuninglab.site import catalogue
    root = _project(tmp_path, result)
    _catalogue(root, FIXTURE_CATALOGUE)
    (root / "docs" / "guide" / "05-jca.md").write_text(
        "# 5 Pools\n\n<!-- catalogue -->\n\n<!-- result: fixture-pool -->\n", encoding="utf-8")
    site = Site(root)
    page = site.expand((root / "docs" / "guide" / "05-jca.md").read_text(), "guide/05-jca.md")
    rows = [line for line in page.splitlines() if line.startswith("| G")]
    assert [r.split(":")[0] for r in rows] == ["| G5.2", "| G5.1", "| G0"]  # its own, in order
    assert "[`fixture-pool`](05-jca.md): agrees" in rows[0]
    assert "no recipe yet: a cold-start recipe" in rows[1]
    assert "`fixture-aa`: not measured yet" in rows[2]  # a recipe without a published run
    # the whole source, with each experiment's page, or none yet
    whole = catalogue.render_document(site, "index.md", "guide")
    assert "no page yet | not measured here: no second disk here" in whole
    # the Results page counts them, one column per state
    summary = catalogue.render_summary(site, "results.md")
    assert "| guide | 4 | 1 | 1 | 1 | 1 |" in summary


@pytest.mark.parametrize("entry, message", [
    ('id = "X"\ndocument = "guide"\nsection = "1"\nwhat = "x"\n', "exactly one of recipes"),
    ('id = "X"\ndocument = "guide"\nsection = "1"\nwhat = "x"\nrecipes = ["a"]\n'
     'not_measured = "b"\n', "exactly one of recipes"),
    ('id = "X"\ndocument = "guide"\nsection = "1"\nwhat = "x"\nrecipes = ["no-such"]\n',
     "no recipe no-such"),
    ('id = "X"\ndocument = "book"\nsection = "1"\nwhat = "x"\nplanned = "y"\n', "document 'book'"),
    ('id = "X"\ndocument = "guide"\nsection = "1"\nwhat = "x"\nplanned = "y"\n'
     'page = "guide/99.md"\n', "docs/guide/99.md does not exist"),
    ('id = "X"\ndocument = "guide"\nsection = "1"\nwhat = "x"\nplanned = "y"\ncolour = 1\n',
     "unknown key(s) colour"),
])
def test_a_catalogue_entry_that_cannot_be_shown_is_refused_with_its_key(result, tmp_path, entry,
                                                                        message):
    from tuninglab.site import catalogue
    root = _project(tmp_path, result)
    _catalogue(root, "[[experiment]]\n" + entry)
    with pytest.raises(catalogue.CatalogueError) as error:
        catalogue.load(root)
    assert message in str(error.value) and "recipes/catalogue.toml: experiment[0]" in str(error.value)


def test_the_repositorys_catalogue_reads_and_every_thesis_chapter_page_shows_its_part():
    from tuninglab.site import catalogue
    for e in catalogue.load(REPO):  # a page with entries shows them, its own or its source's
        if e.page:
            text = (REPO / "docs" / e.page).read_text(encoding="utf-8")
            assert "<!-- catalogue -->" in text or f"<!-- catalogue: {e.document} -->" in text, e


def test_a_sweep_without_a_reference_reads_the_same_in_its_block_and_on_the_results_page():
    """An unordered sweep (the collectors) has no primary delta and no verdict: its block's
    source table shows the curve's reading, in the Results page's words, and no "None"."""
    path = REPO / "results" / "jvm-gc-collector" / "20261126T041911Z-vm.json"
    stored = read_stored(json.loads(path.read_text(encoding="utf-8")))
    md = result_block.render(stored, page="guide/09-jvm.md",
                             json_path="results/jvm-gc-collector/x.json")
    rows = {line.split("|")[1].strip(): line.split("|")[3].strip()
            for line in md.splitlines() if line.startswith("| ") and line.count("|") == 4}
    word = result_block.curve_reading(stored["analysis"]["curves"][0])
    assert word == "**cannot tell**; best measured: collector -XX:+UseParallelGC"
    assert rows["Claim or result"] == word
    assert rows["Direction"] == "— (no direction claimed)"
    assert "None" not in md
    assert results_table._ours(stored)[0].startswith(word)


# --------------------------------------------------------------------------- notebook box


def _notebook_of_run(root: Path, recipe_id: str, stored: str) -> None:
    """A notebook whose run cell printed the line the engine prints once it stored a result."""
    notebook = root / "notebooks" / "guide" / f"{recipe_id}.ipynb"
    notebook.parent.mkdir(parents=True, exist_ok=True)
    notebook.write_text(json.dumps({"cells": [{"cell_type": "code", "source": "tl.run()",
                                               "outputs": [{"output_type": "stream",
                                                            "text": f"[09:00] stored {stored}\n"}]}]}),
                        encoding="utf-8")


def test_notebook_box_names_its_run_and_a_newer_one(result, tmp_path):
    root = _project(tmp_path, result)
    site = Site(root)
    assert notebook_note.render(site, "fixture-pool", str) == ""  # no notebook, no box
    _notebook_of_run(root, "fixture-pool", "results/fixture-pool/20300101T000000Z-fixture-host.json")
    box = notebook_note.render(Site(root), "fixture-pool", lambda p: f"<{p}>")
    assert box.startswith('!!! info "Which run this is"')
    assert "(<results/fixture-pool/20300101T000000Z-fixture-host.json>)" in box
    assert "[5 Pools](<guide/05-jca.md>)" in box
    # the notebook still shows the older run: the box says which one the pages show
    _notebook_of_run(root, "fixture-pool", "results/fixture-pool/20290601T000000Z-fixture-host.json")
    box = notebook_note.render(Site(root), "fixture-pool", str)
    assert box.startswith('!!! warning "A newer run is stored"')
    assert "The outputs below are the run of" in box and "20290601T000000Z" in box
    assert "**A newer run is stored**" in box and "20300101T000000Z" in box


def test_notebook_box_says_when_todays_rules_read_its_run_otherwise(tmp_path):
    """A sweep stored with a "Set ..." sentence that today's rule reads as "cannot tell": the
    box gives both readings (the outputs keep the run's own)."""
    stored = sweep_result()
    stored["analysis"]["curves"][0]["against_best"]["p256"].update(ci_low=-0.12)
    stored["trials"] = []  # what a stored result has (store.load_result); the box reads neither
    stored["provenance"]["host"] = "fixture-host"
    folder = tmp_path / "results" / "fixture-heap"
    folder.mkdir(parents=True)
    (folder / "20300101T000000Z-fixture-host.json").write_text(json.dumps(stored), encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "recipes").mkdir()
    _notebook_of_run(tmp_path, "fixture-heap", "results/fixture-heap/20300101T000000Z-fixture-host.json")
    box = notebook_note.render(Site(tmp_path), "fixture-heap", str)
    assert box.startswith('!!! warning "Read differently today"')
    today = box.split("says something else:** ")[1].split("\n")[0]
    assert today.startswith("This run cannot tell")
    assert "Its output below says: Set 256 MB: the cheapest heap within noise of the best (FIXTURE)." in box
