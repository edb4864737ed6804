"""Plain-text views of stored results, for the terminal and notebooks: problems first, then the
verdict with the smallest effect the run could have detected, then every metric (A/B) or every
point of the curve (sweeps and load curves), then what was verified."""
from __future__ import annotations

from . import layout, profiling
from . import result as results
from .analysis import read_stored
from .numbers import fmt_delta, fmt_interval, fmt_pct, fmt_value
from .recipe import RecipeError, find_recipe

ORDER = ["throughput", "cpu_per_tx", "latency_p50", "latency_p90", "latency_p99", "error_rate",
         "db_cpu_per_tx", "gc_time", "pool_wait_ms"]


def summary(result: dict) -> str:
    result = _read(result)
    prov = result.get("provenance") or {}
    lines = [f"{result['recipe']}: {result.get('title', '')}",
             f"profile {result['profile']}, {_design_text(result)}, started {prov.get('started')} "
             f"on {prov.get('host')} ({prov.get('cpu_model', '?')})"]
    validity = result.get("validity") or {}
    if not results.is_valid(result):
        lines.append("INVALID MEASUREMENT (no delta reported):")
        lines += [f"  - {p}" for p in validity.get("problems", [])]
    elif validity.get("errors"):
        lines.append("ERRORS at some points (left out of the curve's best and knee):")
        lines += [f"  - {p}" for p in validity["errors"][:10]]
    said = results.server_errors(result)
    if said:
        lines.append("the server's log at those trials (ERROR lines, the last 5):")
        lines += [f"  | {line[:200]}" for line in said]
    if validity.get("disturbed"):
        lines.append(f"{validity['disturbed']} disturbed trial(s) (a node's compiler still busy, or "
                     f"the machine) were run again (kept in the result, not counted)")
    lines.append(f"{results.headline(result)}")
    if results.makes_claims(result):
        stopped = results.stopping_text(result)
        if stopped:
            lines.append(stopped)
        lines.append(f"source expected {result.get('expected')}; against the source: "
                     f"{result.get('agreement')}")
        for comparison in results.comparisons(result):
            lines += _comparison_lines(comparison, results.interval_level(result))
        for curve in results.curves(result):
            lines += _curve_lines(curve, result)
    else:  # its windows support no interval: the published measurement answers instead
        lines += _published_lines(result["recipe"])
    lines += _warmup_lines(result)
    lines += _profiled_lines(result)
    verified = [c for found in (result.get("verified") or {}).values() for c in found] \
        if isinstance(result.get("verified"), dict) else (result.get("change") or {}).get("verified", [])
    lines.append(f"change: {(result.get('change') or {}).get('description')}")
    lines.append(f"verified before measuring: {sum(c['ok'] for c in verified)}/{len(verified)} "
                 f"checks passed; every trial re-verified its arm")
    return "\n".join(lines)


def _published_lines(recipe_id: str) -> list[str]:
    """The workspace's newest full-profile result of the recipe, as its headline. Only the
    workspace's own: a recipe ported from the catalogue keeps its id, and the catalogue's
    result measured the lab's app, not the one this run drove."""
    from .store import ResultError, list_results, load_result
    home = layout.workspace()
    for path in reversed(list_results(home / "results", recipe_id)):
        try:
            stored = load_result(path)
        except ResultError:
            continue
        if results.makes_claims(stored) and stored.get("profile") == "full":
            shown = path.relative_to(home)
            return [f"the published measurement ({shown}, "
                    f"{(stored.get('provenance') or {}).get('started', '?')[:10]}): "
                    f"{results.headline(stored)}"]
    how = (f"bash scripts/publish.sh {recipe_id}" if home == layout.REPO_ROOT
           else f"tuninglab run {recipe_id} --profile full")
    return [f"no full-profile measurement of {recipe_id} in {home} yet: {how}"]


def _read(result: dict) -> dict:
    """The result read by today's rules and its recipe's current claim, as the site reads it
    (analysis.read_stored); a result whose recipe is gone is read with the claim it stored."""
    try:
        recipe = find_recipe(layout.recipes_dir(), result["recipe"])
    except (RecipeError, KeyError):
        recipe = None
    return read_stored(results.upgrade(result), recipe)


def _design_text(result: dict) -> str:
    design = result.get("design") or {}
    profile = design.get("profile") or {}
    arms = len((result.get("plan") or {}).get("arms") or [])
    text = (f"{arms} arms, {profile.get('blocks')} blocks of {profile.get('window_s')} s "
            f"measured windows")
    layout = results.layout_text(result)
    return f"{text}, {layout}" if layout else text


