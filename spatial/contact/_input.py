"""Input checks shared by the contact solvers (raised at the public boundary)."""

from __future__ import annotations

import numpy as np

from .._validate import as_array

__all__ = [
    "as_array",
    "box_bounds",
    "friction_coefficients",
    "iteration_limit",
    "matrix",
    "square_matrix",
    "tolerance",
    "vector",
]


def _finite(a: np.ndarray, name: str) -> np.ndarray:
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains non-finite values (nan or inf)")
    return a


def matrix(x, name: str, cols: int) -> np.ndarray:
    """Return ``x`` as a finite float array of shape ``(..., m, cols)``."""
    a = np.asarray(x, dtype=float)
    if a.ndim < 2:
        raise ValueError(f"{name} must be a matrix (at least 2-D), got shape {a.shape}")
    if a.shape[-1] != cols:
        raise ValueError(f"{name} must have shape (..., m, {cols}), got {a.shape}")
    return _finite(a, name)


def square_matrix(x, name: str, batch: bool = False) -> np.ndarray:
    """Return ``x`` as a finite square matrix, ``(n, n)`` (or ``(..., n, n)`` if ``batch``)."""
    a = np.asarray(x, dtype=float)
    if (a.ndim != 2 and not batch) or a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        want = "(..., n, n)" if batch else "(n, n)"
        raise ValueError(f"{name} must be a square matrix of shape {want}, got shape {a.shape}")
    return _finite(a, name)


def vector(x, name: str, n: int | None = None) -> np.ndarray:
    """Return ``x`` as a finite 1-D float array (of length ``n`` when given)."""
    a = np.asarray(x, dtype=float)
    if a.ndim != 1:
        raise ValueError(f"{name} must be a 1-D vector, got shape {a.shape}")
    if n is not None and a.shape[0] != n:
        raise ValueError(
            f"{name} must have length {n} to match the other arguments, got {a.shape[0]}"
        )
    return _finite(a, name)


def box_bounds(lo, hi, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Return bounds ``lo, hi`` of length ``n`` (defaults 0 and +inf); infinities are allowed."""
    out = []
    for x, name, default in ((lo, "lo", 0.0), (hi, "hi", np.inf)):
        a = np.full(n, default) if x is None else np.asarray(x, dtype=float)
        if a.ndim > 1 or (a.ndim == 1 and a.shape[0] != n):
            raise ValueError(f"{name} must be a scalar or a vector of length {n}, got {a.shape}")
        a = np.broadcast_to(a, (n,))
        if np.any(np.isnan(a)):
            raise ValueError(f"{name} contains nan")
        out.append(np.array(a, dtype=float))
    lo_, hi_ = out
    if np.any(lo_ == np.inf) or np.any(hi_ == -np.inf):
        raise ValueError("lo must be < +inf and hi must be > -inf")
    if np.any(lo_ > hi_):
        i = int(np.argmax(lo_ > hi_))
        raise ValueError(f"lo must not exceed hi (index {i}: lo={lo_[i]:g} > hi={hi_[i]:g})")
    return lo_, hi_


def friction_coefficients(mu, nc: int) -> np.ndarray:
    """Return friction coefficients as an array of length ``nc``; each must be finite and >= 0."""
    a = np.asarray(mu, dtype=float)
    if a.ndim > 1 or (a.ndim == 1 and a.shape[0] != nc):
        raise ValueError(f"mu must be a scalar or a vector of length {nc} (one per contact)")
    a = _finite(np.broadcast_to(a, (nc,)).copy(), "mu")
    if np.any(a < 0):
        raise ValueError(f"friction coefficient mu must be >= 0, got {a[a < 0][0]:g}")
    return a


def iteration_limit(max_iter: int | None, n: int) -> int:
    """Return ``max_iter`` checked to be a positive integer (default ``100 (n + 1)``)."""
    if max_iter is None:
        return 100 * (n + 1)
    if int(max_iter) != max_iter or max_iter < 1:
        raise ValueError(f"max_iter must be a positive integer, got {max_iter!r}")
    return int(max_iter)


def tolerance(tol: float) -> float:
    """Return ``tol`` checked to be a positive finite number."""
    if not (np.isfinite(tol) and tol > 0):
        raise ValueError(f"tol must be a positive number, got {tol!r}")
    return float(tol)
