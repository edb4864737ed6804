"""Render stored results, the results overview and the recipe schema as Markdown for the site.

This module is the publishing stage: it only reads what earlier stages stored (recipe.toml
files, results/<id>/*.json, tuninglab/recipe.schema.json) and never measures. It uses the
standard library alone, so the MkDocs hook can load it without Docker, numpy or the rest of
the library being importable.

Pages carry three kinds of marker, each alone on its line (markers inside fenced code blocks
are left as they are, so a page can show them):

- ``<!-- result: <recipe-id> -->``: the "What we measured" block of that recipe;
- ``<!-- results-table -->``: one row per recipe, for the Results page;
- ``<!-- recipe-schema -->``: the recipe format reference, generated from the JSON Schema.

Number style: relative deltas as ``+53.2 % [+41.0, +66.1]`` (95 % interval in brackets),
absolute deltas of shares (error rate, time in GC) in percentage points, ``+0.12 pp``.
"""

from __future__ import annotations

import html
import json
import math
import posixpath
import re
import tomllib
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

__all__ = [
    "DOCUMENTS",
    "Recipe",
    "Site",
    "cite",
    "discover_recipes",
    "expand_markers",
    "find_markers",
    "fmt_delta",
    "fmt_interval",
    "fmt_time",
    "fmt_value",
    "load_results",
    "newest_full",
    "render_not_measured",
    "render_recipe_schema",
    "render_result",
    "render_results_table",
    "unit_label",
]

MINUS = "\u2212"  # a real minus sign: it lines up with "+" in tables
NBSP = "\u00a0"

# Seed file names and the short names pages cite them by (docs/index.md defines them), and the
# names recipe.toml uses for them (recipe.schema.json, source.document).
DOCUMENTS = {
    "000_3989a3d664c392c4.txt": "guide",
    "001_a6f12f083aca9a63.txt": "notifier-thread blog post",
    "002_ecba758956378482.txt": "ECperf slides",
    "003_057e8c876c105edd.txt": "thesis",
    "004_2e28f47c29d09f31.txt": "client-threads note",
}
_DOCUMENT_ALIASES = {
    "guide": "000_3989a3d664c392c4.txt",
    "blog": "001_a6f12f083aca9a63.txt",
    "ecperf-slides": "002_ecba758956378482.txt",
    "thesis": "003_057e8c876c105edd.txt",
    "client-threads": "004_2e28f47c29d09f31.txt",
}

_MARKER = re.compile(
    r"^[ \t]*<!--\s*(?:(?P<result>result):\s*(?P<id>[A-Za-z0-9._-]+)"
    r"|(?P<table>results-table)|(?P<schema>recipe-schema))\s*-->[ \t]*$"
)
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")

# Metrics whose values are shares (0.012 = 1.2 %) and whose deltas are absolute.
_SHARE_UNITS = {"", "ratio", "fraction", "share", "1"}


# --------------------------------------------------------------------------- discovery


@dataclass(frozen=True)
class Recipe:
    """What the site needs to know about one recipe, read from its recipe.toml."""

    id: str
    area: str
    path: str  # repository-relative folder, e.g. "recipes/guide/datasource-max-pool-size"
    title: str
    source: dict = field(default_factory=dict)
    expected: str | None = None
    primary_metric: str | None = None
    error: str | None = None  # set when recipe.toml could not be read


def discover_recipes(root: Path) -> list[Recipe]:
    """All recipes under <root>/recipes/<area>/<id>/recipe.toml, sorted by area and id.

    A recipe.toml that does not parse is still listed (with ``error`` set) so that the
    results page shows it instead of hiding it.
    """
    recipes = []
    for toml_path in sorted(Path(root).glob("recipes/*/*/recipe.toml")):
        folder = toml_path.parent
        rel = folder.relative_to(root).as_posix()
        try:
            data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
            error = None
        except (OSError, tomllib.TOMLDecodeError) as exc:
            data, error = {}, f"{type(exc).__name__}: {exc}"
        metrics = data.get("metrics")
        primary = data.get("primary_metric")
        if primary is None and isinstance(metrics, dict):
            primary = metrics.get("primary")
        source = data.get("source") if isinstance(data.get("source"), dict) else {}
        recipes.append(
            Recipe(
                id=str(data.get("id") or folder.name),
                area=folder.parent.name,
                path=rel,
                title=str(data.get("title") or folder.name),
                source=source,
                expected=data.get("expected") or source.get("expected"),
                primary_metric=primary,
                error=error,
            )
        )
    return recipes


