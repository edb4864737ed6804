"""Where the site finds what it shows: recipes, their newest publishable results, the pages
that carry their markers, notebooks, and the figures drawn from results at build time."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .. import result as results
from ..analysis import read_stored
from ..recipe import RecipeError, load_recipe, recipe_schema
from ..store import ResultError, list_results, load_result

__all__ = ["Site", "Entry", "publishable"]


@dataclass(frozen=True)
class Entry:
    """One recipe as the site knows it: the parsed recipe, or why it could not be read."""

    id: str
    area: str
    folder: str  # repository-relative
    recipe: object | None
    error: str | None = None

    @property
    def title(self) -> str:
        return self.recipe.title if self.recipe else self.id

    @property
    def source(self) -> dict:
        if not self.recipe:
            return {}
        s = self.recipe.source
        return {"document": s.document, "section": s.section, "table": s.table,
                "claim": s.claim, "expected": s.expected, "effect": s.effect}


def publishable(result: dict) -> bool:
    """A result the site may show: the full profile, from a clean commit."""
    prov = result.get("provenance") or {}
    return result.get("profile") == "full" and prov.get("git_dirty") is False


class Site:
    """A view of one repository for one build (reads lazily, caches). ``accepts``: which stored
    results it shows (the site: publishable; a workspace's report: workspace_report.shown)."""

    accepts = staticmethod(publishable)

    def __init__(self, root: Path, docs_dir: Path | None = None, results_dir: Path | None = None):
        self.root = Path(root)
        self.docs_dir = Path(docs_dir) if docs_dir else self.root / "docs"
        self.results_dir = Path(results_dir) if results_dir else self.root / "results"
        self._entries: list[Entry] | None = None
        self._pages: dict[str, list[str]] | None = None
        self._titles: dict[str, str] | None = None
        self._newest: dict[str, tuple[Path, dict] | None] = {}
        self._catalogue = None

    # -- recipes ------------------------------------------------------------------------------
    @property
    def entries(self) -> list[Entry]:
        if self._entries is None:
            found = []
            for toml in sorted(self.root.glob("recipes/*/*/recipe.toml")):
                folder = toml.parent
                rel = folder.relative_to(self.root).as_posix()
                try:
                    found.append(Entry(folder.name, folder.parent.name, rel, load_recipe(folder)))
                except RecipeError as error:
                    found.append(Entry(folder.name, folder.parent.name, rel, None, str(error)))
            self._entries = found
        return self._entries

    def entry(self, recipe_id: str) -> Entry | None:
        return next((e for e in self.entries if e.id == recipe_id), None)

    # -- results ------------------------------------------------------------------------------
    def newest(self, recipe_id: str) -> tuple[Path, dict] | None:
        """The newest publishable result (``read``: upgraded and read by today's rules), or
        None."""
        if recipe_id not in self._newest:
            found = None
            for path in reversed(list_results(self.results_dir, recipe_id)):
                try:
                    data = load_result(path)
                except ResultError:
                    continue
                if self.accepts(data):
                    found = (path, self.read(recipe_id, data))
                    break
            self._newest[recipe_id] = found
        return self._newest[recipe_id]

    def runs(self, recipe_id: str) -> list[tuple[Path, dict]]:
        """Every publishable result of a recipe, oldest first (``read``)."""
        found = []
        for path in list_results(self.results_dir, recipe_id):
            try:
                data = load_result(path)
            except ResultError:
                continue
            if self.accepts(data):
                found.append((path, self.read(recipe_id, data)))
        return found

    def read(self, recipe_id: str, data: dict) -> dict:
        """A stored result in the current shape, read by today's rules and the recipe's
        current claim (analysis.read_stored): what every page and the Results page show."""
        entry = self.entry(recipe_id)
        return read_stored(results.upgrade(data), entry.recipe if entry else None)

    def unpublishable_count(self, recipe_id: str) -> int:
        """Stored results the site does not show (quick profile, or a tree with changes)."""
        return len(list_results(self.results_dir, recipe_id)) - (1 if self.newest(recipe_id) else 0)

    def result_files(self) -> list[str]:
        return sorted(p.relative_to(self.root).as_posix() for p in self.results_dir.rglob("*.json")
                      if not p.name.startswith("."))

    # -- pages and notebooks ----------------------------------------------------------------------
    @property
    def pages(self) -> dict[str, list[str]]:
        """Recipe id -> docs-relative pages that carry its result (or runs) marker."""
        if self._pages is None:
            self._scan_pages()
        return self._pages

    @property
    def titles(self) -> dict[str, str]:
        """Docs-relative page path -> the page's first-level heading."""
        if self._titles is None:
            self._scan_pages()
        return self._titles

    def _scan_pages(self) -> None:
        from .markers import find_markers
        pages, titles = {}, {}
        for md in sorted(self.docs_dir.rglob("*.md")):
            rel = md.relative_to(self.docs_dir).as_posix()
            text = md.read_text(encoding="utf-8")
            heading = re.search(r"^# +(.+?)\s*#*\s*$", text, re.MULTILINE)
            if heading:
                titles[rel] = heading.group(1).strip()
            for _, kind, recipe_id in find_markers(text):
                if kind in ("result", "runs") and rel not in pages.setdefault(recipe_id, []):
                    pages[recipe_id].append(rel)
        self._pages, self._titles = pages, titles

    def notebook(self, recipe_id: str) -> str | None:
        """The repository-relative notebook path of a recipe if the notebook exists."""
        entry = self.entry(recipe_id)
        candidates = [f"notebooks/{entry.area}/{recipe_id}.ipynb"] if entry else []
        candidates += sorted(p.relative_to(self.root).as_posix()
                             for p in self.root.glob(f"notebooks/*/{recipe_id}.ipynb"))
        return next((c for c in candidates if (self.root / c).is_file()), None)

    def notebooks(self) -> list[str]:
        return sorted(p.relative_to(self.root).as_posix() for p in self.root.glob("notebooks/**/*.ipynb")
                      if ".ipynb_checkpoints" not in p.parts)

    def catalogue(self):
        """The sources' experiments (recipes/catalogue.toml; catalogue.py), read once."""
        if self._catalogue is None:
            from .catalogue import load
            self._catalogue = load(self.root)
        return self._catalogue

    # -- figures ------------------------------------------------------------------------------
    @staticmethod
    def figure_path(recipe_id: str) -> str:
        """Docs-relative path of a recipe's figure (drawn at build time, see figures.py)."""
        return f"figures/{recipe_id}.png"

    @staticmethod
    def course_figure_path(recipe_id: str, source: str) -> str:
        """Docs-relative path of a recipe's figure of one course (figures.py)."""
        return f"figures/{recipe_id}-{source}.png"

    FOREST = "figures/results-forest.png"

    def schema(self) -> dict | None:
        try:
            return recipe_schema()
        except (OSError, ValueError):
            return None

    def expand(self, markdown: str, page: str) -> str:
        from .markers import expand_markers
        return expand_markers(markdown, page, self)
