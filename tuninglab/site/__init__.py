"""The site's view of the repository: it reads recipes and stored results through the
library's own modules (recipe.py, result.py, numbers.py, plot.py), so a page and a notebook
print the same number the same way. Nothing here imports Docker.

- ``repository``: where recipes, results, pages and notebooks are (class Site);
- ``markers``: the markers pages carry and their expansion;
- ``result_block``: a recipe's "What we measured" block;
- ``results_table``: the Results page's table and forest plot;
- ``schema_doc``: the recipe format reference from the JSON Schema;
- ``figures``: PNG figures drawn at build time from stored results;
- ``text``: small Markdown helpers (table cells, citations, links).
"""
from .markers import expand_markers, find_markers
from .repository import Site

__all__ = ["Site", "expand_markers", "find_markers"]
