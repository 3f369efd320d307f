"""Rotational joints with turning angles as variables: universal, Euler sets (Sueda §2.4.5–6).

Sueda describes a joint by the 4x4 frame ``Q(q)`` of the child relative to the parent and its
motion subspace in child (body) coordinates, ``[S]ᵢ = Q⁻¹ ∂Q/∂qᵢ``.  For a purely rotational
joint ``Q = [[R, 0], [0, 1]]``, so in Featherstone's form ``X_J = rot(E)`` with ``E = Rᵀ``
(the same conversion that turns Sueda's revolute joint, §2.4.7, into Table 4.1's first row),
and the angular block of ``S`` holds ``unskew(Rᵀ ∂R/∂qᵢ)``.

* :class:`SphericalEuler` turns the child three times about its own current axes (an Euler
  sequence ``"abc"``): ``R = R_a(q₁) R_b(q₂) R_c(q₃)`` (Sueda §2.4.5).  Column ``i`` of ``S`` is
  the ``i``-th turning axis seen from the child, and ``c_J = Ṡ q̇`` (Sueda eq. 2.35).  The
  sequence ``"ZYX"`` is Featherstone's yaw-pitch-roll joint (eqs. 4.7–4.9,
  :class:`~spatial.joints.SphericalYPR`).  Every sequence has a gimbal lock where the first and
  third axes line up: for the six Tait–Bryan sequences (three different letters) at
  ``cos q₂ = 0``, for the six proper Euler sequences (first letter = last) at ``sin q₂ = 0``.
  There ``det S = ±cos q₂`` (resp. ``±sin q₂``) vanishes and :meth:`SphericalEuler.check_q`
  refuses the configuration.
* :class:`Universal` keeps the first two turns and drops the third (Sueda §2.4.6, eqs.
  2.37–2.40: bending about x, then about the new y, no twist).  Its two axes stay
  perpendicular, so it has no singularity.

Both reuse the Euler-set kernels of :mod:`spatial.rotations.euler` (``R``, ``S``, ``Ṡ``).
"""

from __future__ import annotations

import numpy as np

from .._batched import rot as _rotation_transform  # rot(E), unvalidated (Table 2.2)
from ..rotations.euler import _euler_E, _euler_S, _euler_S_dot, _euler_seq
from .base import Joint, _batch_shape, _finite_scalar

__all__ = ["SphericalEuler", "Universal"]


def _spatial_rotation_columns(S3: np.ndarray) -> np.ndarray:
    """``[S3; 0]``: angular columns (..., 3, k) padded to motion-subspace columns (..., 6, k)."""
    return np.concatenate([S3, np.zeros(S3.shape)], -2)


