"""The Results page: the forest plot (every recipe's headline delta with its interval, the
source's figure beside it), then one row per recipe."""
from __future__ import annotations

import html

from .. import result as results
from ..numbers import fmt_delta, fmt_pct, fmt_time
from .result_block import agreement, curve_reading
from .text import cell, cite, nowrap, rel

__all__ = ["render", "forest_rows"]


def forest_rows(site) -> list[dict]:
    """One row per headline comparison (an A/B run at several load levels gives several, a
    sweep measured at several load levels one per level), each label unique."""
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
                label = entry.id + (f" ({_load_text(c.get('load'))})" if c.get("load") else "")
                row = {"label": label, "delta": m.get("delta"), "ci_low": m.get("ci_low"),
                       "ci_high": m.get("ci_high"), "verdict": c.get("verdict"),
                       "source": effect, "scale": "ratio"}
                if m.get("delta_kind") == "absolute":  # the error rate: points, not per cent
                    row.update(label=label + " [percentage points]", scale="points",
                               unit=m.get("unit") or "fraction")
                rows.append(row)
            continue
        for curve in results.curves(result):
            h = curve.get("headline")
            # A sweep measured at several load levels has a curve per level: its label carries
            # the level, or the rows read alike.
            parts = [p for p in (_load_text(curve.get("load")), "best vs reference" if h else "")
                     if p]
            rows.append({"label": entry.id + (f" ({'; '.join(parts)})" if parts else ""),
                         "delta": h and h.get("delta"), "ci_low": h and h.get("ci_low"),
                         "ci_high": h and h.get("ci_high"),
                         "verdict": h.get("verdict") if h else "curve", "source": effect,
                         "scale": "points" if h and h.get("scale", "ratio") != "ratio"
                         else "ratio"})
    return _unique(rows)


def _load_text(load: dict | None) -> str:
    return ", ".join(f"{k} {v}" for k, v in (load or {}).items())


def _unique(rows: list[dict]) -> list[dict]:
    """Labels that still repeat (two curves at the same level) are numbered: "#2", "#3"."""
    seen: dict[str, int] = {}
    for row in rows:
        label = row["label"]
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            row["label"] = f"{label} #{seen[label]}"
    return rows


def _ordered(site):
    return sorted(site.entries, key=lambda e: ((site.pages.get(e.id) or ["~"])[0], e.id))


# A claim longer than this shows its first sentence (or its first words) in the table, the
# whole claim in the cell's tooltip and on the recipe's page: the full claims made the table
# 12,000 px tall on a laptop, one recipe to a screen.
CLAIM_CHARS = 120


def render(site, page: str) -> str:
    entries = _ordered(site)
    if not entries:
        return '!!! info "No recipes yet"\n\n    No `recipes/*/*/recipe.toml` was found.\n'
    # The table sits in a <div class="tl-results"> (md_in_html) so that extra.css can fit its
    # columns to a laptop screen without touching the site's other tables.
    lines = [f"![Every recipe's effect on its primary metric, with its 95 % interval and the "
             f"source's figure]({rel(page, site.FOREST)})", "",
             '<div class="tl-results" markdown>', "",
             "| Recipe and page | Source claim | Our result | Detectable | Run | Agrees? |",
             "|---|---|---|--:|---|---|"]
    for entry in entries:
        pages = site.pages.get(entry.id) or []
        links = ", ".join(f"[{cell(site.titles.get(p) or p)}]({rel(page, p)})" for p in pages)
        recipe = f"`{entry.id}`" + (f"<br>{links}" if links else "")
        claim = _claim(entry.source)
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
        lines.append(f"| {recipe} | {claim} | {ours} | {detect} | {run} | {agrees} |")
    return "\n".join(lines + ["", "</div>", ""])


def _claim(source: dict | None) -> str:
    """The claim cell: the claim (its first sentence when long, the whole in a tooltip) and
    the citation."""
    text = " ".join(str((source or {}).get("claim") or "").split())
    short = compact_claim(text) if text else "—"
    claim = cell(short)
    if short != text and text:
        full = html.escape(text, quote=True).replace("|", "&#124;")
        claim = f'<span class="tl-claim" title="{full}">{claim}</span>'
    return f"{claim} ({cell(cite(source))})" if source else claim


def compact_claim(text: str, limit: int = CLAIM_CHARS) -> str:
    """``text`` when it is short; else its first sentence (or clause) if that fits in
    ``limit`` characters, or its first words, with "…" to say there is more."""
    if len(text) <= limit:
        return text
    ends = [i + 1 for i, ch in enumerate(text[:limit]) if ch in ".;" and text[i + 1:i + 2] == " "
            and not text[max(0, i - 3):i].lower().endswith(("e.g", "i.e", "vs"))]
    ends = [i for i in ends if i >= 40]
    if ends:
        return text[:ends[0]].rstrip(";").rstrip() + " …"
    cut = text.rfind(" ", 0, limit)
    return text[:cut if cut > 0 else limit].rstrip(" ,;:(") + " …"


def _ours(result: dict) -> tuple[str, str]:
    if not results.is_valid(result):
        return "**invalid**", "—"
    curves = results.curves(result)
    if curves:
        c = curves[0]
        text = curve_reading(c)
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
