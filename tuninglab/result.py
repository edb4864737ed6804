"""The result of a run as it is stored (format 2), and one way to read every stored format.

Format 2 carries the plan: its arms, the nodes they ran on, the blocks in the order they ran,
every trial (used or not, and why), each node's warm-up windows, and the analysis, which is
either a list of comparisons (A/B, at one or more load levels) or a list of curves (a sweep,
or a load curve). Format 1 (two arms, before 2026-11-24) stays readable: ``upgrade`` turns it
into the same shape in memory, so pages, notebooks and the CLI have one reader.

This module imports nothing heavy (no Docker, no numpy), so the site build can use it.
"""
from __future__ import annotations

import math

from .numbers import fmt_delta

__all__ = ["FORMAT", "KEYS", "build", "upgrade", "headline", "makes_claims", "proof_text",
           "comparisons", "curves", "primary_entry", "is_valid", "warmup_state", "warm_ups",
           "unsteady_nodes", "unsteady_arms", "layout_text"]

FORMAT = 4

# The metrics a window shared by several arms cannot split between them: the database and the
# load generator serve every arm of a side-by-side slot at once. Format 2 divided the shared
# database's CPU by each arm's own transactions, so that its delta only mirrored the throughput
# ratio; format 3 records it only for an arm that had the database to itself.
SHARED_WINDOW_METRICS = ("db_cpu_per_tx",)