def load_results(results_dir: Path, recipe_id: str) -> list[tuple[Path, dict]]:
    """Every stored result of a recipe as (path, data), oldest first.

    Files that are not valid JSON objects are skipped: the store writes atomically, so such
    a file is not a result.
    """
    found = []
    for path in sorted(Path(results_dir, recipe_id).glob("*.json")):
        if path.name.startswith("."):  # the store's temporary files
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict):
            found.append((path, data))
    found.sort(key=lambda item: (_started(item[1]) or "", item[0].name))
    return found


def newest_full(results_dir: Path, recipe_id: str) -> tuple[Path, dict] | None:
    """The newest result with ``profile == "full"``, or None: the site never shows quick runs."""
    full = [item for item in load_results(results_dir, recipe_id) if item[1].get("profile") == "full"]
    return full[-1] if full else None


def _started(result: dict) -> str | None:
    prov = result.get("provenance") or {}
    return prov.get("started") or result.get("started")


def find_markers(markdown: str) -> list[tuple[int, str, str | None]]:
    """(line index, kind, recipe id) for every marker outside fenced code blocks."""
    found = []
    fence = None
    for index, line in enumerate(markdown.splitlines()):
        opening = _FENCE.match(line)
        if opening:
            token = opening.group(1)
            if fence is None:
                fence = token[0] * len(token)
            elif token.startswith(fence):
                fence = None
            continue
        if fence is not None:
            continue
        match = _MARKER.match(line)
        if not match:
            continue
        if match.group("result"):
            found.append((index, "result", match.group("id")))
        elif match.group("table"):
            found.append((index, "results-table", None))
        else:
            found.append((index, "recipe-schema", None))
    return found


# --------------------------------------------------------------------------- number style


def _sign(value: float) -> str:
    return "+" if value >= 0 else MINUS


def _num(value: float, decimals: int, signed: bool = False) -> str:
    text = f"{abs(value):,.{decimals}f}"
    if signed:
        return _sign(value) + text
    return (MINUS if value < 0 else "") + text


def _decimals(value: float) -> int:
    """Enough decimals for three to four significant digits, never more than three."""
    magnitude = abs(value)
    if magnitude >= 100:
        return 0 if magnitude >= 1000 else 1
    if magnitude >= 10:
        return 1
    if magnitude >= 0.1:
        return 2
    return 3


def _is_share(unit: str | None, delta_kind: str | None) -> bool:
    """True for absolute deltas of shares (error rate, time in GC): shown in % and pp."""
    if delta_kind != "absolute":
        return False
    text = (unit or "").strip().lower()
    return text in _SHARE_UNITS or text.startswith(("fraction", "share", "ratio"))


def unit_label(unit: str | None, delta_kind: str | None = None) -> str:
    """The unit as a table shows it: shares become "% of ..." because their values are
    shown in percent ("fraction of requests" -> "% of requests")."""
    text = " ".join((unit or "").split())
    if _is_share(unit, delta_kind):
        words = text.split(" ", 1)
        rest = words[1] if len(words) > 1 and words[0].lower() in ("fraction", "share", "ratio") else ""
        return f"% {rest}".rstrip() if rest else "%"
    return text or "—"


def fmt_value(value, unit: str | None = None, delta_kind: str | None = None, *, with_unit: bool = True) -> str:
    """A metric value: "1,234 tx/s", "12.3 ms", and shares in percent, "0.12 %".

    With ``with_unit=False`` only the number (shares still scaled to percent), for tables that
    have a unit column.
    """
    if not _finite(value):
        return "—"
    value = float(value)
    if _is_share(unit, delta_kind):
        pct = value * 100
        text = _num(pct, 2 if abs(pct) < 10 else 1)
        return f"{text} %" if with_unit else text
    text = _num(value, _decimals(value))
    unit = " ".join((unit or "").split())
    return f"{text} {unit}" if unit and with_unit else text


