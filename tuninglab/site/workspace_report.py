"""`tuninglab report`: a workspace's own results as one page, beside them in ``report/``.

What a user measured on their own application deserves what the site gives the lab's: the
forest plot of every recipe's headline delta with its interval, and for each recipe the same
result block (headline, facts, the comparison table with every metric, the figure). The page is
written as Markdown (``report/index.md``, readable in any editor or repository browser) and as
HTML (``report/index.html``), with its figures in ``report/figures/``, all made from the stored
results at the time of the call: nothing is measured, and the results are not touched.

A workspace of one's own is seldom a git repository, so the site's rule for what it shows (a
full run from a clean commit) would show nothing: the report shows a recipe's newest full-profile
result unless it was measured from a tree with uncommitted changes (``git_dirty`` true), and
the block's facts say where it came from.
"""
from __future__ import annotations

import html
import shutil
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from .. import plot
from .figures import png_bytes
from .repository import Site
from .result_block import render
from .results_table import forest_rows

__all__ = ["build", "REPORT_DIR", "shown"]

REPORT_DIR = "report"
PAGE = f"{REPORT_DIR}/index.md"  # workspace-relative, for the block's relative links
FOREST = f"{REPORT_DIR}/figures/forest.png"


def shown(result: dict) -> bool:
    """A result the report shows: the full profile, not from a tree with changes."""
    return (result.get("profile") == "full"
            and (result.get("provenance") or {}).get("git_dirty") is not True)


class WorkspaceSite(Site):
    """The site's view of a workspace, with the report's rule for which results it shows."""

    accepts = staticmethod(shown)


def build(workspace: Path) -> Path:
    """Write ``report/`` in the workspace from its stored results; returns the HTML page. The
    folder is made anew beside the old one and swapped in, so an interrupted build leaves the
    previous report whole."""
    workspace = Path(workspace).resolve()
    site = WorkspaceSite(workspace, docs_dir=workspace / REPORT_DIR / "none")
    figures, sections = {}, []
    for entry in sorted(site.entries, key=lambda e: e.id):
        sections += [f"## {entry.title}", "", f"`{entry.folder}`", ""]
        if entry.error:
            sections += [f"The recipe does not load: {entry.error}", ""]
            continue
        found = site.newest(entry.id)
        if found is None:
            sections += [f"No full-profile result yet: `tuninglab run {entry.id} --profile "
                         f"full`.", ""]
            continue
        path, result = found
        figure = f"{REPORT_DIR}/figures/{entry.id}.png"
        figures[figure] = plot.result_figure(result)
        sections += [render(result, page=PAGE, json_path=path.relative_to(workspace).as_posix(),
                            figure_path=figure), ""]
    measured = [row for row in forest_rows(site) if row.get("delta") is not None]
    head = [f"# Results of {workspace.name}", "",
            f"Made by `tuninglab report` on "
            f"{datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M')} UTC from the newest "
            f"full-profile result of each recipe in `{workspace}` ({len(site.entries)} "
            f"recipe(s), {len(figures)} measured).", ""]
    if measured:
        figures[FOREST] = plot.forest(measured)
        head += ["![Every recipe's headline delta with its interval](figures/forest.png)", ""]
    text = "\n".join(head + sections)
    return _write(workspace, text, figures)


def _write(workspace: Path, text: str, figures: dict) -> Path:
    target = workspace / REPORT_DIR
    staging = Path(tempfile.mkdtemp(prefix=".report-", dir=workspace))
    try:
        (staging / "figures").mkdir()
        for path, figure in figures.items():
            (staging / Path(path).relative_to(REPORT_DIR)).write_bytes(png_bytes(figure))
        (staging / "index.md").write_text(text, encoding="utf-8")
        (staging / "index.html").write_text(_html(text, workspace.name), encoding="utf-8")
        old = workspace / ".report-old"
        if target.exists():
            target.rename(old)
        staging.rename(target)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target / "index.html"


_STYLE = ("body{font-family:sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;"
          "line-height:1.45}table{border-collapse:collapse;margin:1rem 0}"
          "td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:right}"
          "td:first-child,th:first-child{text-align:left}img{max-width:100%}"
          ".admonition{border-left:4px solid #c33;padding:.1rem 1rem;background:#fdf3f3}")


def _html(text: str, name: str) -> str:
    import markdown
    body = markdown.markdown(text, extensions=["tables", "admonition", "attr_list"])
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>Results of "
            f"{html.escape(name)}</title><style>{_STYLE}</style></head><body>{body}"
            f"</body></html>\n")
