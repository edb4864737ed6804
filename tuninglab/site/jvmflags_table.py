"""The ``jvm-flags`` marker: what the image's JVM made of each option a source names, from the
newest stored probe (``tuninglab flags``)."""
from __future__ import annotations

from .. import jvmflags
from ..numbers import fmt_time
from .text import cell, code, rel

__all__ = ["render"]

ANSWERS = {"refused": "**refuses to start**", "warned": "starts, with a warning",
           "accepted": "starts"}


def render(site, page: str) -> str:
    found = jvmflags.newest(site.results_dir)
    if found is None:
        return ('!!! info "Not probed yet"\n\n    No probe of the JVM options from a clean '
                'commit is stored yet: run `tuninglab flags` and commit the file it writes '
                'under `results/probes/jvm-flags/`.\n')
    path, record = found
    prov = record.get("provenance") or {}
    lines = ["| Option | Guide | What the guide says it does | JDK today | Its value now | What the JVM said |",
             "|---|---|---|---|---|---|"]
    for row in record["flags"]:
        lines.append(f"| {code(row['option'])} | {cell(row.get('section', ''))} | "
                     f"{cell(row.get('guide_says', ''))} | {ANSWERS.get(row['answer'], row['answer'])} | "
                     f"{code(row['final_value']) if row.get('final_value') else '—'} | "
                     f"{cell(row.get('message') or '—')} |")
    where = path.relative_to(site.root).as_posix()
    lines += ["", f"Probed {fmt_time(prov.get('started'))} on {cell(prov.get('java_version') or 'the image JVM')} "
                  f"({code(prov.get('image') or '')}); [raw record]({rel(page, where)})."]
    return "\n".join(lines) + "\n"
