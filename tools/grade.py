"""Grade a class: run every student's notebooks headless and collect each exercise's outcome.

``make grade SUBMISSIONS=<folder>`` runs this script.  The folder holds one sub-folder per
student with that student's copies of the student-edition notebooks (``make student``), e.g.
``submissions/ada/07-articulated-bodies-aba.ipynb``, and the projects in their ``projects``
folder as the edition has them (``submissions/ada/projects/P3-three-formulations.ipynb``, whose
milestones are exercises ``P3.1``, ``P3.2``, …).  For each student and each chapter and project
of the course the script

1. executes the student's notebook from top to bottom in a fresh kernel, in its own process
   group, with the errors of a cell recorded and the next cell run anyway, a time limit per
   cell (a cell that loops is interrupted) and one for the whole notebook (a kernel that hangs
   is killed), with ``SPATIAL_NB_FAST=1`` (the short horizons of the tests) and no figures;
2. then runs the course's checker of every exercise of that chapter (``spatial.exercises``) on
   the object the student's check cell names (``sp.nb.check("07.1", name)`` in the course's own
   notebook), in that kernel, each under a time limit of its own.  The outcome does not depend
   on the student's check cells: a deleted, edited or unrun check cell changes nothing, and a
   deleted stub only loses its own exercise.

Each outcome is one of ``passed``, ``failed`` (the checker's message, a hint that points at the
section to reread), ``not attempted`` (the stub still raises ``NotImplementedError``, or there
is no such notebook or name), ``error`` (the student's code raised, or the kernel died) and
``timed out``.  The script writes ``grades.csv`` (a row per student, a column per exercise) and
``feedback/<student>.md`` (each exercise with its outcome and hint) into the submissions folder,
or into ``--out``.  One student's code never stops the grading of the others.

The grader trusts the machine it runs on, as nbgrader does: a student's code runs with the
grader's permissions.  Run it in a container or as an unprivileged user for a real class.

Students are graded side by side, ``--jobs`` at a time (default: one per core); each student's
notebooks still run one after the other.

Usage: ``python tools/grade.py SUBMISSIONS [--course notebooks] [--out DIR] [--jobs N]
[--cell-timeout 120] [--notebook-timeout 600] [--check-timeout 60]``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from course_notebooks import course_notebooks, relative

ROOT = Path(__file__).resolve().parents[1]
OUTCOMES = ("passed", "failed", "not attempted", "error", "timed out")
CHECK = re.compile(r'^sp\.nb\.check\("((?:\d\d|P\d+)\.\d+)",\s*(\w+)\)\s*$')
MARKER = "SPATIAL-GRADES:"


@dataclass(frozen=True)
class Exercise:
    """One exercise of the course: its id, its notebook (a path relative to the course, e.g.
    ``projects/P3-three-formulations.ipynb``) and the name the checker is given."""

    id: str
    notebook: str
    name: str


@dataclass
class Outcome:
    status: str
    message: str = ""


def course_exercises(course: Path) -> list[Exercise]:
    """Every exercise of the course's chapters and projects, from their check cells, in reading
    order."""
    found = []
    for path in course_notebooks(course):
        for cell in json.loads(path.read_text())["cells"]:
            tags = cell.get("metadata", {}).get("tags", [])
            match = CHECK.match("".join(cell["source"]).strip())
            if cell["cell_type"] == "code" and match and "solution" not in tags:
                found.append(Exercise(match.group(1), relative(path, course), match.group(2)))
    return found


# The cell run after the student's notebook: each checker on the student's object, with a limit.
GRADING_CELL = """
import json as _js, signal as _sg, io as _io, contextlib as _cl, spatial.nb as _nb
def _alarm(*_):
    raise TimeoutError("the check took longer than {limit} s")
_sg.signal(_sg.SIGALRM, _alarm)
_out = {{}}
for _id, _name in {pairs!r}:
    if _name not in globals():
        _out[_id] = ("not attempted", f"no '{{_name}}' defined: its cell was deleted or not run")
        continue
    _sg.alarm({limit})
    try:
        with _cl.redirect_stdout(_io.StringIO()):
            _nb.checker(_id)(globals()[_name])
        _out[_id] = ("passed", "")
    except NotImplementedError:
        _out[_id] = ("not attempted", "the stub still raises NotImplementedError")
    except AssertionError as _e:
        _out[_id] = ("failed", str(_e))
    except TimeoutError as _e:
        _out[_id] = ("timed out", str(_e))
    except BaseException as _e:
        _out[_id] = ("error", f"{{type(_e).__name__}}: {{_e}}")
    finally:
        _sg.alarm(0)
