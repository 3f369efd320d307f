"""Write the previous/next links at the end of every notebook, in the order of ``_toc.yml``.

Each notebook ends with one markdown cell (tagged ``navigation``) that links the previous and the
next notebook of the course, so a reader can walk through it in JupyterLab or in the static
book: the chapters, then the projects (``projects/Pn-*.ipynb``: chapter 18 leads to the first
project, and a project's links to the chapters go one folder up).  The cell is generated, never
edited by hand: after adding or renaming a notebook, run ``make navigation``;
``tests/test_repository.py`` checks that every notebook carries the cell this script would write.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

from course_notebooks import STEM

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
TAG = "navigation"


def reading_order(folder: Path = NOTEBOOKS) -> list[Path]:
    """The chapter and project notebooks in the order ``_toc.yml`` lists them (other pages
    left out)."""
    toc = (folder / "_toc.yml").read_text()
    stems = re.findall(r"^(?:root|\s*- file):\s*(\S+)\s*$", toc, flags=re.M)
    return [folder / f"{stem}.ipynb" for stem in stems if STEM.fullmatch(stem)]


def title(path: Path) -> str:
    """``"NN Title"`` from the notebook's first cell (``# NN Title``; ``# P3 · Title``)."""
    first = json.loads(path.read_text())["cells"][0]
    return "".join(first["source"]).splitlines()[0].lstrip("# ").strip()


def navigation_cell(order: list[Path], k: int) -> dict:
    """The markdown cell with the links around notebook ``order[k]``."""
    here = order[k].parent

    def link(path: Path) -> str:
        return Path(os.path.relpath(path, here)).as_posix()

    parts = []
    if k > 0:
        parts.append(f"← previous: [{title(order[k - 1])}]({link(order[k - 1])})")
    if k + 1 < len(order):
        parts.append(f"next: [{title(order[k + 1])}]({link(order[k + 1])}) →")
    text = "---\n\n" + " · ".join(parts) + "\n"
    return {"cell_type": "markdown", "metadata": {"tags": [TAG]}, "source": text}


def is_navigation(cell: dict) -> bool:
    return TAG in cell.get("metadata", {}).get("tags", [])


def with_navigation(cells: list[dict], cell: dict) -> list[dict]:
    """``cells`` with the navigation cell (replaced if present) as the last cell.

    Cell ids follow nbstripout's numbering (the cell's index), so that the notebooks stay as
    ``nbstripout`` leaves them.
    """
    cells = [c for c in cells if not is_navigation(c)]
    last = dict(cell, id=str(len(cells)), source=cell["source"].splitlines(keepends=True))
    return cells + [{k: last[k] for k in ("cell_type", "id", "metadata", "source")}]


def main(folder: Path = NOTEBOOKS) -> int:
    order = reading_order(folder)
    changed = 0
    for k, path in enumerate(order):
        notebook = json.loads(path.read_text())
        cells = with_navigation(notebook["cells"], navigation_cell(order, k))
        if cells != notebook["cells"]:
            notebook["cells"] = cells
            path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n")
            changed += 1
    print(f"navigation links up to date in {len(order)} notebooks ({changed} rewritten)")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else NOTEBOOKS))
