"""A recipe's "What we measured" block: problems first, then the figure, the verdict with the
smallest effect the run could have detected, the numbers (each metric for A/B, each point for a
curve), the source beside our result, and where it all came from."""
from __future__ import annotations

from .. import result as results
from ..numbers import fmt_delta, fmt_interval, fmt_pct, fmt_time, fmt_value, unit_label
from . import profile_table
from .text import cell, cite, code, nowrap, rel

__all__ = ["render_marker", "render", "render_not_measured", "agreement", "agreement_word",
           "curve_reading"]


def render_marker(site, recipe_id: str, page: str) -> str:
    notebook = site.notebook(recipe_id)
    found = site.newest(recipe_id)
    if found is None:
        return render_not_measured(recipe_id, page=page, notebook_path=notebook,
                                   stored=site.unpublishable_count(recipe_id))
    path, result = found
    return render(result, page=page, json_path=path.relative_to(site.root).as_posix(),
                  figure_path=site.figure_path(recipe_id), notebook_path=notebook,
                  course_paths={source: site.course_figure_path(recipe_id, source)
                                for source in results.course_sources(result)})


def render_not_measured(recipe_id: str, *, page: str | None = None,
                        notebook_path: str | None = None, stored: int = 0) -> str:
    """Shown until a full run from a clean commit is stored: no numbers invented."""
    lines = ['!!! info "Not measured yet"', "",
             f"    No full-profile result of `{recipe_id}` from a clean commit is stored yet. Run",
             f"    `tuninglab run {recipe_id} --profile full` from a clean tree and commit the file",
             f"    it writes under `results/{recipe_id}/`."]
    if stored:
        lines.append(f"    ({stored} stored result(s) of other profiles or from a tree with "
                     f"uncommitted changes are not shown.)")
    lines.append("")
    if notebook_path and page:
        lines += [f"[Notebook: {recipe_id}]({rel(page, notebook_path)})", ""]
    return "\n".join(lines)


def agreement(result: dict) -> str:
    """The one word for our result against the source (analysis/agreement.py), as the site
    read it; results read by nothing newer fall back on the stored true/false."""
    if result.get("agreement"):
        return result["agreement"]
    agrees = result.get("agrees_with_source")
    if agrees is True:
        return "agrees"
    if agrees is False:
        return "disagrees"
    if result.get("expected") == "none":
        return "no direction claimed"
    return "not comparable"


def curve_reading(curve: dict) -> str:
    """What a curve says in a few bold words, the same on the Results page and in a page's
    block: a sweep's advice (analysis/advice.py: set a value, cannot tell, none), or where a
    load curve saturates."""
    by_arm = {p["arm"]: p for p in curve["points"]}
    if "knee" in curve:  # a sweep, read by today's rule
        best = by_arm.get(curve.get("best"), {}).get("label", "—")
        pick = by_arm.get(curve.get("recommended") or "")
        return {"firm": f"**set {pick['label'] if pick else '—'}**",
                "cannot tell": f"**cannot tell**; best measured: {best}"}.get(
                    curve.get("status"), "**no recommendation**")
    sat = by_arm.get(curve.get("saturation") or "")
    rising = by_arm.get(curve.get("still_rising") or "")  # no plateau within the loads
    return (f"**still rising at {rising['label']}**" if rising
            else f"**saturation: {sat['label'] if sat else '—'}**")


def agreement_word(site, recipe_id: str) -> str:
    """The word of an inline ``<!-- agreement: id -->`` marker: the newest result's."""
    found = site.newest(recipe_id)
    return "not measured yet" if found is None else agreement(found[1])


def render(result: dict, *, page: str, json_path: str, figure_path: str | None = None,
           notebook_path: str | None = None, course_paths: dict | None = None) -> str:
    """The block of one stored full result (paths are docs-relative; links are made relative
    to ``page`` so that MkDocs checks them). An invalid run shows no delta. ``course_paths``:
    the figure of each course the windows hold (courses.py), by source."""
    result = results.upgrade(result)
    lines = _problems(result) + _unsteady(result)
    valid = results.is_valid(result)
    if figure_path and valid:
        lines += [f"![{cell(result.get('title', result['recipe']))}: the measured result]"
                  f"({rel(page, figure_path)})", ""]
    for source, path in (course_paths or {}).items() if valid else ():
        lines += [f"![{cell(result['recipe'])}: {source} through every valid window]"
                  f"({rel(page, path)})", ""]
    lines += [_headline(result), ""]
    stopped = results.stopping_text(result)
    if stopped and valid:
        lines += [f"The run {cell(stopped)}.", ""]
    lines += [f"- **{name}:** {value}" for name, value in _facts(result) if value] + [""]
    if valid:
        for comparison in results.comparisons(result):
            lines += _comparison_table(result, comparison)
        for curve in results.curves(result):
            lines += _curve_table(result, curve)
    lines += profile_table.render(result)
    lines += _source_table(result)
    links = [f"[Raw result (JSON)]({rel(page, json_path)})"]
    if notebook_path:
        links.append(f"[Notebook: {result['recipe']}]({rel(page, notebook_path)})")
    lines += [" · ".join(links), ""]
    return "\n".join(lines)


