"""Helpers shared by the notebooks: set-up, widgets and exercise checks (CONVENTIONS.md).

This module imports matplotlib and (lazily) ipywidgets and ipympl; ``import spatial`` does not
load it until ``spatial.nb`` is first used.

Rotatable 3D scenes.  :func:`figure3d` makes the figure of a 3D scene (the screw axes of
notebooks 01–02, the arm of 04, …).  Where a reader can turn it with the mouse it is a live
ipympl canvas, and only that figure: the 2D plots stay ordinary inline images.  Everywhere else
it is an ordinary figure that the inline backend saves as a PNG.  The rule is explicit, see
:func:`figure3d_mode`.  A live figure is kept out of pyplot and shown when the cell or widget
run that drew it ends, so that widget messages handled in other threads (JupyterLab's kernel
subshells) never show, close or draw it half finished.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import json
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from .urdf import example_robot

__all__ = [
    "NotebookConfig",
    "setup",
    "interact",
    "driving",
    "check",
    "Checked",
    "checker",
    "fast_mode",
    "strict_mode",
    "draft_mode",
    "grading_mode",
    "static_mode",
    "figure3d",
    "figure3d_mode",
    "robot",
]


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def fast_mode() -> bool:
    """True when ``SPATIAL_NB_FAST`` is set: notebooks shrink horizons and sample counts."""
    return _flag("SPATIAL_NB_FAST")


def static_mode() -> bool:
    """True when ``SPATIAL_STATIC`` is set: widgets are drawn as static figures (the book)."""
    return _flag("SPATIAL_STATIC")


def strict_mode() -> bool:
    """True when ``SPATIAL_NB_STRICT`` is set: exercise checks raise instead of printing."""
    return _flag("SPATIAL_NB_STRICT")


#: Resolution of the course's figures (``setup``), and of the figures in draft mode.
FIGURE_DPI = 100
DRAFT_DPI = 50


def draft_mode() -> bool:
    """True when ``SPATIAL_NB_DRAFT`` is set: figures are rendered cheaply (the notebook tests).

    A figure outside a widget is then rendered at :data:`DRAFT_DPI` instead of
    :data:`FIGURE_DPI`, and without the inline backend's tight bounding box, which costs a second
    drawing of the whole figure to measure it; the frames of an animation are saved at
    :data:`DRAFT_DPI` too (``savefig.dpi``; their figures ask for 70–80).  Every artist is still
    drawn, so a figure that cannot be drawn still fails the test.  A widget's updates render as
    in the reader's notebook (:func:`interact`), so the update times that the tests record are
    the reader's.
    """
    return _flag("SPATIAL_NB_DRAFT")


def _inline_png(**kwargs) -> None:
    """Register the inline backend's PNG output with ``kwargs`` for ``print_figure`` (kernel only).

    With no ``kwargs`` the configured ones come back (the tight bounding box by default).
    """
    if _in_kernel():
        from matplotlib_inline.backend_inline import set_matplotlib_formats

        set_matplotlib_formats("png", **kwargs)


def _inline_draft_png() -> None:
    """Register the draft PNG output (kernel only): no tight bounding box, one drawing.

    As ``_inline_png(bbox_inches=None)``, and a figure laid out by ``tight_layout()`` is saved
    without the placeholder layout engine that it leaves behind: ``savefig`` would otherwise
    draw the whole figure once more first, for a layout pass that lays nothing out.
    """
    _inline_png(bbox_inches=None)
    if not _in_kernel():
        return
    from IPython import get_ipython
    from matplotlib.figure import Figure

    get_ipython().display_formatter.formatters["image/png"].for_type(Figure, _draft_png)


def _draft_png(fig):
    """The inline backend's base64 PNG of ``fig`` at its dpi, without a tight bounding box,
    drawn once (see :func:`_inline_draft_png`)."""
    import matplotlib.pyplot as plt
    from IPython.core.pylabtools import print_figure
    from matplotlib.layout_engine import PlaceHolderLayoutEngine
    from matplotlib_inline.config import InlineBackend

    kwargs = {**InlineBackend.instance().print_figure_kwargs, "bbox_inches": None}
    engine = fig.get_layout_engine()
    placeholder = isinstance(engine, PlaceHolderLayoutEngine) and not (
        plt.rcParams["figure.autolayout"] or plt.rcParams["figure.constrained_layout.use"]
    )  # (with either, set_layout_engine(None) would choose a real engine)
    if placeholder:
        fig.set_layout_engine(None)
    try:
        return print_figure(fig, "png", base64=True, **kwargs)
    finally:
        if placeholder:
            fig.set_layout_engine(engine)


@contextlib.contextmanager
def _as_the_reader_sees_it() -> Iterator[None]:
    """Inside, figures render as in the reader's notebook, draft mode or not."""
    if not draft_mode():
        yield
        return
    import matplotlib.pyplot as plt

    with plt.rc_context({"figure.dpi": FIGURE_DPI, "savefig.dpi": "figure"}):
        _inline_png()
        try:
            yield
        finally:
            _inline_draft_png()


