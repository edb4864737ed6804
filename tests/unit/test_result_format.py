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
    plan = compile_plan(recipe, per_node=kind.per_node)
    kind.bind(plan.arms)
    blocks = design.blocks(plan.slots, 2, seed=7)
    trials = []
    for block in blocks:
        for slot in block.slots:
            for arm in slot:
                trials.append({"index": len(trials), "block": block.index, "arm": arm,
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
