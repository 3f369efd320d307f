"""``make grade``: a class of synthetic students graded in one command (tools/grade.py).

A one-chapter course of three exercises (the real checkers of 01.1–01.3) and six students: one
who solved everything, one who handed in the untouched student edition, one with wrong answers,
one whose notebook fails at its first cell, one whose code loops forever (named to be graded
first: it waits longest) and one who deleted cells.  Each student costs only what they broke;
the CSV and the feedback say what happened.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import grade  # noqa: E402

SETUP = "import numpy as np\nimport spatial as sp\n"
STUBS = {
    "transform_from_description": "(theta, d)",
    "crm": "(v)",
    "point_velocity_in_B": "(X_BA, v_A, p_B)",
}
RIGHT = {
    "transform_from_description": "return sp.xlt([0.0, d, 0.0]) @ sp.rotx(theta)",
    "crm": "W, V = sp.skew(v[:3]), sp.skew(v[3:])\n    return np.block([[W, 0 * W], [V, W]])",
    "point_velocity_in_B": "v_B = X_BA @ v_A\n    return v_B[3:] + np.cross(v_B[:3], p_B)",
}
WRONG = {
    "transform_from_description": "return sp.rotx(theta) @ sp.xlt([0.0, d, 0.0])",
    "crm": "return np.zeros((6, 6))",
    "point_velocity_in_B": "return (X_BA @ v_A)[3:]",
}


def _cell(kind: str, source: str, k: int, tags=()) -> dict:
    cell = {"cell_type": kind, "id": f"c{k}", "metadata": {"tags": list(tags)}, "source": source}
    return cell | ({"outputs": [], "execution_count": None} if kind == "code" else {})


def _notebook(bodies: dict, first: str = SETUP, drop=(), before=(), unchecked=()) -> dict:
    """A student's notebook: ``drop`` deletes stubs, ``unchecked`` their check cells."""
    sources = [("code", first, ())] + [("code", code, ()) for code in before]
    for k, (name, args) in enumerate(STUBS.items(), start=1):
        if name not in drop:
            body = bodies.get(name, "raise NotImplementedError")
            sources.append(("code", f"def {name}{args}:\n    {body}\n", ("exercise",)))
        if name not in unchecked:
            sources.append(("code", f'sp.nb.check("01.{k}", {name})\n', ()))
    cells = [_cell(kind, src, k, tags) for k, (kind, src, tags) in enumerate(sources)]
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


STUDENTS = {
    "ada": _notebook(RIGHT),
    "ben": _notebook({}),
    "cy": _notebook(WRONG),
    "dee": _notebook(
        RIGHT, first="import numpy as np\nimport no_such_module\nimport spatial as sp\n"
    ),
    "abe": _notebook(  # loops that wait rather than spin, so the test does not burn a core
        RIGHT | {"crm": "while True:\n        time.sleep(0.01)"},
        before=["import time\nwhile True:\n    time.sleep(0.01)\n"],
        unchecked=("crm",),  # the grader's own check of crm times out (its cell would loop too)
    ),
    "fay": _notebook(RIGHT, drop=("crm",)),
}
EXPECTED = {
    "ada": ["passed", "passed", "passed"],
    "ben": ["not attempted"] * 3,
    "cy": ["failed"] * 3,
    "dee": ["error", "error", "passed"],  # 01.1 and 01.2 need sp, never imported; 01.3 np only
    "abe": ["passed", "timed out", "passed"],
    "fay": ["passed", "not attempted", "passed"],
}
NAME = "01-mini.ipynb"


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    course = tmp_path_factory.mktemp("course")
    (course / NAME).write_text(json.dumps(_notebook({})))
    submissions = tmp_path_factory.mktemp("submissions")
    for student, notebook in STUDENTS.items():
        (submissions / student).mkdir()
        (submissions / student / NAME).write_text(json.dumps(notebook))
    (submissions / "gus").mkdir()  # handed in nothing
    args = [str(submissions), "--course", str(course), "--cell-timeout", "8", "--jobs", "4"]
    assert grade.main(args + ["--check-timeout", "4", "--notebook-timeout", "120"]) == 0
    return submissions