def grading_mode() -> bool:
    """True when ``SPATIAL_NB_GRADING`` is set: a check cell raises unless the answer passes.

    For graders that score a cell by whether it runs without an error (nbgrader's autograder
    tests): an untouched stub then fails as well as a wrong answer.
    """
    return _flag("SPATIAL_NB_GRADING")


def figure3d_mode() -> str:
    """How :func:`figure3d` draws: ``"live"`` (a rotatable ipympl canvas) or ``"static"``.

    The rule: a 3D figure is live only when all four hold, and static (an ordinary figure that
    the inline backend shows as a PNG) otherwise:

    1. ``SPATIAL_3D=live`` is set.  ``make lab`` and the browser test (``make test-browser``)
       set it; nbval (``make test-notebooks``) does not, so the executed notebooks keep their
       PNGs and figure counts.  (``MPLBACKEND`` cannot tell these apart: every Jupyter kernel
       sets it to the inline backend when it starts.)  ``SPATIAL_3D=static`` or no value means
       static;
    2. ``SPATIAL_STATIC`` is not set (``make book`` sets it: a web page has no kernel);
    3. the code runs in a Jupyter kernel (a script or pytest has no front end for a widget);
    4. ipympl is installed (the ``notebooks`` extra installs it).

    Raises
    ------
    ValueError
        If ``SPATIAL_3D`` has a value other than ``live``, ``static`` or empty.
    """
    wanted = os.environ.get("SPATIAL_3D", "").strip().lower()
    if wanted not in ("", "live", "static"):
        raise ValueError(
            f"SPATIAL_3D must be 'live' (rotatable 3D figures) or 'static', got {wanted!r}"
        )
    if wanted != "live" or static_mode() or not _in_kernel():
        return "static"
    return "live" if _ipympl() is not None else "static"


def _in_kernel() -> bool:
    """True inside a Jupyter kernel (an IPython shell with a kernel, not a terminal)."""
    ipython = sys.modules.get("IPython")  # never imported: not in a kernel
    shell = ipython.get_ipython() if ipython is not None else None
    return getattr(shell, "kernel", None) is not None


def _ipympl():
    """ipympl's canvas and figure-manager classes, or None when ipympl is not installed.

    Importing ipympl makes it pyplot's backend (``matplotlib.use``), which would close every
    open figure and turn every later one into a widget; only the 3D scenes should be widgets,
    so that call is skipped while ipympl is imported and the inline backend stays.
    """
    import matplotlib

    use, matplotlib.use = matplotlib.use, lambda *args, **kwargs: None
    try:
        from ipympl.backend_nbagg import Canvas, FigureManager
    except ImportError:
        return None
    finally:
        matplotlib.use = use
    return Canvas, FigureManager


def figure3d(**kwargs):
    """A figure for a 3D scene, rotatable with the mouse in JupyterLab.

    Use it in place of ``plt.figure(...)`` and add the 3D axes as usual,
    ``fig.add_subplot(projection="3d")``; arrange it with the figure's own methods
    (``fig.tight_layout()``), not pyplot's current-figure functions.

    In static mode (:func:`figure3d_mode`) it is exactly ``plt.figure(**kwargs)``: pyplot
    shows it as a PNG like every other figure.  In live mode it is not one of pyplot's
    figures: once the cell (or the :func:`interact` widget's run) that drew it has finished, it
    is shown as an ipympl canvas, a widget that redraws when dragged, and only then.  (With
    JupyterLab's kernel subshells, widget messages are handled in other threads while a cell
    runs: a figure that pyplot knows could be shown and closed there half drawn, and a canvas
    shown before its figure is complete could be drawn by two threads at once.)  Displaying
    the figure (``display(fig)``) shows its canvas at once.

    Parameters
    ----------
    **kwargs
        Passed to the figure (``figsize``, ``dpi``, …).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    if figure3d_mode() == "static":
        return plt.figure(**kwargs)
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = _live_classes()[0](**kwargs)
    FigureCanvasAgg(fig)  # draws until shown (tight_layout needs a renderer)
    _show_after_each_cell()
    _pending().append(fig)
    return fig


_live = threading.local()  # .pending: the live figures drawn in this thread, not shown yet
_LIVE_LOCK = threading.RLock()  # one thread at a time makes, shows or draws a live canvas


def _pending() -> list:
    if not hasattr(_live, "pending"):
        _live.pending = []
    return _live.pending


@functools.cache
def _show_after_each_cell() -> None:
    """Show the live figures a cell drew when it finishes (once per kernel)."""
    from IPython import get_ipython

    shell = get_ipython()
    if shell is not None:
        shell.events.register("post_execute", _show_pending)


def _show_pending(start: int = 0) -> list:
    """Show this thread's live figures drawn since ``start``; return their canvases."""
    return [_show_live(fig) for fig in _pending()[start:]]  # each leaves the list