def _comparison_lines(c: dict, level: str = "95 %") -> list[str]:
    load = c.get("load")
    head = f"{c['variant']} against {c['baseline']}" + (f" at {_load_text(load)}" if load else "")
    over = {"turns": f"{c.get('pairs')} pairs of turns",
            "turn-triples": f"{c.get('pairs')} units of three turns"}.get(c.get("pairing"),
                                                                       f"{c.get('pairs')} pairs")
    if c.get("periods"):
        over += f" in {c['periods']} periods"
    lines = [f"-- {head}: verdict {c.get('verdict')} over {over}"]
    if c.get("node_effect") is not None:
        lines.append(f"   the nodes themselves: app-2 {fmt_delta(c['node_effect'])} "
                     f"against app-1 in the primary metric, removed from the delta")
    lines += [
             f"{'metric':<14}{'baseline':>12}{'variant':>12}   {f'delta [{level} CI]':<26}"
             f"{'detectable':>11}  verdict"]
    metrics = c.get("metrics") or {}
    names = ORDER + sorted(set(metrics) - set(ORDER))
    for name in sorted(names, key=lambda n: not (metrics.get(n) or {}).get("primary")):
        m = metrics.get(name)
        if not m:
            continue
        kind, unit = m.get("delta_kind"), m.get("unit")
        mark = "*" if m.get("primary") else " "
        detect = fmt_pct(m.get("detectable")) if kind == "relative" else \
            fmt_delta(m.get("detectable"), delta_kind=kind, unit=unit)
        holm = " (Holm)" if m.get("p_holm") is not None and not m.get("primary") else ""
        said = (results.primary_verdict(c, name) if m.get("primary")
                else f"{m['verdict']}{holm}")
        lines.append(f"{mark}{name:<13}{fmt_value(m['baseline'], unit, kind, with_unit=False):>12}"
                     f"{fmt_value(m['variant'], unit, kind, with_unit=False):>12}   "
                     f"{fmt_delta(m['delta'], m.get('ci_low'), m.get('ci_high'), kind, unit):<26}"
                     f"{detect:>11}  {said}")
    lines.append(f"* primary metric ({level}); secondaries are called only when their Holm-adjusted "
                 "p < 0.05")
    lines += [f"  not shown: {name}, {why}" for name, why in sorted((c.get("left_out") or {}).items())]
    return lines


def _curve_lines(curve: dict, result: dict) -> list[str]:
    load = curve.get("load")
    sweep = (result.get("change") or {}).get("sweep") or {}
    axis = sweep.get("name") or curve.get("key") or "level"
    lines = [f"-- curve of {curve.get('metric')} over {axis}"
             + (f" at {_load_text(load)}" if load else "")]
    against = curve.get("against_best") or {}
    for p in curve.get("points", []):
        marks = []
        if p["arm"] == curve.get("best"):
            marks.append("best")
        if p["arm"] == curve.get("knee") or p["arm"] == curve.get("saturation"):
            marks.append("knee" if "knee" in curve else "saturation")
        if p["arm"] == curve.get("latency_knee"):
            marks.append("latency knee")
        if p.get("failed"):
            marks.append("ERRORS")
        vs = against.get(p["arm"]) or {}
        vs_text = "" if vs.get("is_best") or not vs else \
            f"  vs best {fmt_delta(vs.get('delta'), vs.get('ci_low'), vs.get('ci_high'))}"
        lines.append(f"  {p['label']:<28} {fmt_value(p.get('mean')):>10} "
                     f"{fmt_interval(_rel(p, 'ci_low'), _rel(p, 'ci_high'))}{vs_text}"
                     f"{'  [' + ', '.join(marks) + ']' if marks else ''}")
    lines.append(f"rule: {curve.get('rule')}")
    lines.append(f"recommendation: {curve.get('recommendation')}")
    return lines


def _rel(point: dict, key: str):
    """A point's interval bound relative to its mean (for the bracket notation)."""
    if point.get(key) is None or not point.get("mean"):
        return None
    return point[key] / point["mean"] - 1


