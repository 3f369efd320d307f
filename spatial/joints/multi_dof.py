"""Multi-DoF joints with angle parameters: planar, yaw-pitch-roll spherical (Featherstone §4.4-4.5).

* :class:`Planar` (Table 4.1 row 5) lets F_s turn about z and slide in the x-y plane.  Example 4.5
  points out a trade-off in choosing its variables: with translations measured in F_s the
  motion subspace is constant, but a body spinning far from the origin then makes the variables
  race; measured in F_p they do not.  The model here takes the best of both (positions in F_p,
  velocities in F_s), so ``S`` stays constant and ``q̇ = q_dot(q, α)`` is a rotation of ``α``.
* :class:`SphericalYPR` describes a ball joint by three angles (yaw, pitch, roll; eqs. 4.7–4.9).
  Its ``S`` depends on ``q``, which brings a velocity-product term ``c_J = (∂S/∂q q̇) q̇``
  (eq. 3.42), and it loses rank at pitch ±90°, which :meth:`SphericalYPR.check_q` reports.  The
  quaternion joints of :mod:`.quaternion` avoid that singularity.
"""

from __future__ import annotations

import numpy as np

from .._batched import plux as _plucker  # rot(E) xlt(r), unvalidated (eq. 2.24)
from .._batched import rot as _rotation_transform  # rot(E), unvalidated (Table 2.2)
from ..se3 import _so3_left_jacobian, _so3_left_jacobian_inverse
from ..vectors.plucker import _COORDINATE_ROTATIONS as _E
from .base import (
    Joint,
    _axis_rotation,
    _batch_shape,
    _broadcast_constant,
    _concat,
    _finite_scalar,
)

__all__ = ["Planar", "SphericalYPR"]


class Planar(Joint):
    """Planar joint: motion in the x-y plane of F_p (Table 4.1 row 5, Example 4.5 variables).

    Position variables ``q = [θ, x, y]``: the rotation angle about z and the position of
    F_s's origin **in F_p coordinates**.  Velocity variables ``α = [ω_z, v_x, v_y]``: the
    angular velocity and the velocity of F_s's origin **in F_s coordinates**.  Then
    ``X_J = rot(rz(θ)) xlt([x, y, 0])``, ``S = [e_z; 0 | 0; e_x | 0; e_y]`` is constant,
    ``c_J = 0``, and ``q̇ = [α₁; R(θ) [α₂, α₃]]`` (``R`` the active 2D rotation).

    This is the "best of both worlds" choice of Example 4.5: positions in F_p do not race when
    the body spins far from the origin, and the velocities in F_s keep ``S`` constant.  (Table
    4.1 itself lists the position in F_s coordinates, ``q_s = R(θ)ᵀ [x, y]``.)  Note: the
    matrix printed in Example 4.5 for ``q̇`` contains extra terms ``-q₃α₁`` and ``q₂α₁``; those
    belong to velocity variables ``α = d/dt q_s``, for which ``S`` is not constant.  With the
    ``α`` above (the only choice giving this ``S``) they are absent, as the finite-difference
    tests confirm.

    Sueda §2.4.10 builds the same motion ("2D free joint": translation, then rotation) with
    ``α = q̇``, for which ``S`` varies with ``θ`` (Sueda eq. 2.55).

    Because ``α ≠ q̇``, :meth:`integrate` moves along the planar rigid motion with constant
    ``α`` (the exponential map of SE(2)) and :meth:`difference` is its inverse (defined while
    the turn ``θ₁ - θ₀`` is not a nonzero multiple of 2π).
    """

    nq = 3
    nv = 3

    _S = np.zeros((6, 3))
    _S[2, 0] = _S[3, 1] = _S[4, 2] = 1.0

    @staticmethod
    def _rotation_2d(theta: np.ndarray) -> np.ndarray:
        """Active rotation ``[[c, -s], [s, c]]`` (..., 2, 2)."""
        c, s = np.cos(theta), np.sin(theta)
        return np.stack([np.stack([c, -s], -1), np.stack([s, c], -1)], -2)

    @staticmethod
    def _exp_translation(phi: np.ndarray, inverse: bool = False) -> np.ndarray:
        """``V(φ)`` (..., 2, 2), the translation part of the SE(2) exponential, or its inverse.

        The planar case of SO(3)'s left Jacobian with ``ω = φ e_z`` (Sueda eq. 1.10).
        """
        w = np.zeros(phi.shape + (3,))
        w[..., 2] = phi
        V = _so3_left_jacobian_inverse(w) if inverse else _so3_left_jacobian(w)
        return V[..., :2, :2]

    def transform(self, q):
        E = _axis_rotation(np.array([0.0, 0.0, 1.0]), q[..., 0])
        r = np.concatenate([q[..., 1:3], np.zeros(q.shape[:-1] + (1,))], -1)
        return _plucker(E, r)

    def motion_subspace(self, q):
        return _broadcast_constant(self._S, q)

    def q_dot(self, q, qd):
        xy = (self._rotation_2d(q[..., 0]) @ qd[..., 1:3, None])[..., 0]
        return _concat(qd[..., :1], xy)

    def integrate(self, q, v, dt):
        step = np.asarray(dt)[..., None] * v
        local = (self._exp_translation(step[..., 0]) @ step[..., 1:3, None])[..., 0]
        xy = q[..., 1:3] + (self._rotation_2d(q[..., 0]) @ local[..., None])[..., 0]
        return _concat(q[..., :1] + step[..., :1], xy)

    def difference(self, q0, q1):
        turn = q1[..., 0] - q0[..., 0]
        local = (
            np.swapaxes(self._rotation_2d(q0[..., 0]), -1, -2)
            @ (q1[..., 1:3] - q0[..., 1:3])[..., None]
        )
        uv = (self._exp_translation(turn, inverse=True) @ local)[..., 0]
        return np.concatenate([turn[..., None], uv], -1)

    def random_configuration(self, rng, shape=()):
        shape = tuple(shape)
        return np.concatenate(
            [rng.uniform(-np.pi, np.pi, size=shape + (1,)), rng.uniform(-1, 1, size=shape + (2,))],
            -1,
        )


