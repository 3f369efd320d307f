"""Write the student edition of the course: the notebooks without the exercise solutions.

The notebooks in ``notebooks/`` are the full edition: every exercise has a stub (tagged
``exercise``), the student's check (``sp.nb.check("NN.k", name)``) and a collapsed solution cell
(tagged ``solution``) that defines ``solution_<name>`` and checks it, and the tests run them all.
Because the solution has its own name, Run All in the full edition keeps a student's attempt;
still, a teacher who hands the notebooks out wants them without the solutions.  This script
copies each notebook, drops its solution cells, and adds a short "how to work these exercises"
note under the exercises heading (a project's milestones are its exercises, under
``## Milestones``, checked by ``sp.nb.check("P3.1", name)``; the projects go to the edition's
``projects/`` folder).  Everything before the first exercise is unchanged, so the
full edition's tests cover it; the checkers stay and report "not attempted yet" on an untouched
stub.

Every cell also carries nbgrader's metadata (schema 3), so an instructor who grades with nbgrader
can take the edition as an assignment's source: the exercise stubs are the only editable cells
(kept as they are, not marked as nbgrader ``solution`` cells, whose content nbgrader would
replace by its own stub without the function's signature), the check cells under them are
autograder tests worth one point each (``grade``, locked), and every other cell is read-only.
The checks score by raising: run nbgrader's autograder with ``SPATIAL_NB_GRADING=1`` in its
environment, so that an untouched stub fails its test like a wrong answer
(``spatial.nb.grading_mode``).

Usage: ``python tools/student_edition.py [SOURCE_DIR] [TARGET_DIR]`` (defaults ``notebooks``
and ``student``); ``make student`` runs it.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

from course_notebooks import course_notebooks, relative

#: Files of the notebooks folder that belong to the tests, not to the course.
NOT_COPIED = ("conftest.py", "__pycache__", ".ipynb_checkpoints", ".pytest_cache")

HOW_TO = (
    "**How to work these exercises.** There are three kinds. *Predict* asks for a number, a "
    "choice or a short formula: work it out before running anything, then replace the `...` "
    "in its cell. *Implement* has a stub that raises `NotImplementedError`: replace the stub's "
    "body with your code. *Model* is an open task: build and simulate a model, then put the "
    "number it asks for in place of the `...`. Run your cell, then the check cell under it "
    "(`sp.nb.check(...)`): it says whether your answer passes or which section to reread. "
    "Until you write something it reports the exercise as not attempted yet.\n"
)


def _tags(cell: dict) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


#: The heading under which a notebook's exercises start: a chapter's, or a project's milestones.
EXERCISES_HEADINGS = ("## Exercises", "## Milestones")


def _is_exercises_heading(cell: dict) -> bool:
    lines = "".join(cell["source"]).splitlines()
    return (
        cell["cell_type"] == "markdown" and bool(lines) and lines[0].strip() in EXERCISES_HEADINGS
    )


def student_cells(cells: list[dict]) -> list[dict]:
    """The cells of the student edition: solutions dropped, a how-to note after the heading.

    Raises
    ------
    ValueError
        If the notebook has exercises but no ``## Exercises`` (or ``## Milestones``) heading
        before the first one.
    """
    out, noted = [], False
    for cell in cells:
        tags = _tags(cell)
        if "solution" in tags:
            continue
        if "exercise" in tags and not noted:
            raise ValueError("an exercise comes before the '## Exercises' heading")
        out.append(cell)
        if _is_exercises_heading(cell) and not noted:
            out.append(
                {"cell_type": "markdown", "id": "how-to-work", "metadata": {}, "source": [HOW_TO]}
            )
            noted = True
    return out


CHECK = re.compile(r'^sp\.nb\.check\("((?:\d\d|P\d+)\.\d+)",\s*\w+\)\s*$')


def nbgrader_metadata(cells: list[dict]) -> None:
    """Add nbgrader's cell metadata (schema 3) to the cells of a student notebook, in place."""
    for k, cell in enumerate(cells):
        source = "".join(cell["source"]).strip()
        check = CHECK.match(source) if cell["cell_type"] == "code" else None
        meta = {"grade": False, "solution": False, "locked": True, "schema_version": 3}
        if "exercise" in _tags(cell):  # editable, and kept as it is (a "solution" cell's
            meta["locked"] = False  # content would be replaced by nbgrader's own stub)
        elif check:
            meta |= {
                "grade": True,
                "points": 1,
                "grade_id": "check-" + check.group(1).replace(".", "_"),
            }
        else:
            meta["grade_id"] = f"cell-{k}"
        cell.setdefault("metadata", {})["nbgrader"] = meta


def write_student_edition(source: Path, target: Path) -> list[Path]:
    """Write the student edition of every chapter and project of ``source`` into ``target``.

    ``target`` is emptied first; a project ``projects/Pn-*.ipynb`` goes to
    ``target/projects/``.  The book's other sources (``_toc.yml``, the Markdown pages and the
    ``api`` folder) are copied as they are, without any full-edition notebook.  Returns the
    written notebooks' paths.
    """
    if target.resolve() == source.resolve():
        raise ValueError("the student edition must go to another folder than the notebooks")
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    written = []
    for path in course_notebooks(source):
        name = relative(path, source)
        notebook = json.loads(path.read_text())
        try:
            notebook["cells"] = student_cells(notebook["cells"])
        except ValueError as error:
            raise ValueError(f"{name}: {error}") from None
        nbgrader_metadata(notebook["cells"])
        out = target / name
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n")
        written.append(out)
    # the pages the notebooks link (notation, glossary, choosing, the landing page, the API
    # reference) and the table of contents, so that the edition's links work
    for path in sorted(source.iterdir()):
        if path.suffix == ".ipynb" or path.name in NOT_COPIED:
            continue
        if path.is_dir():  # without notebooks: the projects' are written above
            skip = shutil.ignore_patterns("*.ipynb", *NOT_COPIED)
            shutil.copytree(path, target / path.name, ignore=skip, dirs_exist_ok=True)
        else:
            shutil.copy(path, target / path.name)
    return written


def main(argv: list[str]) -> None:
    source = Path(argv[1]) if len(argv) > 1 else Path("notebooks")
    target = Path(argv[2]) if len(argv) > 2 else Path("student")
    written = write_student_edition(source, target)
    print(f"wrote {len(written)} notebooks without solutions to {target}/")


if __name__ == "__main__":
    main(sys.argv)
