"""Reference checkers for the notebook exercises, one module per notebook (``chNN``) and per
project (``pN``, whose milestones are ``"PN.k"``; :func:`spatial.nb.checker` finds them).

Each module defines ``CHECKS``, a dict from exercise id ``"NN.k"`` to a function that takes
the student's answer and raises ``AssertionError`` (with a hint) when it is wrong, or
``NotImplementedError`` when the exercise is not attempted yet.  The checkers compare against
the package, never against the student's own code.

An exercise is one of three kinds, tagged on its cell (``exercise`` plus the kind):

- *implement*: the answer is a function, checked on several models against the package;
- *predict*: the answer is a number, a choice or a short formula, worked out before running
  anything (:func:`check_number`, :func:`check_choice`);
- *model*: an open task (build a model, simulate it) whose answer is a number checked within a
  stated tolerance (:func:`check_number`).

A value answer starts as ``...`` (Ellipsis) in the student's cell: :func:`answered` reports it
as not attempted.  A wrong value is told only which section to reread, never the answer.
"""

from __future__ import annotations

import numpy as np

__all__ = ["assert_close", "answered", "check_number", "check_choice"]


def assert_close(got, expected, what: str, tol: float = 1e-9) -> None:
    """Raise ``AssertionError`` explaining the difference unless ``got ≈ expected``.

    The tolerance is relative to ``max(1, max|expected|)``; shapes must match exactly.
    """
    got = np.asarray(got, dtype=float)
    expected = np.asarray(expected, dtype=float)
    if got.shape != expected.shape:
        raise AssertionError(f"{what}: expected shape {expected.shape}, got {got.shape}")
    err = np.abs(got - expected).max(initial=0.0)
    if not err <= tol * max(1.0, np.abs(expected).max(initial=0.0)):
        raise AssertionError(
            f"{what}: largest difference {err:.3g}.\nexpected\n{expected}\ngot\n{got}"
        )


def answered(value, what: str):
    """Return ``value``, or raise ``NotImplementedError`` while it is still ``...``.

    Parameters
    ----------
    value : object
        The student's answer.
    what : str
        What the answer is, for the message ("the apex ratio").

    Raises
    ------
    NotImplementedError
        If ``value`` is ``...`` (the stub's placeholder).
    """
    if value is ...:
        raise NotImplementedError(f"{what}: replace ... with your answer")
    return value


def check_number(
    value, expected, *, what: str, reread: str, rtol: float = 1e-2, atol: float = 0.0
) -> None:
    """Check a numeric answer within ``rtol·|expected| + atol``, hinting without telling it.

    Parameters
    ----------
    value : float or array_like
        The student's answer (``...`` while not attempted).
    expected : float or array_like
        The reference value, computed by the package (never shown to the student).
    what : str
        What the number is, with its unit ("the period in s").
    reread : str
        Where to look again: the section of the notebook and of the texts ("§3 of this
        notebook, Featherstone §5.3").  The message names it on a wrong answer.
    rtol, atol : float
        Relative and absolute tolerance; state them in the exercise's text.

    Raises
    ------
    NotImplementedError
        While ``value`` is ``...``.
    AssertionError
        If ``value`` is not a number of the expected shape, or is not within the tolerance.
    """
    value = answered(value, what)
    expected = np.asarray(expected, dtype=float)
    try:
        got = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise AssertionError(f"{what} should be a number, got {value!r}") from None
    if got.shape != expected.shape:
        raise AssertionError(f"{what} should have shape {expected.shape}, got {got.shape}")
    if not np.all(np.abs(got - expected) <= rtol * np.abs(expected) + atol):
        raise AssertionError(f"{what} is not right yet. Reread {reread}.")


def check_choice(value, expected, *, options, what: str, reread: str) -> None:
    """Check an answer picked from ``options`` (a letter, a name or a set of them).

    Parameters
    ----------
    value : object
        The student's answer (``...`` while not attempted); a set, list or tuple for questions
        with several right options (compared as a set).
    expected : object
        The right option, or a set of them.
    options : collection
        Every allowed option: an answer outside it is refused as such.
    what, reread : str
        As for :func:`check_number`.

    Raises
    ------
    NotImplementedError
        While ``value`` is ``...``.
    AssertionError
        If ``value`` is not among ``options`` or is not the right choice.
    """
    value = answered(value, what)
    several = isinstance(expected, (set, frozenset, list, tuple))
    picked = set(value) if isinstance(value, (set, frozenset, list, tuple)) else {value}
    unknown = [v for v in picked if v not in options]
    if unknown:
        raise AssertionError(f"{what}: {unknown[0]!r} is not one of {sorted(map(str, options))}")
    right = set(expected) if several else {expected}
    if picked != right:
        raise AssertionError(f"{what} is not right yet. Reread {reread}.")