class SphericalYPR(Joint):
    """Spherical joint parameterized by yaw, pitch and roll angles (Featherstone eq. 4.7–4.9).

    ``q = [q₁, q₂, q₃]``: F_s is rotated about its z axis by ``q₁`` (yaw), then about its new
    y axis by ``q₂`` (pitch), then about its new x axis by ``q₃`` (roll), so
    ``E = rx(q₃) ry(q₂) rz(q₁)`` (eq. 4.7) and ``X_J = rot(E)``.  Velocity variables are
    ``α = q̇``.  The columns of ``S`` (eq. 4.8) are the three rotation axes in F_s
    coordinates; ``S`` depends on ``q`` and ``c_J = (∂S/∂q q̇) q̇`` (eq. 4.9, eq. 3.42).

    At ``cos q₂ = 0`` (pitch ±90°) the first and third axes align, ``S`` loses rank and the
    joint-space inertia becomes singular (eq. 4.8).  :meth:`check_q` therefore raises
    ``ValueError`` when ``|cos q₂| < singularity_tol``.  Near (but not at) the singularity the
    numbers stay correct but ill-conditioned (condition number of ``S`` about ``1/|cos q₂|``).

    Parameters
    ----------
    singularity_tol : float
        Threshold on ``|cos q₂|`` below which a configuration is rejected (default 1e-6).
    """

    nq = 3
    nv = 3

    def __init__(self, singularity_tol: float = 1e-6):
        self.singularity_tol = _finite_scalar(singularity_tol, "singularity_tol")
        if self.singularity_tol < 0:
            raise ValueError(f"singularity_tol must be ≥ 0, got {singularity_tol!r}")

    def transform(self, q):
        return _rotation_transform(_E["X"](q[..., 2]) @ _E["Y"](q[..., 1]) @ _E["Z"](q[..., 0]))

    def motion_subspace(self, q):
        c2, s2 = np.cos(q[..., 1]), np.sin(q[..., 1])
        c3, s3 = np.cos(q[..., 2]), np.sin(q[..., 2])
        S = np.zeros(q.shape[:-1] + (6, 3), np.result_type(q, float))
        S[..., 0, 0], S[..., 1, 0], S[..., 2, 0] = -s2, c2 * s3, c2 * c3
        S[..., 1, 1], S[..., 2, 1] = c3, -s3
        S[..., 0, 2] = 1.0
        return S

    def bias(self, q, qd):
        c2, s2 = np.cos(q[..., 1]), np.sin(q[..., 1])
        c3, s3 = np.cos(q[..., 2]), np.sin(q[..., 2])
        d1, d2, d3 = qd[..., 0], qd[..., 1], qd[..., 2]
        c = np.zeros(_batch_shape(q, qd) + (6,), np.result_type(q, qd, float))
        # eq. 4.9: c_J = (dS/dt) q̇, the columns of dS/dt times q̇₁ and q̇₂
        c[..., 0] = -c2 * d2 * d1
        c[..., 1] = (-s2 * s3 * d2 + c2 * c3 * d3) * d1 - s3 * d3 * d2
        c[..., 2] = (-s2 * c3 * d2 - c2 * s3 * d3) * d1 - c3 * d3 * d2
        return c

    def random_configuration(self, rng, shape=()):
        q = rng.uniform(-np.pi, np.pi, size=tuple(shape) + (3,))
        q[..., 1] = rng.uniform(-0.45 * np.pi, 0.45 * np.pi, size=tuple(shape))
        return q

    def check_q(self, q, name="q"):
        worst = np.abs(np.cos(np.asarray(q)[..., 1])).min(initial=np.inf)
        if worst < self.singularity_tol:
            raise ValueError(
                f"{name} is at the yaw-pitch-roll singularity: |cos(pitch)| = {worst:.3g} < "
                f"{self.singularity_tol:g} (Featherstone §4.5); use the quaternion Spherical joint"
            )

    def __repr__(self) -> str:
        return f"SphericalYPR(singularity_tol={self.singularity_tol!r})"
