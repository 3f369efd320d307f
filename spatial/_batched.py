"""Unvalidated batched kernels for the inner loops of the tree algorithms.

The public functions of :mod:`spatial.vectors` validate their arguments, which costs more than
the arithmetic on 6-vectors.  The recursive algorithms validate ``q``, ``q̇``, ... once at their
entry point and then call these kernels, which accept any leading batch dimensions.
"""

from __future__ import annotations

import numpy as np

from .vectors import _crm as crm_matrix  # v× (..., 6, 6) without validation (eq. 2.31)
from .vectors import skew


def T(X: np.ndarray) -> np.ndarray:
    """Transpose of the last two axes (``T(Xup[i])`` is the force transform ``^λ(i)X_i*``)."""
    return X.swapaxes(-1, -2)


def mv(X: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``X @ v`` over batches, for ``X`` (..., n, m) and ``v`` (..., m)."""
    return (X @ v[..., None])[..., 0]


def mTv(X: np.ndarray, f: np.ndarray) -> np.ndarray:
    """``Xᵀ @ f`` over batches; with ``X = ^iX_λ(i)`` this is ``^λ(i)X_i* f``."""
    return (f[..., None, :] @ X)[..., 0, :]


def cross_motion(v: np.ndarray, m: np.ndarray) -> np.ndarray:
    """``v × m`` for motion vectors (..., 6) (eq. 2.33)."""
    return mv(crm_matrix(v), m)


def force_cross_bar(h: np.ndarray) -> np.ndarray:
    """The matrix ``h ×̄`` (..., 6, 6) with ``(h ×̄) v = v ×* h`` for forces ``h = [n; f]`` (..., 6).

    ``v ×* h`` (eq. 2.34) is linear in ``v`` too; this is its matrix, ``[[-n×, -f×], [-f×, 0]]``.
    """
    n_x, f_x = skew(h[..., :3]), skew(h[..., 3:])
    out = np.zeros(h.shape[:-1] + (6, 6))
    out[..., :3, :3] = -n_x
    out[..., :3, 3:] = -f_x
    out[..., 3:, :3] = -f_x
    return out
