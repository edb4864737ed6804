"""How the noise of stored runs is built: what the Method page's "Where the noise comes from"
rests on. For each result file given:

- the spread of a trial's throughput around its own JVM's mean (same arm, node and period:
  the standard deviation of the log values), and how much of it is CPU per transaction;
- for arms measured side by side, how closely the two nodes of one slot move together (the
  correlation of those residuals within a slot): what a side-by-side pair cancels;
- the autocorrelation of the residuals in the order the slots ran (a slot's mean; lags 1, 2,
  3, 5, 10): what arms measured one after another pay for.

    .venv/bin/python scripts/noise_structure.py results/jvm-escape-analysis/*.json ...
"""
import json
import math
import statistics
import sys
from collections import defaultdict


def residuals(trials: list[dict], metric: str) -> dict[int, float]:
    """log(metric) minus the mean of its own arm, node and period, by trial index."""
    groups = defaultdict(list)
    for t in trials:
        groups[(t["arm"], t["node"], t.get("period", 0))].append(t)
    out = {}
    for members in groups.values():
        logs = [math.log(t["metrics"][metric]) for t in members]
        centre = statistics.mean(logs)
        out.update({t["index"]: value - centre for t, value in zip(members, logs)})
    return out


def describe(path: str) -> str:
    result = json.load(open(path))
    trials = [t for t in result["trials"] if t.get("used") and t["metrics"].get("throughput")
              and t["metrics"].get("cpu_per_tx")]
    if len(trials) < 6:
        return f"{path}: fewer than 6 usable trials"
    throughput = residuals(trials, "throughput")
    cost = residuals(trials, "cpu_per_tx")
    order = [t["index"] for t in trials]
    layout = result.get("plan", {}).get("layout", "unknown")
    with_cost = statistics.correlation([throughput[i] for i in order], [cost[i] for i in order])
    lines = [f"{path}: {len(trials)} usable trials, layout {layout}",
             f"  throughput around its JVM's mean: sd {statistics.stdev(throughput.values()):.3f}"
             f" (log); correlation with CPU per transaction {with_cost:+.2f}"]
    slots = defaultdict(list)
    for t in trials:
        slots[t["started"]].append(t["index"])
    pairs = [sorted(v) for v in slots.values() if len(v) == 2]
    if len(pairs) >= 5:
        r = statistics.correlation([throughput[a] for a, _ in pairs],
                                   [throughput[b] for _, b in pairs])
        lines.append(f"  two nodes of one slot: correlation {r:+.2f} over {len(pairs)} slots")
    # One value a slot (the mean of its trials), so that side-by-side partners are not lag 1.
    series = [statistics.mean(throughput[i] for i in slots[started]) for started in sorted(slots)]
    lags = [lag for lag in (1, 2, 3, 5, 10) if len(series) > lag + 5]
    lines.append("  autocorrelation of the slots in run order: " + ", ".join(
        f"lag {lag} {statistics.correlation(series[:-lag], series[lag:]):+.2f}" for lag in lags))
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for name in sys.argv[1:]:
        print(describe(name))
