"""Project-level checks: the notebook manifest, the notebook conventions and the README table.

These guard the promises CONVENTIONS.md makes about the course as a whole: ``_toc.yml`` lists
every notebook once in reading order, each notebook follows the cell pattern (title with a
source map, set-up cell, exercises with a stub, the student's check and a collapsed solution that
defines ``solution_<name>`` and checks itself, so that Run All keeps the student's attempt), nothing
is stored with outputs, and the README's feature table links every notebook.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text())["cells"]


def _source(cell: dict) -> str:
    return "".join(cell["source"])


def test_toc_lists_every_notebook_once_in_reading_order():
    toc = (ROOT / "notebooks" / "_toc.yml").read_text()
    listed = re.findall(r"^(?:root|\s*- file):\s*(\S+)\s*$", toc, flags=re.M)
    chapters = [name for name in listed if re.match(r"\d\d-", name)]
    assert chapters == [p.stem for p in NOTEBOOKS]
    pages = [name for name in listed if name not in chapters]  # e.g. the notation page
    assert all((ROOT / "notebooks" / f"{name}.md").exists() for name in pages)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_follows_the_cell_pattern(path):
    cells = _cells(path)
    title = _source(cells[0])
    assert cells[0]["cell_type"] == "markdown" and title.startswith(f"# {path.stem[:2]} ")
    assert re.search(r"Featherstone|Sueda|ArtiSynth", title), "title cell needs a source map"
    code = [c for c in cells if c["cell_type"] == "code"]
    assert any("spatial.nb.setup(" in _source(c) or "sp.nb.setup(" in _source(c) for c in code)
    for cell in code:
        assert not cell.get("outputs") and cell.get("execution_count") is None, "stored outputs"
    tags = [set(c.get("metadata", {}).get("tags", [])) for c in cells]
    stubs = [k for k, t in enumerate(tags) if "exercise" in t]
    assert stubs and all("raises-exception" in tags[k] for k in stubs)
    assert sum("solution" in t for t in tags) == len(stubs)
    for k in stubs:
        _assert_exercise_block(path.stem[:2], cells[k - 1 : k + 3], tags[k + 2])
    assert any("nb.interact(" in _source(c) for c in code), "no widget"


def _assert_exercise_block(number: str, block: list[dict], solution_tags: set[str]) -> None:
    """Exercise text (saying how to work it), stub, the student's check, collapsed solution.

    The solution defines ``solution_<name>``, never the student's ``<name>``, so running it
    (or Run All) cannot overwrite an attempt, and it checks itself with the same checker.
    """
    text, stub, check, solution = block
    name = re.match(r"def (\w+)\(", _source(stub)).group(1)
    assert text["cell_type"] == "markdown" and "*To work it:*" in _source(text), name
    found = re.fullmatch(rf'sp\.nb\.check\("({number}\.\d+)", {name}\)\s*', _source(check))
    assert found, f"the cell after the stub of {name} must check it"
    assert "solution" in solution_tags, f"{name}: the solution follows the check"
    assert solution["metadata"].get("jupyter", {}).get("source_hidden") is True, name
    body = _source(solution)
    assert re.search(rf"^def solution_{name}\(", body, flags=re.M), name
    assert not re.search(rf"^(def {name}\(|{name}\s*=)", body, flags=re.M), name
    assert f'sp.nb.check("{found.group(1)}", solution_{name})' in body, name


def test_every_notebook_ends_with_its_navigation_links():
    """The last cell links the previous and next chapters (``python tools/navigation.py``)."""
    sys.path.insert(0, str(ROOT / "tools"))
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
        assert f"notebooks/{path.name}" in readme, f"README does not link {path.name}"


def test_readme_examples_run():
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