def _show_live(fig):
    """Give ``fig`` its ipympl canvas (once) and display it; return the canvas."""
    from IPython.display import display

    with _LIVE_LOCK:
        Canvas = _live_classes()[1]
        if not isinstance(fig.canvas, Canvas):
            canvas = Canvas(fig)
            canvas.header_visible = False  # no "Figure n" title: the inline PNGs have none
            _ipympl()[1](canvas, 0)  # ipympl's figure manager, which the canvas talks to
        if fig in _pending():
            _pending().remove(fig)
        display(fig.canvas)
    return fig.canvas


def _close_live(canvas) -> None:
    """Close a live canvas's widgets: the canvas, its toolbar and their layouts."""
    with _LIVE_LOCK:
        toolbar = canvas.toolbar
        for widget in (toolbar.layout, toolbar, canvas.layout, canvas):
            widget.close()


@functools.cache
def _live_classes():
    """The figure and canvas classes of live mode (made on first use: they import ipympl)."""
    from matplotlib.figure import Figure

    Canvas, _ = _ipympl()

    class LiveFigure(Figure):
        """A figure that is displayed as its ipympl canvas."""

        def _ipython_display_(self, **kwargs):
            _show_live(self)

    class LiveCanvas(Canvas):
        """ipympl's canvas; the messages of its front end are handled under the lock."""

        def _handle_message(self, object, content, buffers):
            with _LIVE_LOCK:
                super()._handle_message(object, content, buffers)

    return LiveFigure, LiveCanvas


@dataclass(frozen=True)
class NotebookConfig:
    """What a notebook's set-up cell returns.

    Attributes
    ----------
    seed : int
        Seed of ``rng``.
    rng : numpy.random.Generator
        The notebook's random generator; use it for every random draw.
    fast : bool
        Fast mode (``SPATIAL_NB_FAST``), used by the tests to keep notebooks quick.
    strict : bool
        Strict exercise checking (``SPATIAL_NB_STRICT``).
    """

    seed: int
    rng: np.random.Generator
    fast: bool
    strict: bool


def setup(seed: int = 0) -> NotebookConfig:
    """Configure printing and plotting for a notebook and return its :class:`NotebookConfig`.

    Parameters
    ----------
    seed : int
        Seed for ``cfg.rng``.
    """
    import matplotlib.pyplot as plt

    np.set_printoptions(precision=4, suppress=True, linewidth=100)
    plt.rcParams.update(
        {
            "figure.figsize": (6.4, 4.0),
            "figure.dpi": DRAFT_DPI if draft_mode() else FIGURE_DPI,
            "axes.grid": True,
            "grid.alpha": 0.3,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "font.size": 10,
            "legend.frameon": False,
            "animation.embed_limit": 30.0,
        }
    )
    if draft_mode():  # one drawing per figure: no tight bounding box to measure first
        plt.rcParams["savefig.dpi"] = DRAFT_DPI  # animation frames (the inline PNGs set theirs)
        _inline_draft_png()
    return NotebookConfig(
        seed=seed, rng=np.random.default_rng(seed), fast=fast_mode(), strict=strict_mode()
    )