def fmt_interval(low, high, delta_kind: str = "relative", unit: str | None = None) -> str:
    """The bracketed 95 % interval in the delta's own scale: "[+41.0, +66.1]"."""
    if not (_finite(low) and _finite(high)):
        return "[unbounded]"
    scale = 100.0 if delta_kind != "absolute" or _is_share(unit, delta_kind) else 1.0
    decimals = 1 if delta_kind != "absolute" else 2
    return f"[{_num(low * scale, decimals, True)}, {_num(high * scale, decimals, True)}]"


def fmt_delta(delta, low=None, high=None, delta_kind: str = "relative", unit: str | None = None) -> str:
    """A delta with its interval: "+53.2 % [+41.0, +66.1]", "+0.12 pp [−0.05, +0.30]".

    Relative deltas are fractions (0.532 = +53.2 %). Absolute deltas of shares (error rate,
    time in GC) are shown in percentage points; other absolute deltas in their own unit when
    it is a single word ("+2.35 ms"), bare otherwise.
    """
    if not _finite(delta):
        return "—"
    delta = float(delta)
    if delta_kind == "absolute":
        if _is_share(unit, delta_kind):
            head = f"{_num(delta * 100, 2, True)} pp"
        else:
            word = (unit or "").strip()
            head = _num(delta, 2, True) + (f" {word}" if word and " " not in word else "")
    else:
        head = f"{_num(delta * 100, 1, True)} %"
    if low is None and high is None:
        return head
    return f"{head} {fmt_interval(low, high, delta_kind, unit)}"


def _finite(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def fmt_time(stamp: str | None) -> str:
    """An ISO time stamp as "2025-11-22 14:03 UTC" (the date alone if there is no time)."""
    if not stamp:
        return "unknown date"
    try:
        moment = datetime.fromisoformat(str(stamp).replace("Z", "+00:00"))
    except ValueError:
        return str(stamp)
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc)
    return moment.strftime("%Y-%m-%d %H:%M UTC")


# --------------------------------------------------------------------------- sources


def cite(source: dict | None) -> str:
    """A citation in the pages' style: "guide 4.5.3.1, Table 4.1", "thesis 6.2 and 7.2"."""
    if not source:
        return "no source claim"
    document = str(source.get("document") or "").strip()
    if document == "none":
        return "our own claim (no source)"
    key = _DOCUMENT_ALIASES.get(document.lower(), document)
    head = " ".join(str(p) for p in (DOCUMENTS.get(key, document), source.get("section")) if p)
    table = source.get("table")
    text = ", ".join(p for p in (head, str(table) if table else "") if p)
    return text or "no source claim"


def _claim(source: dict | None) -> str:
    claim = (source or {}).get("claim")
    return _cell(str(claim)) if claim else "—"


def _cell(text: str) -> str:
    """Plain text that is safe inside a Markdown table cell (and not taken for HTML)."""
    return html.escape(" ".join(str(text).split()), quote=False).replace("|", "\\|")


def _nowrap(text: str) -> str:
    """Keep a short figure such as "+51.6 % [+50.9, +52.2]" on one line in a table cell."""
    return text.replace(" ", NBSP)


def _code(text) -> str:
    """Text as an inline code span (a "|" inside one does not split a table cell)."""
    return "`" + " ".join(str(text).split()).replace("`", "'") + "`"


# --------------------------------------------------------------------------- result block


def _rel(from_page: str, target: str) -> str:
    """A Markdown link target from one docs page to another file of the site."""
    return posixpath.relpath(target, posixpath.dirname(from_page) or ".")