def test_the_csv_has_one_row_per_student_and_the_expected_outcomes(graded):
    with open(graded / "grades.csv", newline="") as table:
        rows = list(csv.reader(table))
    assert rows[0] == ["student", "01.1", "01.2", "01.3", "passed"]
    found = {row[0]: row[1:4] for row in rows[1:]}
    assert found == EXPECTED | {"gus": ["not attempted"] * 3}
    assert {row[0]: int(row[4]) for row in rows[1:]}["ada"] == 3


def test_feedback_gives_the_checkers_messages_not_the_solutions(graded):
    wrong = (graded / "feedback" / "cy.md").read_text()
    assert "0 of 3 exercises passed" in wrong
    assert wrong.count(": failed.") == 3 and "largest difference" in wrong  # the checker's words
    assert "sp.xlt([0.0, d, 0.0]) @ sp.rotx(theta)" not in wrong  # never the solution
    assert "timed out" in (graded / "feedback" / "abe.md").read_text()
    assert "deleted or not run" in (graded / "feedback" / "fay.md").read_text()
    assert "NameError" in (graded / "feedback" / "dee.md").read_text()


def test_the_course_exercises_are_read_from_the_check_cells():
    found = grade.course_exercises(ROOT / "notebooks")
    assert found[0] == grade.Exercise(
        "01.1", "01-spatial-vectors.ipynb", "transform_from_description"
    )
    assert len({e.id for e in found}) == len(found) >= 56


KKT_SIZES = """def kkt_sizes(model):
    loop_rows = sum(6 - loop.joint.nv for loop in model.loop_joints)
    joint_rows = sum(6 - model.joints[i].nv for i in range(1, model.NB + 1))
    return {"tree": (model.nv, loop_rows), "redmax": (model.nv, 2 * model.NL),
            "maximal": (6 * model.NB, joint_rows + 2 * model.NL)}
"""


def _project(body: str | None) -> dict:
    """A one-milestone project notebook (P3.4); ``body`` is the student's stub or answer."""
    stub = "def kkt_sizes(model):\n    raise NotImplementedError\n" if body is None else body
    sources = [("code", SETUP, ()), ("markdown", "## Milestones", ())]
    sources += [("code", stub, ("exercise",)), ("code", 'sp.nb.check("P3.4", kkt_sizes)\n', ())]
    cells = [_cell(kind, src, k, tags) for k, (kind, src, tags) in enumerate(sources)]
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def test_a_project_is_graded_from_its_folder_like_a_chapter(tmp_path):
    course, submissions = tmp_path / "course", tmp_path / "submissions"
    (course / "projects").mkdir(parents=True)
    (course / "projects" / "P3-mini.ipynb").write_text(json.dumps(_project(None)))
    found = grade.course_exercises(course)
    assert found == [grade.Exercise("P3.4", "projects/P3-mini.ipynb", "kkt_sizes")]
    (submissions / "ada" / "projects").mkdir(parents=True)
    (submissions / "ada" / "projects" / "P3-mini.ipynb").write_text(json.dumps(_project(KKT_SIZES)))
    (submissions / "ben").mkdir()  # handed in nothing
    args = [str(submissions), "--course", str(course), "--cell-timeout", "60"]
    assert grade.main(args + ["--check-timeout", "60", "--notebook-timeout", "300"]) == 0
    with open(submissions / "grades.csv", newline="") as table:
        rows = list(csv.reader(table))
    assert rows == [["student", "P3.4", "passed"], ["ada", "passed", "1"],
                    ["ben", "not attempted", "0"]]  # fmt: skip


def test_jobs_must_be_positive(tmp_path, capsys):
    with pytest.raises(SystemExit):
        grade.main([str(tmp_path), "--jobs", "0"])
    assert "--jobs must be at least 1, got 0" in capsys.readouterr().err
