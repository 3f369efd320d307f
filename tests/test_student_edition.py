"""The student edition (``make student``): the notebooks without their exercise solutions.

The edition is checked twice: structurally for every notebook (solutions gone, checkers kept,
everything before the first exercise byte-for-byte the full edition that the notebook tests
run), and by executing one student notebook as a student would, without strict checking, to
see the checkers report the untouched stubs as not attempted instead of failing.  A last test
runs a full-edition notebook with a student's attempt in place of a stub, as "Run All" would,
and checks that the attempt is still there afterwards (the solutions define ``solution_*``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import student_edition  # noqa: E402

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))


@pytest.fixture(scope="module")
def edition(tmp_path_factory):
    target = tmp_path_factory.mktemp("student")
    student_edition.write_student_edition(ROOT / "notebooks", target)
    return target


def _tags(cell):
    return set(cell.get("metadata", {}).get("tags", []))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_student_notebook_is_the_full_one_without_solutions(edition, path):
    full = json.loads(path.read_text())["cells"]
    student = json.loads((edition / path.name).read_text())["cells"]
    assert not any("solution" in _tags(c) for c in student)
    assert not any("solution_" in "".join(c["source"]) for c in student), "a solution is left"
    solutions = sum("solution" in _tags(c) for c in full)
    assert solutions > 0 and len(student) == len(full) - solutions + 1  # + the how-to note
    first = next(i for i, c in enumerate(full) if "exercise" in _tags(c))
    heading = next(i for i, c in enumerate(full) if student_edition._is_exercises_heading(c))
    assert student[: heading + 1] == full[: heading + 1]
    assert student[heading + 1]["source"] == [student_edition.HOW_TO]
    assert student[heading + 2 : first + 2] == full[heading + 1 : first + 1]

    def checks(cells):
        return [
            "".join(c["source"])
            for c in cells
            if c["cell_type"] == "code" and "nb.check(" in "".join(c["source"])
        ]

    assert checks(student) == [s for s in checks(full) if "solution_" not in s]


def _run_as_a_student(notebook, folder, monkeypatch) -> str:
    """Execute ``notebook`` in fast mode without strict checking; return what it printed."""
    for name, value in {"SPATIAL_NB_FAST": "1", "MPLBACKEND": "Agg"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("SPATIAL_NB_STRICT", raising=False)
    NotebookClient(notebook, timeout=300, resources={"metadata": {"path": str(folder)}}).execute()
    return "".join(
        o.get("text", "") for c in notebook.cells if c.cell_type == "code" for o in c.outputs
    )


def test_a_student_notebook_runs_and_reports_the_exercises_as_not_attempted(edition, monkeypatch):
    notebook = nbformat.read(edition / NOTEBOOKS[0].name, as_version=4)
    printed = _run_as_a_student(notebook, edition, monkeypatch)
    assert printed.count("not attempted yet") == sum(
        "nb.check(" in c.source for c in notebook.cells if c.cell_type == "code"
    )


def test_the_edition_refuses_to_overwrite_the_notebooks_and_misplaced_exercises(tmp_path):
    with pytest.raises(ValueError, match="another folder"):
        student_edition.write_student_edition(ROOT / "notebooks", ROOT / "notebooks")
    cells = [{"cell_type": "code", "metadata": {"tags": ["exercise"]}, "source": ["pass"]}]
    with pytest.raises(ValueError, match="before the '## Exercises' heading"):
        student_edition.student_cells(cells)


def test_run_all_in_the_full_edition_keeps_a_students_attempt(tmp_path, monkeypatch):
    """A student's (wrong) answer survives Run All: the solution cells define solution_* names."""
    notebook = nbformat.read(NOTEBOOKS[0], as_version=4)
    stub = next(c for c in notebook.cells if "exercise" in c.metadata.get("tags", []))
    name = stub.source.split("(")[0].removeprefix("def ")
    args = stub.source.split("(")[1].split(")")[0]
    # a wrong answer of the right shape (01.1 asks for a 6x6 transform), marked as the student's
    stub.source = f"def {name}({args}):\n    return np.eye(6)\n\n\n{name}.attempt = 'mine'\n"
    last = f"print('after Run All:', getattr({name}, 'attempt', 'replaced'))"
    notebook.cells.append(nbformat.v4.new_code_cell(last))
    printed = _run_as_a_student(notebook, tmp_path, monkeypatch)
    exercise = printed.split(": not right yet")[0].rsplit("Exercise ", 1)[1]
    assert exercise.startswith(NOTEBOOKS[0].name[:2])  # the attempt was checked, and failed
    assert f"Exercise {exercise}: correct." in printed  # the solution cell checked itself
    assert "after Run All: mine" in printed  # and did not replace the student's function


def test_the_edition_keeps_the_pages_the_notebooks_link(edition):
    for name in ("_toc.yml", "index.md", "glossary.md", "notation.md", "choosing.md"):
        assert (edition / name).read_text() == (ROOT / "notebooks" / name).read_text()
    assert (edition / "api" / "dynamics.md").exists()
    assert not (edition / "conftest.py").exists()
