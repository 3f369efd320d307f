"""Input checks shared by the public functions (raised at the boundary, never deep inside)."""

from __future__ import annotations

import numpy as np

__all__ = ["as_array", "as_scalar_array", "positive_scalar", "positive_scalars", "require_rotation"]


def as_array(x, name: str, tail: tuple[int, ...]) -> np.ndarray:
    """Return ``x`` as a float array whose trailing dimensions are ``tail``.

    Raises
    ------
    ValueError
        If the trailing shape differs from ``tail`` or any entry is not finite.
    """
    a = np.asarray(x, dtype=float)
    k = len(tail)
    if a.ndim < k or a.shape[a.ndim - k :] != tail:
        want = "(..., " + ", ".join(str(t) for t in tail) + ")"
        raise ValueError(f"{name} must have shape {want}, got {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains non-finite values (nan or inf)")
    return a


def as_scalar_array(x, name: str) -> np.ndarray:
    """Return ``x`` as a float array of any shape with finite entries (angles, masses, ...)."""
    a = np.asarray(x, dtype=float)
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains non-finite values (nan or inf)")
    return a


def positive_scalar(x, name: str) -> float:
    """``x`` as a float; ``ValueError`` unless it is one finite number > 0 (a length, a mass)."""
    a = as_scalar_array(x, name)
    if a.shape != ():
        raise ValueError(f"{name} must be a single number, got {x!r}")
    if a <= 0:
        raise ValueError(f"{name} must be > 0, got {x!r}")
    return float(a)


def positive_scalars(values, names) -> list[float]:
    """:func:`positive_scalar` for each of ``values``, named by the matching ``names``."""
    return [positive_scalar(x, name) for x, name in zip(values, names, strict=True)]


def require_rotation(E: np.ndarray, name: str = "E", tol: float = 1e-8) -> None:
    """Raise ``ValueError`` unless every ``E[..., :, :]`` is a rotation (EᵀE = 1, det E = +1)."""
    err = np.abs(np.swapaxes(E, -1, -2) @ E - np.eye(3)).max(initial=0.0)
    if err > tol:
        raise ValueError(f"{name} is not orthonormal (max |EᵀE - 1| = {err:.2e} > {tol:g})")
    if np.any(np.linalg.det(E) < 0):
        raise ValueError(f"{name} is a reflection (det = -1), not a rotation")


# --- batch shapes (one message for every function that combines batched arguments)

__all__ += ["broadcast_batch"]


def broadcast_batch(**arrays) -> tuple[int, ...]:
    """The common batch shape of several arrays, each given as ``name=(array, core_ndim)``.

    The batch shape of an array is its shape without the last ``core_ndim`` axes (a spatial
    vector has 1, a 6x6 matrix 2); arrays given as ``None`` are skipped.  The batch shapes must
    broadcast together (NumPy's rules).

    Returns
    -------
    tuple of int
        The broadcast batch shape.

    Raises
    ------
    ValueError
        ``"the batch shapes do not broadcast: X (2,), f (3,)"``, naming every array and its
        batch shape, if they do not.
    """
    shapes = {name: a.shape[: a.ndim - core] for name, (a, core) in arrays.items() if a is not None}
    try:
        return np.broadcast_shapes(*shapes.values())
    except ValueError:
        detail = ", ".join(f"{name} {shape}" for name, shape in shapes.items())
        raise ValueError(f"the batch shapes do not broadcast: {detail}") from None
