"""Each notebook's time in the CI profile, summed over its cells, printed after the notebook run.

The CI budget is a notebook of at most 45 s and a median of at most 30 s, so that the suite
still fits when the catalogue reaches 80 recipes. pytest's own ``--durations`` lists cells, not
notebooks, and only the slowest: this summary gives the median over every notebook and names
the ones over the budget. It reports and never fails a run: a time depends on the machine.
A slow notebook's line adds where its run spent the time (the phases its quick result stored in
TUNINGLAB_RESULTS_DIR), since CI keeps no result file: a slow stack start, re-runs of disturbed
windows or a stack that could not be taken over each read differently.
The test command runs two notebooks at a time (pytest-xdist): a notebook's time then includes
the other's share of the two cores, and the summary says so, with the phase's wall time.
It ends with each failed cell in brief (the lab's frames and the exception): CI keeps only the
head and the tail of a long output, and a cell's full traceback is mostly the libraries' frames
(stop 69's CI showed a ReadTimeout and none of the lab's frames that led to it).
"""
from __future__ import annotations

import json
import os
import re
import statistics
import time
from collections import defaultdict
from pathlib import Path

import pytest

NOTEBOOK_MAX_S = 45.0
NOTEBOOK_MEDIAN_S = 30.0

_seconds: dict[str, float] = defaultdict(float)
_failed: dict[str, list[str]] = {}  # a notebook's first failed cell: its brief
_later_failures: dict[str, int] = defaultdict(int)  # cells that failed after it (often its result)
_loaded = time.monotonic()  # at collection, just before the first notebook starts


def pytest_runtest_logreport(report):
    path = report.nodeid.split("::", 1)[0]
    if path.endswith(".ipynb"):
        _seconds[path] += report.duration
        if report.failed and any(cell.startswith(f"{path}::") for cell in _failed):
            _later_failures[path] += 1
        elif report.failed:
            _failed[report.nodeid] = brief(str(report.longrepr))


# Printed after pytest's own summaries (its --durations list is long), so it ends CI's tail.
@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter):
    if not _seconds:
        return
    times = sorted(_seconds.items(), key=lambda item: item[1], reverse=True)
    median = statistics.median(t for _, t in times)
    write = terminalreporter.write_line
    terminalreporter.section("notebook times (cells summed)")
    workers = terminalreporter.config.getoption("numprocesses", None) or 1
    beside = f", {workers} at a time (each time includes the others' share)" if workers > 1 else ""
    write(f"{len(times)} notebooks in {time.monotonic() - _loaded:.0f} s{beside}")
    write(f"per notebook: median {median:.1f} s (budget {NOTEBOOK_MEDIAN_S:.0f} s), "
          f"slowest {times[0][1]:.1f} s (budget {NOTEBOOK_MAX_S:.0f} s)")
    over = [(path, t) for path, t in times if t > NOTEBOOK_MAX_S]
    for path, t in over:
        write(f"over {NOTEBOOK_MAX_S:.0f} s: {path} {t:.1f} s{_where(path)}")
    for path, t in times[:5]:
        if t <= NOTEBOOK_MAX_S:
            write(f"slow: {path} {t:.1f} s{_where(path)}")
    if _failed:
        terminalreporter.section("failed cells in brief (the lab's last frames, the exception)")
    for cell, lines in _failed.items():
        later = _later_failures[cell.split("::", 1)[0]]
        write(cell + (f" (and {later} later cells of it)" if later else ""))
        for line in lines:
            write(f"  {line}")


_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# IPython's frame header ("File /x/tuninglab/stack.py:442, in Stack.reset(self, name)") and
# Python's ('File "/x/tuninglab/stack.py", line 442, in reset')
_LAB_FRAME = re.compile(r'File "?\S*?/(tuninglab/\S+?\.py)"?(?::|, line )(\d+), in ([\w.<>]+)')
_EXCEPTION = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Timeout|Exit|Interrupt)\w*)(?::|$)")


def brief(traceback_text: str, frames: int = 4) -> list[str]:
    """A failed cell's traceback in a few lines: the lab's last ``frames`` frames (where in the
    run it failed) and the last exception line (what failed), ANSI colours removed."""
    lines = _ANSI.sub("", traceback_text).splitlines()
    lab = [f"{m[1]}:{m[2]} {m[3]}" for line in lines if (m := _LAB_FRAME.search(line))]
    raised = [line.strip() for line in lines if _EXCEPTION.match(line.strip())]
    kept = [f"at {frame}" for frame in dict.fromkeys(lab[-frames:])]
    return kept + [raised[-1][:300] if raised else "(no exception line found)"]


def _where(notebook: str) -> str:
    """' (stack taken over; configure 10 s, stack 9 s, ...; 0 windows disturbed)' from the
    newest quick result of the notebook's recipe (a notebook is named after its recipe), or ''
    when none is stored."""
    folder = os.environ.get("TUNINGLAB_RESULTS_DIR")
    if not folder:
        return ""
    stored = sorted((Path(folder) / Path(notebook).stem).glob("*.json"))
    try:
        result = json.loads(stored[-1].read_text())
        provenance = result["provenance"]
    except (IndexError, OSError, ValueError, KeyError):
        return ""
    phases = provenance.get("phases") or {}
    spent = [f"{name.removesuffix('_s')} {seconds:.0f} s"
             for name, seconds in sorted(phases.items(), key=lambda p: -p[1]) if seconds >= 1]
    origin = "taken over" if (provenance.get("stack_origin") or {}).get("taken_over") else "started"
    disturbed = (result.get("validity") or {}).get("disturbed", 0)
    return f" (stack {origin}; {', '.join(spent)}; {disturbed} windows disturbed)"
