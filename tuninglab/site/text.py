"""Markdown helpers shared by the site's renderers: safe table cells, citations, links."""
from __future__ import annotations

import html
import posixpath

__all__ = ["DOCUMENTS", "cite", "cell", "code", "nowrap", "rel", "NBSP"]

NBSP = "\u00a0"

# The names recipe.toml uses for the sources (recipe.schema.json, source.document) and the short
# names pages cite them by (docs/index.md defines them).
DOCUMENTS = {"guide": "guide", "thesis": "thesis", "blog": "notifier-thread blog post",
             "ecperf-slides": "ECperf slides", "client-threads": "client-threads note"}


def cite(source: dict | None) -> str:
    """A citation in the pages' style: "guide 4.5.3.1, Table 4.1", "thesis 6.2 and 7.2"."""
    if not source:
        return "no source claim"
    document = str(source.get("document") or "").strip()
    if document == "none":
        return "our own claim (no source)"
    head = " ".join(str(p) for p in (DOCUMENTS.get(document, document), source.get("section")) if p)
    table = source.get("table")
    return ", ".join(p for p in (head, str(table) if table else "") if p) or "no source claim"


def cell(text) -> str:
    """Plain text that is safe inside a Markdown table cell (and not taken for HTML)."""
    return html.escape(" ".join(str(text).split()), quote=False).replace("|", "\\|")


def nowrap(text: str) -> str:
    """Keep a short figure such as "+51.6 % [+50.9, +52.2]" on one line in a table cell."""
    return text.replace(" ", NBSP)


def code(text) -> str:
    """Text as an inline code span (a "|" inside one does not split a table cell)."""
    return "`" + " ".join(str(text).split()).replace("`", "'") + "`"


def rel(from_page: str, target: str) -> str:
    """A Markdown link target from one docs page to another file of the site."""
    return posixpath.relpath(target, posixpath.dirname(from_page) or ".")