def _problems(result: dict) -> list[str]:
    validity = result.get("validity") or {}
    problems = list(validity.get("problems") or [])
    if not results.is_valid(result):
        out = ['!!! danger "Not a valid measurement"', "",
               "    Errors come before latency: no delta is reported for this run.", ""]
        return (out + [f"    - {cell(p)}" for p in problems or ["marked invalid"]] + [""]
                + _server_errors(result))
    errors = validity.get("errors") or []
    if errors:
        out = ['!!! warning "Errors at some points of the curve"', "",
               "    These points are reported, and left out of the best value and the knee.", ""]
        return out + [f"    - {cell(e)}" for e in errors[:12]] + [""] + _server_errors(result)
    return []


def _unsteady(result: dict) -> list[str]:
    """A warning beside the numbers when a node's warm-up ended without a plateau."""
    unsteady, checked = results.unsteady_nodes(result)
    if not unsteady:
        return []
    per_level = (result.get("plan") or {}).get("layout") == "per-level"
    why = ("Each value ran on a node of its own, so a node still speeding up counts against "
           "its value and nothing cancels it." if per_level else
           "A node still speeding up adds a drift that the arms' swaps cancel only in part.")
    names = [f"`{node}" + (f" (period {period + 1})" if period else "") + "`"
             for node, period in unsteady[:8]]
    return ['!!! warning "Warm-up not steady"', "",
            f"    {len(unsteady)} of {checked} JVM warm-ups ended without reaching a plateau "
            f"({', '.join(names)}"
            f"{', ...' if len(unsteady) > 8 else ''}). {why} Read the intervals below with "
            f"that in mind.", ""]


def _server_errors(result: dict) -> list[str]:
    """The server's own ERROR lines at the trials with failed requests (the last five)."""
    said = results.server_errors(result)
    if not said:
        return []
    return (["    The server's log at those trials (its last ERROR lines):", "", "    ```text"]
            + [f"    {line[:200]}" for line in said] + ["    ```", ""])


def _headline(result: dict) -> str:
    curves = results.curves(result)
    if results.comparisons(result):
        curves = []  # an A/B run's verdict comes first; its load curves follow in the tables
    if results.is_valid(result) and curves and curves[0].get("recommendation"):
        head = f"**{cell(curves[0]['recommendation'])}**"
        found = curves[0].get("headline")
        if found:
            head += (f" The best value against the reference: "
                     f"{nowrap(fmt_delta(found['delta'], found['ci_low'], found['ci_high']))} "
                     f"(95 % interval).")
        return head
    verdict = result.get("verdict") or "unknown"
    entry = results.primary_entry(result)
    text = f"**Verdict: {verdict}**"
    if entry and results.is_valid(result) and len(results.comparisons(result)) > 1:
        # a verdict per load level, each in its own table below: the headline names them all
        return (f"{text}, {result.get('primary_metric')} at "
                f"{nowrap(results.levels_text(result))} ({results.interval_level(result)} "
                f"intervals; Holm over the load levels); against the source: "
                f"{agreement(result)}.")
    if entry and results.is_valid(result):
        kind, unit = entry.get("delta_kind", "relative"), entry.get("unit")
        text += (f", {result.get('primary_metric')} "
                 f"{nowrap(fmt_delta(entry['delta'], entry.get('ci_low'), entry.get('ci_high'), kind, unit))}"
                 f" ({results.interval_level(result)} interval)")
        if entry.get("detectable") is not None and kind == "relative":
            text += (f"; the smallest effect this run could detect (80 % power) was "
                     f"{fmt_pct(entry['detectable'])}")
        text += f"; against the source: {agreement(result)}"
    return text + "."


def _facts(result: dict) -> list[tuple[str, str]]:
    prov = result.get("provenance") or {}
    design = result.get("design") or {}
    profile = design.get("profile") or {}
    plan = result.get("plan") or {}
    arms = plan.get("arms") or []
    layout = results.layout_text(result)
    run = [fmt_time(prov.get("started")), f"profile {result.get('profile')}",
           f"{len(arms)} arms" + (f" in {layout}" if layout else ""),
           f"{profile.get('blocks')} blocks of {profile.get('settle_s', 0)} s settling + "
           f"{profile.get('window_s')} s measured",
           f"{(prov.get('wall_s') or 0) / 60:.0f} min in all"]
    validity = result.get("validity") or {}
    if validity.get("disturbed"):
        run.append(f"{validity['disturbed']} disturbed trial(s) run again")
    facts = [("Run", ", ".join(run)), ("Warm-up", _warmup_text(result)),
             ("Host", _host(result)), ("Software", _versions(result))]
    if prov.get("git_commit"):
        facts.append(("Commit", code(str(prov["git_commit"])[:12])))
    return facts


