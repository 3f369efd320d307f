"""Execute the course's notebooks for the static book, two at a time (``make book``).

The book (``book/conf.py``) is built from executed copies of the notebooks, with MyST-NB's own
execution off: MyST-NB runs notebooks one after the other, this script runs ``--jobs`` of them
at once (each in its own kernel) and Sphinx then only renders.  The copies go to a separate
folder (``build/executed`` in the Makefile), never over the committed notebooks, which are kept
without outputs.

Each kernel runs with

- ``SPATIAL_STATIC=1``: every ``nb.interact`` widget is drawn as a static figure of its teaching
  default (``spatial.nb.interact``), since a static page cannot run the live widget;
- matplotlib's inline backend (``MPLBACKEND`` is removed from the kernel's environment), which
  keeps each shown figure as an image output;
- ``SPATIAL_NB_FAST=1`` with ``--fast`` (CI), or the notebooks' full horizons and sample counts
  without it (the book a reader builds by hand);
- its working directory in the source folder, as under nbval.

Cells tagged ``raises-exception`` (the exercise stubs) may raise; an error anywhere else stops
that notebook and makes the script exit non-zero, naming the notebook and the cell.  Everything
in the source folder that is not a notebook (the table of contents ``_toc.yml``, Markdown pages)
is copied along, except test plumbing (``conftest.py``, caches), so the target folder is a
complete Sphinx source.  Each executed notebook records how it was run in its metadata
(``spatial.execution``); ``tools/browser_test.py`` counts its image outputs to check the pages.

The notebooks are the course's chapters and projects (``tools/course_notebooks.py``): a project
``projects/Pn-*.ipynb`` runs in its own folder and is written to ``TARGET/projects/``.

Usage: ``python tools/execute_notebooks.py [--jobs N] [--fast] [--timeout S] SOURCE TARGET
[NOTEBOOK ...]`` (default: every chapter ``NN-*.ipynb`` and project ``projects/Pn-*.ipynb`` in
SOURCE; names are relative to SOURCE).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from course_notebooks import course_notebooks, relative

#: Files of the source folder that belong to the tests, not to the book.
NOT_COPIED = ("conftest.py", "__pycache__", ".ipynb_checkpoints", ".pytest_cache")


class ExecutionError(RuntimeError):
    """A notebook raised in a cell that is not allowed to."""


def kernel_environment(base: dict[str, str], fast: bool) -> dict[str, str]:
    """The environment the notebooks' kernels run in (static widgets, inline figures)."""
    env = {k: v for k, v in base.items() if k not in ("MPLBACKEND", "SPATIAL_NB_FAST")}
    env["SPATIAL_STATIC"] = "1"
    if fast:
        env["SPATIAL_NB_FAST"] = "1"
    return env


def notebooks_in(source: Path, names: list[str] | None = None) -> list[Path]:
    """The chapter and project notebooks of ``source``, or the ``names`` given (relative)."""
    if names:
        paths = [source / name for name in names]
        missing = [p.relative_to(source).as_posix() for p in paths if not p.is_file()]
        if missing:
            raise FileNotFoundError(f"no such notebook in {source}: {', '.join(missing)}")
        return paths
    return course_notebooks(source)


def copy_book_sources(source: Path, target: Path) -> list[Path]:
    """Copy everything in ``source`` that is not a notebook or test plumbing to ``target``
    (sub-folders too, without their notebooks)."""
    copied = []
    target.mkdir(parents=True, exist_ok=True)
    for path in sorted(source.iterdir()):
        if path.name in NOT_COPIED or path.suffix == ".ipynb":
            continue
        if path.is_dir():
            skip = shutil.ignore_patterns("*.ipynb", *NOT_COPIED)
            shutil.copytree(path, target / path.name, dirs_exist_ok=True, ignore=skip)
        else:
            shutil.copy2(path, target / path.name)
        copied.append(target / path.name)
    return copied


#: Terminal colour codes in a traceback.
ANSI_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def execute_one(
    notebook: Path, target: Path, fast: bool, timeout: int, name: str | None = None
) -> tuple[str, float]:
    """Execute ``notebook`` in a new kernel and write it with its outputs to ``target / name``.

    ``name`` is the notebook's path relative to the course (``projects/P3-....ipynb``); its
    file name by default.  The kernel runs in :func:`kernel_environment` of this process's
    environment, in the notebook's folder.
    """
    name = notebook.name if name is None else name
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    start = time.perf_counter()
    nb = nbformat.read(notebook, as_version=4)
    client = NotebookClient(
        nb,
        timeout=timeout,
        allow_errors=False,  # except cells tagged raises-exception, which nbclient allows
        resources={"metadata": {"path": str(notebook.parent)}},
    )
    try:
        # the kernel's own stderr (a warning about its TCP transport) is noise here; what a
        # cell prints to stderr is an output and goes into the notebook as usual
        client.execute(env=kernel_environment(dict(os.environ), fast), stderr=subprocess.DEVNULL)
    except CellExecutionError as error:
        summary = ANSI_COLOUR.sub("", str(error)).strip().splitlines()
        cells = [
            index
            for index, cell in enumerate(nb.cells)
            if any(out.get("output_type") == "error" for out in cell.get("outputs", ()))
            and "raises-exception" not in cell.get("metadata", {}).get("tags", ())
        ]
        where = f", cell {cells[-1]}" if cells else ""
        raise ExecutionError(f"{name}{where}: {summary[-1] if summary else error}") from None
    seconds = time.perf_counter() - start
    # no widget is shown in static mode: a stored widget state would only make the page load
    # the widget manager from the internet (nbclient needs the state while it runs, so it is
    # dropped afterwards)
    nb.metadata.pop("widgets", None)
    nb.metadata["spatial"] = {
        "execution": {"fast": fast, "static": True, "seconds": round(seconds, 1)}
    }
    (target / name).parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, target / name)
    return name, seconds


