"""Reference checkers for the notebook exercises, one module per notebook (``chNN``) and per
project (``pN``, whose milestones are ``"PN.k"``; :func:`spatial.nb.checker` finds them).

Each module defines ``CHECKS``, a dict from exercise id ``"NN.k"`` to a function that takes
the student's callable and raises ``AssertionError`` (with a helpful message) when it is wrong.
The checkers compare against the package, never against the student's own code.
"""

from __future__ import annotations

import numpy as np

__all__ = ["assert_close"]


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