# Every top-level key ``build`` writes, and what it holds. docs/reference/result-format.md is
# generated from this table (marker ``result-format``), and a unit test checks that ``build``
# writes exactly these keys, so the reference cannot drift from the files.
KEYS = {
    "format": "the format version: 4 (older files are read through `upgrade`: files without it "
              "are format 1; format 2 kept `db_cpu_per_tx` for arms measured side by side, "
              "where the shared database's CPU cannot be split between the arms; format 3 had "
              "no crossover: each arm kept its own node for the whole run)",
    "recipe": "the recipe id",
    "title": "the recipe title",
    "profile": "`quick` (CI: no claim) or `full` (what the site publishes)",
    "kind": "`ab`, `ab-by-load` (A/B at several load levels), `sweep` or `load` (a load curve)",
    "verdict": "on the primary metric: `better`, `worse`, `no significant change`, or `invalid` "
               "(no delta is reported); for a sweep, the best value against the reference",
    "primary_metric": "the metric the verdict rests on: `throughput`, `cpu_per_tx`, or "
                      "`error_rate` (a change whose expected outcome is failed requests)",
    "expected": "the direction the source leads us to expect: `better`, `worse`, `no-change`, "
                "`none`",
    "agrees_with_source": "`true` (agrees, in size or in direction only) or `false` "
                          "(disagrees); `null` otherwise",
    "agreement": "our result against the source's claim as the run read it: `agrees`, "
                 "`agrees in direction, smaller than claimed`, `agrees in direction, larger "
                 "than claimed`, `disagrees`, `cannot tell`, `no direction claimed` or "
                 "`not comparable` "
                 "(analysis/agreement.py); the site reads it anew with the recipe's current claim",
    "source": "`{document, section, table, claim, effect, contrast, curve, curves}` from the "
              "recipe; `contrast` names a sweep's comparison the claim is about; `curve` holds "
              "the source's points (`x`, `y`, `y_unit`, `label`, `normalize`, `scale_to`) for a "
              "sweep's or a load curve's plot, `curves` a list of such curves (absent before 29 "
              "November 2026)",
    "change": "`{kind, description, files: {name: text}, sweep}`; `sweep` is `{name, unit, values, "
              "reference, cheaper}` or `null`",
    "workload": "`{mix, model, users, rate, think_time_ms}`, the app's workload parameters (the lab's own app: `lines, note_chars, bulk_rows`) and `deployment`, the app's deployment every arm drove where the recipe names one",
    "plan": "`{kind, layout, switch, nodes, change_levels, load_key, load_values, slots, "
            "concurrency, arms: [{id, label, level, value, load, node}], settings: {arm: what the "
            "arm sets}}`; `layout` is `crossover` (two nodes side by side, the arms swapping "
            "nodes between periods; an arm's `node` is then null), `shared` (one node, arms one "
            "at a time) or `per-level`; `switch` is how the change reaches a server (`runtime`, "
            "`reload`, `restart`, `database`); `slots` lists the arms measured in one window",
    "design": "`{method, confidence, seed, mirrored, blocks: [{index, slots, period, "
              "orientation}], periods: [{period, orientation, arms: {node: level}, "
              "reload_s | start_s, verified, warmup}], switches: [{before_trial, target, level, "
              "reload_s, warmup}], retried, unresolved, sequential: {rule, alpha, margin, "
              "looks: [{blocks, fraction, confidence, pairs, delta, ci_low, ci_high, decision}], "
              "stopped, blocks, confidence}, profile: {blocks, window_s, settle_s, "
              "compile_max_s, plateau_max_s, max_retries, min_usable_share, periods, launches, "
              "sequential, claims, min_transactions, window_max_s, drain_max_s, idle_max_s, "
              "rewarm_windows, cluster_nodes, cluster_cpus}}`; a trial's own "
              "`window_s` is longer than the profile's where its window grew (window_length.py); `sequential` (an A/B run that looked at its interval at planned "
              "points) says why it stopped (`effect`: the interval excluded zero; `equivalent`: "
              "it lay within +-margin; `budget`: every block ran) after how many planned blocks, "
              "and the level of the stored intervals (`confidence`, the stopping look's); "
              "`switches` lists a cluster's reloads to another arm (a change that needs a "
              "reload: every node reloaded and warmed again before the window of `before_trial`); "
              "a sweep with a node per value has periods only with several launches (each node "
              "started anew at every period); the seed "
              "reproduces the "
              "order of the blocks and the periods' orientations (+1: the first change level on "
              "app-1), reversed when `mirrored` (the CI profile may run a crossover's mirror, "
              "an equally likely draw whose first nodes a parked stack has)",
    "verified": "the checks read back before measuring, by where they ran (`database`, `nodes "
                "compared`, `preflight`, one per node, and `servers` for a cluster: every node's view, the "
                "balancer's policy, the requests each node served through it): "
                "`[{what, expected, actual, ok}]`",
    "warmup": "per node: `{node, window_s, compile_max_s, plateau_max_s, rule, steady, seconds, "
              "windows: [{phase, seconds, throughput, error_rate, jit_busy, jit_cpu, jit_share}]}` "
              "(the compiler's CPU figures since 26 November 2026)",
    "validity": "`{valid, problems, errors, disturbed, unresolved_blocks}`: problems invalidate "
                "the run; `disturbed` counts trials measured again because of interference; "
                "`unresolved_blocks` lists blocks still disturbed after the re-runs (left out)",
    "analysis": "`{kind, verdict, comparisons}` for A/B (per comparison: `{baseline, variant, "
                "load, pairs, pairing, periods, node_effect, verdict, metrics: {name: {baseline, "
                "variant, "
                "delta, ci_low, ci_high, detectable, p_value, p_holm, df, n_pairs, n_periods, "
                "node_effect, period_test_p, blocks, verdict, unit, delta_kind, higher_is_better, "
                "primary}}, left_out: {name: why}}`; `left_out` names the metrics that measured "
                "nothing of the transactions in this run (stats.MetricRule.negligible_below: "
                "the database's CPU of an app that uses none); `period_test_p` is the p-value of the crossover's test for a "
                "difference between periods (above 0.25 the interval rests on the pairs); "
                "`node_effect` is how much faster app-2 was than app-1 in a crossover whose "
                "nodes kept their JVMs, removed from the delta; `pairing` is `blocks`, or "
                "`turn-triples` where the arms took turns on a cluster with a reload (each "
                "turn's windows averaged, three consecutive turns a unit, the middle turn "
                "against the mean of the outer two; `blocks` numbers the units), or `turns` "
                "in the one run of 2026-11-26 10:57 (pairs of consecutive turns)) or "
                "`{kind, verdict, curves}` for sweeps and load curves (per curve: `points`, `best`, "
                "`knee` or `saturation` (or `still_rising`: the highest load, when it is the "
                "best and every lower load is measurably below it, so no plateau was seen) and "
                "`latency_knee`, `against_best`, `headline`, `rule`, "
                "`recommendation`); a sweep over a load (users or rate) adds `load_curves`, one "
                "load curve per value (a ladder's configurations over the users)",
    "trials": "every trial, used or not: `{index, block, period, turn (the arms' turns on a "
              "cluster before it; 0 elsewhere), orientation, arm, node, started, "
              "window_s, settle_s, idle_s (seconds without load before the window, where the "
              "recipe measures a burst on an idle server: then no settling), drained_s (seconds "
              "waited for the node to finish the previous window's requests), "
              "status (valid, failed, disturbed), used, errors, disturbances, metrics, load "
              "(with `messages`, `app` and `client` where the driver reports them: an app's "
              "ledger, its own figures, a client JVM's threads, CPU, collector and packets), "
              "transactions, telemetry (a cluster's: its nodes' CPU together, its busiest "
              "compiler, and `members`, each node's own figures and requests), checks, server_errors (the node's ERROR log lines "
              "after a trial with failed requests)}`",
    "profiled_pass": "`null`, or for a recipe with `[metrics] profiled_pass`: the last slot's arms "
                     "measured once more while Java Flight Recorder sampled each node, after "
                     "the trials and in none of them (profiling.py): `{settings, window_s, "
                     "nodes: {arm: node}, quota_lifted (the nodes ran without their CPU quota "
                     "for the pass), arms: {arm: {samples, truncated, self, total, packages}}, "
                     "error}`; `self` and `total` list `[method, samples]`, the methods most "
                     "often on top of a sampled stack and anywhere in it; `packages` every "
                     "package with the samples it was anywhere in (from 28 November 2026 "
                     "12:00)",
    "provenance": "where and from what it ran: `{host, cpu_model, cpus, kernel, python, started, "
                  "finished, wall_s, versions, images, wildfly_derived, nodes: {node: {config, "
                  "jvm}}, placement (the cpusets, and `hosts`: where the stack ran, with the "
                  "host and CPU model of a remote engine or of every swarm host and the host "
                  "of every role), network (the tiers' round trips and rate at the start), "
                  "stack_inputs, role_inputs (the hash of each role only some recipes "
                  "add: a cluster's balancer, a server module), stack_ready_s, stack_origin ("
                  "`{taken_over, served_before, nodes_kept_warm, system_properties_cleared}`: a "
                  "stack taken over warm from earlier runs, named `<recipe>/<start>`, the nodes it "
                  "kept running, and by node the system properties those runs left in its JVM, "
                  "removed before this run (from 29 November 2026; a takeover without them kept "
                  "them, and staleness says so)), "
                  "recipe_hash, "
                  "measured_hash (the "
                  "recipe without its prose and its CI profile: what staleness compares), git_commit, "
                  "git_dirty, git_dirty_paths, cluster (a recipe with [cluster]: its spec, and what forming it "
                  "took: `formed`), calibration (the host-speed index timed before the first "
                  "warm-up: `{what, unit, iterations, dropped, median_ms, min_ms, max_ms}`; "
                  "calibration.py), phases (seconds by phase: `{preflight_s, stack_s, "
                  "configure_s, calibration_s, warmup_s, trials_s, switches_s, reruns_s, waiting_s, "
                  "profiling_s, teardown_s, analysis_s}`; `switches_s` is the trial loop's period switches, reloads or "
                  "fresh JVMs and their warm-ups, `reruns_s` its re-run blocks, `waiting_s` its "
                  "waits for a quiet host before a re-run (quiet.py), each outside "
                  "`trials_s`)}`",
}
METHOD = ("randomized mirrored blocks (each block runs every arm once; the next block runs "
          "them in reverse order); A/B arms of the application server in a crossover (two nodes "
          "side by side, the arms swapping nodes between periods in mirrored orientations); "
          "Student-t intervals on log ratios (ratio metrics) or differences (shares) over "
          "blocks, or over a crossover's periods with the nodes' difference removed; secondary "
          "metrics Holm-adjusted")