def _metric_rows(result: dict) -> list[str]:
    """Rows of the metric table, primary metric first: name, unit, baseline, variant, delta, verdict."""
    metrics = result.get("metrics") or {}
    primary = result.get("primary_metric")
    names = sorted(metrics, key=lambda name: (name != primary, name))
    rows = []
    for name in names:
        m = metrics[name] or {}
        unit, kind = m.get("unit"), m.get("delta_kind", "relative")
        label = f"**{name}**" if name == primary else name
        better = m.get("higher_is_better")
        arrow = "" if better is None else (NBSP + ("↑" if better else "↓"))
        rows.append(
            f"| {label}{arrow} | {_cell(unit_label(unit, kind))} "
            f"| {fmt_value(m.get('baseline'), unit, kind, with_unit=False)} "
            f"| {fmt_value(m.get('variant'), unit, kind, with_unit=False)} "
            f"| {_nowrap(fmt_delta(m.get('delta'), m.get('ci_low'), m.get('ci_high'), kind, unit))} "
            f"| {m.get('verdict') or '—'} |"
        )
    return rows


def _agreement(result: dict) -> str:
    agrees = result.get("agrees_with_source")
    if agrees is True:
        return "agrees"
    if agrees is False:
        return "disagrees"
    return "not comparable"


def _primary_summary(result: dict) -> str:
    """"throughput +53.2 % [+41.0, +66.1]" for the primary metric, or "" when there is none."""
    name = result.get("primary_metric")
    m = (result.get("metrics") or {}).get(name) if name else None
    if not m or result.get("verdict") == "invalid":
        return ""
    kind = m.get("delta_kind", "relative")
    return f"{name} {fmt_delta(m.get('delta'), m.get('ci_low'), m.get('ci_high'), kind, m.get('unit'))}"


def _host(result: dict) -> str:
    prov = result.get("provenance") or {}
    cpu = prov.get("cpu_model") or "unknown CPU"
    bits = [str(cpu).strip()]
    if prov.get("cpus"):
        bits.append(f"{prov['cpus']} CPUs")
    app = (prov.get("pinning") or {}).get("app")
    cpuset = app.get("cpuset") if isinstance(app, dict) else app
    if cpuset is not None:
        plural = "s" if any(c in str(cpuset) for c in ",-") else ""
        bits.append(f"app server on CPU{plural} {cpuset}")
    return ", ".join(bits)


def _versions(result: dict) -> str:
    versions = (result.get("provenance") or {}).get("versions") or {}
    names = [("wildfly", "WildFly"), ("postgresql", "PostgreSQL"), ("jdk", "JDK"), ("k6", "k6")]
    found = []
    for key, label in names:
        value = str(versions.get(key) or "").strip()
        if value:
            found.append(value if value.lower().startswith(label.lower()) else f"{label} {value}")
    return ", ".join(found)


def _jvm_options(result: dict) -> str:
    """"baseline `-Xmx96m ...`, variant `-Xmx768m ...`" when the arms ran different JVM options."""
    jvm = (result.get("provenance") or {}).get("jvm") or {}
    arms = {arm: (jvm.get(arm) or {}).get("options") for arm in ("baseline", "variant")
            if isinstance(jvm.get(arm), dict)}
    if not arms or not all(arms.values()):
        return ""
    if len(set(arms.values())) == 1:
        return f"{_code(next(iter(arms.values())))} in both arms"
    return ", ".join(f"{arm} {_code(opts)}" for arm, opts in arms.items())


