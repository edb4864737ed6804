"""Unit tests of tuninglab/publish.py, with the fixture result of tests/site/data (invented
numbers: it is never copied into results/)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from sitekit import DATA

MINUS = "\u2212"
NBSP = "\u00a0"


@pytest.fixture()
def result():
    return json.loads((DATA / "fixture-result-full.json").read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- number style


def test_relative_delta_with_interval(publish):
    assert publish.fmt_delta(0.532, 0.41, 0.661) == "+53.2 % [+41.0, +66.1]"


def test_negative_relative_delta_uses_a_minus_sign(publish):
    assert publish.fmt_delta(-0.054, -0.081, -0.02) == f"{MINUS}5.4 % [{MINUS}8.1, {MINUS}2.0]"


def test_interval_spanning_zero(publish):
    assert publish.fmt_delta(0.012, -0.02, 0.045) == f"+1.2 % [{MINUS}2.0, +4.5]"


def test_absolute_share_delta_in_percentage_points(publish):
    text = publish.fmt_delta(0.0012, -0.0005, 0.003, "absolute", "fraction of requests")
    assert text == f"+0.12 pp [{MINUS}0.05, +0.30]"


def test_absolute_delta_in_its_own_unit(publish):
    assert publish.fmt_delta(-38.58, -39.59, -37.57, "absolute", "ms") == f"{MINUS}38.58 ms [{MINUS}39.59, {MINUS}37.57]"
    # a long unit is left to the table's unit column
    long_unit = "ms waiting for a connection per tx"
    assert publish.fmt_delta(2.5, 1.0, 4.0, "absolute", long_unit) == "+2.50 [+1.00, +4.00]"


def test_unbounded_interval(publish):
    assert publish.fmt_delta(0.1, None, None) == "+10.0 %"
    assert publish.fmt_delta(0.1, None, 0.2).endswith("[unbounded]")


def test_missing_delta(publish):
    assert publish.fmt_delta(None, None, None) == "—"
    assert publish.fmt_value(float("nan")) == "—"


def test_values(publish):
    assert publish.fmt_value(1234.4, "tx/s") == "1,234 tx/s"
    assert publish.fmt_value(402.1, "tx/s") == "402.1 tx/s"
    assert publish.fmt_value(12.34, "ms") == "12.3 ms"
    assert publish.fmt_value(1.913, "ms") == "1.91 ms"
    assert publish.fmt_value(0.0123, "fraction of requests", "absolute") == "1.23 %"
    assert publish.fmt_value(0.0123, "fraction of requests", "absolute", with_unit=False) == "1.23"
    assert publish.unit_label("share of wall time in GC", "absolute") == "% of wall time in GC"
    assert publish.unit_label("tx/s", "relative") == "tx/s"


def test_time(publish):
    assert publish.fmt_time("2030-01-01T00:00:00+00:00") == "2030-01-01 00:00 UTC"
    assert publish.fmt_time("2030-01-01T02:00:00+02:00") == "2030-01-01 00:00 UTC"
    assert publish.fmt_time(None) == "unknown date"


def test_citation(publish):
    assert publish.cite({"document": "guide", "section": "4.5.3.1", "table": "Table 4.1"}) == (
        "guide 4.5.3.1, Table 4.1")
    assert publish.cite({"document": "thesis", "section": "6.2 and 7.2"}) == "thesis 6.2 and 7.2"
    assert publish.cite({"document": "000_3989a3d664c392c4.txt", "section": "5.5"}) == "guide 5.5"
    assert publish.cite({"document": "none"}) == "our own claim (no source)"


# --------------------------------------------------------------------------- markers


def test_markers_outside_code_only(publish):
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
    found = publish.find_markers(text)
    assert found == [(1, "result", "aa-noise"), (5, "results-table", None), (7, "recipe-schema", None)]


# --------------------------------------------------------------------------- result block


def test_result_block(publish, result):
    md = publish.render_result(result, page="guide/05-jca.md",
                               json_path="results/fixture-pool/20300101T000000Z-fixture-host.json",
                               notebook_path="notebooks/guide/fixture-pool.ipynb")
    assert md.startswith("**Verdict: better**, throughput +51.6 % [+50.9, +52.2] (95 % interval)")
    assert "agrees with the source (expected: better)" in md
    assert "- **Run:** 2030-01-01 00:00 UTC, profile full, 5 pairs, 15 s warm-up and 30 s measured per trial" in md
    assert "- **Host:** Fixture CPU @ 2.00GHz, 2 CPUs, app server on CPU 1" in md
    assert "- **JVM:** `-Xms1g -Xmx1g -XX:+UseParallelGC` in both arms" in md
    assert "- **Commit:** `f1x7ure00000`" in md
    assert "WildFly 39.0.1.Final" in md and "WildFly WildFly" not in md
    # one table row per metric, the primary one first
    rows = [line.replace(NBSP, " ") for line in md.splitlines() if line.startswith("| ")]
    assert rows[0].startswith("| Metric | Unit | Baseline | Variant |")
    assert rows[1].startswith("| **throughput** ↑ | tx/s | 402.8 | 610.5 | +51.6 % [+50.9, +52.2] | better |")
    assert any(r.startswith("| error_rate ↓ | % of requests | 0.00 | 0.00 | +0.00 pp") for r in rows)
    assert any(r.startswith("| gc_time ↓ | % of wall time in GC | 1.20 | 1.50 | +0.30 pp") for r in rows)
    # the source beside ours, with its citation
    assert "FIXTURE claim" in md
    assert "guide 5.4-5.5" in md
    # links relative to the page
    assert "[Raw result (JSON)](../results/fixture-pool/20300101T000000Z-fixture-host.json)" in md
    assert "[Notebook: fixture-pool](../notebooks/guide/fixture-pool.ipynb)" in md
    assert "danger" not in md and "warning" not in md


def test_invalid_run_lists_problems_first_and_no_delta(publish, result):
    bad = copy.deepcopy(result)
    bad["verdict"] = "invalid"
    bad["agrees_with_source"] = None
    bad["metrics"] = {}
    bad["validity"] = {"valid": False, "problems": [
        "trial 3 (variant): 12 failed requests of 4,210 (0.29 %) > tolerance 0.00 %"]}
    md = publish.render_result(bad, page="guide/05-jca.md", json_path="results/x/y.json")
    assert md.startswith('!!! danger "Not a valid measurement"')
    assert md.index("12 failed requests") < md.index("Verdict: invalid")
    assert "| Metric |" not in md
    assert " %  [" not in md and "+51.6" not in md


def test_problems_of_a_valid_run_still_come_first(publish, result):
    noted = copy.deepcopy(result)
    noted["validity"]["problems"] = ["trial 1 (baseline): load generator at 88 % of its CPU"]
    md = publish.render_result(noted, page="index.md", json_path="results/x/y.json")
    assert md.startswith('!!! warning "Problems recorded during the run"')
    assert md.index("load generator") < md.index("Verdict: better")


def test_not_measured(publish):
    md = publish.render_not_measured("aa-noise")
    assert md.startswith('!!! info "Not measured yet"')
    assert "`tuninglab run aa-noise --profile full`" in md
    assert "%" not in md  # no numbers invented


def test_jvm_options_per_arm(publish, result):
    heap = copy.deepcopy(result)
    heap["provenance"]["jvm"] = {"baseline": {"options": "-Xms96m -Xmx96m"},
                                 "variant": {"options": "-Xms768m -Xmx768m"}}
    md = publish.render_result(heap, page="index.md", json_path="results/x/y.json")
    assert "- **JVM:** baseline `-Xms96m -Xmx96m`, variant `-Xms768m -Xmx768m`" in md


# --------------------------------------------------------------------------- store and site


def _project(tmp_path: Path, result: dict) -> Path:
    """A miniature repository: two recipes, one page, and results of several profiles."""
    for area, rid, expected in (("guide", "fixture-pool", "better"), ("method", "fixture-aa", "no-change")):
        folder = tmp_path / "recipes" / area / rid
        folder.mkdir(parents=True)
        (folder / "recipe.toml").write_text(
            f'id = "{rid}"\ntitle = "Fixture {rid}"\nsummary = "x"\n\n[source]\n'
            f'document = "guide"\nsection = "5.5"\nclaim = "FIXTURE claim of {rid}: 80 users, 80 connections."\n'
            f'expected = "{expected}"\n',
            encoding="utf-8")
    docs = tmp_path / "docs"
    (docs / "guide").mkdir(parents=True)
    (docs / "guide" / "05-jca.md").write_text("# 5 Pools\n\n<!-- result: fixture-pool -->\n", encoding="utf-8")
    (docs / "results.md").write_text("# Results\n\n<!-- results-table -->\n", encoding="utf-8")
    out = tmp_path / "results" / "fixture-pool"
    out.mkdir(parents=True)
    older = copy.deepcopy(result)
    older["provenance"]["started"] = "2029-06-01T00:00:00+00:00"
    older["verdict"] = "worse"
    quick = copy.deepcopy(result)
    quick["profile"] = "quick"
    quick["provenance"]["started"] = "2031-01-01T00:00:00+00:00"
    (out / "20290601T000000Z-fixture-host.json").write_text(json.dumps(older), encoding="utf-8")
    (out / "20300101T000000Z-fixture-host.json").write_text(json.dumps(result), encoding="utf-8")
    (out / "20310101T000000Z-fixture-host.json").write_text(json.dumps(quick), encoding="utf-8")
    (out / ".20320101T000000Z-fixture-host.json.tmp").write_text("{", encoding="utf-8")
    return tmp_path


def test_newest_full_ignores_quick_runs_and_older_ones(publish, result, tmp_path):
    root = _project(tmp_path, result)
    path, data = publish.newest_full(root / "results", "fixture-pool")
    assert path.name == "20300101T000000Z-fixture-host.json"
    assert data["verdict"] == "better"
    assert publish.newest_full(root / "results", "fixture-aa") is None


def test_discover_recipes(publish, result, tmp_path):
    root = _project(tmp_path, result)
    recipes = {r.id: r for r in publish.discover_recipes(root)}
    assert set(recipes) == {"fixture-pool", "fixture-aa"}
    assert recipes["fixture-aa"].area == "method"
    assert recipes["fixture-aa"].expected == "no-change"
    assert recipes["fixture-pool"].source["section"] == "5.5"


def test_broken_recipe_is_listed_not_hidden(publish, result, tmp_path):
    root = _project(tmp_path, result)
    (root / "recipes" / "guide" / "fixture-pool" / "recipe.toml").write_text("id = [", encoding="utf-8")
    recipes = {r.id: r for r in publish.discover_recipes(root)}
    assert recipes["fixture-pool"].error


def test_expand_page_markers(publish, result, tmp_path):
    root = _project(tmp_path, result)
    site = publish.Site(root)
    page = (root / "docs" / "guide" / "05-jca.md").read_text(encoding="utf-8")
    out = site.expand(page, "guide/05-jca.md")
    assert "<!-- result:" not in out
    assert "**Verdict: better**" in out
    assert "(../results/fixture-pool/20300101T000000Z-fixture-host.json)" in out


def test_results_table(publish, result, tmp_path):
    root = _project(tmp_path, result)
    site = publish.Site(root)
    out = site.expand((root / "docs" / "results.md").read_text(encoding="utf-8"), "results.md")
    rows = [line.replace(NBSP, " ") for line in out.splitlines() if line.startswith("| `")]
    assert len(rows) == 2
    pool = next(r for r in rows if "`fixture-pool`" in r)
    assert "[5 Pools](guide/05-jca.md)" in pool
    assert "FIXTURE claim of fixture-pool: 80 users, 80 connections." in pool
    assert "**better**: throughput +51.6 % [+50.9, +52.2]" in pool
    assert "[2030-01-01](results/fixture-pool/20300101T000000Z-fixture-host.json)" in pool
    assert pool.rstrip().endswith("| agrees |")
    aa = next(r for r in rows if "`fixture-aa`" in r)
    assert "not measured yet" in aa
    # rows follow the pages: the recipe on a page comes before the one without
    assert rows.index(pool) < rows.index(aa)


# --------------------------------------------------------------------------- recipe schema


def test_schema_absent_gives_a_warning(publish):
    md = publish.render_recipe_schema(None)
    assert md.startswith('!!! warning "Schema not available"')


def test_schema_tables(publish):
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
            "runtime": {"type": "array", "items": {"enum": ["x", "y"]}},
        },
        "$defs": {"profile": {"type": "object", "required": ["pairs"],
                              "properties": {"pairs": {"type": "integer", "minimum": 2}}}},
    }
    md = publish.render_recipe_schema(schema)
    assert "A recipe &lt;area&gt;/&lt;id&gt;." in md
    assert "**Top level**" in md
    assert "| `id` | string | yes | The name. Pattern `^[a-z-]+$`. |" in md
    assert "| `mode` | string | no | One of `\"a\"`, `\"b\"`. Default `\"a\"`. |" in md
    assert "| `runtime` | array of value | no |" in md or "| `runtime` | array of" in md
    # the shared definition is one table for both profiles
    assert md.count("| `pairs` |") == 1
    assert "**[profiles.quick] and [profiles.full]**" in md
    assert "Other keys are rejected." in md


def test_repository_schema_renders(publish):
    from sitekit import REPO
    path = REPO / "tuninglab" / "recipe.schema.json"
    if not path.is_file():
        pytest.skip("tuninglab/recipe.schema.json is not in this checkout")
    md = publish.render_recipe_schema(json.loads(path.read_text(encoding="utf-8")))
    assert "| `workload` |" in md and "| `pairs` |" in md