def build(*, recipe, profile, plan, kind, seed, blocks, queue_log, trials, verified, warmups,
          analysis, validity, provenance, periods=(), switches=(), mirrored=False,
          profiled_pass=None) -> dict:
    from .analysis import agreement
    from .analysis.agreement import in_direction
    verdict = analysis.get("verdict") if validity["valid"] else "invalid"
    src = recipe.source
    out = {
        "format": FORMAT,
        "recipe": recipe.id,
        "title": recipe.title,
        "profile": profile.name,
        "kind": plan.kind,
        "verdict": verdict,
        "primary_metric": recipe.metrics.primary,
        "expected": src.expected,
        "agrees_with_source": None,
        "agreement": None,
        "source": {"document": src.document, "section": src.section, "table": src.table,
                   "claim": src.claim, "effect": src.effect, "contrast": src.contrast,
                   "curve": None if src.curve is None else src.curve.as_dict(),
                   "curves": [curve.as_dict() for curve in src.curves]},
        "change": {"kind": recipe.change.kind, "description": kind.describe(),
                   "files": kind.files(),
                   "sweep": None if recipe.sweep is None else {
                       "name": recipe.sweep.name, "unit": recipe.sweep.unit,
                       "values": list(recipe.sweep.values), "reference": recipe.sweep.reference,
                       "cheaper": recipe.sweep.cheaper}},
        # the generic keys, then the app's workload parameters (the lab's own app: lines,
        # note_chars, bulk_rows), as results before parameters stored them
        "workload": {**{k: getattr(recipe.workload, k) for k in (
            "mix", "model", "users", "rate", "think_time_ms")}, **recipe.workload.parameters,
            # the app's deployment every arm drove, where the recipe names one
            **({"deployment": recipe.workload.deployment} if recipe.workload.deployment
               else {})},
        "plan": {**plan.as_dict(), "settings": {a.id: kind.describe(a) for a in plan.arms}},
        "design": {"method": METHOD, "seed": seed, "mirrored": mirrored,
                   "confidence": (queue_log.get("sequential") or {}).get("confidence", 0.95),
                   "blocks": [b.as_dict() for b in blocks], "periods": list(periods),
                   "switches": list(switches), **queue_log,
                   "profile": {k: getattr(profile, k) for k in (
                       "blocks", "window_s", "settle_s", "compile_max_s", "plateau_max_s",
                       "max_retries", "min_usable_share", "periods", "launches",
                       "sequential", "claims", "min_transactions", "window_max_s",
                       "drain_max_s", "idle_max_s", "rewarm_windows", "cluster_nodes",
                       "cluster_cpus")}},
        "verified": verified,
        "warmup": warmups,
        "validity": validity,
        "analysis": analysis,
        "trials": trials,
        "profiled_pass": profiled_pass,
        "provenance": provenance,
    }
    word = agreement(out, contrast=src.contrast, margin=recipe.metrics.margin)
    out["agreement"] = word
    out["agrees_with_source"] = True if in_direction(word) else {"disagrees": False}.get(word)
    return out


