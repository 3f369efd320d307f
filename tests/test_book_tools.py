"""The static book's tools: the parallel executor and the judge of the book's pages.

``tools/execute_notebooks.py`` runs small notebooks written here in real kernels (static widgets,
inline figures, an exercise stub that may raise, a cell that must not) and is checked on what
the kernel saw and what the written copy holds.  ``tools/book_pages.py``'s counting and judging
are checked on notebooks and page measurements made up for each case; the browser part runs in
``make test-browser``.  ``book/conf.py`` and the Makefile are checked for the offline equations
and the executed build.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import book_pages  # noqa: E402
import execute_notebooks  # noqa: E402


def _notebook(path: Path, *sources: str, tags: dict[int, list[str]] | None = None) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    for index, cell_tags in (tags or {}).items():
        nb.cells[index].metadata["tags"] = cell_tags
    nbformat.write(nb, path)
    return path


# --- the executor ------------------------------------------------------------------------------


def test_kernel_environment_draws_static_inline_figures():
    base = {"MPLBACKEND": "Agg", "SPATIAL_NB_FAST": "1", "HOME": "/h"}
    full = execute_notebooks.kernel_environment(base, fast=False)
    assert full == {"HOME": "/h", "SPATIAL_STATIC": "1"}  # no Agg: the inline backend keeps them
    assert execute_notebooks.kernel_environment(base, fast=True)["SPATIAL_NB_FAST"] == "1"
    assert base["MPLBACKEND"] == "Agg"  # the caller's environment is left alone


def test_book_sources_are_copied_without_notebooks_or_test_plumbing(tmp_path):
    source, target = tmp_path / "src", tmp_path / "out"
    source.mkdir()
    for name in ("_toc.yml", "notation.md", "conftest.py", "01-a.ipynb"):
        (source / name).write_text("x")
    (source / "__pycache__").mkdir()
    (source / "images").mkdir()
    (source / "images" / "f.png").write_text("png")
    (source / "projects").mkdir()  # the projects' folder: its notebooks are executed, not copied
    (source / "projects" / "P3-a.ipynb").write_text("x")
    (source / "projects" / "data.csv").write_text("1")
    execute_notebooks.copy_book_sources(source, target)
    assert sorted(p.name for p in target.iterdir()) == [
        "_toc.yml", "images", "notation.md", "projects",
    ]  # fmt: skip
    assert (target / "images" / "f.png").read_text() == "png"
    assert [p.name for p in (target / "projects").iterdir()] == ["data.csv"]


def test_notebooks_in_names_a_missing_notebook(tmp_path):
    _notebook(tmp_path / "01-a.ipynb", "1")
    (tmp_path / "notes.ipynb").write_text("{}")
    (tmp_path / "projects").mkdir()
    _notebook(tmp_path / "projects" / "P3-b.ipynb", "1")
    found = execute_notebooks.notebooks_in(tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in found] == [
        "01-a.ipynb", "projects/P3-b.ipynb",
    ]  # fmt: skip
    with pytest.raises(FileNotFoundError, match="no such notebook in .*: 02-b.ipynb"):
        execute_notebooks.notebooks_in(tmp_path, ["01-a.ipynb", "02-b.ipynb"])


def test_stale_executed_notebooks_are_removed(tmp_path):
    keep = _notebook(tmp_path / "01-a.ipynb", "1")
    (tmp_path / "02-gone.ipynb").write_text("{}")
    (tmp_path / "notation.md").write_text("kept")
    (tmp_path / "projects").mkdir()
    project = _notebook(tmp_path / "projects" / "P1-kept.ipynb", "1")
    (tmp_path / "projects" / "P2-gone.ipynb").write_text("{}")
    gone = execute_notebooks.remove_stale([keep, project], tmp_path)
    assert gone == ["02-gone.ipynb", "projects/P2-gone.ipynb"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["01-a.ipynb", "notation.md", "projects"]
    assert [p.name for p in (tmp_path / "projects").iterdir()] == ["P1-kept.ipynb"]


def test_longest_notebooks_start_first(tmp_path):
    sources = [_notebook(tmp_path / f"{k:02d}-n.ipynb", "1") for k in (1, 2, 3)]
    target = tmp_path / "out"
    target.mkdir()
    order = execute_notebooks.schedule(sources, target)
    assert [p.name for p in order] == ["03-n.ipynb", "02-n.ipynb", "01-n.ipynb"]  # fresh clone
    for name, seconds in (("01-n.ipynb", 50.0), ("02-n.ipynb", 5.0)):
        nb = nbformat.v4.new_notebook()
        nb.metadata["spatial"] = {"execution": {"seconds": seconds}}
        nbformat.write(nb, target / name)
    order = execute_notebooks.schedule(sources, target)
    assert [p.name for p in order] == ["01-n.ipynb", "02-n.ipynb", "03-n.ipynb"]


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """Two small notebooks executed two at a time, as ``make book`` does."""
    source = tmp_path_factory.mktemp("source")
    target = tmp_path_factory.mktemp("executed")
    _notebook(
        source / "01-draws.ipynb",
        "import os; print(os.environ.get('SPATIAL_STATIC'), os.environ.get('SPATIAL_NB_FAST'))",
        "import matplotlib.pyplot as plt\nplt.plot([0, 1], [1, 0])\nplt.show()",
        "raise NotImplementedError('the exercise stub')",
        "import ipywidgets\nipywidgets.IntSlider()",
        tags={2: ["exercise", "raises-exception"]},
    )
    _notebook(source / "02-cwd.ipynb", "import os; print(os.getcwd())")
    (source / "projects").mkdir()
    _notebook(source / "projects" / "P3-cwd.ipynb", "import os; print(os.getcwd())")
    notebooks = execute_notebooks.notebooks_in(source)
    seconds = execute_notebooks.execute_all(notebooks, target, jobs=2, fast=True, timeout=120)
    return source, target, seconds


def test_executed_notebook_has_its_figure_and_static_environment(executed):
    source, target, seconds = executed
    assert sorted(seconds) == ["01-draws.ipynb", "02-cwd.ipynb", "projects/P3-cwd.ipynb"]
    nb = nbformat.read(target / "01-draws.ipynb", as_version=4)
    assert nb.cells[0].outputs[0]["text"].split() == ["1", "1"]  # SPATIAL_STATIC, fast mode
    assert book_pages.image_outputs(target / "01-draws.ipynb") == 1  # shown by the inline backend
    assert nb.cells[2].outputs[0]["ename"] == "NotImplementedError"  # allowed by its tag
    assert "widgets" not in nb.metadata  # no widget manager to fetch from the internet
    assert nb.metadata["spatial"]["execution"]["fast"] is True
    cwd = nbformat.read(target / "02-cwd.ipynb", as_version=4).cells[0].outputs[0]["text"]
    assert Path(cwd.strip()) == source  # runs where nbval runs it, beside its sources
    project = nbformat.read(target / "projects" / "P3-cwd.ipynb", as_version=4)
    assert Path(project.cells[0].outputs[0]["text"].strip()) == source / "projects"
    assert not (source / "01-draws.ipynb").read_text().count('"outputs": [{')  # source untouched


def test_an_error_outside_an_exercise_stub_fails_naming_the_notebook(tmp_path):
    good = _notebook(tmp_path / "01-good.ipynb", "1 + 1")
    bad = _notebook(
        tmp_path / "02-bad.ipynb",
        "raise ValueError('stub')",
        "1",
        "1 / 0",
        tags={0: ["raises-exception"]},
    )
    target = tmp_path / "out"
    message = "02-bad.ipynb, cell 2: ZeroDivisionError: division by zero"
    with pytest.raises(execute_notebooks.ExecutionError, match=message):
        execute_notebooks.execute_all([good, bad], target, jobs=2, timeout=120)
    assert (target / "01-good.ipynb").exists() and not (target / "02-bad.ipynb").exists()


def test_jobs_must_be_positive(tmp_path):
    with pytest.raises(ValueError, match="jobs must be at least 1, got 0"):
        execute_notebooks.execute_all([], tmp_path, jobs=0)


def test_main_reports_a_missing_notebook(tmp_path, capsys):
    assert execute_notebooks.main([str(tmp_path), str(tmp_path / "out"), "07-x.ipynb"]) == 2
    assert "no such notebook" in capsys.readouterr().err


# --- the judge of the pages --------------------------------------------------------------------


def _executed_with_images(path: Path, images_per_cell: list[int]) -> Path:
    nb = nbformat.v4.new_notebook()
    png = {"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"}
    for count in images_per_cell:
        outputs = [nbformat.v4.new_output("display_data", data=png) for _ in range(count)]
        outputs.append(nbformat.v4.new_output("stream", text="printed\n"))
        nb.cells.append(nbformat.v4.new_code_cell("", outputs=outputs))
    nb.cells.append(nbformat.v4.new_markdown_cell("text"))
    nbformat.write(nb, path)
    return path


def test_image_outputs_counts_every_image_of_every_cell(tmp_path):
    assert book_pages.image_outputs(_executed_with_images(tmp_path / "a.ipynb", [2, 0, 1])) == 3


def test_cells_that_show_a_figure_must_hold_one(tmp_path):
    nb = nbformat.v4.new_notebook()
    png = nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0KGgo="})
    nb.cells = [
        nbformat.v4.new_code_cell("plt.plot(x)\nplt.show()", outputs=[png]),  # 0: has it
        nbformat.v4.new_code_cell("plt.plot(x)\nplt.show()"),  # 1: lost
        nbformat.v4.new_code_cell("w = sp.nb.interact(f, a=(0, 1))"),  # 2: lost widget figure
        nbformat.v4.new_code_cell("w = sp.nb.interact(f, show=False, a=(0, 1))"),  # 3: a test
        nbformat.v4.new_code_cell("print(1)"),  # 4: draws nothing
        nbformat.v4.new_markdown_cell("`plt.show()` in prose"),  # 5: not code
    ]
    nbformat.write(nb, tmp_path / "a.ipynb")
    assert book_pages.cells_missing_their_figure(tmp_path / "a.ipynb") == [1, 2]


def test_expected_figures_pairs_each_chapter_page_with_its_executed_notebook(tmp_path):
    book, executed = tmp_path / "book", tmp_path / "executed"
    book.mkdir()
    executed.mkdir()
    for name in ("01-a.html", "02-b.html", "index.html", "notation.html"):
        (book / name).write_text("<html/>")
    _executed_with_images(executed / "01-a.ipynb", [1, 1])
    with pytest.raises(FileNotFoundError, match="no executed notebook .* for 02-b.html"):
        book_pages.expected_figures(book, executed)
    _executed_with_images(executed / "02-b.ipynb", [0])
    assert book_pages.expected_figures(book, executed) == {"01-a.html": 2, "02-b.html": 0}
    (book / "projects").mkdir()  # a project's page pairs with its notebook in projects/
    (book / "projects" / "P3-c.html").write_text("<html/>")
    with pytest.raises(FileNotFoundError, match="for projects/P3-c.html"):
        book_pages.expected_figures(book, executed)
    (executed / "projects").mkdir()
    _executed_with_images(executed / "projects" / "P3-c.ipynb", [3])
    found = book_pages.expected_figures(book, executed)
    assert found == {"01-a.html": 2, "02-b.html": 0, "projects/P3-c.html": 3}
    assert "projects/P3-c.html" not in book_pages.other_pages(book)
    with pytest.raises(FileNotFoundError, match="no chapter page"):
        book_pages.expected_figures(executed, executed)


def test_other_pages_are_every_page_but_the_chapters_and_sphinx_own(tmp_path):
    for name in ("01-a.html", "index.html", "glossary.html", "search.html", "genindex.html"):
        (tmp_path / name).write_text("<html/>")
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "dynamics.html").write_text("<html/>")
    (tmp_path / "_static").mkdir()
    (tmp_path / "_static" / "x.html").write_text("<html/>")
    assert book_pages.other_pages(tmp_path) == ["api/dynamics.html", "glossary.html", "index.html"]
    # the chapters are still paired with their notebooks, whatever other pages the book has
    (tmp_path / "ex").mkdir()
    _executed_with_images(tmp_path / "ex" / "01-a.ipynb", [1])
    assert book_pages.expected_figures(tmp_path, tmp_path / "ex") == {"01-a.html": 1}


CLEAN = {
    "images": 3,
    "broken": [],
    "math": 5,
    "typeset": 5,
    "merror": [],
    "raw": [],
    "external": [],
}


@pytest.mark.parametrize(
    ("expected", "change", "mathjax", "console", "message"),
    [
        (4, {}, "typeset", [], "3 figures shown, its notebook drew 4"),
        (0, {"images": 0}, "typeset", [], "its executed notebook has no figure"),
        (3, {"broken": ["x.png"]}, "typeset", [], "1 broken images"),
        (3, {}, "MathJax did not load", [], "equations not typeset: MathJax did not load"),
        (3, {"typeset": 3}, "typeset", [], "2 of 5 equations not typeset"),
        (3, {"merror": ["Undefined control sequence"]}, "typeset", [], "1 TeX errors"),
        (3, {"raw": ["shift: $$^AX_B ="]}, "typeset", [], "raw TeX delimiters left"),
        (3, {"external": ["https://cdn/x.js"]}, "typeset", [], "loads from the internet"),
        (3, {}, "typeset", ["x.js 1:2 Uncaught TypeError"], "console errors (x.js"),
        (3, {"unshown": [7]}, "typeset", [], "cells [7] draw a figure but their executed output"),
    ],
)
def test_page_problems_names_each_failure(expected, change, mathjax, console, message):
    unshown = change.get("unshown", [])
    seen = {**CLEAN, **{k: v for k, v in change.items() if k != "unshown"}}
    problems = book_pages.page_problems(expected, seen, mathjax, console, unshown)
    assert len(problems) == 1 and message in problems[0], problems


def test_a_page_without_a_notebook_needs_no_figure_but_clean_equations_and_console():
    bare = {**CLEAN, "images": 0}
    assert book_pages.page_problems(None, bare, "typeset", []) == []
    problems = book_pages.page_problems(None, {**bare, "typeset": 4}, "typeset", ["x.js Error"])
    assert len(problems) == 2 and "1 of 5 equations not typeset" in problems[0]


def test_a_page_with_all_its_figures_and_equations_passes():
    assert book_pages.page_problems(3, CLEAN, "typeset", []) == []
    assert book_pages.page_problems(2, {**CLEAN, "math": 0, "typeset": 0}, "no equations", []) == []


# --- the configuration -------------------------------------------------------------------------


def test_book_typesets_equations_without_the_network():
    conf = (ROOT / "book" / "conf.py").read_text()
    assert '"sphinx-mathjax-offline"' in conf
    assert not re.search(r"^mathjax_path\s*=", conf, re.MULTILINE)  # no CDN put back by hand
    assert "sphinx-mathjax-offline" in (ROOT / "pyproject.toml").read_text()


def test_make_book_renders_the_executed_copies_and_ci_checks_them():
    makefile = (ROOT / "Makefile").read_text()
    book = makefile[makefile.index("\nbook:") :].split("\n\n")[0]
    assert "tools/execute_notebooks.py --jobs 2" in book
    assert "SPATIAL_BOOK_EXECUTE=off $(BOOK) build/executed build/book" in book
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert ci.index("make book BOOK_FAST=1") < ci.index("make test-browser")
