"""Figures drawn at site build from stored results (no notebook needs to run to see them):
one per recipe with a publishable result, and the Results page's forest plot."""
from __future__ import annotations

import io

from .. import plot
from .. import result as results
from .results_table import forest_rows

__all__ = ["figure_files", "png_bytes"]


def png_bytes(figure) -> bytes:
    """A figure as PNG bytes, closed after (the site's figures and a workspace's report)."""
    import matplotlib.pyplot as plt
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, facecolor="white")
    plt.close(figure)
    return buffer.getvalue()


def figure_files(site) -> dict[str, bytes]:
    """Docs-relative path -> PNG bytes, for every figure the pages refer to."""
    out = {}
    for entry in site.entries:
        found = site.newest(entry.id)
        if found is not None:
            _, result = found
            out[site.figure_path(entry.id)] = png_bytes(plot.result_figure(result))
            for source in results.course_sources(result):  # what happened inside the windows
                out[site.course_figure_path(entry.id, source)] = png_bytes(plot.courses(result, source))
    out[site.FOREST] = png_bytes(plot.forest(forest_rows(site)))
    return out