class SphericalEuler(Joint):
    """Spherical joint parameterized by intrinsic Euler angles of any sequence (Sueda §2.4.5).

    With ``seq = "abc"`` the child frame F_s is turned by ``q₁`` about axis ``a`` of F_p, then
    by ``q₂`` about its new ``b`` axis, then by ``q₃`` about its newest ``c`` axis:
    ``R = R_a(q₁) R_b(q₂) R_c(q₃)`` (:func:`spatial.euler_to_matrix`), ``X_J = rot(Rᵀ)``.
    Velocity variables ``α = q̇``; ``S = [euler_S(q); 0]`` (Sueda eqs. 2.30, 2.34) and
    ``c_J = [Ṡ q̇; 0]`` (Sueda eq. 2.35).  ``SphericalEuler("ZYX")`` is
    :class:`~spatial.joints.SphericalYPR` (Featherstone eqs. 4.7–4.9).

    Gimbal lock: ``|det S|`` is ``|cos q₂|`` for the Tait–Bryan sequences (``"XYZ"``,
    ``"ZYX"``, …) and ``|sin q₂|`` for the proper Euler sequences (``"XZX"``, ``"ZYZ"``, …);
    :meth:`check_q` raises ``ValueError`` when it drops below ``singularity_tol``.

    Parameters
    ----------
    seq : str
        Three axis letters from ``"XYZ"`` (upper case), no two consecutive equal: one of the 12
        Euler sequences.
    singularity_tol : float
        Threshold on ``|det S|`` below which a configuration is rejected (default 1e-6).

    Raises
    ------
    ValueError
        If ``seq`` is not one of the 12 sequences or ``singularity_tol`` is negative or not
        finite.
    """

    nq = 3
    nv = 3

    def __init__(self, seq: str = "ZYX", singularity_tol: float = 1e-6):
        self.seq = _euler_seq(seq)
        self.singularity_tol = _finite_scalar(singularity_tol, "singularity_tol")
        if self.singularity_tol < 0:
            raise ValueError(f"singularity_tol must be ≥ 0, got {singularity_tol!r}")
        self.proper = self.seq[0] == self.seq[2]

    def transform(self, q):
        return _rotation_transform(_euler_E(q, self.seq))

    def motion_subspace(self, q):
        return _spatial_rotation_columns(_euler_S(q, self.seq))

    def bias(self, q, qd):
        q, qd = np.broadcast_arrays(q, qd) if _batch_shape(q, qd) else (q, qd)
        S_dot = _euler_S_dot(_euler_S(q, self.seq), qd)
        c = (S_dot @ qd[..., None])[..., 0]
        return np.concatenate([c, np.zeros(c.shape)], -1)

    def _lock_measure(self, q: np.ndarray) -> np.ndarray:
        """``|det S|``: ``|sin q₂|`` (proper Euler) or ``|cos q₂|`` (Tait–Bryan)."""
        return np.abs(np.sin(q[..., 1]) if self.proper else np.cos(q[..., 1]))

    def random_configuration(self, rng, shape=()):
        shape = tuple(shape)
        q = rng.uniform(-np.pi, np.pi, size=shape + (3,))
        if self.proper:  # |sin q₂| ≥ sin(0.1π): q₂ = ±[0.1π, 0.9π]
            sign = np.where(rng.uniform(size=shape) < 0.5, -1.0, 1.0)
            q[..., 1] = sign * rng.uniform(0.1 * np.pi, 0.9 * np.pi, size=shape)
        else:  # |cos q₂| ≥ cos(0.4π)
            q[..., 1] = rng.uniform(-0.4 * np.pi, 0.4 * np.pi, size=shape)
        return q

    def check_q(self, q, name="q"):
        worst = self._lock_measure(np.asarray(q)).min(initial=np.inf)
        if worst < self.singularity_tol:
            which = "sin" if self.proper else "cos"
            raise ValueError(
                f"{name} is at the gimbal lock of the Euler sequence {self.seq!r}: "
                f"|{which}(q₂)| = {worst:.3g} < {self.singularity_tol:g} (the first and third "
                f"axes line up, Sueda §2.4.5); use another sequence or the quaternion Spherical "
                f"joint"
            )

    def __repr__(self) -> str:
        return f"SphericalEuler(seq={self.seq!r}, singularity_tol={self.singularity_tol!r})"


class Universal(Joint):
    """Universal (Cardan, Hooke) joint: bend about ``first``, then about the new ``second`` axis.

    Sueda §2.4.6 (eqs. 2.37–2.40) with ``first="X"``, ``second="Y"``: the Euler sequence
    ``"XY·"`` with the third angle held at zero, so ``R = R_x(q₁) R_y(q₂)``, ``X_J = rot(Rᵀ)``,
    ``S = [[c₂, 0], [0, 1], [s₂, 0]; 0]`` and ``c_J = [Ṡ q̇; 0] = q̇₁ q̇₂ [-s₂, 0, c₂, 0, 0, 0]``.
    The twist about the third axis is locked.  The columns of ``S`` are always perpendicular
    unit vectors, so the joint has no singularity.  ``α = q̇``.

    Parameters
    ----------
    first, second : {"X", "Y", "Z"} (lower case accepted)
        The two different bending axes.

    Raises
    ------
    ValueError
        If an axis is not one of the letters or the two are equal.
    """

    nq = 2
    nv = 2

    def __init__(self, first: str = "X", second: str = "Y"):
        letters = [str(a).upper() if isinstance(a, str) else a for a in (first, second)]
        if any(a not in ("X", "Y", "Z") for a in letters) or letters[0] == letters[1]:
            raise ValueError(
                f"first and second must be two different axis letters from 'XYZ', got "
                f"{first!r} and {second!r}"
            )
        self.first, self.second = letters
        # any third letter different from the second completes an Euler sequence
        self._seq = _euler_seq(self.first + self.second + self.first)

    def _angles(self, q: np.ndarray) -> np.ndarray:
        return np.concatenate([q, np.zeros(q.shape[:-1] + (1,))], -1)

    def transform(self, q):
        return _rotation_transform(_euler_E(self._angles(q), self._seq))

    def motion_subspace(self, q):
        return _spatial_rotation_columns(_euler_S(self._angles(q), self._seq)[..., :2])

    def bias(self, q, qd):
        q, qd = np.broadcast_arrays(q, qd) if _batch_shape(q, qd) else (q, qd)
        S_dot = _euler_S_dot(_euler_S(self._angles(q), self._seq), self._angles(qd))
        c = (S_dot[..., :2] @ qd[..., None])[..., 0]
        return np.concatenate([c, np.zeros(c.shape)], -1)

    def __repr__(self) -> str:
        return f"Universal(first={self.first!r}, second={self.second!r})"
