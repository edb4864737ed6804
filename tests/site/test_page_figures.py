"""Every interval a page quotes comes from a stored result: a figure such as
"+25.7 % [+23.9, +27.6]" in a paragraph must be one that a result of a recipe the paragraph
names holds (as stored, turned round, as in "four nodes served +69 % more than two", or as a
size, as in "fell by 29.6 % [−35.9, −22.6]"). A paragraph names a recipe by linking one of its
result files or by its id in backticks; a result block (``<!-- result: -->``) names its recipe
for the paragraphs after it, up to the next heading. A figure derived by arithmetic says so in
its sentence ("our arithmetic").

This catches a retyped figure that drifted, a reading of one run quoted with another's link,
and a page left quoting a run that a re-measurement replaced without saying which run it reads.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache

import pytest

from sitekit import REPO
from tuninglab.site.markers import prose_lines

DOCS = REPO / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "reference" not in p.parts)
RESULTS = REPO / "results"

NUMBER = r"[+−-]?\d[\d,]*(?:\.\d+)?"
INTERVAL = re.compile(
    rf"(?P<d>{NUMBER}) %\s+\[(?P<lo>{NUMBER})(?: %)?,\s+(?P<hi>{NUMBER})(?: %)?\]")
RESULT_LINK = re.compile(r"results/(?P<id>[A-Za-z0-9._-]+)/\d{8}T\d{6}Z[^)\s]*\.json")
MARKER = re.compile(r"<!--\s*(?:result|agreement|runs):\s*(?P<id>[A-Za-z0-9._-]+)\s*-->")
BACKTICKED = re.compile(r"`(?P<id>[a-z0-9][a-z0-9-]+)`")
CODE_SPAN = re.compile(r"`[^`\n]+`")
DERIVED = "our arithmetic"


def _number(text: str) -> float:
    return float(text.replace("−", "-").replace(",", ""))


def _triples(node, out: list) -> list:
    """Every stored (delta, low, high) in percent, and each turned round (1/(1+x) - 1)."""
    if isinstance(node, dict):
        values = [node.get(k) for k in ("delta", "ci_low", "ci_high")]
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
            d, low, high = values
            if node.get("delta_kind", "relative") == "relative":
                out.append((100 * d, 100 * low, 100 * high))
                if min(d, low, high) > -1:
                    out.append((100 * (1 / (1 + d) - 1), 100 * (1 / (1 + high) - 1),
                                100 * (1 / (1 + low) - 1)))
            else:
                out.append((d, low, high))
        for value in node.values():
            _triples(value, out)
    elif isinstance(node, list):
        for value in node:
            _triples(value, out)
    return out


@lru_cache(maxsize=None)
def _stored(recipe_id: str) -> tuple:
    folder = RESULTS / recipe_id
    found: list = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
        _triples(json.loads(path.read_text(encoding="utf-8")), found)
    return tuple(found)


def _paragraphs(markdown: str):
    """Prose paragraphs outside fenced code (markers.prose_lines), without inline code spans
    (an example of a format, such as `+11.0 % [+6.2, +16.0]` on the Results page, is no
    reading); ids in backticks stay visible to BACKTICKED as `id`."""
    lines, last = [], None
    for index, line in [*prose_lines(markdown), (None, "")]:
        if lines and (not line.strip() or index != last + 1):  # a blank line or a fence ends it
            yield CODE_SPAN.sub(lambda m: m.group(0) if BACKTICKED.fullmatch(m.group(0)) else "",
                                "\n".join(lines))
            lines = []
        if line.strip():
            lines.append(line)
        last = index


def _sentence_of(paragraph: str, start: int) -> str:
    begin = max(paragraph.rfind(". ", 0, start), paragraph.rfind(".\n", 0, start)) + 1
    end = paragraph.find(". ", start)
    return paragraph[begin:end if end >= 0 else len(paragraph)]


def _matches(quoted: re.Match, stored) -> bool:
    groups = [quoted.group(k) for k in ("d", "lo", "hi")]
    d, low, high = (_number(g) for g in groups)
    # Half a unit of the last digit written, so "+69 %" matches 69.4 and "+2.7 %" 2.74.
    tolerance = max(0.5 * 10 ** -len(g.split(".")[1]) if "." in g else 0.5 for g in groups) + 1e-6
    readings = [(d, low, high)]
    if groups[0][0] not in "+−-":  # a size without a sign: "fell by 29.6 % [−35.9, −22.6]",
        readings += [(-d, low, high), (-d, -high, -low)]  # "17.4 % [8.2, 25.6] less"
    return any(abs(a - x) < tolerance and abs(b - y) < tolerance and abs(c - z) < tolerance
               for a, b, c in readings for x, y, z in stored)


def _unmatched(page) -> list[str]:
    known = {p.name for p in RESULTS.iterdir() if p.is_dir()}
    found, blocks = [], set()
    for paragraph in _paragraphs(page.read_text(encoding="utf-8")):
        if paragraph.startswith("#"):  # a new section: "the block above" is its own
            blocks = set()
        blocks |= {m.group("id") for m in MARKER.finditer(paragraph)} & known
        named = blocks | {m.group("id") for rx in (RESULT_LINK, BACKTICKED)
                          for m in rx.finditer(paragraph)} & known
        for quoted in INTERVAL.finditer(paragraph):
            if DERIVED in " ".join(_sentence_of(paragraph, quoted.start()).split()):
                continue
            stored = [t for rid in sorted(named) for t in _stored(rid)]
            if not _matches(quoted, stored):
                found.append(f"{' '.join(quoted.group(0).split())} (recipes named in the "
                             f"paragraph: {', '.join(sorted(named)) or 'none'})")
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_every_quoted_interval_is_a_stored_one(page):
    unmatched = _unmatched(page)
    assert not unmatched, ("intervals no result of the recipes their paragraph names holds "
                           "(link the result, or say 'our arithmetic'):\n" + "\n".join(unmatched))


def test_the_check_sees_a_figure_that_drifted(tmp_path):
    page = tmp_path / "page.md"
    good = ("The run ([result](../results/aa-noise/{name})) read {fig}.\n")
    name = sorted((RESULTS / "aa-noise").glob("*.json"))[-1].name
    stored = json.loads((RESULTS / "aa-noise" / name).read_text(encoding="utf-8"))
    m = stored["analysis"]["comparisons"][0]["metrics"][stored["primary_metric"]]
    fig = f"{100 * m['delta']:+.1f} % [{100 * m['ci_low']:+.1f}, {100 * m['ci_high']:+.1f}]"
    page.write_text(good.format(name=name, fig=fig), encoding="utf-8")
    assert _unmatched(page) == []
    drifted = fig.replace(f"{100 * m['ci_high']:+.1f}]", f"{100 * m['ci_high'] + 0.3:+.1f}]")
    page.write_text(good.format(name=name, fig=drifted), encoding="utf-8")
    assert len(_unmatched(page)) == 1


# --------------------------------------------------------------------------- "the block above"

# A sentence that says which run "the block above" shows must name the run the block shows:
# the newest publishable result of the section's recipe. A page written before a re-measure
# kept saying "the block above shows the run of 29 November" under a block showing the run
# of 7 December (three such sentences, found 7 December 2026).
BLOCK_ABOVE = re.compile(r"(?i)(?<!first )(?<!second )\bthe block above\b|"
                         r"\bthe block at the top of this section\b")
RESULT_MARKER = re.compile(r"<!--\s*result:\s*(?P<id>[A-Za-z0-9._-]+)\s*-->")
LINKED_FILE = re.compile(r"results/(?P<id>[A-Za-z0-9._-]+)/(?P<file>\d{8}T\d{6}Z[^)\s]*\.json)")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
DATE = re.compile(rf"\b(\d{{1,2}}) ({'|'.join(MONTHS)}) (\d{{4}})\b")


@lru_cache(maxsize=None)
def _newest_shown(recipe_id: str) -> str | None:
    """The file name of the result a recipe's block shows (site.repository.publishable)."""
    from tuninglab.site.repository import publishable
    for path in sorted((RESULTS / recipe_id).glob("*.json"), reverse=True):
        if publishable(json.loads(path.read_text(encoding="utf-8"))):
            return path.name
    return None


