"""The book's pages around the chapters: landing page, glossary, "choosing a method", API.

``notebooks/api/*.md`` are written by ``tools/api_pages.py``: the pages on disk must be what it
writes now (so a name added to an ``__all__`` cannot be missing), every public name must have
an entry, and each section must link the chapters README.md's table says teach its module.
The tables of ``notebooks/choosing.md`` must be what ``tools/choosing_tables.py`` computes now.
The glossary must define the course's terms, each with its chapters and sources, and the landing
page must be the book's root and map every chapter.  One small Sphinx build with the book's
configuration checks the link forms the pages document (an API entry and glossary terms linked
from a notebook's Markdown cell) and that a link to an entry that does not exist fails it.
"""

from __future__ import annotations

import re
import subprocess
import sys
import types
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import api_pages  # noqa: E402
import choosing_tables  # noqa: E402

NOTEBOOKS = ROOT / "notebooks"


@pytest.fixture(scope="module")
def reference():
    return api_pages.collect()


@pytest.fixture(scope="module")
def written():
    return api_pages.pages()


# --- the API reference -------------------------------------------------------------------------


def test_api_pages_on_disk_are_what_the_generator_writes(written):
    on_disk = {p.name: p.read_text() for p in sorted((NOTEBOOKS / "api").glob("*.md"))}
    assert sorted(on_disk) == sorted(written), "run `python tools/api_pages.py`"
    stale = [name for name, text in written.items() if on_disk[name] != text]
    assert not stale, f"stale API pages {stale}: run `python tools/api_pages.py`"


def test_every_public_name_has_one_entry(reference, written):
    text = "\n".join(written.values())
    pattern = r"^\.\. (?:autofunction|autoclass|autoexception|py:data):: (\S+)"
    documented = re.findall(pattern, text, flags=re.M)
    assert sorted(documented) == sorted(reference.entries)  # each entry once, nothing else
    for module_name, module in api_pages.public_modules().items():
        for name in module.__all__:
            if isinstance(getattr(module, name), types.ModuleType):
                continue
            full = reference.exported[module_name][name]
            entry = reference.entries[full]
            assert entry.obj is getattr(module, name), f"{module_name}.{name} → {full}"


def test_sp_aba_is_documented_in_the_dynamics_page_with_its_chapter(reference, written):
    assert reference.exported["spatial"]["aba"] == "spatial.dynamics.aba"
    page = written["dynamics.md"]
    section = page[page.index("### `dynamics.aba`") :].split("\n### ")[0]
    assert "](../07-articulated-bodies-aba.ipynb)" in section
    assert ".. autofunction:: spatial.dynamics.aba\n" in section
    assert "Table 7.1" in __import__("spatial").aba.__doc__  # the entry shows the equations
    assert (
        "| `sp.aba` | [`spatial.dynamics.aba`](dynamics.md#spatial.dynamics.aba) |"
        in (written["index.md"])
    )


def test_a_name_only_a_submodule_exports_is_documented_there(reference):
    assert "spatial.forces.bezier.QuinticBezierSpline" in reference.entries
    assert "spatial.exercises.ch07.CHECKS" in reference.entries
    # a re-export from another subpackage points to the one entry
    assert reference.exported["spatial.contact"]["lemke"] == "spatial.solvers.lemke"


def _readme_modules_and_chapters() -> list[tuple[str, str]]:
    text = (ROOT / "README.md").read_text()
    table = text[text.index("| topic | module | notebook | source |") :].splitlines()[2:]
    pairs = []
    for row in table:
        if not row.startswith("|"):
            break
        cells = row.split("|")
        module_cell = re.sub(r"\([^)]*\)", "", cells[2])  # "(also re-exported by ...)"
        previous = ""
        for name in re.findall(r"`(spatial[\w.]*|\.\w+)`", module_cell):
            if name.startswith("."):  # `spatial.dynamics.gears`, `.equivalence`
                name = previous.rsplit(".", 1)[0] + name
            previous = name
            pairs += [(name, chapter) for chapter in re.findall(r"\[(\d\d)\]", cells[3])]
    return pairs