def _warmup_text(result: dict) -> str:
    parts = []
    for node, w in (result.get("warmup") or {}).items():
        seconds = sum(x.get("seconds") or 0 for x in w.get("windows", []))
        if seconds:
            state = results.warmup_state(w)
            parts.append(f"{node} {'NOT steady' if state == 'not steady' else state} after "
                         f"{seconds:.0f} s")
    origin = (result.get("provenance") or {}).get("stack_origin") or {}
    served = origin.get("served_before") or []
    if origin.get("taken_over") and served:  # stackpool.py: the JVMs were warm already
        parts.append(f"on a stack taken over warm from {len(served)} earlier run(s), the last "
                     f"{code(served[-1])} ({', '.join(origin.get('nodes_kept_warm') or [])} kept "
                     f"running)")
    return "; ".join(parts)


def _host(result: dict) -> str:
    prov = result.get("provenance") or {}
    bits = [str(prov.get("cpu_model") or "unknown CPU").strip()]
    if prov.get("cpus"):
        bits.append(f"{prov['cpus']} CPUs")
    nodes = prov.get("nodes") or {}
    if nodes:
        config = next(iter(nodes.values())).get("config") or {}
        bits.append(f"each app-server node on CPU {config.get('cpuset')} with a quota of "
                    f"{config.get('cpus')} CPU")
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


def _comparison_table(result: dict, c: dict) -> list[str]:
    load = c.get("load")
    lines = []
    if load:
        lines += [f"**At {', '.join(f'{k.replace(chr(95), chr(32))} {v}' for k, v in load.items())}:** "
                  f"{c.get('verdict')}", ""]
    lines += [f"| Metric | Unit | Baseline | Variant | Delta [{results.interval_level(result)} "
              f"interval] | Detectable | Verdict |",
              "|---|---|--:|--:|--:|--:|---|"]
    metrics = c.get("metrics") or {}
    primary = result.get("primary_metric")
    for name in sorted(metrics, key=lambda n: (n != primary, n)):
        m = metrics[name]
        unit, kind = m.get("unit"), m.get("delta_kind", "relative")
        label = f"**{name}**" if name == primary else name
        arrow = "" if m.get("higher_is_better") is None else ("\u00a0↑" if m["higher_is_better"] else "\u00a0↓")
        detect = fmt_pct(m.get("detectable")) if kind == "relative" else "—"
        holm = " (Holm)" if m.get("p_holm") is not None and name != primary else ""
        said = (results.primary_verdict(c, primary) if name == primary
                else f"{m.get('verdict') or '—'}{holm}")
        lines.append(f"| {label}{arrow} | {cell(unit_label(unit, kind))} "
                     f"| {fmt_value(m.get('baseline'), unit, kind, with_unit=False)} "
                     f"| {fmt_value(m.get('variant'), unit, kind, with_unit=False)} "
                     f"| {nowrap(fmt_delta(m.get('delta'), m.get('ci_low'), m.get('ci_high'), kind, unit))} "
                     f"| {detect} | {said} |")
    lines += ["", "↑ higher is better, ↓ lower is better. Baseline and variant are means over "
                  "trials; deltas and intervals come from the pairs. The verdict rests on the "
                  "primary metric (bold); a secondary is called only when its Holm-adjusted p is "
                  "below 0.05. *Detectable*: the smallest true effect this run would have found "
                  "with 80 % power." + _crossover_note(c) + _left_out_note(c), ""]
    return lines


def _left_out_note(c: dict) -> str:
    """The metrics the comparison left out, and why (analysis/comparisons.py)."""
    left = c.get("left_out") or {}
    return "".join(f" Not shown: {name}, {why}." for name, why in sorted(left.items()))


def _crossover_note(c: dict) -> str:
    """How many periods the interval rests on, and the nodes' own difference it removed; or,
    where the arms took turns on a cluster, that the pairs are turns."""
    if c.get("pairing") == "turn-triples":
        return (f" The arms took turns on the cluster, each turn a reload and a warm-up; each "
                f"turn's windows are averaged, and the {c.get('pairs')} units are three "
                f"consecutive turns each (A B A or B A B), the middle turn against the mean of "
                f"the outer two, so that a steady drift cancels.")
    if c.get("pairing") == "turns":  # the analysis of 2026-11-26 10:57: pairs of turns
        return (f" The arms took turns on the cluster, each turn a reload and a warm-up; the "
                f"pairs are {c.get('pairs')} pairs of consecutive turns, each turn's windows "
                f"averaged, because windows of one turn resemble each other more than windows "
                f"of different turns.")
    if not c.get("periods"):
        return ""
    text = (f" The arms swapped nodes between {c['periods']} periods; the interval rests on "
            f"them.")
    if c.get("node_effect") is not None:
        text += (f" The two nodes themselves differed by {fmt_delta(c['node_effect'])} "
                 f"(`app-2` against `app-1` in the primary metric), which the swaps removed "
                 f"from the delta.")
    return text


