"""The built site in a real browser: Debian's chromium driven by Playwright (sync API).

Every nav entry loads with an h1, no page logs a console error, every same-site link
resolves, search finds a recipe page, a notebook page shows its plot (when a notebook
exists), and the Results table fits a laptop screen (1366 x 768) without scrolling sideways.
Set TUNINGLAB_SITE_SHOTS=<folder> to also save screenshots of the Results page and of a
chapter page there.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import threading
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlparse

import pytest

from sitekit import REPO

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
# A term found on one recipe page only, and that page.
SEARCH_TERM, SEARCH_PAGE = "IronJacamar", "guide/05-jca/"
# A laptop's screen: the Results table must fit it with the navigation shown (until 2026-11-27
# it ran past the page's right edge, its last column cut to "Agre...").
LAPTOP = {"width": 1366, "height": 768}


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest's output readable
        pass


@pytest.fixture(scope="module")
def base_url(site_dir):
    handler = functools.partial(_QuietHandler, directory=str(site_dir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def context(tmp_path_factory):
    try:
        from playwright import sync_api
    except ImportError:
        pytest.fail("Playwright for Python is not installed (requirements.txt; scripts/setup.sh)", pytrace=False)
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} not found: apt-get install -y chromium (scripts/setup.sh does)", pytrace=False)
    with sync_api.sync_playwright() as playwright:
        ctx = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
            viewport={"width": 1280, "height": 900},
        )
        yield ctx
        ctx.close()


@pytest.fixture(scope="module")
def crawl(context, base_url):
    """Visit every nav entry once: status, h1, console errors, the links of each page, its
    figures drawn from results (src and loaded width) and how many plots it shows inline (a
    notebook's). One visit a page serves every test that looks at pages: visiting them again
    per test cost CI about two minutes (74 s for the figures, 45 s for the notebooks' plots)."""
    page = context.new_page()
    page.goto(base_url)
    nav = page.eval_on_selector_all(
        "nav.md-nav--primary a.md-nav__link[href]", "els => els.map(e => e.href)")
    entries = sorted({urldefrag(href)[0] for href in nav if href.startswith(base_url)})
    visits = {}
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    for url in entries:
        errors.clear()
        response = page.goto(url, wait_until="load")
        visits[url] = {
            "status": response.status if response else None,
            "h1": page.locator("article h1, .md-content h1").count(),
            "errors": list(errors),
            "links": page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)"),
            "figures": page.eval_on_selector_all(
                "article img[src*='figures/']", "els => els.map(e => [e.src, e.naturalWidth])"),
            "inline_plots": page.locator("img[src^='data:image/png']").count(),
        }
    page.close()
    return visits


def test_nav_lists_the_chapters(crawl, base_url):
    paths = {urlparse(url).path for url in crawl}
    for expected in ("/", "/method/", "/guide/05-jca/", "/thesis/06-tests-on-sisters/", "/results/"):
        assert expected in paths, sorted(paths)


def test_every_nav_entry_loads_with_a_title(crawl):
    bad = {url: (v["status"], v["h1"]) for url, v in crawl.items() if v["status"] != 200 or v["h1"] < 1}
    assert not bad, bad


def test_no_console_errors(crawl):
    bad = {url: v["errors"] for url, v in crawl.items() if v["errors"]}
    assert not bad, bad


def test_no_broken_internal_links(crawl, base_url):
    targets = {urldefrag(link)[0] for v in crawl.values() for link in v["links"] if link.startswith(base_url)}
    broken = {}
    for url in sorted(targets):
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                status = response.status
        except urllib.error.HTTPError as exc:
            status = exc.code
        if status != 200:
            broken[url] = status
    assert not broken, broken


def test_search_finds_a_recipe_page(context, base_url):
    page = context.new_page()
    page.goto(base_url)
    toggle = page.locator("label.md-header__button[for='__search']").first
    if toggle.is_visible():  # narrow layouts hide the box behind a button
        toggle.click()
    box = page.locator("input.md-search__input")
    box.click()
    # The search worker builds its index after the page loads; a query typed before it is
    # ready gets no answer, so type again until results appear (at most about 15 s).
    for _ in range(15):
        box.fill("")
        box.type(SEARCH_TERM)
        try:
            page.wait_for_selector(".md-search-result__item", timeout=1000)
            break
        except Exception:  # playwright's TimeoutError: not ready yet
            continue
    hrefs = page.eval_on_selector_all(".md-search-result__item a[href]", "els => els.map(e => e.href)")
    page.close()
    assert any(SEARCH_PAGE in href for href in hrefs), hrefs


def _has_saved_plot(notebook: Path) -> bool:
    cells = json.loads(notebook.read_text(encoding="utf-8")).get("cells", [])
    return any("image/png" in (out.get("data") or {})
               for cell in cells for out in cell.get("outputs", []))


def test_notebook_page_shows_its_plot(crawl, context, base_url):
    """Every notebook saved with a plot shows that plot on its page (as the crawl saw it; a
    notebook page the nav does not list is visited here)."""
    notebooks = sorted((REPO / "notebooks").rglob("*.ipynb")) if (REPO / "notebooks").is_dir() else []
    notebooks = [nb for nb in notebooks if ".ipynb_checkpoints" not in nb.parts]
    if not notebooks:
        pytest.skip("no notebook under notebooks/ yet")
    with_plots = [nb for nb in notebooks if _has_saved_plot(nb)]
    if not with_plots:
        pytest.skip(f"{len(notebooks)} notebooks, none saved with a plot yet "
                    "(they are committed with the outputs of a full run)")
    page = context.new_page()
    missing = []
    for nb in with_plots:
        rel = nb.relative_to(REPO).with_suffix("").as_posix()
        url = urljoin(base_url, rel + "/")
        if url in crawl:
            seen = crawl[url]
            assert seen["status"] == 200, (rel, seen["status"])
            plots = seen["inline_plots"]
        else:
            response = page.goto(url)
            assert response and response.status == 200, rel
            plots = page.locator("img[src^='data:image/png']").count()
        if plots == 0:
            missing.append(rel)
    page.close()
    assert not missing, f"notebook pages without their plot: {missing}"


def test_screenshots(context, base_url):
    """Screenshots for a human to look at; only when TUNINGLAB_SITE_SHOTS names a folder."""
    folder = os.environ.get("TUNINGLAB_SITE_SHOTS")
    if not folder:
        pytest.skip("set TUNINGLAB_SITE_SHOTS=<folder> to save screenshots")
    Path(folder).mkdir(parents=True, exist_ok=True)
    page = context.new_page()
    for name, path in (("results", "results/"), ("chapter-05-jca", "guide/05-jca/"),
                       ("chapter-02-connectors", "guide/02-connectors/"),
                       ("chapter-11-curve", "guide/11-putting-it-together/"),
                       ("thesis-06-heap", "thesis/06-tests-on-sisters/"),
                       ("thesis-08-quota", "thesis/08-performance-analysis/")):
        page.goto(urljoin(base_url, path))
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)
    page.set_viewport_size(LAPTOP)  # the Results table as a laptop shows it
    page.goto(urljoin(base_url, "results/"))
    page.locator("article table").first.scroll_into_view_if_needed()
    page.screenshot(path=str(Path(folder) / "results-table-1366.png"))
    page.close()


