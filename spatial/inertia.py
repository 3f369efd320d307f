"""Spatial (rigid-body) inertia: construction, decomposition, inverse and factor, shapes.

A rigid-body inertia about a frame's origin O, for a body of mass ``m`` whose centre of mass
is at ``c`` and whose rotational inertia about the centre of mass is ``I_c``, is

    I = [[I_c + m c× c×ᵀ, m c×], [m c×ᵀ, m 1]]          (Featherstone eq. 2.63)

Sources: Featherstone §2.13, App. A (``mcI``); ArtiSynth notes §0.1; Sueda §1.7.
"""

from __future__ import annotations

import numpy as np

from ._validate import as_array, as_scalar_array
from .vectors import skew, unskew

__all__ = ["mcI", "inertia_params"]


def _require_spd(I_c: np.ndarray, name: str) -> None:
    sym_err = np.abs(I_c - np.swapaxes(I_c, -1, -2)).max(initial=0.0)
    if sym_err > 1e-9 * (1.0 + np.abs(I_c).max(initial=0.0)):
        raise ValueError(f"{name} must be symmetric (max asymmetry {sym_err:.2e})")
    if np.any(np.linalg.eigvalsh(I_c) <= 0.0):
        raise ValueError(f"{name} must be positive definite")


def mcI(m, c, I_c) -> np.ndarray:
    """Rigid-body spatial inertia from mass, centre of mass and rotational inertia (eq. 2.63).

    Same meaning and argument order as the book's ``mcI`` (Featherstone App. A, Table A.2).

    Parameters
    ----------
    m : float or array_like, shape (...)
        Mass, > 0.
    c : array_like, shape (..., 3)
        Centre of mass in the body frame.
    I_c : array_like, shape (..., 3, 3)
        Rotational inertia about the centre of mass, symmetric positive definite.

    Returns
    -------
    ndarray, shape (..., 6, 6)

    Raises
    ------
    ValueError
        If ``m`` is not positive, or ``I_c`` is not symmetric positive definite, or shapes differ.
    """
    m = as_scalar_array(m, "m")
    if np.any(m <= 0):
        raise ValueError(f"m (mass) must be positive, got {m}")
    c = as_array(c, "c", (3,))
    I_c = as_array(I_c, "I_c", (3, 3))
    _require_spd(I_c, "I_c")
    C = skew(c)
    mm = m[..., None, None]
    shape = np.broadcast_shapes(mm.shape, C.shape, I_c.shape)
    out = np.zeros(shape[:-2] + (6, 6))
    out[..., :3, :3] = I_c + mm * C @ np.swapaxes(C, -1, -2)
    out[..., :3, 3:] = mm * C
    out[..., 3:, :3] = mm * np.swapaxes(C, -1, -2)
    out[..., 3:, 3:] = mm * np.eye(3)
    return out


def inertia_params(I) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Recover ``(m, c, I_c)`` from a rigid-body spatial inertia; the inverse of :func:`mcI`.

    Parameters
    ----------
    I : array_like, shape (..., 6, 6)

    Returns
    -------
    m : ndarray, shape (...)
    c : ndarray, shape (..., 3)
    I_c : ndarray, shape (..., 3, 3)

    Raises
    ------
    ValueError
        If ``I`` does not have the structure of a rigid-body inertia with positive mass.
    """
    I = as_array(I, "I", (6, 6))
    m = I[..., 3, 3]
    if np.any(m <= 0):
        raise ValueError("I has non-positive mass in its lower-right block")
    if np.abs(I[..., 3:, 3:] - m[..., None, None] * np.eye(3)).max(initial=0.0) > 1e-9 * (
        1 + np.abs(m).max()
    ):
        raise ValueError("I is not a rigid-body inertia: its lower-right block must be m·1")
    c = unskew(I[..., :3, 3:]) / m[..., None]
    C = skew(c)
    I_c = I[..., :3, :3] - m[..., None, None] * C @ np.swapaxes(C, -1, -2)
    return m.copy(), c, I_c
