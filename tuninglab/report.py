"""Plain-text views of stored results, for the terminal and notebooks: problems first, then the
verdict, then every metric with its interval, then what was verified."""
from __future__ import annotations

import math

ORDER = ["throughput", "latency_p50", "latency_p90", "latency_p99", "error_rate", "cpu_per_tx",
         "gc_time", "pool_wait_ms"]


def format_delta(m: dict) -> str:
    """'+12.3 % [+8.1, +16.7]' for relative deltas, '+0.40 pp [...]' for absolute shares,
    'n/a' when the interval is unbounded."""
    relative = m.get("delta_kind") == "relative"
    scale, unit = (100, " %") if relative else (_absolute_scale(m), _absolute_unit(m))
    low, high = m.get("ci_low"), m.get("ci_high")
    bound = lambda x: "inf" if x is None or not math.isfinite(x) else f"{x * scale:+.1f}"  # noqa: E731
    return f"{m['delta'] * scale:+.1f}{unit} [{bound(low)}, {bound(high)}]"


def _absolute_scale(m: dict) -> float:
    return 100 if m.get("unit", "").startswith(("share", "fraction")) else 1


def _absolute_unit(m: dict) -> str:
    return " pp" if m.get("unit", "").startswith(("share", "fraction")) else " " + m.get("unit", "")


def format_value(value, unit: str) -> str:
    if value is None:
        return "-"
    if unit.startswith(("share", "fraction")):
        return f"{value:.2%}"
    return f"{value:,.2f}"


def summary(result: dict) -> str:
    lines = [f"{result['recipe']}: {result.get('title', '')}",
             f"profile {result['profile']}, {result['method']['pairs']} pairs, "
             f"started {result['provenance']['started']} on {result['provenance']['host']} "
             f"({result['provenance'].get('cpu_model', '?')})"]
    problems = result["validity"]["problems"]
    if problems:
        lines.append("INVALID MEASUREMENT (no delta reported):")
        lines += [f"  - {p}" for p in problems]
    lines.append(f"verdict ({result['primary_metric']}): {result['verdict']}; source expected "
                 f"{result['expected']}; agrees with source: {result['agrees_with_source']}")
    if result["metrics"]:
        lines.append(f"{'metric':<14}{'baseline':>14}{'variant':>14}   delta [95 % CI]   verdict")
        for name in ORDER + sorted(set(result["metrics"]) - set(ORDER)):
            m = result["metrics"].get(name)
            if not m:
                continue
            lines.append(f"{name:<14}{format_value(m['baseline'], m['unit']):>14}"
                         f"{format_value(m['variant'], m['unit']):>14}   {format_delta(m)}   "
                         f"{m['verdict']}")
    verified = result["change"]["verified"]
    lines.append(f"change: {result['change']['description']}")
    lines.append(f"verified before measuring: {sum(c['ok'] for c in verified)}/{len(verified)} "
                 f"checks passed; each trial re-verified its arm")
    return "\n".join(lines)


def comparison(a: dict, b: dict) -> str:
    """Two results side by side (e.g. the same recipe on two machines or two commits)."""
    lines = [f"A: {a['recipe']} {a['profile']} {a['provenance']['started']} "
             f"{a['provenance']['host']}: {a['verdict']}",
             f"B: {b['recipe']} {b['profile']} {b['provenance']['started']} "
             f"{b['provenance']['host']}: {b['verdict']}",
             f"{'metric':<14}{'A delta [95 % CI]':>34}{'B delta [95 % CI]':>34}  intervals"]
    for name in ORDER:
        ma, mb = a["metrics"].get(name), b["metrics"].get(name)
        if not ma or not mb:
            continue
        overlap = _overlap(ma, mb)
        lines.append(f"{name:<14}{format_delta(ma):>34}{format_delta(mb):>34}  "
                     f"{'overlap' if overlap else 'DISJOINT'}")
    return "\n".join(lines)


def _overlap(a: dict, b: dict) -> bool:
    lo = lambda m: -math.inf if m["ci_low"] is None else m["ci_low"]  # noqa: E731
    hi = lambda m: math.inf if m["ci_high"] is None else m["ci_high"]  # noqa: E731
    return lo(a) <= hi(b) and lo(b) <= hi(a)