def _profiled_lines(result: dict, rows: int = 8) -> list[str]:
    """The profiled pass (profiling.py): each arm's hottest methods, as shares of its samples."""
    record = result.get("profiled_pass")
    if not record:
        return []
    if record.get("error") or not record.get("arms"):
        return [f"profiled pass: failed ({record.get('error')}); no number depends on it"]
    arms = list(record["arms"])
    samples = ", ".join(f"{label} {arm['samples']}" for label, arm in record["arms"].items())
    lines = [f"profiled pass (JFR {record['settings']}, {record['window_s']} s after "
             f"the trials, in no number above): methods on top of a sampled stack, share of "
             f"samples ({samples})"]
    width = max(len(a) for a in arms) + 2
    lines.append("  " + "".join(f"{a:>{width}}" for a in arms) + "  method")
    for row in profiling.hottest(record, "self", rows)[:rows]:
        shares = "".join(f"{'-' if v is None else f'{v:.1%}':>{width}}"
                         for v in (row["shares"][a] for a in arms))
        lines.append(f"  {shares}  {profiling.short_method(row['method'])}")
    differing = profiling.differing(record, rows)
    if differing:
        lines.append("  packages anywhere on the stack, most different first:")
        for row in differing:
            shares = "".join(f"{row['shares'][a]:>{width}.1%}" for a in arms)
            lines.append(f"  {shares}  {row['package']}")
    return lines


def _warmup_lines(result: dict) -> list[str]:
    out = []
    for node, w in (result.get("warmup") or {}).items():
        windows = w.get("windows") or []
        if not windows:
            continue
        out.append(f"warm-up {node}: {results.warmup_state(w)} after "
                   f"{sum(x['seconds'] for x in windows):.0f} s ({len(windows)} windows, last "
                   f"{windows[-1]['throughput']:,.0f} tx/s)")
    switches = (result.get("design") or {}).get("switches") or []
    if switches:  # a cluster whose change needs a reload: each turn reloaded and re-warmed it
        warm = sorted(sum(x["seconds"] for x in w.get("windows") or [])
                      for s in switches for w in (s.get("warmup") or {}).values())
        steady = sum(bool(w.get("steady")) for s in switches
                     for w in (s.get("warmup") or {}).values())
        again = (f", each warmed again for {warm[0]:.0f}-{warm[-1]:.0f} s (median "
                 f"{warm[len(warm) // 2]:.0f} s), {steady} of {len(warm)} steady" if warm else "")
        out.append(f"turns of the arms: {len(switches)} reloads of every node{again}")
    return out


def _load_text(load: dict) -> str:
    return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in load.items())


def comparison(a: dict, b: dict) -> str:
    """Two results side by side (the same recipe on two machines or two commits)."""
    a, b = results.upgrade(a), results.upgrade(b)
    lines = []
    if a["recipe"] != b["recipe"]:
        lines.append(f"WARNING: different recipes ({a['recipe']} and {b['recipe']}): the numbers "
                     f"are side by side, not comparable")
    lines += [f"A: {a['recipe']} {a['profile']} {a['provenance']['started']} "
              f"{a['provenance']['host']}: {a['verdict']}",
              f"B: {b['recipe']} {b['profile']} {b['provenance']['started']} "
              f"{b['provenance']['host']}: {b['verdict']}",
              f"{'metric':<14}{f'A delta [{results.interval_level(a)} CI]':>34}"
              f"{f'B delta [{results.interval_level(b)} CI]':>34}  intervals"]
    ca, cb = results.comparisons(a), results.comparisons(b)
    if not ca or not cb:
        lines.append("(metric-by-metric comparison is for A/B results; see each summary)")
        return "\n".join(lines)
    for name in ORDER:
        ma, mb = ca[0]["metrics"].get(name), cb[0]["metrics"].get(name)
        if not ma or not mb:
            continue
        lines.append(f"{name:<14}{fmt_delta(ma['delta'], ma['ci_low'], ma['ci_high'], ma['delta_kind'], ma['unit']):>34}"
                     f"{fmt_delta(mb['delta'], mb['ci_low'], mb['ci_high'], mb['delta_kind'], mb['unit']):>34}  "
                     f"{'overlap' if _overlap(ma, mb) else 'DISJOINT'}")
    return "\n".join(lines)


def _overlap(a: dict, b: dict) -> bool:
    inf = float("inf")
    lo = lambda m: -inf if m["ci_low"] is None else m["ci_low"]  # noqa: E731
    hi = lambda m: inf if m["ci_high"] is None else m["ci_high"]  # noqa: E731
    return lo(a) <= hi(b) and lo(b) <= hi(a)