def test_sections_link_the_chapters_the_readme_table_names():
    import importlib

    pairs = _readme_modules_and_chapters()
    assert len(pairs) > 30
    for module, chapter in pairs:
        try:
            importlib.import_module(module)
        except ImportError:  # a function named in the table (contact.gauss_acceleration)
            continue
        taught = {
            c
            for key, chapters in api_pages.CHAPTERS.items()
            if key == module or key.startswith(module + ".")
            for c in chapters
        }
        taught |= set(api_pages._chapters(module))
        assert chapter in taught, f"README: {module} is taught in {chapter}; CHAPTERS: {taught}"


def test_every_documented_module_has_a_page_and_the_toc_lists_them():
    toc = (NOTEBOOKS / "_toc.yml").read_text()
    for page in api_pages.PAGES:
        assert f"file: api/{page.stem}\n" in toc
    assert "file: api/index\n" in toc
    top = {m.split(".")[1] for m in api_pages.public_modules() if m != "spatial"}
    documented = {m.split(".")[1] for m in api_pages.sections()}
    assert top == documented, f"modules without a page: {top - documented}"


# --- the landing page, the glossary and "choosing a method" ------------------------------------

CHAPTERS = sorted(NOTEBOOKS.glob("[0-9][0-9]*-*.ipynb"))
PAGES = ("index.md", "glossary.md", "choosing.md", "notation.md")


def test_the_landing_page_is_the_root_and_maps_every_chapter():
    toc = (NOTEBOOKS / "_toc.yml").read_text()
    assert re.search(r"^root: index$", toc, flags=re.M)
    listed = re.findall(r"^\s*- file: (\S+)$", toc, flags=re.M)
    n = len(CHAPTERS)
    projects = [f"projects/{p.stem}" for p in sorted(NOTEBOOKS.glob("projects/P[0-9]*-*.ipynb"))]
    end = n + len(projects)
    assert listed[:n] == [p.stem for p in CHAPTERS]  # the chapters first, the projects, the pages
    assert listed[n:end] == projects
    assert listed[end : end + 4] == ["choosing", "glossary", "notation", "api/index"]
    captions = re.findall(r"^- caption: (.+)$", toc, flags=re.M)  # the book's parts
    assert captions == ["Chapters", "Projects", "Around the chapters"]
    landing = (NOTEBOOKS / "index.md").read_text()
    table = [line for line in landing.splitlines() if re.match(r"\| \[\d\d[a-z]? ", line)]
    assert [re.search(r"\]\((\S+)\.ipynb\)", row).group(1) for row in table] == [
        p.stem for p in CHAPTERS
    ]
    for command in ("make lab", "make test", "make book", "make student"):
        assert f"`{command}`" in landing
    for text in ("Featherstone", "Sueda", "ArtiSynth", "90 minutes", "NumPy"):
        assert text in landing


@pytest.mark.parametrize("name", PAGES)
def test_pages_do_not_point_outside_the_repository_clone(name):
    text = (NOTEBOOKS / name).read_text()
    assert "shared/" not in text and "/work/" not in text
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        if not target.startswith("http"):
            assert (NOTEBOOKS / target).exists(), f"{name} links {target}"


#: Terms the course uses, by their anchor in the glossary (``glossary.md#<anchor>``).
TERMS = """
activation-dynamics apparent-inverse-inertia articulated-inertia attachment backward-error
baumgarte-stabilization bisp box-friction branch-induced-sparsity centroidal-momentum
commutator-free-integrator complementarity compliance composite-rigid-body condition-number
delassus-matrix dual-problem dynamic-equivalence floating-base force-subspace friction-cone
gear-ratio hill-model jacobian-redmax joint-space-inertia-matrix kkt-system lcp loop-joint
maximal-coordinates maximal-dissipation modified-energy motion-subspace musculotendon-unit
null-space operation-count pennation pgs plücker-coordinates qp reduced-coordinates regularization
restitution rotor-inertia spanning-tree spatial-vector staggered-projections stiff
symbolic-simplification symplectic
""".split()


def _glossary_terms() -> dict[str, str]:
    """Anchor (MyST's slug of the heading) → the term's text."""
    text = (NOTEBOOKS / "glossary.md").read_text()
    terms = {}
    for block in text.split("\n### ")[1:]:
        heading, body = block.split("\n", 1)
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        terms[slug] = body.split("\n## ")[0]
    return terms


