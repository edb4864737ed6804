"""MkDocs hooks of the Tuning Lab site (mkdocs.yml: ``hooks: [tuninglab/mkdocs_hooks.py]``).

Thin glue; the site's reading and rendering live in tuninglab/site/, which reads recipes and
results through the library's own modules (and never imports Docker).

- on_config: anchor pymdownx.snippets' base path at the repository root (so ``--8<--``
  includes of recipe files work whatever the working directory), watch recipes/, results/
  and notebooks/ in ``mkdocs serve``, and give each chapter page a "Notebook: <id>" child
  entry in the nav for every recipe notebook that exists;
- on_files: add the notebooks (rendered by mkdocs-jupyter, which wraps files in its own
  on_files, hence this hook runs first), the raw result files, and the figures drawn from
  stored results at build time;
- on_page_markdown: replace the result, results-table and recipe-schema markers;
- on_page_content: above a recipe's notebook, the box that says which run its outputs are and
  how the site reads that run today (site/notebook_note.py).
"""

from __future__ import annotations

import logging
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

log = logging.getLogger("mkdocs.hooks.tuninglab")

_site = None


def on_config(config):
    global _site
    from tuninglab.site import Site

    root = Path(config.config_file_path).resolve().parent
    _site = Site(root, Path(config.docs_dir))

    snippets = config.mdx_configs.setdefault("pymdownx.snippets", {})
    snippets["base_path"] = [str(root)]

    for folder in ("recipes", "results", "notebooks", "tuninglab"):
        path = root / folder
        if path.exists() and str(path) not in config.watch:
            config.watch.append(str(path))

    if config.nav:
        config.nav = _with_notebooks(config.nav, _site)
    return config


def _with_notebooks(nav, site):
    """Turn ``{title: page}`` into ``{title: [page, {"Notebook: <id>": notebook}, ...]}`` where
    the page shows results of recipes whose notebooks exist."""
    listed = set()

    def walk(items):
        out = []
        for item in items:
            if isinstance(item, dict):
                (title, value), = item.items()
                if isinstance(value, list):
                    out.append({title: walk(value)})
                    continue
                children = _notebook_entries(value, site, listed)
                # The chapter itself stays untitled in the nav, so it keeps its own heading as
                # its title (in the header and the browser tab too).
                out.append({title: [value, *children]} if children else item)
            else:
                out.append(item)
        return out

    return walk(nav)


def _notebook_entries(page, site, listed):
    if not isinstance(page, str) or not page.endswith(".md"):
        return []
    entries = []
    for recipe_id, pages in site.pages.items():
        notebook = site.notebook(recipe_id)
        if notebook and page in pages and notebook not in listed:
            listed.add(notebook)
            entries.append({f"Notebook: {recipe_id}": notebook})
    return entries


@event_priority(100)  # before mkdocs-jupyter wraps the notebooks
def on_files(files, config):
    from tuninglab.site.figures import figure_files

    # Plain Files whose source folder is the repository root, not File.generated(): the
    # notebook wrapper of mkdocs-jupyter derives the source path from src_dir, which a
    # generated file does not have.
    for rel in [*_site.notebooks(), *_site.result_files()]:
        if files.get_file_from_path(rel) is None:
            files.append(File(rel, src_dir=str(_site.root), dest_dir=config.site_dir,
                              use_directory_urls=config.use_directory_urls))
    for rel, png in figure_files(_site).items():
        if files.get_file_from_path(rel) is None:
            files.append(File.generated(config, rel, content=png))
    return files


def on_page_markdown(markdown, page, config, files):
    return _site.expand(markdown, page.file.src_uri)


def on_page_content(html, page, config, files):
    if not page.file.src_uri.endswith(".ipynb"):
        return html
    import markdown
    from mkdocs.utils import get_relative_url
    from tuninglab.site import notebook_note

    def link(path):
        target = files.get_file_from_path(path)
        return get_relative_url(target.url, page.url) if target else path

    box = notebook_note.render(_site, Path(page.file.src_uri).stem, link)
    if not box:
        return html
    return markdown.markdown(box, extensions=config.markdown_extensions,
                             extension_configs=config.mdx_configs) + html
