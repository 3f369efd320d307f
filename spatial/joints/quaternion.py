"""Joints with unit-quaternion position variables: spherical and free (Featherstone §4.5).

Euler angles always hit a singularity somewhere; a unit quaternion ``q = (w, x, y, z)`` (scalar
first, eq. 4.10) describes every orientation smoothly, at the price of a fourth number and the
constraint ``|q| = 1``.  §4.5 therefore takes the quaternion as position variables and the
angular velocity ``ω`` in F_s coordinates as velocity variables, so ``nq = nv + 1``:

* :class:`Spherical` (Table 4.1 row 6): ``X_J = rot(E)`` with ``E`` from eq. 4.12,
  ``S = [1₃; 0]`` and ``q̇ = ½ q (0, ω)`` (eq. 4.13);
* :class:`Free` (the 6-DoF joint of Table 4.1's last row, with Example 4.5's position
  variables): quaternion plus the position of F_s's origin in F_p, velocity variables the full
  spatial velocity in F_s, so ``S = 1₆``.

Because ``α ≠ q̇``, each joint integrates and differences its configuration on the rotation
group (through the exponential and logarithm maps), so a unit quaternion stays unit.
"""

from __future__ import annotations

import numpy as np

from .._batched import plux as _plucker  # rot(E) xlt(r), unvalidated (eq. 2.24)
from .._batched import rot as _rotation_transform  # rot(E), unvalidated (Table 2.2)
from ..rotations import (
    quat_conjugate,
    quat_multiply,
    quat_normalize,
    quat_rate,
    quat_to_matrix,
    quat_to_rotvec,
    require_unit_quaternion,
)
from ..rotations.quaternions import (  # unvalidated: q is checked by the model
    _quat_from_rotvec,
    _quat_matrix,
    _quat_multiply,
)
from ..se3 import _so3_left_jacobian, _so3_left_jacobian_inverse
from .base import Joint, _broadcast_constant, _concat

__all__ = ["Spherical", "Free"]


class Spherical(Joint):
    """Spherical (ball-and-socket) joint with a unit quaternion as position variables (§4.5).

    ``q = (w, x, y, z)`` (scalar first) is the orientation of F_s relative to F_p: its active
    rotation ``R`` (:func:`spatial.rotations.quat_to_matrix`) maps F_s coordinates to F_p
    coordinates, so ``E = Rᵀ`` (eq. 4.12) and ``X_J = rot(E)``.  Velocity variables are the
    angular velocity ``ω`` in F_s coordinates: ``S = [1₃; 0]`` (Table 4.1), ``c_J = 0``, and
    ``q̇ = ½ q ⊗ (0, ω)`` (eq. 4.13).  ``nq = 4``, ``nv = 3``.

    :meth:`integrate` multiplies by the exponential of the rotation vector ``ω dt``, so a unit
    quaternion stays unit; :meth:`difference` is its inverse through the logarithm, returning
    the shortest rotation (``|ω| ≤ π``), so ``integrate(q0, difference(q0, q1), 1)`` equals
    ``q1`` up to the sign of the quaternion (``q`` and ``-q`` are the same rotation).
    :meth:`check_q` raises ``ValueError`` if ``| |q| - 1 | > 1e-6``.  (Sueda §2.4.5 and §2.4.8
    discuss the 3-parameter alternatives: Euler angles and exponential coordinates.)
    """

    nq = 4
    nv = 3

    _S = np.vstack([np.eye(3), np.zeros((3, 3))])

    def transform(self, q):
        return _rotation_transform(np.swapaxes(_quat_matrix(q), -1, -2))

    def motion_subspace(self, q):
        return _broadcast_constant(self._S, q)

    def neutral(self):
        return np.array([1.0, 0.0, 0.0, 0.0])

    def q_dot(self, q, qd):
        return quat_rate(q, qd, frame="body")

    def integrate(self, q, v, dt):
        # q and v are checked by the model (as for transform): the unvalidated products
        return _quat_multiply(q, _quat_from_rotvec(np.asarray(dt)[..., None] * v))

    def difference(self, q0, q1):
        return quat_to_rotvec(quat_multiply(quat_conjugate(q0), q1))

    def random_configuration(self, rng, shape=()):
        return quat_normalize(rng.standard_normal(tuple(shape) + (4,)))

    def check_q(self, q, name="q"):
        require_unit_quaternion(q, name)


class Free(Joint):
    """6-DoF joint (free motion): Table 4.1's last row with Example 4.5's position variables.

    ``q = [w, x, y, z, p_x, p_y, p_z]``: the unit quaternion (scalar first) of F_s's orientation
    relative to F_p, then the position ``p`` of F_s's origin in F_p coordinates (``nq = 7``).
    Velocity variables ``α = [ω; v_O]`` are F_s's spatial velocity relative to F_p in F_s
    coordinates (``nv = 6``), so ``S = 1₆`` and ``c_J = 0``.  With ``R`` the quaternion's active
    rotation and ``E = Rᵀ``: ``X_J = rot(E) xlt(p)``, ``q̇ = [½ q ⊗ (0, ω); R v_O]``.

    :meth:`integrate` follows the rigid motion with constant body twist ``α`` (the exponential
    map of SE(3), Sueda eq. 1.10): ``R ← R exp(ω dt)``, ``p ← p + R V(ω dt) v_O dt``;
    :meth:`difference` is its inverse through the logarithm (shortest rotation, ``|ω| ≤ π``).
    :meth:`check_q` raises ``ValueError`` if the quaternion is not unit (tolerance 1e-6).
    (Sueda §2.4.11 composes a spherical and a translational joint instead, with the
    translation rate as velocity variables, which makes ``S`` depend on ``q``, eq. 2.58.)
    """

    nq = 7
    nv = 6

    def transform(self, q):
        return _plucker(np.swapaxes(_quat_matrix(q[..., :4]), -1, -2), q[..., 4:])

    def motion_subspace(self, q):
        return np.broadcast_to(np.eye(6), q.shape[:-1] + (6, 6))

    def neutral(self):
        return np.array([1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])

    def q_dot(self, q, qd):
        p_dot = (quat_to_matrix(q[..., :4]) @ qd[..., 3:, None])[..., 0]
        return _concat(quat_rate(q[..., :4], qd[..., :3]), p_dot)

    def integrate(self, q, v, dt):
        step = np.asarray(dt)[..., None] * v
        quat = _quat_multiply(q[..., :4], _quat_from_rotvec(step[..., :3]))
        local = (_so3_left_jacobian(step[..., :3]) @ step[..., 3:, None])[..., 0]
        p = q[..., 4:] + (_quat_matrix(q[..., :4]) @ local[..., None])[..., 0]
        return _concat(quat, p)

    def difference(self, q0, q1):
        w = quat_to_rotvec(quat_multiply(quat_conjugate(q0[..., :4]), q1[..., :4]))
        local = (
            np.swapaxes(quat_to_matrix(q0[..., :4]), -1, -2)
            @ (q1[..., 4:] - q0[..., 4:])[..., None]
        )
        return np.concatenate([w, (_so3_left_jacobian_inverse(w) @ local)[..., 0]], -1)

    def random_configuration(self, rng, shape=()):
        shape = tuple(shape)
        quat = quat_normalize(rng.standard_normal(shape + (4,)))
        return np.concatenate([quat, rng.uniform(-1.0, 1.0, size=shape + (3,))], -1)

    def check_q(self, q, name="q"):
        require_unit_quaternion(q[..., :4], f"{name} (quaternion part)")