# The Results table, its scrolling wrapper (Material wraps every table in
# div.md-typeset__scrollwrap; the table itself scrolls too) and the article's right edge.
_TABLE_SIZES = """() => {
    const table = document.querySelector('.tl-results table') || document.querySelector('article table');
    if (!table) return null;
    const wrapper = table.closest('.md-typeset__scrollwrap') || table.parentElement;
    const cells = table.querySelectorAll('thead th');
    return {
        table: [table.scrollWidth, table.clientWidth],
        wrapper: [wrapper.scrollWidth, wrapper.clientWidth],
        lastHeader: cells.length ? cells[cells.length - 1].getBoundingClientRect().right : 0,
        tableRight: table.getBoundingClientRect().right,
        articleRight: table.closest('article').getBoundingClientRect().right,
    };
}"""


def test_results_table_fits_a_laptop_screen(context, base_url):
    """At 1366 x 768 the Results table neither scrolls sideways nor runs past the article."""
    page = context.new_page()
    page.set_viewport_size(LAPTOP)
    response = page.goto(urljoin(base_url, "results/"), wait_until="load")
    assert response and response.status == 200
    sizes = page.evaluate(_TABLE_SIZES)
    page.close()
    assert sizes, "the Results page shows no table"
    for part in ("table", "wrapper"):
        scroll, client = sizes[part]
        assert scroll <= client + 1, f"the Results {part} overflows: {scroll} px of content in {client} px ({sizes})"
    assert sizes["lastHeader"] <= sizes["tableRight"] + 1, sizes
    assert sizes["tableRight"] <= sizes["articleRight"] + 1, sizes


def test_every_figure_loads(crawl):
    """Each page's figures (drawn at build from stored results) load and have a size."""
    broken, seen = {}, 0
    for url, visit in crawl.items():
        seen += len(visit["figures"])
        bad = [src for src, width in visit["figures"] if not width]
        if bad:
            broken[url] = bad
    assert not broken, broken
    assert seen, "no page shows a figure (the Results page always has its forest plot)"
