"""Helpers shared by the notebooks: set-up, widgets and exercise checks (CONVENTIONS.md).

This module imports matplotlib and (lazily) ipywidgets; ``import spatial`` does not load it
until ``spatial.nb`` is first used.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

__all__ = [
    "NotebookConfig",
    "setup",
    "interact",
    "driving",
    "check",
    "fast_mode",
    "strict_mode",
    "static_mode",
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
            "figure.dpi": 100,
            "axes.grid": True,
            "grid.alpha": 0.3,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "font.size": 10,
            "legend.frameon": False,
            "animation.embed_limit": 30.0,
        }
    )
    return NotebookConfig(
        seed=seed, rng=np.random.default_rng(seed), fast=fast_mode(), strict=strict_mode()
    )


def interact(fn: Callable, /, *, show: bool = True, **controls):
    """Wrap a pure function in ``ipywidgets.interactive`` and (optionally) display it.

    The function runs once with the default control values when the widget is built, so a
    test run exercises it.  Sliders and text boxes rerun it when released, not continuously
    while dragged (a simulation behind a slider takes a moment).  Figures the function opens
    are shown inside the widget's output area and then closed.  Tests build the widget with
    ``show=False``, set a control's ``.value`` and assert on ``widget.result`` (the function's
    return value).

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

    @functools.wraps(fn)  # keeps fn's signature, so its defaults become the initial values
    def run(**kwargs):
        result = fn(**kwargs)
        if plt.get_fignums() and not static:
            plt.show()
        plt.close("all")
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


@contextlib.contextmanager
def driving(widget) -> Iterator[dict]:
    """Drive a widget's controls from a test cell, then put them back as the reader had them.

    A notebook checks its widgets by setting control values and reading ``widget.result``;
    done on the displayed widget, that would leave the figure at the last tested values
    instead of the teaching default.  Inside ``with driving(w) as controls:`` the controls are
    available by their descriptions (the function's argument names); on leaving the block,
    even through a failed assertion, every control gets its previous value back, so the
    widget reruns and shows again what it showed before the test.

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
        for name, value in before.items():
            if controls[name].value != value:
                controls[name].value = value


def check(exercise: str, solution: Callable) -> bool:
    """Check an answer to exercise ``"NN.k"`` against the package's reference.

    The checker for exercise ``NN.k`` lives in ``spatial.exercises.chNN``.  Each exercise in
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
        Exercise id, ``"NN.k"``.
    solution : callable
        The function to check (the student's, or ``solution_<name>``).

    Returns
    -------
    bool
        True when the answer passes.

    Raises
    ------
    ValueError
        If ``exercise`` is not of the form ``"NN.k"`` (two-digit notebook number, a dot, the
        exercise number).
    KeyError
        If no checker is registered under ``exercise``.
    AssertionError
        In strict mode, for a wrong answer.
    NotImplementedError
        In strict mode, for a reference solution (``solution_*``) that is still a stub.
    """
    if not isinstance(exercise, str) or re.fullmatch(r"\d{2}\.\d+", exercise) is None:
        raise ValueError(
            f"exercise must be an id like '03.1' (notebook NN, exercise k), got {exercise!r}"
        )
    name = f"spatial.exercises.ch{exercise[:2]}"
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
    try:
        checkers[exercise](solution)
    except NotImplementedError:
        if strict_mode() and getattr(solution, "__name__", "").startswith("solution_"):
            raise
        print(f"Exercise {exercise}: not attempted yet.")
        return False
    except AssertionError as err:
        if strict_mode():
            raise
        print(f"Exercise {exercise}: not right yet: {err}")
        return False
    print(f"Exercise {exercise}: correct.")
    return True
