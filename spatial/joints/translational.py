"""Joints that translate without turning: planar and full translation (Sueda §2.4.3–2.4.4).

With no rotation, Sueda's joint frame is a pure translation ``Q(q) = [[1, p(q)], [0, 1]]``, so
``Q⁻¹ ∂Q/∂qᵢ`` holds only the linear part ``∂p/∂qᵢ``.  In Featherstone's form the joint transform
is ``X_J = xlt(p(q))`` (the successor's origin at ``p`` in F_p coordinates; F_s and F_p stay
parallel, so F_s coordinates of a free vector equal its F_p coordinates) and the motion subspace
``S = [0; ∂p/∂q]`` is constant, hence ``c_J = 0``:

* :class:`PlanarTranslation` slides in the plane of two perpendicular unit axes ``a``, ``b``:
  ``p = a q₁ + b q₂`` (Sueda eqs. 2.25–2.26 for the x-y plane);
* :class:`Translational` slides freely: ``p = q``, ``S = [0; 1₃]`` (Sueda eqs. 2.27–2.28).

Neither has a singularity, and ``α = q̇`` integrates linearly (the base class defaults).
"""

from __future__ import annotations

import numpy as np

from .._batched import plux as _plucker  # rot(E) xlt(r), unvalidated (eq. 2.24)
from .base import Joint, _broadcast_constant, axis_vector

__all__ = ["PlanarTranslation", "Translational"]


def _translation_transform(p: np.ndarray) -> np.ndarray:
    """``xlt(p)`` (..., 6, 6), i.e. ``plux(1, p)`` (Featherstone eq. 2.24 with E = 1)."""
    return _plucker(np.eye(3), p)


class PlanarTranslation(Joint):
    """Two translational degrees of freedom in a plane (Sueda §2.4.3, eqs. 2.25–2.26).

    ``q = [q₁, q₂]`` moves F_s's origin to ``p = a q₁ + b q₂`` in F_p coordinates, without
    turning: ``X_J = xlt(p)``, ``S = [[0, 0], [a, b]]`` (constant), ``c_J = 0``, ``α = q̇``.
    The default axes ``a = x``, ``b = y`` give Sueda's x-y plane.

    Parameters
    ----------
    first, second : {"x", "y", "z"} (or ``"-x"`` …) or array_like, shape (3,)
        Two perpendicular unit axes spanning the plane.

    Raises
    ------
    ValueError
        If an axis is invalid or the two are not perpendicular (to 1e-9).
    """

    nq = 2
    nv = 2

    def __init__(self, first="x", second="y"):
        self.first, self.second = axis_vector(first), axis_vector(second)
        if abs(self.first @ self.second) > 1e-9:
            raise ValueError(
                f"first and second must be perpendicular axes, got the dot product "
                f"{self.first @ self.second:.6g}"
            )
        self._A = np.stack([self.first, self.second], -1)  # p = A q
        self._S = np.concatenate([np.zeros((3, 2)), self._A], 0)

    def transform(self, q):
        return _translation_transform((self._A @ q[..., None])[..., 0])

    def motion_subspace(self, q):
        return _broadcast_constant(self._S, q)

    def random_configuration(self, rng, shape=()):
        return rng.uniform(-1.0, 1.0, size=tuple(shape) + (2,))

    def __repr__(self) -> str:
        return f"PlanarTranslation(first={self.first.tolist()}, second={self.second.tolist()})"


class Translational(Joint):
    """Three translational degrees of freedom, no rotation (Sueda §2.4.4, eqs. 2.27–2.28).

    ``q = p``, the position of F_s's origin in F_p coordinates: ``X_J = xlt(q)``,
    ``S = [0; 1₃]`` (constant), ``c_J = 0``, ``α = q̇``.
    """

    nq = 3
    nv = 3

    _S = np.vstack([np.zeros((3, 3)), np.eye(3)])

    def transform(self, q):
        return _translation_transform(q)

    def motion_subspace(self, q):
        return _broadcast_constant(self._S, q)

    def random_configuration(self, rng, shape=()):
        return rng.uniform(-1.0, 1.0, size=tuple(shape) + (3,))