def render_result(
    result: dict,
    *,
    page: str,
    json_path: str,
    notebook_path: str | None = None,
) -> str:
    """The "What we measured" block of one stored full result.

    ``page`` is the docs-relative path of the page that shows the block, ``json_path`` and
    ``notebook_path`` are docs-relative paths of the raw result and the notebook (links are
    made relative to the page so that MkDocs checks them). Validity problems come first; an
    invalid run shows no delta at all.
    """
    method = result.get("method") or {}
    validity = result.get("validity") or {}
    problems = list(validity.get("problems") or [])
    verdict = result.get("verdict") or "unknown"
    invalid = verdict == "invalid" or validity.get("valid") is False
    lines: list[str] = []

    if problems or invalid:
        title = "Not a valid measurement" if invalid else "Problems recorded during the run"
        kind = "danger" if invalid else "warning"
        lines.append(f'!!! {kind} "{title}"')
        lines.append("")
        if invalid:
            lines.append("    Errors come before latency: no delta is reported for this run.")
            lines.append("")
        for problem in problems or ["the run was marked invalid without a recorded reason"]:
            lines.append(f"    - {_cell(problem)}")
        lines.append("")

    summary = _primary_summary(result)
    headline = f"**Verdict: {verdict}**" + (f", {summary} (95 % interval)" if summary else "")
    if not invalid:
        headline += f"; {_agreement(result)} with the source"
        expected = result.get("expected")
        if expected:
            headline += f" (expected: {expected})"
    lines.append(headline + ".")
    lines.append("")

    prov = result.get("provenance") or {}
    pairs = method.get("pairs")
    run = [fmt_time(_started(result)), f"profile {result.get('profile', 'unknown')}",
           f"{pairs} pairs" if pairs is not None else "pairs unknown"]
    if method.get("trial_s"):
        run.append(f"{method.get('warmup_s', 0)} s warm-up and {method['trial_s']} s measured per trial")
    facts = [("Run", ", ".join(run)), ("Host", _host(result)), ("Software", _versions(result)),
             ("JVM", _jvm_options(result))]
    if prov.get("git_commit"):
        dirty = " (with uncommitted changes)" if prov.get("git_dirty") else ""
        facts.append(("Commit", f"{_code(str(prov['git_commit'])[:12])}{dirty}"))
    lines.extend(f"- **{name}:** {value}" for name, value in facts if value)
    lines.append("")

    rows = _metric_rows(result)
    if rows and not invalid:
        ci = method.get("ci") or "paired t interval"
        confidence = method.get("confidence", 0.95)
        lines.append(
            f"| Metric | Unit | Baseline | Variant | Delta [{confidence * 100:g} % interval] | Verdict |"
        )
        lines.append("|---|---|--:|--:|--:|---|")
        lines.extend(rows)
        lines.append("")
        lines.append(
            "↑ higher is better, ↓ lower is better. Baseline and variant are means over trials; "
            f"the delta and its interval come from the pairs ({_cell(ci)}, "
            f"{confidence * 100:g} %)."
        )
        lines.append("")

    source = result.get("source") or {}
    lines.append("| | Source | Tuning Lab |")
    lines.append("|---|---|---|")
    lines.append(f"| Claim or result | {_claim(source)} | {_cell(summary) if summary else verdict} |")
    lines.append(f"| Reference | {_cell(cite(source))} | this run, {fmt_time(_started(result))} |")
    lines.append(
        f"| Direction | {result.get('expected') or '—'} | {verdict} ({_agreement(result)}) |"
    )
    lines.append("")

    links = [f"[Raw result (JSON)]({_rel(page, json_path)})"]
    if notebook_path:
        links.append(f"[Notebook: {result.get('recipe', 'recipe')}]({_rel(page, notebook_path)})")
    lines.append(" · ".join(links))
    lines.append("")
    return "\n".join(lines)


def render_not_measured(recipe_id: str, *, page: str | None = None, notebook_path: str | None = None) -> str:
    """The admonition shown until a full run of the recipe is stored: no numbers invented."""
    lines = [
        '!!! info "Not measured yet"',
        "",
        f"    No full-profile result of `{recipe_id}` is stored yet. Run",
        f"    `tuninglab run {recipe_id} --profile full` and commit the file it writes under",
        f"    `results/{recipe_id}/`.",
        "",
    ]
    if notebook_path and page:
        lines.append(f"[Notebook: {recipe_id}]({_rel(page, notebook_path)})")
        lines.append("")
    return "\n".join(lines)


# --------------------------------------------------------------------------- results table