def interact(fn: Callable, /, *, show: bool = True, **controls):
    """Wrap a pure function in ``ipywidgets.interactive`` and (optionally) display it.

    The function runs once with the default control values when the widget is built, so a
    test run exercises it.  Sliders and text boxes rerun it when released, not continuously
    while dragged (a simulation behind a slider takes a moment).  Figures the function opens
    are shown inside the widget's output area and then closed; a live 3D canvas
    (:func:`figure3d`) stays open, to be turned by the reader, until the next run replaces it.
    Tests build the widget with ``show=False``, set a control's ``.value`` and assert on
    ``widget.result`` (the function's return value).

    In static mode (``SPATIAL_STATIC=1``, the book build) the widget is built but not shown,
    and the function runs once more with the defaults outside the widget, so its figures go to
    the cell's own output: a page without a live kernel shows what the widget shows when it
    opens.  (Inside the widget, figures are captured by its output area, which a static page
    cannot show.)

    Parameters
    ----------
    fn : callable
        The physics or drawing function; its keyword arguments are the controls.
    show : bool
        Display the widget (notebooks) or not (tests).
    **controls
        ipywidgets controls or abbreviations, as for ``ipywidgets.interactive``.

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets
    import matplotlib.pyplot as plt

    static = static_mode() and show

    shown = []  # live 3D canvases (figure3d) of the previous run, closed once replaced

    @functools.wraps(fn)  # keeps fn's signature, so its defaults become the initial values
    def run(**kwargs):
        start, clock = len(_pending()), time.perf_counter()
        with _as_the_reader_sees_it():  # draft mode: the update takes the reader's time
            try:
                result = fn(**kwargs)
                if plt.get_fignums() and not static:
                    plt.show()
            finally:
                plt.close("all")
                made = _show_pending(start)  # in the widget's output area, like plt.show()
        for canvas in shown:
            _close_live(canvas)
        shown[:] = made
        _record_update(fn, time.perf_counter() - clock)
        return result

    widget = ipywidgets.interactive(run, **controls)
    for control in widget.kwargs_widgets:  # rerun on release, not for every pixel of a drag
        if hasattr(control, "continuous_update"):
            control.continuous_update = False
    if static:  # once more, outside the widget's output area: the figures go to the cell
        fn(**widget.kwargs)
        plt.show()
        plt.close("all")
    elif show:
        from IPython.display import display

        display(widget)
    return widget


#: Environment variable naming a file to which every widget update appends its time (JSON lines).
WIDGET_TIMES = "SPATIAL_WIDGET_TIMES"


def _record_update(fn: Callable, seconds: float) -> None:
    """Append one widget update's wall time to the file named by ``SPATIAL_WIDGET_TIMES``.

    The notebook tests set it per notebook and print a table of the updates
    (``notebooks/conftest.py``), so a slow widget is visible; nothing is recorded otherwise.
    """
    path = os.environ.get(WIDGET_TIMES)
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps({"widget": fn.__name__, "seconds": seconds}) + "\n")


@contextlib.contextmanager
def driving(widget) -> Iterator[dict]:
    """Drive a widget's controls from a test cell, then put them back as the reader had them.

    A notebook checks its widgets by setting control values and reading ``widget.result``;
    done on the displayed widget, that would leave the figure at the last tested values
    instead of the teaching default.  Inside ``with driving(w) as controls:`` the controls are
    available by their descriptions (the function's argument names); on leaving the block,
    even through a failed assertion, every control gets its previous value back and the
    widget reruns once (not once per control put back), showing again what it showed before
    the test.

    Parameters
    ----------
    widget : ipywidgets.interactive
        A widget made by :func:`interact`.

    Yields
    ------
    dict of str to ipywidgets.Widget
    """
    controls = {c.description: c for c in widget.kwargs_widgets}
    before = {name: c.value for name, c in controls.items()}
    try:
        yield controls
    finally:
        moved = [name for name, value in before.items() if controls[name].value != value]
        for name in moved:  # put back without a rerun each ...
            controls[name].unobserve(widget.update, names="value")
            try:
                controls[name].value = before[name]
            finally:
                controls[name].observe(widget.update, names="value")
        if moved:  # ... then one rerun with all of them
            widget.update()


#: An exercise id: a chapter's ``"NN.k"`` (two digits) or a project's milestone ``"Pn.k"``.
EXERCISE_ID = re.compile(r"(\d{2}|P\d)\.\d+")


def checker(exercise: str) -> Callable:
    """The reference checker of exercise ``"NN.k"`` or project milestone ``"Pn.k"``.

    A chapter's checkers live in ``spatial.exercises.chNN``, a project's in
    ``spatial.exercises.pn`` (``"P3.1"`` in :mod:`spatial.exercises.p3`), each in its dict
    ``CHECKS``.  A checker takes the answer and raises ``AssertionError`` with a hint when it
    is wrong.

    Parameters
    ----------
    exercise : str
        ``"NN.k"`` (two-digit notebook number, a dot, the exercise number) or ``"Pn.k"`` (a
        project's number and its milestone).

    Returns
    -------
    callable

    Raises
    ------
    ValueError
        If ``exercise`` is not of either form.
    KeyError
        If no checker is registered under ``exercise``.
    """
    if not isinstance(exercise, str) or EXERCISE_ID.fullmatch(exercise) is None:
        raise ValueError(
            "exercise must be an id like '03.1' (notebook NN, exercise k) or 'P3.1' (project "
            f"n, milestone k), got {exercise!r}"
        )
    number = exercise.split(".")[0]
    suffix = f"p{number[1:]}" if number.startswith("P") else f"ch{number}"
    name = f"spatial.exercises.{suffix}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name != name:
            raise
        raise KeyError(
            f"no checker registered for exercise {exercise!r} (no module {name})"
        ) from None
    checkers = module.CHECKS
    if exercise not in checkers:
        raise KeyError(f"no checker registered for exercise {exercise!r}")
    return checkers[exercise]


class Checked:
    """What :func:`check` returns: true when the answer passed; shown as nothing in a notebook.

    A check cell ends in the call ``sp.nb.check(...)``; a plain bool there would be echoed as
    ``True``/``False`` under the printed verdict.  Use it as a truth value (``if check(...)``).

    Attributes
    ----------
    passed : bool
    """

    __slots__ = ("passed",)

    def __init__(self, passed: bool):
        self.passed = bool(passed)

    def __bool__(self) -> bool:
        return self.passed

    def __repr__(self) -> str:
        return f"Checked(passed={self.passed})"

    def _ipython_display_(self, **kwargs) -> None:
        """Display nothing: the verdict is already printed."""


def check(exercise: str, solution: Callable) -> Checked:
    """Check an answer to exercise ``"NN.k"`` (or milestone ``"Pn.k"``) against the reference.

    The answer is a function (an *implement* exercise) or a value (a *predict* or *model*
    exercise: a number, a choice, a short formula), which starts as ``...`` in the student's
    cell and counts as not attempted until it is replaced.

    The checker for exercise ``NN.k`` lives in ``spatial.exercises.chNN``, that of a project's
    milestone ``Pn.k`` in ``spatial.exercises.pn`` (:func:`checker`).  Each exercise in
    a notebook has two calls: the student's check cell passes the student's function, and the
    collapsed solution cell under it passes the reference solution, named ``solution_<name>``
    so that "Run All" never replaces the student's function.

    A stub that raises ``NotImplementedError`` is reported as "not attempted yet", also with
    ``SPATIAL_NB_STRICT=1`` (the tests run every cell that way, untouched stubs included).  A
    wrong answer prints what is wrong; in strict mode it raises instead.  A function whose name
    starts with ``solution_`` is a reference solution and is never "not attempted": in strict
    mode its ``NotImplementedError`` raises too.

    Parameters
    ----------
    exercise : str
        Exercise id, ``"NN.k"`` or ``"Pn.k"``.
    solution : callable or object
        The function or value to check (the student's, or ``solution_<name>``).

    Returns
    -------
    Checked
        True (as a truth value) when the answer passes.  It displays nothing, so a check cell
        ending in this call shows only the printed verdict, not a stray ``True``/``False``.

    Raises
    ------
    ValueError
        If ``exercise`` is not of the form ``"NN.k"`` (two-digit notebook number, a dot, the
        exercise number) or ``"Pn.k"`` (a project's milestone).
    KeyError
        If no checker is registered under ``exercise``.
    AssertionError
        In strict mode, for a wrong answer; in grading mode (``SPATIAL_NB_GRADING``), for a
        wrong answer or an untouched stub.
    NotImplementedError
        In strict mode, for a reference solution (``solution_*``) that is still a stub.
    """
    check_answer = checker(exercise)
    try:
        check_answer(solution)
    except NotImplementedError:
        if strict_mode() and getattr(solution, "__name__", "").startswith("solution_"):
            raise
        if grading_mode():
            raise AssertionError(f"Exercise {exercise}: not attempted") from None
        print(f"Exercise {exercise}: not attempted yet.")
        return Checked(False)
    except AssertionError as err:
        if strict_mode() or grading_mode():
            raise
        print(f"Exercise {exercise}: not right yet: {err}")
        return Checked(False)
    print(f"Exercise {exercise}: correct.")
    return Checked(True)


def robot(name: str, stand_in: Callable, **load):
    """A real robot for a notebook: :func:`spatial.urdf.example_robot`, saying when it stands in.

    Loads ``name`` from example-robot-data (the ``robots`` extra), or prints that the builder
    ``stand_in`` stands in and loads its model through URDF; ``load`` goes to
    :func:`spatial.load_urdf`.  Parameters, return value and errors are
    :func:`~spatial.urdf.example_robot`'s.
    """
    return example_robot(name, stand_in, **load)
