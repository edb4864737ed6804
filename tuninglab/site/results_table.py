"""The Results page: the forest plot (every recipe's headline delta with its interval, the
source's figure beside it), then one row per recipe."""
from __future__ import annotations

from .. import result as results
from ..numbers import fmt_delta, fmt_pct, fmt_time
from .result_block import agreement
from .text import cell, cite, nowrap, rel

__all__ = ["render", "forest_rows"]


def forest_rows(site) -> list[dict]:
    """One row per headline comparison (an A/B run at several load levels gives several)."""
    rows = []
    for entry in _ordered(site):
        found = site.newest(entry.id)
        effect = entry.source.get("effect")
        if found is None:
            rows.append({"label": entry.id, "delta": None, "verdict": "not measured",
                         "source": effect})
            continue
        _, result = found
        if not results.is_valid(result):
            rows.append({"label": entry.id, "delta": None, "verdict": "invalid", "source": effect})
            continue
        comparisons = results.comparisons(result)
        if comparisons:
            for c in comparisons:
                m = (c.get("metrics") or {}).get(result.get("primary_metric")) or {}
                load = c.get("load")
                label = entry.id + (f" ({', '.join(f'{k} {v}' for k, v in load.items())})" if load else "")
                if m.get("delta_kind") == "absolute":  # the error rate: points, not per cent
                    label += " [percentage points]"
                rows.append({"label": label, "delta": m.get("delta"), "ci_low": m.get("ci_low"),
                             "ci_high": m.get("ci_high"), "verdict": c.get("verdict"),
                             "source": effect})
            continue
        for curve in results.curves(result):
            h = curve.get("headline")
            rows.append({"label": f"{entry.id} (best vs reference)" if h else entry.id,
                         "delta": h and h.get("delta"), "ci_low": h and h.get("ci_low"),
                         "ci_high": h and h.get("ci_high"),
                         "verdict": h.get("verdict") if h else "curve", "source": effect})
    return rows


def _ordered(site):
    return sorted(site.entries, key=lambda e: ((site.pages.get(e.id) or ["~"])[0], e.id))


def render(site, page: str) -> str:
    entries = _ordered(site)
    if not entries:
        return '!!! info "No recipes yet"\n\n    No `recipes/*/*/recipe.toml` was found.\n'
    lines = [f"![Every recipe's effect on its primary metric, with its 95 % interval and the "
             f"source's figure]({rel(page, site.FOREST)})", "",
             "| Recipe | Page | Source claim | Our result | Detectable | Run | Agrees? |",
             "|---|---|---|---|--:|---|---|"]
    for entry in entries:
        pages = site.pages.get(entry.id) or []
        page_cell = ", ".join(f"[{cell(site.titles.get(p) or p)}]({rel(page, p)})" for p in pages) or "—"
        claim = cell(entry.source.get("claim") or "—")
        if entry.source:
            claim = f"{claim} ({cell(cite(entry.source))})"
        found = site.newest(entry.id)
        if entry.error:
            ours, detect, run, agrees = f"recipe.toml unreadable: {cell(entry.error)}", "—", "—", "—"
        elif found is None:
            ours, detect, run, agrees = "not measured yet", "—", "—", "—"
        else:
            path, result = found
            ours, detect = _ours(result)
            run = f"[{fmt_time((result.get('provenance') or {}).get('started')).split(' ')[0]}]" \
                  f"({rel(page, path.relative_to(site.root).as_posix())})"
            agrees = agreement(result)
        lines.append(f"| `{entry.id}` | {page_cell} | {claim} | {ours} | {detect} | {run} | {agrees} |")
    return "\n".join(lines + [""])


def _ours(result: dict) -> tuple[str, str]:
    if not results.is_valid(result):
        return "**invalid**", "—"
    curves = results.curves(result)
    if curves:
        c = curves[0]
        knee = next((p for p in c["points"] if p["arm"] in (c.get("knee"), c.get("saturation"))), None)
        text = f"**{'knee' if 'knee' in c else 'saturation'}: {knee['label'] if knee else '—'}**"
        h = c.get("headline")
        if h:
            text += f"; best vs reference {nowrap(fmt_delta(h['delta'], h['ci_low'], h['ci_high']))}"
        return text, fmt_pct(h.get("detectable")) if h else "—"
    entry = results.primary_entry(result)
    if not entry:
        return f"**{result.get('verdict')}**", "—"
    text = (f"**{result.get('verdict')}**: "
            f"{nowrap(fmt_delta(entry['delta'], entry.get('ci_low'), entry.get('ci_high'), entry.get('delta_kind', 'relative'), entry.get('unit')))}")
    return text, fmt_pct(entry.get("detectable"))
