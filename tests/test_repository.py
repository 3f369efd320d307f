"""Project-level checks: the notebook manifest, the notebook conventions and the README table.

These guard the promises CONVENTIONS.md makes about the course as a whole: ``_toc.yml`` lists
every notebook once in reading order, each notebook follows the cell pattern (title with a
source map, set-up cell, exercises with a stub, the student's check and a collapsed solution that
defines ``solution_<name>`` and checks itself, so that Run All keeps the student's attempt), nothing
is stored with outputs, and the README's feature table links every notebook.  The projects
(``notebooks/projects/Pn-*.ipynb``, titled ``# Pn · Title``, whose milestones are exercises
``Pn.k``) are held to the same pattern as the chapters.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from course_notebooks import STEM, course_notebooks  # noqa: E402

NOTEBOOKS = course_notebooks(ROOT / "notebooks")


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text())["cells"]


def _source(cell: dict) -> str:
    return "".join(cell["source"])


def test_toc_lists_every_notebook_once_in_reading_order():
    toc = (ROOT / "notebooks" / "_toc.yml").read_text()
    listed = re.findall(r"^(?:root|\s*- file):\s*(\S+)\s*$", toc, flags=re.M)
    chapters = [name for name in listed if STEM.fullmatch(name)]
    assert chapters == [
        p.relative_to(ROOT / "notebooks").with_suffix("").as_posix() for p in NOTEBOOKS
    ]
    pages = [name for name in listed if name not in chapters]  # e.g. the notation page
    assert all((ROOT / "notebooks" / f"{name}.md").exists() for name in pages)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_follows_the_cell_pattern(path):
    cells = _cells(path)
    title = _source(cells[0])
    assert cells[0]["cell_type"] == "markdown" and title.startswith(f"# {path.stem.split('-')[0]} ")
    assert re.search(r"Featherstone|Sueda|ArtiSynth", title), "title cell needs a source map"
    code = [c for c in cells if c["cell_type"] == "code"]
    assert any("spatial.nb.setup(" in _source(c) or "sp.nb.setup(" in _source(c) for c in code)
    for cell in code:
        assert not cell.get("outputs") and cell.get("execution_count") is None, "stored outputs"
    tags = [set(c.get("metadata", {}).get("tags", [])) for c in cells]
    stubs = [k for k, t in enumerate(tags) if "exercise" in t]
    # an answer given as a value (predict, model); a milestone may also ask for a function
    values = [k for k in stubs if re.search(r"^answer_\w+ = ", _source(cells[k]), re.M)]
    assert stubs and all("raises-exception" in tags[k] for k in stubs if k not in values)
    assert sum("solution" in t for t in tags) == len(stubs)
    for k in stubs:
        block = cells[k - 1 : k + 3]
        if k in values:
            _assert_value_exercise_block(path.stem[:2], block, tags[k], tags[k + 2])
        else:
            _assert_exercise_block(path.stem[:2], block, tags[k + 2])
    assert any("nb.interact(" in _source(c) for c in code), "no widget"


def _assert_exercise_block(number: str, block: list[dict], solution_tags: set[str]) -> None:
    """Exercise text (saying how to work it), stub, the student's check, collapsed solution.

    The solution is collapsed in JupyterLab (``source_hidden``) and in the book (``hide-input``).

    The solution defines ``solution_<name>``, never the student's ``<name>``, so running it
    (or Run All) cannot overwrite an attempt, and it checks itself with the same checker.
    """
    text, stub, check, solution = block
    name = re.match(r"def (\w+)\(", _source(stub)).group(1)
    assert text["cell_type"] == "markdown" and "*To work it:*" in _source(text), name
    found = re.fullmatch(rf'sp\.nb\.check\("({number}\.\d+)", {name}\)\s*', _source(check))
    assert found, f"the cell after the stub of {name} must check it"
    assert "solution" in solution_tags, f"{name}: the solution follows the check"
    assert solution["metadata"].get("jupyter", {}).get("source_hidden") is True, name  # JupyterLab
    assert "hide-input" in solution_tags, name  # and collapsed in the static book too
    body = _source(solution)
    assert re.search(rf"^def solution_{name}\(", body, flags=re.M), name
    assert not re.search(rf"^(def {name}\(|{name}\s*=)", body, flags=re.M), name
    assert f'sp.nb.check("{found.group(1)}", solution_{name})' in body, name


def _assert_value_exercise_block(
    number: str, block: list[dict], stub_tags: set[str], solution_tags: set[str]
) -> None:
    """A predict or model exercise (classroom pattern): text, answer cell, check, solution.

    The text has a line opening with ``**Exercise NN.k (kind).**`` (after a heading, if any);
    the answer cell (not ``raises-exception``:
    ``...`` is simply not attempted) assigns ``answer_NN_k``; the next cell is exactly
    ``sp.nb.check("NN.k", answer_NN_k)``; the collapsed solution computes
    ``solution_answer_NN_k`` and checks it, never assigning the student's name.
    """
    text, stub, check, solution = block
    kind = ({"predict", "model"} & stub_tags).pop()
    found = re.search(rf"^\*\*Exercise ({number}\.\d+) \({kind}\)\.\*\*", _source(text), re.M)
    assert text["cell_type"] == "markdown" and found, _source(text)[:60]
    ident, name = found.group(1), "answer_" + found.group(1).replace(".", "_")
    assert "raises-exception" not in stub_tags, name
    assert re.search(rf"^{name} = \.\.\.", _source(stub), flags=re.M), name
    assert _source(check).strip() == f'sp.nb.check("{ident}", {name})', name
    assert {"solution", "hide-input"} <= solution_tags, name
    assert solution["metadata"].get("jupyter", {}).get("source_hidden") is True, name
    body = _source(solution)
    assert re.search(rf"^solution_{name} = ", body, flags=re.M), name
    assert not re.search(rf"^{name}\s*=", body, flags=re.M), name
    assert f'sp.nb.check("{ident}", solution_{name})' in body, name


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_has_its_study_aids(path):
    """Links to what it builds on, a prompt to predict before each widget, a summary."""
    cells = _cells(path)
    # the opening (title, problem, picture) says what the chapter builds on before section 1
    opening = []
    for cell in cells:
        text = _source(cell) if cell["cell_type"] == "markdown" else ""
        if "\n## " in "\n" + text:
            break
        opening.append(text)
    intro = next((text for text in opening if "**Builds on:**" in text), "")
    assert intro, "the opening says which chapters it builds on"
    others = [p.resolve() for p in NOTEBOOKS if p != path] + [ROOT / "notebooks" / "notation.md"]
    paragraph = intro.split("**Builds on:**")[1].split("\n\n")[0]
    linked = [name for name in re.findall(r"\]\(([^)#]+)\)", paragraph) if "glossary" not in name]
    assert linked and all((path.parent / name).resolve() in others for name in linked), linked
    for k, cell in enumerate(cells):
        code = _source(cell) if cell["cell_type"] == "code" else ""
        if "nb.interact(" in code and "show=False" not in code:  # a widget the reader sees
            before = cells[k - 1]
            assert before["cell_type"] == "markdown" and _source(before).startswith(
                "**Predict first.**"
            ), f"cell {k}: a widget needs a 'Predict first' prompt right before it"
    headings = [
        (k, line)
        for k, c in enumerate(cells)
        if c["cell_type"] == "markdown"
        for line in _source(c).splitlines()
        if line.startswith("## ")
    ]
    summary = [k for k, line in headings if re.fullmatch(r"## (\d+\. )?Summary", line)]
    assert summary, "no '## Summary'"
    later = [line for k, line in headings if k > summary[-1] and re.match(r"## \d+\. ", line)]
    assert all("Notes on the sources" in line for line in later), (
        f"sections after the summary: {later}"
    )


def test_every_notebook_ends_with_its_navigation_links():
    """The last cell links the previous and next chapters (``python tools/navigation.py``)."""
    import navigation

    order = navigation.reading_order(ROOT / "notebooks")
    for k, path in enumerate(order):
        last, want = _cells(path)[-1], navigation.navigation_cell(order, k)
        assert navigation.is_navigation(last) and _source(last) == want["source"], (
            f"{path.name}: run `python tools/navigation.py` to update its navigation links"
        )


def test_readme_links_every_notebook():
    readme = (ROOT / "README.md").read_text()
    for path in NOTEBOOKS:
        name = path.relative_to(ROOT).as_posix()
        assert name in readme, f"README does not link {name}"


def test_readme_examples_run():
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
