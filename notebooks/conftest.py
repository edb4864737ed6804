"""Each notebook's time in the CI profile, summed over its cells, printed after the notebook run.

The CI budget is a notebook of at most 45 s and a median of at most 30 s, so that the suite
still fits when the catalogue reaches 80 recipes. pytest's own ``--durations`` lists cells, not
notebooks, and only the slowest: this summary gives the median over every notebook and names
the ones over the budget. It reports and never fails a run: a time depends on the machine.
"""
from __future__ import annotations

import statistics
from collections import defaultdict

NOTEBOOK_MAX_S = 45.0
NOTEBOOK_MEDIAN_S = 30.0

_seconds: dict[str, float] = defaultdict(float)


def pytest_runtest_logreport(report):
    path = report.nodeid.split("::", 1)[0]
    if path.endswith(".ipynb"):
        _seconds[path] += report.duration


def pytest_terminal_summary(terminalreporter):
    if not _seconds:
        return
    times = sorted(_seconds.items(), key=lambda item: item[1], reverse=True)
    median = statistics.median(t for _, t in times)
    write = terminalreporter.write_line
    terminalreporter.section("notebook times (cells summed)")
    write(f"{len(times)} notebooks: median {median:.1f} s (budget {NOTEBOOK_MEDIAN_S:.0f} s), "
          f"slowest {times[0][1]:.1f} s (budget {NOTEBOOK_MAX_S:.0f} s)")
    over = [(path, t) for path, t in times if t > NOTEBOOK_MAX_S]
    for path, t in over:
        write(f"over {NOTEBOOK_MAX_S:.0f} s: {path} {t:.1f} s")
    for path, t in times[:5]:
        if t <= NOTEBOOK_MAX_S:
            write(f"slow: {path} {t:.1f} s")
