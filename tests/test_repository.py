"""Project-level checks: the notebook manifest, the notebook conventions and the README table.

These guard the promises CONVENTIONS.md makes about the course as a whole: ``_toc.yml`` lists
every notebook once in reading order, each notebook follows the cell pattern (title with a
source map, set-up cell, exercises with a stub, a checker and an executed solution), nothing is
stored with outputs, and the README's feature table links every notebook.
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
    stubs = [t for t in tags if "exercise" in t]
    assert stubs and all("raises-exception" in t for t in stubs)
    assert sum("solution" in t for t in tags) == len(stubs)
    checks = set(re.findall(r'nb\.check\("(\d\d\.\d+)"', "".join(_source(c) for c in code)))
    assert len(checks) >= len(stubs) and all(c.startswith(path.stem[:2]) for c in checks)
    assert any("nb.interact(" in _source(c) for c in code), "no widget"


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