def _curve_table(result: dict, curve: dict) -> list[str]:
    sweep = (result.get("change") or {}).get("sweep") or {}
    axis = sweep.get("name") or (curve.get("key") or "load").replace("_", " ")
    unit = sweep.get("unit") or ""
    metric = curve.get("metric", "throughput")
    load = curve.get("load")
    lines = []
    if load:
        lines += [f"**At {', '.join(f'{k} {v}' for k, v in load.items())}:**", ""]
    if curve.get("level"):
        lines += [f"**{cell(curve['level'])}:** {cell(curve.get('recommendation') or '')}", ""]
    header = f"| {cell(axis)}{' (' + cell(unit) + ')' if unit else ''} | {metric} [95 % interval] | against the best | "
    header += "p99 (ms) |" if "latency_p99" in curve else "time in GC | pool wait (ms/tx) |"
    lines += [header + " |", "|--:|--:|--:|" + ("--:|" if "latency_p99" in curve else "--:|--:|") + "---|"]
    against = curve.get("against_best") or {}
    p99 = {p["arm"]: p for p in curve.get("latency_p99") or []}
    ranks = curve.get("ranks") or {}
    unsteady = results.unsteady_arms(result)
    for p in curve.get("points", []):
        marks = [w for w, key in (("best", "best"), ("recommended", "recommended"),
                                  ("saturation", "saturation"),
                                  ("still rising", "still_rising"),
                                  ("latency knee", "latency_knee")) if curve.get(key) == p["arm"]]
        rank = ranks.get(p["arm"])
        if rank in ("equivalent", "worse", "cannot tell"):
            marks.append({"equivalent": f"within {fmt_pct(curve.get('margin'))} of the best",
                          "worse": "measurably worse", "cannot tell": "cannot tell"}[rank])
        if p.get("failed"):
            marks.append("errors")
        if p["arm"] in unsteady:
            marks.append("warm-up not steady")
        vs = against.get(p["arm"]) or {}
        vs_text = "—" if vs.get("is_best") or not vs else nowrap(fmt_delta(vs.get("delta"), vs.get("ci_low"), vs.get("ci_high")))
        x = p.get("value") if p.get("value") is not None else next(iter(p.get("load", {}).values()), "")
        band = _band(p)
        tele = p.get("telemetry") or {}
        extra = (f"{fmt_value((p99.get(p['arm']) or {}).get('mean'))} |" if "latency_p99" in curve
                 else f"{fmt_value(tele.get('gc_time'), 'share', 'absolute')} | {fmt_value(tele.get('pool_wait_ms'))} |")
        lines.append(f"| {x} | {fmt_value(p.get('mean'))} {band} | {vs_text} | {extra} {', '.join(marks)} |")
    lines += ["", f"Rule: {cell(curve.get('rule', ''))}.", ""]
    return lines


def _band(point: dict) -> str:
    mean = point.get("mean")
    if not mean or point.get("ci_low") is None:
        return ""
    return nowrap(fmt_interval(point["ci_low"] / mean - 1, point["ci_high"] / mean - 1))


def _source_table(result: dict) -> list[str]:
    source = result.get("source") or {}
    entry = results.primary_entry(result)
    ours = "—"
    if results.is_valid(result) and entry:
        ours = fmt_delta(entry.get("delta"), entry.get("ci_low"), entry.get("ci_high"),
                         entry.get("delta_kind", "relative"), entry.get("unit"))
    figure = source.get("effect")
    claimed = fmt_delta(figure) if figure is not None else "—"
    # A sweep with no reference arm (unordered choices, a condition) has no primary delta and
    # no verdict (no direction): its result is the curve's reading, in the Results page's words.
    claim_ours = ours
    curves = results.curves(result) if results.is_valid(result) else []
    if entry is None and curves:
        claim_ours = curve_reading(curves[0])
    return ["| | Source | Tuning Lab |", "|---|---|---|",
            f"| Claim or result | {cell(source.get('claim') or '—')} | {cell(claim_ours)} |",
            f"| Figure | {claimed} | {cell(ours)} |",
            f"| Reference | {cell(cite(source))} | this run, {fmt_time((result.get('provenance') or {}).get('started'))} |",
            f"| Direction | {result.get('expected') or '—'} | {result.get('verdict') or '—'} ({agreement(result)}) |",
            ""]