def _stale_block_mentions(text: str) -> list[str]:
    found, blocks = [], []
    for paragraph in _paragraphs(text):
        if paragraph.startswith("#"):
            blocks = []
        blocks = [m.group("id") for m in RESULT_MARKER.finditer(paragraph)] or blocks
        if len(blocks) != 1:  # no block, or blocks stacked: "the block above" names neither
            continue
        newest = _newest_shown(blocks[0])
        if newest is None:
            continue
        day = f"{int(newest[6:8])} {MONTHS[int(newest[4:6]) - 1]} {newest[:4]}"
        for mention in BLOCK_ABOVE.finditer(paragraph):
            sentence = " ".join(_sentence_of(paragraph, mention.start()).split())
            linked = [m.group("file") for m in LINKED_FILE.finditer(sentence)
                      if m.group("id") == blocks[0]]
            dates = [" ".join(d.groups()) for d in DATE.finditer(sentence)]
            if (linked and newest not in linked) or (not linked and dates and day not in dates):
                found.append(f"{blocks[0]}: the block shows {newest}, the sentence says: "
                             f"{sentence[:160]}")
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_the_block_above_is_the_run_its_sentence_names(page):
    stale = _stale_block_mentions(page.read_text(encoding="utf-8"))
    assert not stale, "sentences naming another run than the block shows:\n" + "\n".join(stale)


def test_the_block_check_sees_a_sentence_left_behind_by_a_re_measure():
    newest = _newest_shown("aa-noise")
    older = sorted(p.name for p in (RESULTS / "aa-noise").glob("*.json") if p.name < newest)[-1]
    page = "## A\n\n<!-- result: aa-noise -->\n\nThe block above shows the run {}.\n"
    assert _stale_block_mentions(page.format(f"([result](../results/aa-noise/{newest}))")) == []
    assert len(_stale_block_mentions(page.format(f"([result](../results/aa-noise/{older}))"))) == 1
    assert len(_stale_block_mentions(page.format("of 1 January 2020"))) == 1
