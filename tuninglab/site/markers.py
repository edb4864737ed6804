"""Markers a page carries, each alone on its line (inside fenced code they stay as they are,
so a page can show them):

- ``<!-- result: <recipe-id> -->``: the "What we measured" block of that recipe;
- ``<!-- runs: <recipe-id> -->``: every published run of that recipe, one row each;
- ``<!-- warmups: <recipe-id> -->``: every node's warm-up in those runs, one row each;
- ``<!-- results-table -->``: the forest plot and one row per recipe, for the Results page;
- ``<!-- recipe-schema -->``: the recipe format reference, generated from the JSON Schema;
- ``<!-- result-format -->``: the result file's top-level keys, generated from ``result.KEYS``;
- ``<!-- jvm-flags -->``: what the image's JVM made of the options a source names;
- ``<!-- profiles -->``: the measurement profiles' defaults, from tuninglab/profiles.toml.
"""
from __future__ import annotations

import re

__all__ = ["find_markers", "expand_markers"]

_MARKER = re.compile(
    r"^[ \t]*<!--\s*(?:(?P<result>result|runs|warmups):\s*(?P<id>[A-Za-z0-9._-]+)"
    r"|(?P<table>results-table)|(?P<schema>recipe-schema)|(?P<keys>result-format)|(?P<flags>jvm-flags)|(?P<profiles>profiles))\s*-->[ \t]*$"
)
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")


def find_markers(markdown: str) -> list[tuple[int, str, str | None]]:
    """(line index, kind, recipe id) for every marker outside fenced code blocks."""
    found, fence = [], None
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
            found.append((index, match.group("result"), match.group("id")))
        elif match.group("table"):
            found.append((index, "results-table", None))
        elif match.group("keys"):
            found.append((index, "result-format", None))
        elif match.group("flags"):
            found.append((index, "jvm-flags", None))
        elif match.group("profiles"):
            found.append((index, "profiles", None))
        else:
            found.append((index, "recipe-schema", None))
    return found


def expand_markers(markdown: str, page: str, site) -> str:
    """Replace the markers of a page (docs-relative path ``page``) with generated Markdown."""
    from . import (jvmflags_table, result_block, results_table, runs_table, schema_doc,
                   warmups_table)

    markers = find_markers(markdown)
    if not markers:
        return markdown
    lines = markdown.splitlines()
    for index, kind, recipe_id in reversed(markers):
        if kind == "result":
            block = result_block.render_marker(site, recipe_id, page)
        elif kind == "runs":
            block = runs_table.render(site, recipe_id, page)
        elif kind == "warmups":
            block = warmups_table.render(site, recipe_id, page)
        elif kind == "results-table":
            block = results_table.render(site, page)
        elif kind == "result-format":
            block = schema_doc.render_result_keys()
        elif kind == "jvm-flags":
            block = jvmflags_table.render(site, page)
        elif kind == "profiles":
            block = schema_doc.render_profiles(page)
        else:
            block = schema_doc.render(site.schema())
        lines[index:index + 1] = ["", *block.splitlines(), ""]
    return "\n".join(lines) + ("\n" if markdown.endswith("\n") else "")