def render_results_table(
    recipes: list[Recipe],
    results: dict[str, tuple[Path, dict] | None],
    pages: dict[str, list[str]],
    *,
    page: str,
    json_paths: dict[str, str] | None = None,
    titles: dict[str, str] | None = None,
) -> str:
    """One row per recipe: recipe, page, source claim, our verdict and delta, run date, agreement.

    Rows follow the pages (so the order matches the site's chapters), then the recipe id;
    ``titles`` maps page paths to the titles the links show.
    """
    if not recipes:
        return '!!! info "No recipes yet"\n\n    No `recipes/*/*/recipe.toml` was found.\n'
    json_paths = json_paths or {}
    titles = titles or {}
    recipes = sorted(recipes, key=lambda r: ((pages.get(r.id) or ["~"])[0], r.id))
    lines = [
        "| Recipe | Page | Source claim | Our result | Run | Agrees? |",
        "|---|---|---|---|---|---|",
    ]
    for recipe in recipes:
        recipe_pages = pages.get(recipe.id) or []
        page_cell = ", ".join(
            f"[{_cell(titles.get(p) or _page_label(p))}]({_rel(page, p)})" for p in recipe_pages
        ) or "—"
        found = results.get(recipe.id)
        claim = _claim(recipe.source)
        if recipe.source:
            claim = f"{claim} ({_cell(cite(recipe.source))})" if claim != "—" else _cell(cite(recipe.source))
        if recipe.error:
            ours, run, agrees = f"recipe.toml unreadable: {_cell(recipe.error)}", "—", "—"
        elif found is None:
            ours, run, agrees = "not measured yet", "—", "—"
        else:
            _, result = found
            claim_from_result = result.get("source")
            if claim == "—" and claim_from_result:
                claim = f"{_claim(claim_from_result)} ({_cell(cite(claim_from_result))})"
            verdict = result.get("verdict") or "unknown"
            summary = _primary_summary(result)
            ours = f"**{verdict}**" + (f": {_nowrap(summary)}" if summary else "")
            link = json_paths.get(recipe.id)
            run = fmt_time(_started(result)).split(" ")[0]
            if link:
                run = f"[{run}]({_rel(page, link)})"
            agrees = _agreement(result)
        lines.append(
            f"| `{recipe.id}` | {page_cell} | {claim} | {ours} | {run} | {agrees} |"
        )
    lines.append("")
    return "\n".join(lines)


def _page_label(path: str) -> str:
    stem = posixpath.splitext(posixpath.basename(path))[0]
    area = posixpath.dirname(path)
    label = stem.replace("-", " ")
    label = re.sub(r"^0*(\d+) ", r"\1 ", label)
    return f"{area}: {label}" if area else label


# --------------------------------------------------------------------------- recipe schema


def render_recipe_schema(schema: dict | None, *, schema_path: str = "tuninglab/recipe.schema.json") -> str:
    """The recipe format reference: one table per object of the JSON Schema.

    Without a schema the page gets a visible warning instead of a table, and the build goes on.
    """
    if not schema:
        return (
            '!!! warning "Schema not available"\n\n'
            f"    `{schema_path}` is missing or unreadable in this checkout, so the generated\n"
            "    reference is not shown. The annotated example below still applies.\n"
        )
    lines = []
    if schema.get("title") or schema.get("description"):
        lines.append(_cell(schema.get("description") or schema.get("title")))
        lines.append("")
    for heading, node in _merged_objects(schema):
        lines.append(f"**{heading}**")
        lines.append("")
        if node.get("description") and node is not schema:
            lines.append(_cell(node["description"]))
            lines.append("")
        lines.append("| Key | Type | Required | Meaning |")
        lines.append("|---|---|---|---|")
        required = set(node.get("required") or [])
        for key, prop in (node.get("properties") or {}).items():
            prop = _resolve(schema, prop)
            lines.append(
                f"| `{key}` | {_type(schema, prop)} | {'yes' if key in required else 'no'} "
                f"| {_meaning(prop)} |"
            )
        if node.get("additionalProperties") is False:
            lines.append("")
            lines.append("Other keys are rejected.")
        lines.append("")
    return "\n".join(lines)


def _merged_objects(schema: dict) -> list[tuple[str, dict]]:
    """(heading, node) per object; objects defined once and referenced from several keys
    (both profiles use #/$defs/profile) get one table under a joint heading."""
    merged: dict[str, list] = {}
    for heading, node, ref in _schema_objects(schema, schema, (), set()):
        key = ref or f"heading:{heading}"
        if key in merged:
            merged[key][0].append(heading)
        else:
            merged[key] = [[heading], node]
    return [(" and ".join(headings), node) for headings, node in merged.values()]