def _names(notebooks: list[Path]) -> dict[Path, str]:
    """Each notebook's path relative to the folder that holds them all (a project of the course:
    ``projects/<name>``; a lone notebook: its name)."""
    if not notebooks:
        return {}
    base = Path(os.path.commonpath([p.resolve().parent for p in notebooks]))
    return {p: p.resolve().relative_to(base).as_posix() for p in notebooks}


def execute_all(
    notebooks: list[Path], target: Path, *, jobs: int = 2, fast: bool = False, timeout: int = 900
) -> dict[str, float]:
    """Execute ``notebooks`` ``jobs`` at a time into ``target``; return seconds per notebook.

    Each is written at its path relative to the folder that holds them all, so a project
    ``projects/Pn-*.ipynb`` of the course goes to ``target/projects/``.  Raises
    :class:`ExecutionError` listing every notebook that failed (the others are written).
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    target.mkdir(parents=True, exist_ok=True)
    seconds, failed = {}, []
    order, names = schedule(notebooks, target), _names(notebooks)
    # one fresh worker process per notebook, and the pool terminated (not joined) at the end: a
    # worker whose kernel client left a ZeroMQ socket open can otherwise hang at its exit,
    # after its notebook is written (seen once in CI, with every notebook done)
    pool = multiprocessing.get_context("spawn").Pool(jobs, maxtasksperchild=1)
    try:
        pending = [
            (p, pool.apply_async(execute_one, (p, target, fast, timeout, names[p]))) for p in order
        ]
        for notebook, result in pending:
            try:
                name, took = result.get()
            except Exception as error:  # a cell's error, a timeout, a kernel that died
                message = (
                    str(error)
                    if isinstance(error, ExecutionError)
                    else (f"{names[notebook]}: {type(error).__name__}: {error}")
                )
                failed.append(message)
                print(f"FAIL {message}", flush=True)
                continue
            seconds[name] = took
            print(f"ok   {name} ({took:.0f} s)", flush=True)
    finally:
        pool.terminate()
    if failed:
        raise ExecutionError("; ".join(failed))
    return seconds


def schedule(notebooks: list[Path], target: Path) -> list[Path]:
    """The order to start ``notebooks`` in: the longest first, so the workers finish together.

    By the time their last execution into ``target`` took; without one (a fresh clone), the
    later chapters first, which run the longer simulations (notebook 16 alone is about a third
    of the whole in fast mode).
    """

    names = _names(notebooks)

    def last(p: Path) -> tuple[float, str]:
        return _last_seconds(target / names[p]), p.name

    return sorted(notebooks, key=last, reverse=True)


def remove_stale(notebooks: list[Path], target: Path) -> list[str]:
    """Delete executed chapter and project notebooks in ``target`` whose source is gone; return
    their names.

    A leftover page would otherwise stay in the book (and fail the build as outside the table
    of contents).
    """
    keep = set(_names(notebooks).values())
    stale = [p for p in course_notebooks(target) if relative(p, target) not in keep]
    for path in stale:
        path.unlink()
    return [relative(p, target) for p in stale]


def _last_seconds(executed: Path) -> float:
    """Seconds the last execution of this notebook took (0 when there is none)."""
    import json

    try:
        meta = json.loads(executed.read_text())["metadata"]
        return float(meta["spatial"]["execution"]["seconds"])
    except (OSError, ValueError, KeyError, TypeError):
        return 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("target", type=Path)
    parser.add_argument(
        "notebooks", nargs="*", help="paths in SOURCE (default: every chapter and project)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="notebooks run at once (default 2)")
    parser.add_argument("--fast", action="store_true", help="SPATIAL_NB_FAST=1 (as the tests)")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per cell (default 900)")
    args = parser.parse_args(argv)
    try:
        notebooks = notebooks_in(args.source, args.notebooks)
    except FileNotFoundError as error:
        print(f"failed: {error}", file=sys.stderr)
        return 2
    copy_book_sources(args.source, args.target)
    if not args.notebooks:
        for stale in remove_stale(notebooks, args.target):
            print(f"removed {stale} (no longer in {args.source})", flush=True)
    mode = "fast" if args.fast else "full"
    print(f"executing {len(notebooks)} notebooks ({mode} mode, {args.jobs} at a time)", flush=True)
    start = time.perf_counter()
    try:
        execute_all(notebooks, args.target, jobs=args.jobs, fast=args.fast, timeout=args.timeout)
    except ExecutionError as error:
        print(f"failed: {error}", file=sys.stderr)
        return 1
    print(f"executed into {args.target} in {time.perf_counter() - start:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