def upgrade(result: dict) -> dict:
    """A stored result in the current shape. The stored dict is not changed."""
    fmt = result.get("format", 1)
    if fmt < 2:
        result = _from_format_1(result)
    if fmt < 3:
        result = _without_shared_window_metrics(result)
    return result


def _without_shared_window_metrics(result: dict) -> dict:
    """Format 2 → 3: drop the metrics of SHARED_WINDOW_METRICS where arms shared a window."""
    if (result.get("plan") or {}).get("concurrency", 1) <= 1:
        return result
    out = dict(result)

    def strip(metrics: dict) -> dict:
        return {k: v for k, v in (metrics or {}).items() if k not in SHARED_WINDOW_METRICS}

    out["trials"] = [{**t, "metrics": strip(t.get("metrics"))} for t in result.get("trials", [])]
    analysis = dict(result.get("analysis") or {})
    if analysis.get("comparisons"):
        analysis["comparisons"] = [{**c, "metrics": strip(c.get("metrics"))}
                                   for c in analysis["comparisons"]]
    out["analysis"] = analysis
    return out


def _from_format_1(result: dict) -> dict:
    """Format 1 → 2: plan, design and analysis from the flat A/B record."""
    out = dict(result)
    method = result.get("method") or {}
    order = method.get("order") or [t.get("arm") for t in result.get("trials", [])]
    pairs = method.get("pairs") or len(order) // 2
    out["kind"] = "ab"
    out["plan"] = {"kind": "ab", "change_levels": ["baseline", "variant"], "load_key": None,
                   "load_values": [],
                   "arms": [{"id": a, "label": a, "level": a, "value": None, "load": {},
                             "node": "app"} for a in ("baseline", "variant")]}
    out["design"] = {"method": method.get("ci", ""), "confidence": method.get("confidence", 0.95),
                     "seed": None, "blocks": [{"index": i, "arms": order[2 * i:2 * i + 2]}
                                              for i in range(pairs)],
                     "retried": [], "unresolved": [],
                     "profile": {"blocks": pairs, "window_s": method.get("trial_s"),
                                 "settle_s": method.get("warmup_s"),
                                 "stack_warmup_s": method.get("stack_warmup_s")}}
    trials = []
    for t in result.get("trials", []):
        t = dict(t)
        t.setdefault("block", t.get("pair"))
        t.setdefault("status", "valid" if t.get("valid", True) else "failed")
        t.setdefault("used", t["status"] == "valid")
        trials.append(t)
    out["trials"] = trials
    metrics = result.get("metrics") or {}
    primary = result.get("primary_metric")
    if primary in metrics:
        metrics = {k: {**v, "primary": k == primary} for k, v in metrics.items()}
    out["analysis"] = {"kind": "ab", "verdict": result.get("verdict"), "comparisons": [
        {"baseline": "baseline", "variant": "variant", "primary_metric": primary,
         "verdict": result.get("verdict"), "pairs": pairs, "metrics": metrics, "load": None,
         "secondary_correction": None}]} if metrics else {"kind": "ab", "verdict": result.get("verdict")}
    warm = result.get("warmup")
    out["warmup"] = {"app": {"node": "app", "steady": warm.get("steady"),
                             "windows": [{"phase": "plateau", "seconds": warm.get("window_s", 10),
                                          "throughput": x, "error_rate": e, "jit_busy": None}
                                         for x, e in zip(warm.get("throughput", []),
                                                         warm.get("error_rate", []))]}} if warm else {}
    return out


