"""No page copies a source: no run of 12 or more words shared with a seed document, outside
quotations.

Facts and figures from the five source documents may carry over with a citation; sentences
may not. The check compares the words of docs/**/*.md (and of the notebooks' Markdown cells)
with the seeds, after normalising both (lower case, punctuation removed). A run counts as
quoted, and is allowed, when every word of it sits in a Markdown blockquote (a line starting
with ">") or between double quotes ("..." or “...”) within one paragraph.

The seeds live outside the repository: <repo>/../shared/seeds, or $TUNINGLAB_SEEDS.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from sitekit import REPO

RUN = 12
_WORD = re.compile(r"[^\W_]+")
_QUOTED = re.compile(r'"[^"\n]*(?:\n(?!\s*\n)[^"\n]*)*"|“[^”]*”')
_BLOCKQUOTE = re.compile(r"^[ \t]*>.*$", re.MULTILINE)


def words(text: str) -> list[str]:
    """The normalised words of a text: lower case, punctuation and symbols dropped."""
    return _WORD.findall(text.lower())


def words_with_quotes(text: str) -> tuple[list[str], list[bool]]:
    """Words of a Markdown text and, for each, whether it sits inside a quotation."""
    quoted_spans = [m.span() for m in _BLOCKQUOTE.finditer(text)]
    for paragraph in re.finditer(r"(?:.+\n?)+", text):  # quotes never cross a blank line
        start = paragraph.start()
        quoted_spans += [(start + a, start + b) for a, b in
                         (m.span() for m in _QUOTED.finditer(paragraph.group()))]
    tokens, flags = [], []
    for m in _WORD.finditer(text):
        tokens.append(m.group().lower())
        flags.append(any(a <= m.start() < b for a, b in quoted_spans))
    return tokens, flags


def seed_ngrams(texts: list[str], n: int = RUN) -> set[tuple[str, ...]]:
    grams: set[tuple[str, ...]] = set()
    for text in texts:
        w = words(text)
        grams.update(tuple(w[i:i + n]) for i in range(len(w) - n + 1))
    return grams


def copied_runs(text: str, grams: set[tuple[str, ...]], n: int = RUN) -> list[str]:
    """Every maximal run of at least n words shared with the seeds and not wholly quoted."""
    tokens, quoted = words_with_quotes(text)
    hits = [i for i in range(len(tokens) - n + 1)
            if tuple(tokens[i:i + n]) in grams and not all(quoted[i:i + n])]
    runs, current = [], None
    for i in hits:
        if current and i <= current[1]:
            current[1] = i + n
        else:
            current = [i, i + n]
            runs.append(current)
    return [" ".join(tokens[a:b]) for a, b in runs]


def _seed_dir() -> Path | None:
    folder = Path(os.environ.get("TUNINGLAB_SEEDS") or REPO.parent / "shared" / "seeds")
    return folder if folder.is_dir() and any(folder.glob("*.txt")) else None


def _pages() -> dict[str, str]:
    pages = {str(p.relative_to(REPO)): p.read_text(encoding="utf-8") for p in sorted((REPO / "docs").rglob("*.md"))}
    for nb in sorted((REPO / "notebooks").rglob("*.ipynb")) if (REPO / "notebooks").is_dir() else []:
        if ".ipynb_checkpoints" in nb.parts:
            continue
        cells = json.loads(nb.read_text(encoding="utf-8")).get("cells", [])
        pages[str(nb.relative_to(REPO))] = "\n\n".join(
            "".join(c.get("source", "")) for c in cells if c.get("cell_type") == "markdown")
    return pages


@pytest.fixture(scope="module")
def grams():
    folder = _seed_dir()
    if folder is None:
        pytest.skip("the seed documents are not here (<repo>/../shared/seeds, or set TUNINGLAB_SEEDS)")
    return seed_ngrams([p.read_text(encoding="utf-8", errors="replace") for p in sorted(folder.glob("*.txt"))])


def test_no_page_copies_a_seed(grams):
    found = {name: runs for name, text in _pages().items() if (runs := copied_runs(text, grams))}
    report = "\n".join(f"{name}: ...{run}..." for name, runs in found.items() for run in runs)
    assert not found, f"runs of {RUN}+ words shared with a source, outside quotations:\n{report}"


# --------------------------------------------------------------------------- the detector itself

_SEED = ("the pool of connections must be sized to the number of concurrent users "
         "or requests will queue behind the semaphore of the pool")


def test_detector_catches_a_planted_twelve_word_copy():
    grams = seed_ngrams([_SEED])
    planted = "Our advice: a pool of connections must be sized to the number of concurrent users, always."
    assert copied_runs(planted, grams) == ["pool of connections must be sized to the number of concurrent users"]


def test_detector_ignores_case_and_punctuation():
    grams = seed_ngrams([_SEED])
    planted = "A POOL, of connections; must be sized: to the number (of) concurrent users!"
    assert copied_runs(planted, grams)


def test_detector_allows_eleven_words():
    grams = seed_ngrams([_SEED])
    eleven = "Our advice: a pool of connections must be sized to the number of concurrent people."
    assert copied_runs(eleven, grams) == []


def test_detector_allows_a_quotation():
    grams = seed_ngrams([_SEED])
    quoted = 'The guide says "pool of connections must be sized to the number of concurrent users".'
    assert copied_runs(quoted, grams) == []
    curly = "The guide says “pool of connections must be sized to the number of concurrent users”."
    assert copied_runs(curly, grams) == []
    block = "The guide says:\n\n> pool of connections must be sized\n> to the number of concurrent users\n"
    assert copied_runs(block, grams) == []


def test_quotes_do_not_leak_across_paragraphs():
    grams = seed_ngrams([_SEED])
    text = 'An odd quote " here.\n\nA pool of connections must be sized to the number of concurrent users "x"'
    assert copied_runs(text, grams)


def test_detector_on_a_real_seed_sentence(grams):
    """Twelve consecutive words taken from the tuning guide are caught; eleven are not."""
    folder = _seed_dir()
    guide = words((folder / "000_3989a3d664c392c4.txt").read_text(encoding="utf-8", errors="replace"))
    start = len(guide) // 2
    assert copied_runs("Intro. " + " ".join(guide[start:start + RUN]) + ". Outro.", grams)
    assert not copied_runs(" ".join(guide[start:start + RUN - 1]) + " zzzunique", seed_ngrams([" ".join(guide)]))