print({marker!r} + _js.dumps(_out))
"""


def run_notebook(path: Path, exercises: list[Exercise], cell_timeout: int, check_timeout: int):
    """Execute one notebook and then its checks; return ``{id: [status, message]}``.

    Runs inside the worker process (``--worker``), so that a kernel that hangs can be killed
    with the whole process group.
    """
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    pairs = [(e.id, e.name) for e in exercises]
    source = GRADING_CELL.format(pairs=pairs, limit=check_timeout, marker=MARKER)
    notebook.cells.append(nbformat.v4.new_code_cell(source))
    client = NotebookClient(
        notebook,
        timeout=cell_timeout,
        interrupt_on_timeout=True,
        allow_errors=True,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    try:
        client.execute()
    except Exception as error:  # the kernel died or could not start: nothing to read back
        return {e.id: ["error", f"the notebook could not run: {error}"] for e in exercises}
    for output in notebook.cells[-1].get("outputs", []):
        text = output.get("text", "")
        if output.get("output_type") == "stream" and MARKER in text:
            return json.loads(text.split(MARKER, 1)[1])
    reason = "the kernel stopped before the checks ran (it died, or a cell ended it)"
    return {e.id: ["error", reason] for e in exercises}


def grade_notebook(path: Path, exercises: list[Exercise], limits: dict) -> dict[str, Outcome]:
    """The outcomes of one student's notebook, run in a separate process group."""
    with tempfile.TemporaryDirectory() as scratch:
        result = Path(scratch) / "outcomes.json"
        args = [sys.executable, str(Path(__file__).resolve()), "--worker", str(path), str(result)]
        args += ["--course-notebook", exercises[0].notebook]
        args += ["--course", str(limits["course"]), "--cell-timeout", str(limits["cell"])]
        args += ["--check-timeout", str(limits["check"])]
        env = dict(os.environ, SPATIAL_NB_FAST="1", MPLBACKEND="Agg")
        env.pop("SPATIAL_NB_STRICT", None)
        env.pop("SPATIAL_WIDGET_TIMES", None)
        process = subprocess.Popen(
            args, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        try:
            _, err = process.communicate(timeout=limits["notebook"])
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # the worker and the kernel it started
            process.communicate()
            why = f"the notebook ran longer than {limits['notebook']} s and was stopped"
            return {e.id: Outcome("timed out", why) for e in exercises}
        if not result.exists():
            tail = err.decode(errors="replace").strip().splitlines()[-1:] or ["no message"]
            return {
                e.id: Outcome("error", f"the grader's worker failed: {tail[0]}") for e in exercises
            }
        found = json.loads(result.read_text())
    return {e.id: Outcome(*found.get(e.id, ("error", "no outcome"))) for e in exercises}


def grade_student(folder: Path, exercises: list[Exercise], limits: dict) -> dict[str, Outcome]:
    """Every exercise's outcome for one student (absent notebooks: not attempted)."""
    outcomes: dict[str, Outcome] = {}
    by_notebook: dict[str, list[Exercise]] = {}
    for exercise in exercises:
        by_notebook.setdefault(exercise.notebook, []).append(exercise)
    for notebook, group in by_notebook.items():
        path = folder / notebook
        if not path.is_file():
            outcomes |= {e.id: Outcome("not attempted", f"no {notebook} handed in") for e in group}
            continue
        try:
            json.loads(path.read_text())
        except (json.JSONDecodeError, UnicodeDecodeError):
            outcomes |= {e.id: Outcome("error", f"{notebook} is not a notebook") for e in group}
            continue
        outcomes |= grade_notebook(path, group, limits)
    return outcomes


def write_reports(grades: dict[str, dict[str, Outcome]], exercises: list[Exercise], out: Path):
    """``grades.csv`` (student × exercise) and ``feedback/<student>.md``."""
    out.mkdir(parents=True, exist_ok=True)
    ids = [e.id for e in exercises]
    with open(out / "grades.csv", "w", newline="", encoding="utf-8") as table:
        writer = csv.writer(table)
        writer.writerow(["student", *ids, "passed"])
        for student, outcomes in grades.items():
            statuses = [outcomes[i].status for i in ids]
            writer.writerow([student, *statuses, statuses.count("passed")])
    feedback = out / "feedback"
    feedback.mkdir(exist_ok=True)
    for student, outcomes in grades.items():
        passed = sum(o.status == "passed" for o in outcomes.values())
        lines = [f"# Feedback for {student}", "", f"{passed} of {len(ids)} exercises passed.", ""]
        for exercise in exercises:
            outcome = outcomes[exercise.id]
            line = f"- **{exercise.id}** ({exercise.notebook}, `{exercise.name}`): {outcome.status}"
            lines.append(line + (f". {outcome.message}" if outcome.message else ""))
        (feedback / f"{student}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("submissions", type=Path)
    parser.add_argument("result", type=Path, nargs="?")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--course-notebook", help=argparse.SUPPRESS)  # the worker's notebook
    parser.add_argument("--course", type=Path, default=ROOT / "notebooks")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--cell-timeout", type=int, default=120)
    parser.add_argument("--notebook-timeout", type=int, default=600)
    parser.add_argument("--check-timeout", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    if args.worker:  # one notebook, in its own process group: submissions is the notebook
        exercises = [e for e in course_exercises(args.course) if e.notebook == args.course_notebook]
        found = run_notebook(args.submissions, exercises, args.cell_timeout, args.check_timeout)
        args.result.write_text(json.dumps(found))
        return 0
    if not args.submissions.is_dir():
        parser.error(f"{args.submissions} is not a folder of student folders")
    exercises = course_exercises(args.course)
    limits = {"cell": args.cell_timeout, "notebook": args.notebook_timeout}
    limits |= {"check": args.check_timeout, "course": args.course.resolve()}
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    students = sorted(p for p in args.submissions.iterdir() if p.is_dir() and p.name != "feedback")
    grades = {}
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:  # each student is a subprocess
        for folder, outcomes in zip(
            students, pool.map(lambda f: grade_student(f, exercises, limits), students), strict=True
        ):
            grades[folder.name] = outcomes
            passed = sum(o.status == "passed" for o in outcomes.values())
            print(f"{folder.name}: {passed} of {len(exercises)} passed")
    out = args.out or args.submissions
    write_reports(grades, exercises, out)
    print(f"wrote {out / 'grades.csv'} and {len(grades)} feedback files in {out / 'feedback'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