def warmup_state(warmup: dict) -> str:
    """How a node's warm-up ended: `steady`, `not steady`, or `no plateau check` (the CI
    profile compiles for one window and does not wait for a plateau)."""
    if warmup.get("plateau_max_s") == 0:
        return "no plateau check"
    return "steady" if warmup.get("steady") else "not steady"


def warm_ups(result: dict) -> list[tuple[str, int, dict]]:
    """Every JVM warm-up of a run as (node, period, warm-up): the first, and those of each
    later period that started its nodes anew (a restart crossover, a sweep's launches)."""
    found = [(node, 0, w) for node, w in (result.get("warmup") or {}).items()]
    for period in (result.get("design") or {}).get("periods") or []:
        for node, w in (period.get("warmup") or {}).items():
            found.append((node, period.get("period", 0), w))
    return found


def unsteady_nodes(result: dict) -> tuple[list[tuple[str, int]], int]:
    """The warm-ups that ended without a plateau, as (node, period), and how many warm-ups
    had the check."""
    checked = [(node, period, w) for node, period, w in warm_ups(result)
               if warmup_state(w) != "no plateau check"]
    unsteady = [(node, period) for node, period, w in checked
                if warmup_state(w) == "not steady"]
    return unsteady, len(checked)


def unsteady_arms(result: dict) -> set[str]:
    """The arms that ran on a node whose warm-up ended without a plateau (a sweep's node per
    value: the mark belongs to that value)."""
    unsteady = {node for node, _ in unsteady_nodes(result)[0]}
    return {a["id"] for a in (result.get("plan") or {}).get("arms") or []
            if a.get("node") in unsteady}


def layout_text(result: dict) -> str:
    """Where the arms ran, in words ("" for results from before the layouts had names)."""
    plan = result.get("plan") or {}
    periods = len((result.get("design") or {}).get("periods") or []) or None
    layout, switch = plan.get("layout"), plan.get("switch")
    if layout == "crossover":
        how = {"runtime": "every block", "reload": "with a reload between periods",
               "restart": "with fresh JVMs in every period"}.get(switch, "between periods")
        text = f"a crossover of two nodes side by side, the arms swapping nodes {how}"
        return text + (f" ({periods} periods)" if periods and switch != "runtime" else "")
    if layout == "shared" and switch == "reload":
        switches = len((result.get("design") or {}).get("switches") or [])
        where = ("one cluster, the arms taking turns on its nodes, each turn a reload of every "
                 "node" if (result.get("provenance") or {}).get("cluster")
                 else "one node, the arms taking turns on it, each turn a reload")
        return f"{where} and a warm-up ({switches} turns)"
    if layout == "shared":
        return "one node, the setting switched in place before every trial"
    if layout == "per-level":
        at_once = ("all in the same window" if plan.get("concurrency", 1) > 1
                   else "one at a time")
        return f"one node per value, measured {at_once}" + launches_text(switch, periods)
    if plan.get("concurrency", 1) > 1:
        return "one node per arm, side by side (no swapping: before the crossover)"
    return ""


