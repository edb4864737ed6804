"""The box above a recipe's notebook on the site: which run its outputs are, and how the site
reads that run today.

A notebook's outputs are the run that published it (scripts/publish.sh executes it), printed by
that day's code. The pages read the same stored result by today's rules (analysis.read_stored),
and a rule changed since may read it otherwise: a sweep's "Set task-max-threads to 2 threads"
of 26 November reads "cannot tell" today. The outputs stay as the run wrote them (they are its
record); the box says when they no longer say what the pages say, and when a newer run, which
the pages show, did not replace them (an invalid run keeps the last valid run's notebook)."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Callable

from .. import result as results
from ..numbers import fmt_time
from ..store import ResultError, load_result

__all__ = ["render", "run_of"]

_STORED = re.compile(r"stored (results/[\w.-]+/[\w.-]+\.json)")


def run_of(notebook: Path) -> str | None:
    """The repository-relative result file the notebook's outputs come from: the run cell
    prints "stored results/<id>/<file>.json" as its last line."""
    try:
        cells = json.loads(notebook.read_text(encoding="utf-8")).get("cells", [])
    except (OSError, ValueError):
        return None
    for cell in cells:
        for output in cell.get("outputs", []):
            found = _STORED.search("".join(output.get("text", "")))
            if found:
                return found.group(1)
    return None


def render(site, recipe_id: str, link: Callable[[str], str]) -> str:
    """The box's Markdown (empty when the notebook holds no stored run's outputs). ``link``
    turns a path the site builds from (a result file, repository-relative; a docs page,
    docs-relative) into a URL from the notebook's page."""
    notebook = site.notebook(recipe_id)
    shown = run_of(site.root / notebook) if notebook else None
    if shown is None or not (site.root / shown).is_file():
        return ""
    try:
        raw = results.upgrade(load_result(site.root / shown))
    except ResultError:
        return ""
    newest = site.newest(recipe_id)  # read by today's rules already (cached per build)
    newest_path = newest[0].relative_to(site.root).as_posix() if newest else None
    newer = newest is not None and newest_path != shown
    today = site.read(recipe_id, raw) if newer or newest is None else newest[1]
    started = fmt_time((raw.get("provenance") or {}).get("started"))
    lines = [f"The outputs below are the run of {started} "
             f"([result file]({link(shown)})), as that day's code printed them."]
    changed = _advice(raw) != _advice(today)
    if changed:
        lines += ["", f"**Read by today's rules, this run says something else:** "
                      f"{results.headline(today)}", "",
                  f"Its output below says: {results.headline(raw)}"]
    if newer:
        result = newest[1]
        when = fmt_time((result.get("provenance") or {}).get("started"))
        lines += ["", f"**A newer run is stored**, of {when} "
                      f"([result file]({link(newest_path)})): {results.headline(result)}"]
    pages = site.pages.get(recipe_id, [])
    if pages:
        lines += ["", "The chapter pages show the newest run, read by today's rules: "
                  + ", ".join(f"[{site.titles.get(p, p)}]({link(p)})" for p in pages) + "."]
    kind = "warning" if changed or newer else "info"
    title = ("Read differently today" if changed else "A newer run is stored" if newer
             else "Which run this is")
    return "\n".join([f'!!! {kind} "{title}"', ""]
                     + [f"    {line}" if line else "" for line in lines]) + "\n"


def _advice(result: dict) -> tuple:
    """What a reading tells the reader, without its wording: valid or not, the verdict, and
    each curve's advice (the value to set, where it saturates or is still rising). Results
    stored before a sweep's advice had a status named the value by a "Set ..." sentence at
    its knee."""
    curves = tuple((c.get("recommended") if c.get("status") else
                    c.get("knee") if str(c.get("recommendation", "")).startswith("Set ") else None,
                    c.get("saturation"), c.get("still_rising"))
                   for c in results.curves(result))
    return results.is_valid(result), result.get("verdict"), curves
