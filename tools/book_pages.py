"""Check the pages of the static book in a real browser (the book part of ``make test-browser``).

``make book`` executes the notebooks into ``build/executed`` and renders them into
``build/book``.  For every chapter and project notebook (a project's page is
``projects/Pn-*.html``, paired with ``build/executed/projects/Pn-*.ipynb``) this opens its page
from disk, as a reader opens ``build/book/index.html``, and checks that

1. the page shows every figure its executed notebook drew: the images loaded in the page's cell
   outputs (not counting an animation's frame inside an HTML output) are at least the image
   outputs of ``build/executed/<chapter>.ipynb`` (and a chapter draws at least one), and no
   image is broken; and in the executed notebook every cell whose code shows a figure
   (``plt.show()``, a displayed ``nb.interact``) holds one;
2. its equations rendered: MathJax (served from the book's own ``_static``, no network) has
   typeset every math element into its output (``mjx-container``), none is a TeX error
   (``mjx-merror``), and no raw ``$$``, ``\\(`` or ``\\[`` is left in the prose;
3. the browser console logged no error while the page loaded.

The book's other pages (the landing page, "choosing a method", the glossary, the notation page
and the API reference, :func:`other_pages`) have no notebook behind them: they are checked for
2 and 3 only, and for broken images.

The counting and judging are plain functions (tested in ``tests/test_book_tools.py``); only
:func:`check_pages` needs the browser, a Selenium driver that ``tools/browser_test.py`` passes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

#: What the page shows, measured in the page once MathJax has finished.
PAGE_JS = """
const article = document.querySelector('article') || document.body;
const images = Array.from(article.querySelectorAll('.cell_output img'));
const figures = images.filter(i => !i.closest('.text_html'));  // not an animation's frame
const skip = 'pre, code, script, style, mjx-container, .cell_output, .cell_input, .highlight';
const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
const raw = [];
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  if (node.parentElement.closest(skip)) continue;
  const m = node.textContent.match(/\\$\\$|\\\\\\(|\\\\\\[/);
  if (m) raw.push(node.textContent.trim().slice(0, 80));
}
return {
  images: figures.filter(i => i.complete && i.naturalWidth > 0).length,
  broken: images.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src.slice(-40)),
  math: article.querySelectorAll('.math').length,
  typeset: article.querySelectorAll('.math mjx-container').length,
  merror: Array.from(article.querySelectorAll('mjx-merror')).map(e => e.textContent.slice(0, 80)),
  raw: raw,
  external: Array.from(document.querySelectorAll('script[src], link[rel=stylesheet], img'))
    .map(e => e.src || e.href)
    .filter(s => /^https?:/.test(s)),
};
"""

#: Resolves once MathJax has typeset the page (at once on a page without equations).
MATHJAX_DONE_JS = """
const done = arguments[arguments.length - 1];
const start = Date.now();
(function wait() {
  const mj = window.MathJax;
  if (mj && mj.startup && mj.startup.promise) {
    mj.startup.promise.then(() => done('typeset'), e => done('error: ' + e));
  } else if (!document.querySelector('article .math')) {
    done('no equations');
  } else if (Date.now() - start > 20000) {
    done('MathJax did not load');
  } else {
    setTimeout(wait, 100);
  }
})();
"""


#: A code cell that shows a figure: ``plt.show()`` or a widget that is displayed (tests build
#: theirs with ``show=False``), which in the book is drawn as its opening figure.
SHOWS_A_FIGURE = re.compile(r"plt\.show\(|\bnb\.interact\(")


def _images(cell: dict) -> int:
    return sum(
        1
        for output in cell.get("outputs", ())
        if any(mime.startswith("image/") for mime in output.get("data", {}))
    )


def image_outputs(notebook: Path) -> int:
    """Image outputs (``image/*`` data of display and result outputs) of an executed notebook."""
    return sum(_images(cell) for cell in json.loads(notebook.read_text())["cells"])


def cells_missing_their_figure(notebook: Path) -> list[int]:
    """Code cells of an executed notebook that show a figure in their code but hold no image.

    The page is compared with its executed notebook; this compares the executed notebook with
    its code, so a figure lost in execution (say, a widget's static figure) is not missed.
    """
    cells = json.loads(notebook.read_text())["cells"]
    return [
        index
        for index, cell in enumerate(cells)
        if cell["cell_type"] == "code"
        and SHOWS_A_FIGURE.search("".join(cell["source"]))
        and "show=False" not in "".join(cell["source"])
        and _images(cell) == 0
    ]


#: Pages of notebooks, relative to the book: the chapters, then the projects.
NOTEBOOK_PAGES = ("[0-9][0-9]*-*.html", "projects/P[0-9]*-*.html")


def _notebook_pages(book: Path) -> list[str]:
    """The pages of ``book`` made from notebooks, as paths relative to it."""
    return [p.relative_to(book).as_posix() for g in NOTEBOOK_PAGES for p in sorted(book.glob(g))]


def expected_figures(book: Path, executed: Path) -> dict[str, int]:
    """The chapter and project pages of ``book`` and how many figures each must show.

    A chapter page is ``NN-*.html``, a project page ``projects/Pn-*.html`` (keys are paths
    relative to ``book``); its figures are the image outputs of the executed notebook at the
    same relative path in ``executed``.  Raises ``FileNotFoundError`` if a page has no executed
    notebook (the book was not built from ``executed``) or ``book`` has no chapter page.
    """
    pages = _notebook_pages(book)
    if not pages:
        raise FileNotFoundError(f"no chapter page (NN-*.html) in {book}")
    notebook = {p: executed / Path(p).with_suffix(".ipynb") for p in pages}
    missing = [p for p in pages if not notebook[p].is_file()]
    if missing:
        raise FileNotFoundError(
            f"no executed notebook in {executed} for {', '.join(missing)}; run `make book`"
        )
    return {p: image_outputs(notebook[p]) for p in pages}


#: Pages Sphinx writes by itself: not part of the course's text.
GENERATED_PAGES = ("genindex.html", "search.html", "py-modindex.html")


def other_pages(book: Path) -> list[str]:
    """The book's pages that are not chapters or projects (landing, glossary, API reference,
    ...), as paths relative to ``book``; Sphinx's own index and search pages are left out."""
    pages = sorted(
        p.relative_to(book).as_posix()
        for p in book.rglob("*.html")
        if not p.relative_to(book).parts[0].startswith("_")
    )
    notebooks = set(_notebook_pages(book))
    return [p for p in pages if p not in notebooks and p not in GENERATED_PAGES]


def page_problems(
    expected: int | None,
    seen: dict,
    mathjax: str,
    console: list[str],
    unshown: list[int] = (),
) -> list[str]:
    """What is wrong with one page, from what it should show and what the browser saw.

    Parameters
    ----------
    expected : int or None
        Image outputs of the page's executed notebook; ``None`` for a page without a notebook
        (no figure is required of it).
    seen : dict
        :data:`PAGE_JS`'s result for the page.
    mathjax : str
        :data:`MATHJAX_DONE_JS`'s result: ``"typeset"``, ``"no equations"`` or why not.
    console : list of str
        Errors the browser console logged while the page loaded.
    unshown : list of int
        Cells of the executed notebook that show a figure in their code but hold none
        (:func:`cells_missing_their_figure`).
    """
    problems = []
    if expected == 0:
        problems.append("its executed notebook has no figure")
    if unshown:
        problems.append(f"cells {list(unshown)} draw a figure but their executed output has none")
    if expected is not None and seen["images"] < expected:
        problems.append(f"{seen['images']} figures shown, its notebook drew {expected}")
    if seen["broken"]:
        problems.append(f"{len(seen['broken'])} broken images ({seen['broken'][0]})")
    if mathjax not in ("typeset", "no equations"):
        problems.append(f"equations not typeset: {mathjax}")
    if seen["typeset"] < seen["math"]:
        problems.append(f"{seen['math'] - seen['typeset']} of {seen['math']} equations not typeset")
    if seen["merror"]:
        problems.append(f"{len(seen['merror'])} TeX errors ({seen['merror'][0]!r})")
    if seen["raw"]:
        problems.append(f"raw TeX delimiters left in the text ({seen['raw'][0]!r})")
    if seen["external"]:
        problems.append(f"loads from the internet ({seen['external'][0]})")
    if console:
        problems.append(f"console errors ({console[0][:200]})")
    return problems


def _open(driver, book: Path, name: str) -> tuple[dict, str, list[str]]:
    driver.get((book / name).as_uri())
    mathjax = driver.execute_async_script(MATHJAX_DONE_JS)
    seen = driver.execute_script(PAGE_JS)
    console = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    return seen, mathjax, console


def check_pages(driver, book: Path, executed: Path) -> tuple[list[str], list[str]]:
    """Open every chapter and project page of ``book`` in ``driver``, then its other pages;
    return (what was seen, failures)."""
    expected = expected_figures(book, executed)
    driver.get_log("browser")  # forget what earlier pages logged
    driver.set_script_timeout(30)
    seen_lines, failures = [], []
    pages = [(name, figures) for name, figures in expected.items()]
    pages += [(name, None) for name in other_pages(book)]
    for name, figures in pages:
        seen, mathjax, console = _open(driver, book, name)
        unshown = (
            cells_missing_their_figure(executed / Path(name).with_suffix(".ipynb"))
            if figures is not None
            else []
        )
        problems = page_problems(figures, seen, mathjax, console, unshown)
        shown = f"{seen['images']}/{figures} figures, " if figures is not None else ""
        line = f"{name}: {shown}{seen['typeset']}/{seen['math']} equations typeset"
        if problems:
            failures.append(f"{name}: " + "; ".join(problems))
            print(f"     FAIL {line}: " + "; ".join(problems), flush=True)
        else:
            print(f"     ok   {line}", flush=True)
        seen_lines.append(line)
    return seen_lines, failures