def launches_text(switch: str | None, periods: int | None) -> str:
    """How a sweep with a node per value started its nodes anew ("" for a single launch); the
    run's progress line and the stored result's description say it the same way."""
    if not periods or periods < 2:
        return ""
    anew = {"reload": "reloaded", "restart": "with a fresh JVM"}.get(switch, "started anew")
    return f", each node {anew} in each of {periods} launches"


def is_valid(result: dict) -> bool:
    return bool((result.get("validity") or {}).get("valid", result.get("verdict") != "invalid"))


def server_errors(result: dict, last: int = 5) -> list[str]:
    """The server's ERROR lines stored with the trials whose requests failed, each once, the
    last ``last`` of them."""
    said = dict.fromkeys(line for t in result.get("trials", []) for line in
                         t.get("server_errors") or [])
    return list(said)[-last:]


def comparisons(result: dict) -> list[dict]:
    return (result.get("analysis") or {}).get("comparisons") or []


def curves(result: dict) -> list[dict]:
    return (result.get("analysis") or {}).get("curves") or []


def interval_level(result: dict) -> str:
    """The level of the stored intervals as text ("95 %"; a sequential run that stopped at a
    look stores its intervals at that look's level, e.g. "99.4 %")."""
    return level_text((result.get("design") or {}).get("confidence", 0.95))


def level_text(level: float) -> str:
    """A confidence level as text: "95 %", or "97.9 %" for a look's level, with the decimals a
    strict early look needs not to read as certainty ("99.96 %", never "100.0 %")."""
    if abs(level - 0.95) < 5e-4:
        return "95 %"
    for decimals in (1, 2, 3):
        text = f"{level * 100:.{decimals}f}"
        if float(text) < 100:
            return f"{text} %"
    return f"{level * 100:.4f} %"


def stopping_text(result: dict) -> str | None:
    """Why a sequential run stopped where it did, or None for a run of fixed length."""
    record = (result.get("design") or {}).get("sequential")
    if not record:
        return None
    planned = len((result.get("design") or {}).get("blocks") or []) or record["blocks"]
    why = {"effect": "its interval excluded zero, so the sign of the effect was settled",
           "equivalent": f"its interval lay within +-{record['margin']:.0%}, so any effect is "
                         f"smaller than the recipe's margin",
           "budget": "no look settled the answer earlier"}[record["stopped"]]
    return (f"stopped after {record['blocks']} of {planned} planned blocks: {why} "
            f"({len(record['looks'])} look(s), each at a level that keeps the chance of a "
            f"false claim at {record['alpha']:.0%}; intervals at {interval_level(result)})")


def primary_entry(result: dict) -> dict | None:
    """The number a one-line summary reports: the primary metric's comparison (A/B, first load
    level), or a sweep's headline (its best value against the reference)."""
    found = comparisons(result)
    if found:
        c = found[0]
        return (c.get("metrics") or {}).get(result.get("primary_metric"))
    for curve in curves(result):
        if curve.get("headline"):
            return curve["headline"]
    return None


# Where several load levels' primary p-values were adjusted together (analysis: Holm), a
# level's verdict is the adjusted one, which its primary row says it is.
LEVELS_ADJUSTED = " (Holm over the load levels)"


def primary_verdict(comparison: dict, primary: str) -> str:
    """The verdict a comparison's primary metric row shows: the comparison's own, which rests
    on the primary metric, adjusted over the load levels where there are several (an interval
    that excludes zero can then read no significant change)."""
    m = (comparison.get("metrics") or {}).get(primary) or {}
    adjusted = m.get("p_holm") is not None
    return f"{comparison.get('verdict') or m.get('verdict')}{LEVELS_ADJUSTED if adjusted else ''}"