def _resolve(schema: dict, node: dict) -> dict:
    """Follow a local ``$ref`` ("#/$defs/name"); anything else is returned unchanged."""
    seen = 0
    while isinstance(node, dict) and "$ref" in node and seen < 10:
        ref = node["$ref"]
        if not isinstance(ref, str) or not ref.startswith("#/"):
            break
        target = schema
        for part in ref[2:].split("/"):
            target = target.get(part.replace("~1", "/").replace("~0", "~"), {}) if isinstance(target, dict) else {}
        merged = dict(target)
        merged.update({k: v for k, v in node.items() if k != "$ref"})
        node = merged
        seen += 1
    return node if isinstance(node, dict) else {}


def _schema_objects(schema: dict, node: dict, path: tuple, seen: set, array: bool = False):
    """Yield (heading, object node, $ref or None) depth-first for every object with properties.

    Headings use TOML's own notation: "Top level", "[source]", "[stack.app]", "[[trials]]".
    """
    key = id(node)
    ref = node.get("$ref") if isinstance(node, dict) else None
    # A shared definition is described by the definition itself, not by one place using it.
    node = _resolve(schema, {"$ref": ref} if ref else node)
    if key in seen or len(path) > 6:  # a recursive $ref stops here
        return
    seen.add(key)
    if node.get("properties"):
        if not path:
            heading = "Top level"
        else:
            dotted = ".".join(path)
            heading = f"[[{dotted}]]" if array else f"[{dotted}]"
        yield heading, node, ref
        for key, raw in node["properties"].items():
            prop = _resolve(schema, raw)
            if prop.get("type") == "array" and isinstance(prop.get("items"), dict):
                yield from _schema_objects(schema, prop["items"], path + (key,), seen, True)
            else:
                yield from _schema_objects(schema, raw, path + (key,), seen)
            for alt in prop.get("oneOf", []) + prop.get("anyOf", []):
                yield from _schema_objects(schema, alt, path + (key,), seen)
            extra = prop.get("additionalProperties")
            if isinstance(extra, dict):
                yield from _schema_objects(schema, extra, path + (key, "<name>"), seen)


def _type(schema: dict, prop: dict) -> str:
    kind = prop.get("type")
    if isinstance(kind, list):
        kind = " or ".join(kind)
    if kind == "array":
        items = _resolve(schema, prop.get("items") or {})
        inner = items.get("type") or ("table" if items.get("properties") else "value")
        return f"array of {'table' if inner == 'object' else inner}"
    if kind == "object":
        return "table"
    if kind:
        return kind
    for combiner in ("oneOf", "anyOf"):
        if prop.get(combiner):
            return " or ".join(_type(schema, _resolve(schema, alt)) for alt in prop[combiner])
    if "enum" in prop:
        kinds = {type(v).__name__ for v in prop["enum"]}
        names = {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}
        return " or ".join(sorted(names.get(k, k) for k in kinds))
    if "const" in prop:
        return "constant"
    return "any"


def _meaning(prop: dict) -> str:
    bits = []
    if prop.get("description"):
        bits.append(_cell(prop["description"]))
    if "enum" in prop:
        bits.append("One of " + ", ".join(_code(json.dumps(v)) for v in prop["enum"]) + ".")
    if "const" in prop:
        bits.append(f"Always {_code(json.dumps(prop['const']))}.")
    if "default" in prop:
        bits.append(f"Default {_code(json.dumps(prop['default']))}.")
    limits = [
        ("minimum", "at least"), ("exclusiveMinimum", "above"), ("maximum", "at most"),
        ("minItems", "at least", "items"), ("maxItems", "at most", "items"),
    ]
    for item in limits:
        key, word = item[0], item[1]
        if key in prop:
            suffix = f" {item[2]}" if len(item) > 2 else ""
            bits.append(f"{word.capitalize()} {prop[key]}{suffix}.")
    if prop.get("pattern"):
        bits.append(f"Pattern {_code(prop['pattern'])}.")
    return " ".join(bits) or "—"


# --------------------------------------------------------------------------- the site


