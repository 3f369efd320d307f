"""Which notebooks make up the course: the chapters, then the projects.

Chapters are ``NN-short-title.ipynb`` (or ``NNb-...`` for the second part of a split chapter) in
the notebooks folder; projects are ``projects/Pn-short-title.ipynb`` in its ``projects``
subfolder (DESIGN.md's P1–P3).  Every tool that walks the course (executing it for the book,
writing the student edition, grading, the previous/next links) and the repository's tests take
the list from here, so that a new chapter or project is picked up everywhere at once.  Paths
inside the course are named relative to the notebooks folder (``"projects/P3-....ipynb"``); a
project's links to chapters and pages go one folder up (``../08-closed-loops.ipynb``).
"""

from __future__ import annotations

import re
from pathlib import Path

#: File-name patterns, relative to the notebooks folder.
CHAPTERS = "[0-9][0-9]*-*.ipynb"
PROJECTS = "projects/P[0-9]*-*.ipynb"
#: A course notebook's stem, as ``_toc.yml`` lists it (``08-closed-loops``,
#: ``projects/P3-three-formulations``).
STEM = re.compile(r"(?:\d\d[a-z]?|projects/P\d+)-[\w-]+")


def course_notebooks(folder: Path) -> list[Path]:
    """The chapter notebooks of ``folder`` in file order, then its project notebooks."""
    folder = Path(folder)
    return sorted(folder.glob(CHAPTERS)) + sorted(folder.glob(PROJECTS))


def relative(path: Path, folder: Path) -> str:
    """``path`` relative to the notebooks ``folder``, with forward slashes."""
    return Path(path).relative_to(folder).as_posix()