def levels_text(result: dict) -> str:
    """Each load level's verdict and primary interval, for a run compared at several levels."""
    primary = result.get("primary_metric")
    parts = []
    for c in comparisons(result):
        m = (c.get("metrics") or {}).get(primary) or {}
        where = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in (c.get("load") or {}).items())
        parts.append(f"{where}: {c.get('verdict')}, {_pct(m.get('delta'))} "
                     f"[{_pct(m.get('ci_low'))}, {_pct(m.get('ci_high'))}]")
    return "; ".join(parts)


def course_sources(result: dict) -> list[str]:
    """The courses (courses.py) a result's valid windows hold, in the order first met (a source
    read only with errors has none: plot.courses draws nothing of it)."""
    found: dict[str, None] = {}
    for trial in result.get("trials") or ():
        if not trial.get("used"):
            continue
        for sample in (trial.get("telemetry") or {}).get("courses") or ():
            found.update(dict.fromkeys(name for name, figures in sample.items()
                                       if isinstance(figures, dict) and "error" not in figures))
    return list(found)


def makes_claims(result: dict) -> bool:
    """Whether the result's profile reports a verdict (profiles.toml ``claims``; a result from
    before the key: every profile but the CI one)."""
    stored = ((result.get("design") or {}).get("profile") or {}).get("claims")
    return stored if isinstance(stored, bool) else result.get("profile") != "quick"


def proof_text(result: dict) -> str:
    """What a run that makes no claim proved: the change read back, every arm served, and how
    many requests failed (errors first)."""
    trials = result.get("trials") or []
    served = {t["arm"] for t in trials if (t.get("load") or {}).get("requests")}
    arms = [a["id"] for a in (result.get("plan") or {}).get("arms", [])] or sorted(served)
    requests = sum((t.get("load") or {}).get("requests") or 0 for t in trials)
    failed = sum((t.get("load") or {}).get("failed") or 0 for t in trials)
    verified = result.get("verified") or {}
    checks = [c for found in verified.values() for c in found] if isinstance(verified, dict) \
        else []
    passed = sum(bool(c.get("ok")) for c in checks)
    unserved = [a for a in arms if a not in served]
    return (f"{result.get('profile')} run, no claim: the change applied and read back "
            f"({passed}/{len(checks)} checks), {len(served)}/{len(arms)} arms served "
            f"{requests:,} requests, {failed:,} failed"
            + (f"; never served: {', '.join(unserved)}" if unserved else ""))


def headline(result: dict) -> str:
    """One line: the verdict and the number behind it (or why there is none); for a profile
    that makes no claim, what the run proved."""
    if not is_valid(result):
        problems = (result.get("validity") or {}).get("problems") or []
        return "INVALID: " + "; ".join(problems)[:400]
    if not makes_claims(result):
        return proof_text(result)
    found = curves(result)
    if found and found[0].get("recommendation") and not comparisons(result):
        return found[0]["recommendation"]
    entry = primary_entry(result)
    if entry is None:
        return f"verdict: {result.get('verdict')}"
    if len(comparisons(result)) > 1:  # a verdict per load level: each with its own number
        return (f"verdict: {result.get('verdict')} ({result.get('primary_metric')} at "
                f"{levels_text(result)}; Holm over the load levels)")
    detectable = entry.get("detectable")
    known = isinstance(detectable, float) and math.isfinite(detectable)
    if entry.get("delta_kind") == "absolute":  # a share (the error rate): percentage points
        kind, unit = "absolute", entry.get("unit")
        number = fmt_delta(entry.get("delta"), entry.get("ci_low"), entry.get("ci_high"), kind,
                           unit)
        size = fmt_delta(detectable, delta_kind=kind, unit=unit).lstrip("+") if known else ""
    else:
        number = (f"{_pct(entry.get('delta'))} [{_pct(entry.get('ci_low'))}, "
                  f"{_pct(entry.get('ci_high'))}]")
        size = f"{detectable:.1%}" if known else ""
    extra = f"; smallest detectable effect {size}" if known else ""
    return f"verdict: {result.get('verdict')} ({result.get('primary_metric')} {number}{extra})"


def _pct(x) -> str:
    if x is None or not isinstance(x, (int, float)) or not math.isfinite(x):
        return "unbounded"
    return f"{x * 100:+.1f} %"
