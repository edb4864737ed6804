"""The sources' experiments and where each stands on this site (recipes/catalogue.toml): the
recipes that measure it, or why nothing here does. A page shows its own experiments
(``<!-- catalogue -->``), the thesis's introduction the whole of one source
(``<!-- catalogue: thesis -->``), and the Results page counts them (``<!-- catalogue-summary -->``),
so a reader sees each chapter whole, measured or not, and no page keeps a list of its own.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from .result_block import agreement_word
from .text import DOCUMENTS, cell, rel

__all__ = ["CatalogueError", "Experiment", "load", "render_page", "render_document",
           "render_summary", "status"]

CATALOGUE = "recipes/catalogue.toml"
KEYS = {"id", "document", "section", "what", "page", "recipes", "planned", "not_measured"}

# What an experiment's line says of it, in the order the summary counts them.
MEASURED, NOT_YET, PLANNED, NOT_HERE = ("measured", "recipe not measured yet", "no recipe yet",
                                        "not measured here")
STATES = (MEASURED, NOT_YET, PLANNED, NOT_HERE)


class CatalogueError(ValueError):
    """The catalogue file is not what this module reads (file, entry and key named)."""


@dataclass(frozen=True)
class Experiment:
    id: str
    document: str
    section: str
    what: str
    page: str | None  # docs-relative; None while its chapter has no page
    recipes: tuple[str, ...]
    planned: str | None  # the recipe still to be written
    not_measured: str | None  # why nothing here measures it


def load(root: Path) -> list[Experiment]:
    """Every entry of the catalogue, checked: each says what measures it, what will, or why
    nothing here can; it names recipes that exist, and a page that exists (when it names one)."""
    path = Path(root) / CATALOGUE
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise CatalogueError(f"{CATALOGUE}: {error}") from None
    recipes = {p.parent.name for p in Path(root).glob("recipes/*/*/recipe.toml")}
    found, seen = [], set()
    for index, entry in enumerate(data.get("experiment", [])):
        where = f"{CATALOGUE}: experiment[{index}]" + (f" ({entry['id']})" if "id" in entry else "")
        unknown = sorted(set(entry) - KEYS)
        if unknown:
            raise CatalogueError(f"{where}: unknown key(s) {', '.join(unknown)}; allowed: "
                                 f"{', '.join(sorted(KEYS))}")
        for key in ("id", "document", "section", "what"):
            if not isinstance(entry.get(key), str) or not entry[key].strip():
                raise CatalogueError(f"{where}: {key} is required (text)")
        if entry["id"] in seen:
            raise CatalogueError(f"{where}: id {entry['id']!r} appears twice")
        seen.add(entry["id"])
        if entry["document"] not in DOCUMENTS:
            raise CatalogueError(f"{where}: document {entry['document']!r}; allowed: "
                                 f"{', '.join(DOCUMENTS)}")
        named = tuple(entry.get("recipes", ()))
        planned, why = entry.get("planned"), entry.get("not_measured")
        if [bool(named), bool(planned), bool(why)].count(True) != 1:
            raise CatalogueError(f"{where}: give exactly one of recipes (what measures it), "
                                 f"planned (the recipe still to write) or not_measured (why "
                                 f"nothing here can)")
        missing = [r for r in named if r not in recipes]
        if missing:
            raise CatalogueError(f"{where}: no recipe {', '.join(missing)} under recipes/")
        page = entry.get("page")
        if page is not None and not (Path(root) / "docs" / page).is_file():
            raise CatalogueError(f"{where}: page docs/{page} does not exist")
        found.append(Experiment(entry["id"], entry["document"], entry["section"],
                                " ".join(entry["what"].split()), page, named,
                                _text(planned), _text(why)))
    return found


def _text(value) -> str | None:
    return " ".join(str(value).split()) if value else None


def status(site, experiment: Experiment) -> str:
    """MEASURED when a recipe of it has a published result, else NOT_YET, PLANNED or
    NOT_HERE."""
    if experiment.not_measured:
        return NOT_HERE
    if experiment.planned:
        return PLANNED
    return MEASURED if any(site.newest(r) for r in experiment.recipes) else NOT_YET


def _here(site, experiment: Experiment, page: str) -> str:
    if experiment.not_measured:
        return f"not measured here: {cell(experiment.not_measured)}"
    if experiment.planned:
        return f"no recipe yet: {cell(experiment.planned)}"
    parts = []
    for recipe_id in experiment.recipes:
        pages = site.pages.get(recipe_id) or []
        name = f"`{recipe_id}`"
        if pages:
            name = f"[{name}]({rel(page, pages[0])})"
        parts.append(f"{name}: {agreement_word(site, recipe_id)}")
    return "; ".join(parts)


def _table(site, experiments: list[Experiment], page: str, with_page: bool) -> str:
    if not experiments:
        return '!!! info "No experiments listed"\n\n    recipes/catalogue.toml lists none here.\n'
    head = "| Experiment | Source | " + ("Page | " if with_page else "") + "On this site |"
    lines = [head, "|---|---|" + ("---|" if with_page else "") + "---|"]
    for e in experiments:
        where = ""
        if with_page:
            # a page's number and name ("7 Tests on Helix"), not its whole heading
            title = (site.titles.get(e.page) or e.page).split(":")[0] if e.page else ""
            where = (f"[{cell(title)}]({rel(page, e.page)})" if e.page else "no page yet") + " | "
        lines.append(f"| {e.id}: {cell(e.what)} | {cell(DOCUMENTS[e.document])} "
                     f"{cell(e.section)} | {where}{_here(site, e, page)} |")
    return "\n".join(lines) + "\n"


def render_page(site, page: str) -> str:
    """The experiments this page's chapter holds."""
    return ("The source's experiments in this chapter, each with the recipes that measure it and "
            "their verdicts, the recipe still to write, or why this host cannot measure it:\n\n"
            + _table(site, [e for e in site.catalogue() if e.page == page], page,
                     with_page=False))


def render_document(site, page: str, document: str) -> str:
    """Every experiment of one source, with the page that carries it."""
    return _table(site, [e for e in site.catalogue() if e.document == document], page,
                  with_page=True)


def render_summary(site, page: str) -> str:
    """How many of the catalogue's experiments are measured, waiting, or not measurable here."""
    rows = ["| Source | Experiments | " + " | ".join(s.capitalize() for s in STATES) + " |",
            "|---|--:|" + "--:|" * len(STATES)]
    by_document: dict[str, list[str]] = {}
    for e in site.catalogue():
        by_document.setdefault(e.document, []).append(status(site, e))
    for document, states in by_document.items():
        rows.append(f"| {cell(DOCUMENTS[document])} | {len(states)} | "
                    + " | ".join(str(states.count(s)) for s in STATES)
                    + " |")
    return "\n".join(rows) + "\n"