def test_the_glossary_defines_every_course_term_with_chapters_and_sources():
    terms = _glossary_terms()
    missing = [t for t in TERMS if t not in terms]
    assert not missing, f"terms missing from the glossary: {missing}"
    names = list(terms)  # in the page's order
    assert names == sorted(names, key=str.lower), "glossary terms out of alphabetical order"
    for slug, body in terms.items():
        chapter = r"\[\d\d[a-z]?\]\(\d\d[a-z]?-[\w-]+\.ipynb\)"
        assert re.search(chapter, body), f"{slug}: no chapter link"
        assert re.search(r"\b[FSA] (§|eq|ch|part)|Millard|Celledoni", body), f"{slug}: no source"


def test_the_choosing_page_shows_what_the_package_computes_now():
    shown = choosing_tables.page_tables((NOTEBOOKS / "choosing.md").read_text())
    computed = choosing_tables.tables()
    assert sorted(shown) == sorted(computed)
    stale = [name for name in computed if shown[name] != computed[name]]
    assert not stale, f"stale tables {stale}: run `python tools/choosing_tables.py --write`"


def test_every_section_of_the_choosing_page_links_its_chapters():
    text = (NOTEBOOKS / "choosing.md").read_text()
    for section in text.split("\n## ")[1:]:
        assert re.search(r"\]\(\d\d-[\w-]+\.ipynb\)", section), section.splitlines()[0]


# --- the link forms, in a small build of the book's configuration --------------------------------


def _markdown_notebook(path: Path, text: str) -> None:
    nb = nbformat.v4.new_notebook()
    kernel = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["kernelspec"] = kernel
    nb.cells = [nbformat.v4.new_markdown_cell(text)]
    nbformat.write(nb, path)


def _build(source: Path, out: Path, builder: str = "html") -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", builder]
    return subprocess.run(
        [*command, "-c", str(ROOT / "book"), str(source), str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**__import__("os").environ, "PYTHONPATH": str(ROOT), "SPATIAL_BOOK_EXECUTE": "off"},
    )


def test_links_from_a_notebook_reach_api_entries_and_glossary_terms(tmp_path):
    """One build (Sphinx starts once): 01-a links right and is written with its links resolved;
    02-b links an entry that does not exist, which fails the build with -W (as make test-book
    checks the course) and is the only warning."""
    source = tmp_path / "src"
    (source / "api").mkdir(parents=True)
    (source / "_toc.yml").write_text(
        "format: jb-book\nroot: index\nchapters:\n  - file: 01-a\n  - file: 02-b\n"
        "  - file: glossary\n  - file: api/dynamics\n"
    )
    (source / "index.md").write_text("# Landing\n\n[aba](api/dynamics.md#spatial.dynamics.aba)\n")
    (source / "glossary.md").write_text(
        "# Glossary\n\n## A\n\n### Articulated inertia\n\nWhat a body feels.\n"
        "\n## P\n\n### Plücker coordinates\n\nSix numbers.\n"
    )
    (source / "api" / "dynamics.md").write_text(
        "# Dynamics\n\n```{eval-rst}\n.. autofunction:: spatial.dynamics.aba\n```\n"
    )
    _markdown_notebook(
        source / "01-a.ipynb",
        "# 01 A\n\nThe [ABA](api/dynamics.md#spatial.dynamics.aba) uses the "
        "[articulated inertia](glossary.md#articulated-inertia) and "
        "[Plücker coordinates](glossary.md#plucker-coordinates).",
    )
    _markdown_notebook(
        source / "02-b.ipynb", "# 02 B\n\n[no](api/dynamics.md#spatial.dynamics.abba)"
    )
    run = _build(source, tmp_path / "out")
    assert run.returncode != 0 and "spatial.dynamics.abba" in run.stderr
    warnings = [line for line in run.stderr.splitlines() if "WARNING" in line]
    assert len(warnings) == 1 and "02-b" in warnings[0], run.stderr  # 01-a builds clean
    page = (tmp_path / "out" / "01-a.html").read_text()
    assert 'href="api/dynamics.html#spatial.dynamics.aba"' in page
    assert 'href="glossary.html#articulated-inertia"' in page
    assert 'href="glossary.html#plucker-coordinates"' in page
    assert 'id="spatial.dynamics.aba"' in (tmp_path / "out" / "api" / "dynamics.html").read_text()
