"""One source for "agrees": a page's verdict of our result against its source is the word the
Results page computes (analysis/agreement.py), put in the sentence by the inline marker
``<!-- agreement: <id> -->``. A page that writes such a verdict by hand fails here."""
from __future__ import annotations

import re

import pytest

from sitekit import REPO
from tuninglab.site import Site
from tuninglab.site.markers import expand_markers, find_inline, prose_lines

DOCS = REPO / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "reference" not in p.parts)

VERDICT = re.compile(r"\b(agrees?|disagrees?|agreement|disagreement)\b", re.IGNORECASE)
# A verdict of our result against a source names the source (or the claim) in the sentence.
AGAINST = re.compile(r"\b(source|guide|thesis|article|claim|claims|claimed|Results page)\b",
                     re.IGNORECASE)
# Uses of the words that are not a verdict against a source: the method's own vocabulary (the
# words themselves, defined on the Method and Results pages) and agreement between our own runs.
NOT_A_VERDICT = re.compile(
    r"agreement word|the words? (agrees|disagrees)|\*agrees\*|\*disagrees\*|`agrees`|"
    r"`disagrees`|agree with each other|periods (dis)?agree|runs? (dis)?agree|"
    r"class loaders must agree|rows? disagree|own row|whether (it|the two) agrees?|"
    r"analysis/agreement\.py",
    re.IGNORECASE)


def _sentences(markdown: str):
    """Prose sentences outside fenced code, generated blocks and headings."""
    paragraph: list[str] = []
    for _, line in [*prose_lines(markdown), (None, "")]:
        if line.lstrip().startswith(("#", "|", "<!-- result", "<!-- runs", "<!-- warmups",
                                     "--8<--")):
            continue
        if line.strip():
            paragraph.append(line.strip())
            continue
        text = " ".join(paragraph)
        paragraph = []
        yield from (s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z*(])", text) if s)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_no_page_writes_a_verdict_against_its_source_by_hand(page):
    found = []
    for sentence in _sentences(page.read_text(encoding="utf-8")):
        if "<!-- agreement:" in sentence or NOT_A_VERDICT.search(sentence):
            continue
        if VERDICT.search(sentence) and AGAINST.search(sentence):
            found.append(sentence[:160])
    assert not found, ("hand-written verdicts (use <!-- agreement: <recipe-id> -->):\n"
                       + "\n".join(found))


def test_every_inline_verdict_names_a_recipe_and_expands_to_the_results_pages_word():
    site = Site(REPO)
    known = {e.id for e in site.entries}
    used = 0
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for _, recipe_id in find_inline(text):
            used += 1
            assert recipe_id in known, f"{page.name}: <!-- agreement: {recipe_id} --> names no recipe"
        rel = page.relative_to(DOCS).as_posix()
        assert "<!-- agreement:" not in expand_markers(text, rel, site)
    assert used >= 10  # the pages state their verdicts through the marker
