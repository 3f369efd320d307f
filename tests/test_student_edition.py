"""The student edition (``make student``): the notebooks without their exercise solutions.

The edition is checked twice: structurally for every notebook (solutions gone, checkers kept,
everything before the first exercise byte-for-byte the full edition that the notebook tests
run), and by executing one student notebook as a student would, without strict checking, to
see the checkers report the untouched stubs as not attempted instead of failing.  A last test
runs a full-edition notebook with a student's attempt in place of a stub, as "Run All" would,
and checks that the attempt is still there afterwards (the solutions define ``solution_*``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import student_edition  # noqa: E402
from course_notebooks import course_notebooks  # noqa: E402

NOTEBOOKS = course_notebooks(ROOT / "notebooks")  # the chapters, then the projects


def _in(edition: Path, path: Path) -> Path:
    """The student notebook of ``path`` (a project's sits in the edition's projects/)."""
    return edition / path.relative_to(ROOT / "notebooks")


def _has_nbgrader() -> bool:
    return importlib.util.find_spec("nbgrader") is not None


def _nbgrader(course: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, SPATIAL_NB_GRADING="1", SPATIAL_NB_FAST="1", MPLBACKEND="Agg")
    env.pop("SPATIAL_NB_STRICT", None)
    # nbgrader runs the alembic command of its environment, beside this interpreter
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    command = [sys.executable, "-m", "nbgrader", *args, f"--CourseDirectory.root={course}"]
    return subprocess.run(command, cwd=course, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def edition(tmp_path_factory):
    target = tmp_path_factory.mktemp("student")
    student_edition.write_student_edition(ROOT / "notebooks", target)
    return target


def _tags(cell):
    return set(cell.get("metadata", {}).get("tags", []))


def _without_nbgrader(cells):
    """The cells as the full edition has them: the nbgrader metadata the edition adds removed."""
    out = []
    for cell in cells:
        meta = {k: v for k, v in cell.get("metadata", {}).items() if k != "nbgrader"}
        out.append(cell | {"metadata": meta})
    return out


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_student_notebook_is_the_full_one_without_solutions(edition, path):
    full = json.loads(path.read_text())["cells"]
    student = _without_nbgrader(json.loads(_in(edition, path).read_text())["cells"])
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
    """A student's (wrong) answer survives Run All: the solution cells define solution_* names.

    The chapter's own cells from its setup cell to the first exercise's solution, without the
    sections in between (the whole chapter runs as a student runs it, and under nbgrader)."""
    notebook = nbformat.read(NOTEBOOKS[0], as_version=4)
    cells = notebook.cells
    heading = next(i for i, c in enumerate(cells) if student_edition._is_exercises_heading(c))
    solution = next(i for i, c in enumerate(cells) if "solution" in c.metadata.get("tags", []))
    setup = next(c for c in cells if c.cell_type == "code")
    notebook.cells = [setup, *cells[heading : solution + 1]]
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


def test_every_cell_carries_nbgrader_metadata_with_one_graded_check_per_exercise(edition):
    for path in NOTEBOOKS:
        cells = json.loads(_in(edition, path).read_text())["cells"]
        meta = [c["metadata"]["nbgrader"] for c in cells]
        assert all(m["schema_version"] == 3 for m in meta)
        ids = [m["grade_id"] for m in meta if m["locked"] or m["grade"]]
        assert len(set(ids)) == len(ids), f"{path.name}: grade ids must be unique"
        answers = [k for k, c in enumerate(cells) if "exercise" in _tags(c)]
        assert [k for k, m in enumerate(meta) if not m["locked"]] == answers
        graded = [k for k, m in enumerate(meta) if m["grade"]]
        assert graded == [k + 1 for k in answers]  # the check right under each stub
        assert all(meta[k]["points"] == 1 and meta[k]["locked"] for k in graded)


def test_grading_mode_fails_an_untouched_stub_and_a_wrong_answer(monkeypatch):
    import spatial as sp

    def crm(v):
        raise NotImplementedError

    monkeypatch.setenv("SPATIAL_NB_GRADING", "1")
    monkeypatch.delenv("SPATIAL_NB_STRICT", raising=False)
    with pytest.raises(AssertionError, match="not attempted"):
        sp.nb.check("01.2", crm)
    with pytest.raises(AssertionError):
        sp.nb.check("01.2", lambda v: sp.crf(v))
    assert sp.nb.check("01.2", sp.crm)


@pytest.mark.skipif(not _has_nbgrader(), reason="the classroom extra (nbgrader) is not installed")
def test_nbgrader_takes_a_chapter_of_the_edition_as_an_assignment(edition, tmp_path):
    """nbgrader releases chapter 01 and autogrades a submission with one right answer."""
    course = tmp_path / "course"
    source = course / "source" / "ch01"
    source.mkdir(parents=True)
    shutil.copy(edition / NOTEBOOKS[0].name, source / NOTEBOOKS[0].name)
    run = _nbgrader(course, "generate_assignment", "ch01", "--force")
    released = course / "release" / "ch01" / NOTEBOOKS[0].name
    assert run.returncode == 0 and released.exists(), run.stdout + run.stderr
    notebook = json.loads(released.read_text())
    stub = next(c for c in notebook["cells"] if "exercise" in _tags(c))
    name = "".join(stub["source"]).split("(")[0].removeprefix("def ")
    assert name == "transform_from_description"  # 01.1: answered right, the others untouched
    stub["source"] = (
        "def transform_from_description(theta, d):\n"
        "    return sp.xlt([0.0, d, 0.0]) @ sp.rotx(theta)\n"
    )
    submitted = course / "submitted" / "ada" / "ch01"
    submitted.mkdir(parents=True)
    (submitted / NOTEBOOKS[0].name).write_text(json.dumps(notebook))
    run = _nbgrader(course, "autograde", "ch01", "--force")
    assert run.returncode == 0, run.stdout + run.stderr
    graded = json.loads((course / "autograded" / "ada" / "ch01" / NOTEBOOKS[0].name).read_text())
    errors = {
        c["metadata"]["nbgrader"]["grade_id"]
        for c in graded["cells"]
        if c["metadata"].get("nbgrader", {}).get("grade")
        and any(o.get("output_type") == "error" for o in c.get("outputs", []))
    }
    checks = {
        c["metadata"]["nbgrader"]["grade_id"]
        for c in graded["cells"]
        if c["metadata"].get("nbgrader", {}).get("grade")
    }
    assert "check-01_1" in checks and "check-01_1" not in errors
    assert errors == checks - {"check-01_1"}  # the untouched stubs fail their tests


def test_the_edition_keeps_the_pages_the_notebooks_link(edition):
    for name in ("_toc.yml", "index.md", "glossary.md", "notation.md", "choosing.md"):
        assert (edition / name).read_text() == (ROOT / "notebooks" / name).read_text()
    assert (edition / "api" / "dynamics.md").exists()
    assert not (edition / "conftest.py").exists()


def test_the_projects_go_to_the_editions_projects_folder_without_solutions(edition):
    projects = [p for p in NOTEBOOKS if p.parent.name == "projects"]
    assert projects, "the course has projects (notebooks/projects/Pn-*.ipynb)"
    for path in projects:
        assert _in(edition, path).parent == edition / "projects"
    # no full-edition notebook is copied along with the folders of pages
    leaked = [p for p in edition.rglob("*.ipynb") if "solution_" in p.read_text()]
    assert not leaked, leaked
    assert sorted(edition.rglob("*.ipynb")) == sorted(_in(edition, p) for p in NOTEBOOKS)
