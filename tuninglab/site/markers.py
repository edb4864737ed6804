"""Markers a page carries, each alone on its line (inside fenced code they stay as they are,
so a page can show them):

- ``<!-- result: <recipe-id> -->``: the "What we measured" block of that recipe;
- ``<!-- runs: <recipe-id> -->``: every published run of that recipe, one row each;
- ``<!-- warmups: <recipe-id> -->``: every node's warm-up in those runs, one row each;
- ``<!-- parts: <a> + <b> = <both> -->``: two recipes of one change each beside the recipe that
  makes both, and whether the parts add up (parts_table.py);
- ``<!-- calibration: <recipe-id> ratio <R> -->``: which value of that sweep stands R times
  below its largest value (calibration_table.py);
- ``<!-- peak-of-averages: <recipe-id> repetitions <n> -->``: that load curve read the thesis's
  way (the peak of n repetitions' averages) beside the lab's (peak_table.py);
- ``<!-- run-metrics: <recipe-id> <metric> ... -->``: every published run of that recipe with
  those metrics of its comparison and the baseline's level in each (run_metrics_table.py);
- ``<!-- results-table -->``: the forest plot and one row per recipe, for the Results page;
- ``<!-- recipe-schema -->``: the recipe format reference, generated from the JSON Schema;
- ``<!-- result-format -->``: the result file's top-level keys, generated from ``result.KEYS``;
- ``<!-- jvm-flags -->``: what the image's JVM made of the options a source names;
- ``<!-- profiles -->``: the measurement profiles' defaults, from tuninglab/profiles.toml;
- ``<!-- warmup-summary -->``: how many node warm-ups of the newest results ended steady;
- ``<!-- aa-claims -->``: how many full A/A runs of the crossover claimed a difference
  between identical arms, with the claim rate's exact interval (aa_table.py);
- ``<!-- recipe-limits -->``: what a recipe may not do, from the lists in tuninglab/safety/;
- ``<!-- time-phases -->``: where a full run's time goes, over the newest results;
- ``<!-- catalogue -->``: the sources' experiments this page's chapter holds, each with the
  recipes that measure it or why nothing here does (recipes/catalogue.toml);
- ``<!-- catalogue: <document> -->``: every experiment of one source, with its page;
- ``<!-- catalogue-summary -->``: how many experiments of each source are measured;
- ``<!-- stack-versions -->``: the software the newest published run recorded.

One marker stands inside a sentence: ``<!-- agreement: <recipe-id> -->`` becomes the word for
that recipe's newest result against its source (agrees, disagrees, cannot tell, ...), the same
word the Results page shows, so a page never writes a verdict of its own.
"""
from __future__ import annotations

import importlib
import re

__all__ = ["find_markers", "find_inline", "expand_markers", "prose_lines"]


def _module(name: str):
    """A renderer's module, imported when a page uses it (the site's modules import this)."""
    return importlib.import_module(f".{name}", __package__)


# Markers that stand for a block of their own (no recipe id): each name's renderer, called
# with (site, page). A new block is a line here.
PAGE_BLOCKS = {
    "results-table": lambda site, page: _module("results_table").render(site, page),
    "recipe-schema": lambda site, page: _module("schema_doc").render(site.schema()),
    "result-format": lambda site, page: _module("schema_doc").render_result_keys(),
    "jvm-flags": lambda site, page: _module("jvmflags_table").render(site, page),
    "profiles": lambda site, page: _module("schema_doc").render_profiles(page),
    "warmup-summary": lambda site, page: _module("warmups_table").render_summary(site),
    "aa-claims": lambda site, page: _module("aa_table").render(site),
    "recipe-limits": lambda site, page: _module("recipe_limits").render(),
    "time-phases": lambda site, page: _module("time_table").render(site),
    "catalogue": lambda site, page: _module("catalogue").render_page(site, page),
    "catalogue-summary": lambda site, page: _module("catalogue").render_summary(site, page),
    "stack-versions": lambda site, page: _module("versions_table").render(site, page),
}
# Markers that carry a spec of their own after the name (recipes and numbers): each name's
# module, whose ``render(site, spec, page)`` reads the spec and says when it cannot. A new
# one is a line here.
SPEC_BLOCKS = {
    "parts": "parts_table",  # <a> + <b> = <both>
    "calibration": "calibration_table",  # <recipe> ratio <R>
    "peak-of-averages": "peak_table",  # <recipe> repetitions <n>
    "run-metrics": "run_metrics_table",  # <recipe> <metric> [<metric> ...]
}
_MARKER = re.compile(
    r"^[ \t]*<!--\s*(?:(?P<result>result|runs|warmups|catalogue):\s*(?P<id>[A-Za-z0-9._-]+)"
    r"|(?P<spec_kind>" + "|".join(SPEC_BLOCKS) + r"):\s*(?P<spec>[A-Za-z0-9_. +=-]+?)"
    r"|(?P<block>" + "|".join(PAGE_BLOCKS) + r"))\s*-->[ \t]*$"
)
_INLINE = re.compile(r"<!--\s*agreement:\s*(?P<id>[A-Za-z0-9._-]+)\s*-->")
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")


def prose_lines(markdown: str):
    """(index, line) of every line outside fenced code blocks (a fence closes only with its own
    kind and length of mark)."""
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
        if fence is None:
            yield index, line


def find_inline(markdown: str) -> list[tuple[int, str]]:
    """(line index, recipe id) of every inline agreement marker outside fenced code."""
    return [(index, m.group("id")) for index, line in prose_lines(markdown)
            for m in _INLINE.finditer(line)]


def find_markers(markdown: str) -> list[tuple[int, str, str | None]]:
    """(line index, kind, recipe id) for every marker outside fenced code blocks."""
    found = []
    for index, line in prose_lines(markdown):
        match = _MARKER.match(line)
        if not match:
            continue
        if match.group("spec_kind"):
            found.append((index, match.group("spec_kind"), match.group("spec")))
        elif match.group("result") == "catalogue":  # one source's experiments, not a recipe's
            found.append((index, "catalogue-of", match.group("id")))
        elif match.group("result"):
            found.append((index, match.group("result"), match.group("id")))
        else:
            found.append((index, match.group("block"), None))
    return found


def expand_markers(markdown: str, page: str, site) -> str:
    """Replace the markers of a page (docs-relative path ``page``) with generated Markdown."""
    from . import result_block, runs_table, warmups_table

    markers = find_markers(markdown)
    inline = find_inline(markdown)
    if not markers and not inline:
        return markdown
    lines = markdown.splitlines()
    for index in sorted({i for i, _ in inline}):
        lines[index] = _INLINE.sub(lambda m: result_block.agreement_word(site, m.group("id")),
                                   lines[index])
    for index, kind, recipe_id in reversed(markers):
        if kind == "result":
            block = result_block.render_marker(site, recipe_id, page)
        elif kind == "runs":
            block = runs_table.render(site, recipe_id, page)
        elif kind == "warmups":
            block = warmups_table.render(site, recipe_id, page)
        elif kind in SPEC_BLOCKS:  # its "id" is the marker's spec
            block = _module(SPEC_BLOCKS[kind]).render(site, recipe_id, page)
        elif kind == "catalogue-of":  # its "id" is a source document
            block = _module("catalogue").render_document(site, page, recipe_id)
        else:
            block = PAGE_BLOCKS[kind](site, page)
        lines[index:index + 1] = ["", *block.splitlines(), ""]
    return "\n".join(lines) + ("\n" if markdown.endswith("\n") else "")

