"""The software the lab's stacks ran, as the newest published run recorded it (its
provenance), for the pages that set the sources' software beside today's."""
from __future__ import annotations

from ..numbers import fmt_time
from .text import cell, rel

__all__ = ["render"]

# provenance.versions keys, and what a reader calls them.
PARTS = (("wildfly", "Application server"), ("jdk", "JDK"), ("postgresql", "Database"),
         ("k6", "Load generator (k6)"))


def render(site, page: str) -> str:
    newest = None
    for entry in site.entries:
        found = site.newest(entry.id)
        if found and (found[1].get("provenance") or {}).get("versions"):
            started = found[1]["provenance"].get("started") or ""
            if newest is None or started > newest[2]:
                newest = (entry.id, found[0], started, found[1]["provenance"]["versions"])
    if newest is None:
        return '!!! info "No published run yet"\n\n    No stored result records its versions.\n'
    recipe_id, path, started, versions = newest
    lines = ["| Part | Version |", "|---|---|"]
    lines += [f"| {label} | {cell(versions[key])} |" for key, label in PARTS if versions.get(key)]
    link = rel(page, path.relative_to(site.root).as_posix())
    lines += ["", f"As recorded by the newest published run, `{recipe_id}` of "
              f"[{fmt_time(started).split(' ')[0]}]({link})."]
    return "\n".join(lines) + "\n"
