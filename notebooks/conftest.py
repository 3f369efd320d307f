"""Every executed notebook keeps its figures: a count of image outputs per notebook under nbval.

``make test-notebooks`` runs nbval with matplotlib's inline backend, which is headless and turns
each shown figure into an ``image/png`` output (with ``MPLBACKEND=Agg``, ``plt.show()`` does
nothing and an executed notebook has no pictures at all).  After the last cell of each notebook
this plugin adds one more test item, ``<notebook>::figures``, which counts the image outputs of
the cells nbval executed and fails if there are fewer than the notebook's minimum
(:data:`MIN_FIGURES`, measured in fast mode; at least one for a notebook not listed).  The counts
are printed at the end of the run.  Under ``MPLBACKEND=Agg`` the check is skipped, saying why.
"""

import json
import os
import statistics
import tempfile

import pytest

#: Fewest image outputs each notebook must produce in fast mode (``SPATIAL_NB_FAST=1``): the
#: figures its code draws, as counted on 2026-11-25 (eight notebooks one to four fewer on
#: 2026-11-28: a driven widget now puts its controls back with one rerun, not one per control).
#: A notebook that draws more passes; one that loses a figure fails until this number is
#: lowered on purpose.
MIN_FIGURES = {
    "01-spatial-vectors": 10,
    "02-rotations-se3": 18,
    "03-one-rigid-body": 17,
    "04-modelling-trees": 12,
    "04b-constraints": 10,
    "05-inverse-dynamics-rnea": 12,
    "06-crba-sparsity": 12,
    "07-articulated-bodies-aba": 8,
    "08-closed-loops": 14,
    "09-hybrid-floating-gears": 17,
    "10-accuracy-and-efficiency": 17,
    "11-contact-and-impact": 23,
    "12-maximal-coordinates": 13,
    "13-springs-and-muscles": 11,
    "13b-muscles": 25,
    "14-redmax-reduced-coordinates": 16,
    "15-redmax-constraints": 12,
    "16-time-integration": 18,
    "17-complementarity": 18,
    "18-attachments": 11,
    "P1-quadruped": 11,
    "P2-muscle-arm": 6,
    "P3-three-formulations": 8,
}
DEFAULT_MIN_FIGURES = 1

_COUNTS_KEY = "image_outputs"


def _image_outputs(outputs) -> int:
    return sum(
        1 for out in outputs or () if any(k.startswith("image/") for k in out.get("data", {}))
    )


class FigureCount(pytest.Item):
    """Fails when the notebook's executed cells produced fewer images than its minimum."""

    def __init__(self, *, cells, **kwargs):
        super().__init__(**kwargs)
        self.cells = cells
        self.notebook = self.path.stem
        self.minimum = MIN_FIGURES.get(self.notebook, DEFAULT_MIN_FIGURES)

    def runtest(self):
        backend = os.environ.get("MPLBACKEND", "")
        if backend.lower() == "agg":
            pytest.skip("MPLBACKEND=Agg discards figures; `make test-notebooks` counts them")
        count = sum(_image_outputs(cell.test_outputs) for cell in self.cells)
        self.user_properties.append((_COUNTS_KEY, (self.notebook, count, self.minimum)))
        updates = [(self.notebook, w, s) for w, s in _widget_updates(self.notebook)]
        self.user_properties.append((_TIMES_KEY, updates))
        if count < self.minimum:
            raise AssertionError(
                f"{self.notebook}: the executed notebook has {count} image output(s), fewer than"
                f" its minimum of {self.minimum} (notebooks/conftest.py MIN_FIGURES); is a"
                f" figure no longer shown, or does MPLBACKEND={backend or '(unset)'} discard it?"
            )

    def repr_failure(self, excinfo, style=None):
        return str(excinfo.value)

    def reportinfo(self):
        return self.path, None, f"{self.path.name}::figures"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    """After the last executed cell of each notebook, insert its figure count."""
    if not (getattr(config.option, "nbval", False) or getattr(config.option, "nbval_lax", False)):
        return
    out, cells = [], []
    for k, item in enumerate(items):
        out.append(item)
        if type(item).__name__ != "IPyNbCell":
            continue
        cells.append(item)
        following = items[k + 1] if k + 1 < len(items) else None
        if following is None or following.parent is not item.parent:
            out.append(FigureCount.from_parent(item.parent, name="figures", cells=cells))
            cells = []
    items[:] = out


# Widget update times: spatial.nb.interact appends each update's wall time to the file named by
# SPATIAL_WIDGET_TIMES, which is set per notebook before its kernel starts (the kernel inherits
# the environment); the figure-count item of the notebook reads them back.  They are printed, not
# asserted (speed is measured, never tested): the first update of each widget is its teaching
# default, the others are the test cells driving it.
_TIMES_KEY = "widget_updates"
_TIMES_DIR = tempfile.mkdtemp(prefix="spatial-widget-times-")


def _times_file(notebook: str) -> str:
    return os.path.join(_TIMES_DIR, f"{notebook}.jsonl")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    if type(item).__name__ == "IPyNbCell":
        os.environ["SPATIAL_WIDGET_TIMES"] = _times_file(item.path.stem)


def _widget_updates(notebook: str) -> list[tuple[str, list[float]]]:
    try:
        with open(_times_file(notebook), encoding="utf-8") as rows:
            records = [json.loads(line) for line in rows]
    except FileNotFoundError:
        return []
    updates: dict[str, list[float]] = {}
    for record in records:
        updates.setdefault(record["widget"], []).append(record["seconds"])
    return list(updates.items())


def pytest_runtest_logreport(report):
    for key, value in getattr(report, "user_properties", ()):
        if key == _COUNTS_KEY and report.when == "call":
            _counts.append(value)
        if key == _TIMES_KEY and report.when == "call":
            _times.extend(value)


_counts: list = []
_times: list = []


def pytest_terminal_summary(terminalreporter):
    if _counts:
        terminalreporter.section("image outputs per notebook (found / minimum)")
        for notebook, count, minimum in sorted(_counts):
            terminalreporter.write_line(f"{notebook}: {count} / {minimum}")
    if _times:
        terminalreporter.section("widget updates (s): first = teaching default, median of all")
        for notebook, widget, seconds in sorted(_times):
            median = statistics.median(seconds)
            flag = "  > 1 s" if median > 1.0 else ""
            terminalreporter.write_line(
                f"{notebook:32s} {widget:28s} first {seconds[0]:6.3f}  median {median:6.3f}"
                f"  ({len(seconds)} updates){flag}"
            )