class Site:
    """Repository-level view used by the MkDocs hook: where recipes, results and notebooks are.

    Reads lazily and caches for one build; a new build makes a new Site.
    """

    def __init__(self, root: Path, docs_dir: Path | None = None):
        self.root = Path(root)
        self.docs_dir = Path(docs_dir) if docs_dir else self.root / "docs"
        self.results_dir = self.root / "results"
        self.schema_path = self.root / "tuninglab" / "recipe.schema.json"
        self._recipes: list[Recipe] | None = None
        self._pages: dict[str, list[str]] | None = None
        self._titles: dict[str, str] | None = None

    @property
    def recipes(self) -> list[Recipe]:
        if self._recipes is None:
            self._recipes = discover_recipes(self.root)
        return self._recipes

    def recipe(self, recipe_id: str) -> Recipe | None:
        return next((r for r in self.recipes if r.id == recipe_id), None)

    @property
    def pages(self) -> dict[str, list[str]]:
        """Recipe id -> docs-relative pages that carry its result marker."""
        if self._pages is None:
            self._scan_pages()
        return self._pages

    @property
    def titles(self) -> dict[str, str]:
        """Docs-relative page path -> the page's first-level heading."""
        if self._titles is None:
            self._scan_pages()
        return self._titles

    def _scan_pages(self) -> None:
        pages: dict[str, list[str]] = {}
        titles: dict[str, str] = {}
        for md in sorted(self.docs_dir.rglob("*.md")):
            rel = md.relative_to(self.docs_dir).as_posix()
            text = md.read_text(encoding="utf-8")
            heading = re.search(r"^# +(.+?)\s*#*\s*$", text, re.MULTILINE)
            if heading:
                titles[rel] = heading.group(1).strip()
            for _, kind, recipe_id in find_markers(text):
                if kind == "result" and rel not in pages.setdefault(recipe_id, []):
                    pages[recipe_id].append(rel)
        self._pages, self._titles = pages, titles

    def notebook(self, recipe_id: str) -> str | None:
        """The repository-relative notebook path of a recipe if the notebook exists."""
        recipe = self.recipe(recipe_id)
        candidates = [f"notebooks/{recipe.area}/{recipe_id}.ipynb"] if recipe else []
        candidates += sorted(p.relative_to(self.root).as_posix()
                             for p in self.root.glob(f"notebooks/*/{recipe_id}.ipynb"))
        return next((c for c in candidates if (self.root / c).is_file()), None)

    def notebooks(self) -> list[str]:
        """Repository-relative paths of every notebook, sorted."""
        return sorted(p.relative_to(self.root).as_posix() for p in self.root.glob("notebooks/**/*.ipynb")
                      if ".ipynb_checkpoints" not in p.parts)

    def result_files(self) -> list[str]:
        """Repository-relative paths of every stored result JSON."""
        return sorted(p.relative_to(self.root).as_posix() for p in self.results_dir.glob("*/*.json")
                      if not p.name.startswith("."))

    def schema(self) -> dict | None:
        try:
            data = json.loads(self.schema_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def expand(self, markdown: str, page: str) -> str:
        """Replace every marker of one page (docs-relative path ``page``)."""
        return expand_markers(markdown, page, self)


def expand_markers(markdown: str, page: str, site: Site) -> str:
    """Replace the markers of a page with generated Markdown; other lines are untouched."""
    markers = find_markers(markdown)
    if not markers:
        return markdown
    lines = markdown.splitlines()
    for index, kind, recipe_id in reversed(markers):
        if kind == "result":
            block = _render_result_marker(site, recipe_id, page)
        elif kind == "results-table":
            results = {r.id: newest_full(site.results_dir, r.id) for r in site.recipes}
            json_paths = {
                rid: found[0].relative_to(site.root).as_posix()
                for rid, found in results.items() if found
            }
            block = render_results_table(site.recipes, results, site.pages, page=page,
                                         json_paths=json_paths, titles=site.titles)
        else:
            block = render_recipe_schema(site.schema())
        lines[index:index + 1] = ["", *block.splitlines(), ""]
    return "\n".join(lines) + ("\n" if markdown.endswith("\n") else "")


def _render_result_marker(site: Site, recipe_id: str, page: str) -> str:
    notebook = site.notebook(recipe_id)
    found = newest_full(site.results_dir, recipe_id)
    if found is None:
        return render_not_measured(recipe_id, page=page, notebook_path=notebook)
    path, result = found
    return render_result(
        result,
        page=page,
        json_path=path.relative_to(site.root).as_posix(),
        notebook_path=notebook,
    )
