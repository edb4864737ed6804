"""The stored result: ``build`` writes exactly the keys ``result.KEYS`` documents (the reference
page is generated from KEYS), and format 1 files upgrade to the shape the readers expect."""
from __future__ import annotations

from tuninglab import changes, design, layout, result
from tuninglab.analysis import analyse
from tuninglab.plan import compile_plan
from tuninglab.recipe import load_recipe


def _built() -> dict:
    recipe = load_recipe(layout.recipes_dir() / "guide" / "datasource-max-pool-size")
    kind = changes.kind_for(recipe)
    plan = compile_plan(recipe, switch=kind.switch)
    kind.bind(plan.arms)
    blocks = design.blocks(plan.slots, 2, seed=7, period_blocks=1)
    trials = []
    for block in blocks:
        for slot in block.slots:
            for arm in slot:
                trials.append({"index": len(trials), "block": block.index, "arm": arm,
                               "period": block.period, "orientation": block.orientation,
                               "used": True, "status": "valid", "errors": [],
                               "metrics": {"throughput": 100.0 + len(trials), "error_rate": 0.0}})
    analysis = analyse(recipe, plan, trials)
    return result.build(recipe=recipe, profile=recipe.profile("quick"), plan=plan, kind=kind,
                        seed=7, blocks=blocks, queue_log={"retried": [], "unresolved": []},
                        trials=trials, verified={}, warmups={},
                        analysis=analysis, validity={"valid": True, "problems": []},
                        provenance={})


def test_build_writes_exactly_the_documented_keys():
    out = _built()
    assert set(out) == set(result.KEYS)
    assert out["format"] == result.FORMAT


def test_every_documented_key_has_a_meaning():
    assert all(isinstance(m, str) and len(m) > 10 for m in result.KEYS.values())


def test_reference_page_is_generated_from_the_keys():
    from tuninglab.site.schema_doc import render_result_keys
    md = render_result_keys()
    for key in result.KEYS:
        assert f"| `{key}` |" in md


def test_a_format_1_file_reads_in_the_current_shape():
    old = {"recipe": "x", "profile": "full", "verdict": "better", "primary_metric": "throughput",
           "method": {"order": ["baseline", "variant", "variant", "baseline"], "pairs": 2,
                      "trial_s": 30, "warmup_s": 15},
           "metrics": {"throughput": {"delta": 0.1, "ci_low": 0.05, "ci_high": 0.15}},
           "trials": [{"arm": "baseline", "pair": 0}], "warmup": {"throughput": [1.0, 2.0], "error_rate": [0.0, 0.0]}}
    new = result.upgrade(old)
    assert new["plan"]["kind"] == "ab" and [a["id"] for a in new["plan"]["arms"]] == ["baseline", "variant"]
    assert result.primary_entry(new)["delta"] == 0.1
    assert new["trials"][0]["block"] == 0 and new["trials"][0]["used"] is True
    assert new["warmup"]["app"]["windows"][1]["throughput"] == 2.0
    assert "format" not in old or old["format"] == 1  # the stored dict is not changed


def _format_2(concurrency: int) -> dict:
    metrics = {"throughput": {"delta": 0.4, "primary": True},
               "db_cpu_per_tx": {"delta": -0.29, "verdict": "better"}}
    return {"format": 2, "plan": {"kind": "ab", "concurrency": concurrency, "arms": []},
            "analysis": {"kind": "ab", "comparisons": [{"metrics": metrics}]},
            "trials": [{"arm": "baseline", "metrics": {"throughput": 24.5, "db_cpu_per_tx": 10.0}}]}


def test_format_2_side_by_side_loses_the_database_cpu_it_could_not_split():
    old = _format_2(concurrency=2)
    new = result.upgrade(old)
    assert "db_cpu_per_tx" not in result.comparisons(new)[0]["metrics"]
    assert "db_cpu_per_tx" not in new["trials"][0]["metrics"]
    assert result.comparisons(new)[0]["metrics"]["throughput"]["delta"] == 0.4
    assert "db_cpu_per_tx" in old["trials"][0]["metrics"]  # the stored dict is not changed


def test_format_2_with_the_database_to_itself_keeps_it():
    new = result.upgrade(_format_2(concurrency=1))
    assert result.comparisons(new)[0]["metrics"]["db_cpu_per_tx"]["delta"] == -0.29
