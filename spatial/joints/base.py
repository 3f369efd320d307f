"""The joint library: one definition per joint type, read by every formulation.

A joint connects a predecessor frame F_p to a successor frame F_s.  Its model gives, as functions
of the position variables ``q`` (``nq`` of them) and velocity variables ``α`` (``nv`` of them;
``α = q̇`` unless the joint says otherwise):

* the joint transform ``X_J = X_sp`` (successor from predecessor),
* the motion subspace ``S`` (6 x nv) with ``v_J = S α``,
* the velocity-product term ``c_J = S̊ α`` (the acceleration of F_s relative to F_p when
  ``α̇ = 0``),

all in F_s coordinates (Featherstone §4.4, Table 4.1; ``jcalc``).  Joints whose position
variables are not integrals of their velocity variables (quaternions, ``nq != nv``, and
:class:`Planar`/:class:`Free`, whose velocities are in F_s but positions in F_p) also supply
``q_dot``, ``integrate`` and ``difference`` so that integrators never add a velocity to a
quaternion (Featherstone §4.5, Example 4.5).

The library: :class:`Revolute`, :class:`Prismatic`, :class:`Helical`, :class:`Cylindrical`,
:class:`Planar`, :class:`Spherical` (quaternion) and :class:`Free` (Table 4.1),
:class:`SphericalYPR` (eqs. 4.7–4.9), :class:`RackPinion` (Example 4.6), :class:`Fixed`
(Sueda §2.4.1) and :class:`Reversed`, any joint with opposite polarity (Table 4.2).  Each
joint also gives its constraint-force subspace ``T`` (eq. 3.36) for loop closure.

Every method takes leading batch dimensions: ``q`` of shape ``(..., nq)`` gives ``X_J`` of shape
``(..., 6, 6)`` and ``S`` of shape ``(..., 6, nv)``.  Methods assume their inputs have been
checked by the caller (:meth:`Joint.check_q` / the Model); they do no validation of their own so
that the recursive algorithms stay fast.
"""

from __future__ import annotations

import numpy as np

from .._validate import as_array
from ..rotations import (
    quat_conjugate,
    quat_from_rotvec,
    quat_multiply,
    quat_normalize,
    quat_rate,
    quat_to_matrix,
    quat_to_rotvec,
    require_unit_quaternion,
)
from ..se3 import _so3_left_jacobian, _so3_left_jacobian_inverse
from ..vectors import inv_motion, rx, ry, rz, skew, xinv

__all__ = [
    "Joint",
    "Revolute",
    "Prismatic",
    "Fixed",
    "Helical",
    "Cylindrical",
    "Planar",
    "SphericalYPR",
    "Spherical",
    "Free",
    "RackPinion",
    "Reversed",
    "axis_vector",
]

_NAMED_AXES = {"x": (1.0, 0.0, 0.0), "y": (0.0, 1.0, 0.0), "z": (0.0, 0.0, 1.0)}


def axis_vector(axis) -> np.ndarray:
    """Return a unit 3-vector from ``"x"``, ``"y"``, ``"z"`` (or ``"-x"`` …) or a vector.

    Raises
    ------
    ValueError
        If ``axis`` is an unknown name, not a 3-vector, or not of unit length (to 1e-9).
    """
    if isinstance(axis, str):
        sign, name = (-1.0, axis[1:]) if axis.startswith("-") else (1.0, axis)
        if name not in _NAMED_AXES:
            raise ValueError(
                f"axis must be 'x', 'y', 'z' (optionally '-x' …) or a 3-vector, got {axis!r}"
            )
        return sign * np.array(_NAMED_AXES[name])
    a = as_array(axis, "axis", (3,))
    if a.ndim != 1:
        raise ValueError(f"axis must be a single 3-vector, got shape {a.shape}")
    if abs(np.linalg.norm(a) - 1.0) > 1e-9:
        raise ValueError(f"axis must be a unit vector, got norm {np.linalg.norm(a):.6g}")
    return a


def _finite_scalar(x, name: str) -> float:
    """``x`` as a Python float; ``ValueError`` unless it is a single finite number."""
    a = np.asarray(x, dtype=float)
    if a.shape != () or not np.isfinite(a):
        raise ValueError(f"{name} must be a finite number, got {x!r}")
    return float(a)


def _concat(*parts: np.ndarray) -> np.ndarray:
    """Concatenate along the last axis after broadcasting the leading (batch) dimensions."""
    batch = np.broadcast_shapes(*(p.shape[:-1] for p in parts))
    return np.concatenate([np.broadcast_to(p, batch + p.shape[-1:]) for p in parts], -1)


def _batch_shape(q: np.ndarray, qd: np.ndarray) -> tuple:
    """The broadcast batch shape of ``q`` (..., nq) and ``qd`` (..., nv)."""
    if q.ndim == 1 and qd.ndim == 1:  # the common unbatched call, without the general rule
        return ()
    return np.broadcast_shapes(q.shape[:-1], qd.shape[:-1])


def _broadcast_constant(A: np.ndarray, q: np.ndarray) -> np.ndarray:
    """A constant matrix ``A`` broadcast to the batch shape of ``q`` (..., nq), read-only."""
    if q.ndim == 1:
        A = A.view()
        A.flags.writeable = False
        return A
    return np.broadcast_to(A, q.shape[:-1] + A.shape)


def _axis_rotation(a: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Coordinate rotation ``E`` (…, 3, 3) for a frame rotated by ``q`` about the unit axis ``a``.

    ``E = Rᵀ`` where ``R = cos q·1 + sin q·[a]× + (1 − cos q)·a aᵀ`` is the active rotation;
    for ``a = e_z`` this is the book's ``rz(q)``.
    """
    c, s = np.cos(q)[..., None, None], np.sin(q)[..., None, None]
    ax = np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])
    return c * np.eye(3) - s * ax + (1.0 - c) * np.outer(a, a)


def _rotation_transform(E: np.ndarray) -> np.ndarray:
    """``rot(E)`` without validation (Featherstone Table 2.2)."""
    X = np.zeros(E.shape[:-2] + (6, 6))
    X[..., :3, :3] = E
    X[..., 3:, 3:] = E
    return X


def _plucker(E: np.ndarray, r: np.ndarray) -> np.ndarray:
    """``rot(E) xlt(r) = [[E, 0], [-E r×, E]]`` without validation (Featherstone eq. 2.24).

    ``E`` (..., 3, 3) and ``r`` (..., 3) broadcast against each other.
    """
    E, r = np.asarray(E), np.asarray(r)
    shape = np.broadcast_shapes(E.shape[:-2], r.shape[:-1])
    X = np.zeros(shape + (6, 6))
    X[..., :3, :3] = E
    X[..., 3:, 3:] = E
    X[..., 3:, :3] = -E @ skew(r)
    return X


class Joint:
    """Base class of every joint model (Featherstone §4.4, ``jcalc``).

    Subclasses set ``nq`` and ``nv`` and implement :meth:`transform` and
    :meth:`motion_subspace`; joints whose ``S`` depends on ``q`` also implement :meth:`bias`,
    and joints whose velocity variables are not ``q̇`` implement :meth:`q_dot`,
    :meth:`integrate`, :meth:`difference` (and :meth:`neutral` if the zero position is not
    ``q = 0``).

    Attributes
    ----------
    nq : int
        Number of position variables.
    nv : int
        Number of velocity variables (degrees of freedom).
    """

    nq: int = 0
    nv: int = 0

    # --- the joint model -------------------------------------------------------------------

    def transform(self, q: np.ndarray) -> np.ndarray:
        """Joint transform ``X_J = X_sp``, shape (..., 6, 6), from ``q`` of shape (..., nq)."""
        raise NotImplementedError

    def motion_subspace(self, q: np.ndarray) -> np.ndarray:
        """Motion subspace ``S`` in F_s coordinates, shape (..., 6, nv)."""
        raise NotImplementedError

    def bias(self, q: np.ndarray, qd: np.ndarray) -> np.ndarray:
        """Velocity-product term ``c_J = S̊ α`` (..., 6); zero for joints with constant ``S``."""
        return np.zeros(_batch_shape(q, qd) + (6,))

    def constraint_subspace(self, q: np.ndarray) -> np.ndarray:
        """Constraint-force subspace ``T`` in F_s coordinates, shape (..., 6, 6 - nv).

        Any matrix with ``Tᵀ S = 0`` and full column rank spans the forces the joint can
        transmit without doing work on its motion (Featherstone eq. 3.36, Table 4.1's last
        column).  This default takes the left singular vectors of ``S`` beyond its ``nv``
        columns, so ``T`` is orthonormal (in the Euclidean sense); it spans the same subspace
        as the book's ``T`` but its columns may differ.
        """
        U = np.linalg.svd(self.motion_subspace(q))[0]
        return U[..., :, self.nv :]

    def jcalc(self, q: np.ndarray, qd: np.ndarray):
        """Return ``(X_J, S, v_J, c_J)`` in one call, as the book's ``jcalc`` (§4.4).

        Parameters
        ----------
        q : ndarray, shape (..., nq)
        qd : ndarray, shape (..., nv)
            Velocity variables ``α``.

        Returns
        -------
        X_J : (..., 6, 6)
        S : (..., 6, nv)
        v_J : (..., 6)
        c_J : (..., 6)
        """
        S = self.motion_subspace(q)
        v_J = (S @ qd[..., None])[..., 0]
        return self.transform(q), S, v_J, self.bias(q, qd)

    # --- configuration space ----------------------------------------------------------------

    def neutral(self) -> np.ndarray:
        """The zero configuration, shape (nq,): F_s coincides with F_p."""
        return np.zeros(self.nq)

    def q_dot(self, q: np.ndarray, qd: np.ndarray) -> np.ndarray:
        """Derivative of the position variables from the velocity variables (eq. 3.7's qdfn)."""
        return qd

    def integrate(self, q: np.ndarray, v: np.ndarray, dt) -> np.ndarray:
        """Position reached from ``q`` moving with constant velocity variables ``v`` for ``dt``."""
        return q + np.asarray(dt)[..., None] * v

    def difference(self, q0: np.ndarray, q1: np.ndarray) -> np.ndarray:
        """Velocity variables ``v`` with ``integrate(q0, v, 1) == q1``."""
        return q1 - q0

    def random_configuration(self, rng: np.random.Generator, shape: tuple = ()) -> np.ndarray:
        """A random valid configuration, shape ``shape + (nq,)`` (for tests and demos)."""
        return rng.uniform(-np.pi, np.pi, size=tuple(shape) + (self.nq,))

    def check_q(self, q: np.ndarray, name: str = "q") -> None:
        """Raise ``ValueError`` if ``q`` is not a valid configuration (e.g. non-unit quaternion)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class Revolute(Joint):
    """Revolute (hinge) joint about a fixed axis through the frame origin (Table 4.1, row 1).

    ``X_J = rot(E(q))`` with ``E`` the coordinate rotation about ``axis`` (``rz(q)`` for
    ``axis="z"``); ``S = [a; 0]``, ``c_J = 0``.

    Parameters
    ----------
    axis : {"x", "y", "z"} or array_like, shape (3,)
        Unit rotation axis, the same in F_p and F_s.
    """

    nq = 1
    nv = 1

    def __init__(self, axis="z"):
        self.axis = axis_vector(axis)
        self._S = np.concatenate([self.axis, np.zeros(3)])[:, None]
        # E(q) = cos q (1 - a aᵀ) - sin q [a]× + a aᵀ (see _axis_rotation), so rot(E(q)) is
        # cos q · X_cos + sin q · X_sin + X_one with constant 6x6 matrices
        E0, E90 = _axis_rotation(self.axis, np.array(0.0)), _axis_rotation(self.axis, np.pi / 2)
        aa = np.outer(self.axis, self.axis)
        self._X_cos_sin = _rotation_transform(np.stack([E0 - aa, E90 - aa])).reshape(2, 36)
        self._X_one = _rotation_transform(aa)

    def transform(self, q):
        cos_sin = np.concatenate([np.cos(q), np.sin(q)], -1)  # (..., 2): one product for a batch
        return (cos_sin @ self._X_cos_sin).reshape(q.shape[:-1] + (6, 6)) + self._X_one

    def motion_subspace(self, q):
        return _broadcast_constant(self._S, q)

    def __repr__(self) -> str:
        return f"Revolute(axis={self.axis.tolist()})"


class Prismatic(Joint):
    """Prismatic (sliding) joint along a fixed axis (Table 4.1, row 2).

    ``X_J = xlt(a q)``; ``S = [0; a]``, ``c_J = 0``.

    Parameters
    ----------
    axis : {"x", "y", "z"} or array_like, shape (3,)
        Unit translation axis.
    """

    nq = 1
    nv = 1

    def __init__(self, axis="z"):
        self.axis = axis_vector(axis)
        self._S = np.concatenate([np.zeros(3), self.axis])[:, None]
        self._X_rate = _plucker(np.eye(3), self.axis) - np.eye(6)

    def transform(self, q):
        # xlt(a q) = 1 + q (xlt(a) - 1): linear in q
        return (q @ self._X_rate.reshape(1, 36)).reshape(q.shape[:-1] + (6, 6)) + np.eye(6)

    def motion_subspace(self, q):
        return _broadcast_constant(self._S, q)

    def random_configuration(self, rng, shape=()):
        return rng.uniform(-1.0, 1.0, size=tuple(shape) + (1,))

    def __repr__(self) -> str:
        return f"Prismatic(axis={self.axis.tolist()})"


class Fixed(Joint):
    """Fixed joint: no motion, ``X_J = 1``, ``S`` is 6 x 0 (Sueda §2.4.1)."""

    nq = 0
    nv = 0

    def transform(self, q):
        return np.broadcast_to(np.eye(6), q.shape[:-1] + (6, 6)).copy()

    def motion_subspace(self, q):
        return np.zeros(q.shape[:-1] + (6, 0))


class Helical(Joint):
    """Helical (screw) joint: rotation by ``q`` about an axis with translation ``h q`` along it.

    Table 4.1, row 3: ``X_J = rot(E(q)) xlt(h q a)`` (the rotation and the translation commute
    because they share the axis); ``S = [a; h a]``, ``c_J = 0``.  ``h = 0`` is a revolute
    joint.

    Parameters
    ----------
    axis : {"x", "y", "z"} or array_like, shape (3,)
        Unit screw axis ``a``.
    pitch : float
        ``h``, translation per radian of rotation (m/rad).

    Raises
    ------
    ValueError
        If the axis is invalid or the pitch is not a finite number.
    """

    nq = 1
    nv = 1

    def __init__(self, axis="z", pitch: float = 0.0):
        self.axis = axis_vector(axis)
        self.pitch = _finite_scalar(pitch, "pitch")
        self._S = np.concatenate([self.axis, self.pitch * self.axis])[:, None]

    def transform(self, q):
        return _plucker(_axis_rotation(self.axis, q[..., 0]), self.pitch * self.axis * q)

    def motion_subspace(self, q):
        return _broadcast_constant(self._S, q)

    def __repr__(self) -> str:
        return f"Helical(axis={self.axis.tolist()}, pitch={self.pitch!r})"


class Cylindrical(Joint):
    """Cylindrical joint: rotation ``q[0]`` about and translation ``q[1]`` along one axis.

    Table 4.1, row 4: ``X_J = rot(E(q₁)) xlt(q₂ a)``; ``S = [[a, 0], [0, a]]``, ``c_J = 0``.

    Parameters
    ----------
    axis : {"x", "y", "z"} or array_like, shape (3,)
        Unit axis ``a``.
    """

    nq = 2
    nv = 2

    def __init__(self, axis="z"):
        self.axis = axis_vector(axis)
        self._S = np.zeros((6, 2))
        self._S[:3, 0] = self.axis
        self._S[3:, 1] = self.axis

    def transform(self, q):
        return _plucker(_axis_rotation(self.axis, q[..., 0]), self.axis * q[..., 1:2])

    def motion_subspace(self, q):
        return _broadcast_constant(self._S, q)

    def random_configuration(self, rng, shape=()):
        shape = tuple(shape)
        return np.stack(
            [rng.uniform(-np.pi, np.pi, size=shape), rng.uniform(-1.0, 1.0, size=shape)], -1
        )

    def __repr__(self) -> str:
        return f"Cylindrical(axis={self.axis.tolist()})"


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
        return _rotation_transform(rx(q[..., 2]) @ ry(q[..., 1]) @ rz(q[..., 0]))

    def motion_subspace(self, q):
        c2, s2 = np.cos(q[..., 1]), np.sin(q[..., 1])
        c3, s3 = np.cos(q[..., 2]), np.sin(q[..., 2])
        S = np.zeros(q.shape[:-1] + (6, 3))
        S[..., 0, 0], S[..., 1, 0], S[..., 2, 0] = -s2, c2 * s3, c2 * c3
        S[..., 1, 1], S[..., 2, 1] = c3, -s3
        S[..., 0, 2] = 1.0
        return S

    def bias(self, q, qd):
        c2, s2 = np.cos(q[..., 1]), np.sin(q[..., 1])
        c3, s3 = np.cos(q[..., 2]), np.sin(q[..., 2])
        d1, d2, d3 = qd[..., 0], qd[..., 1], qd[..., 2]
        c = np.zeros(_batch_shape(q, qd) + (6,))
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
        return _rotation_transform(np.swapaxes(quat_to_matrix(q), -1, -2))

    def motion_subspace(self, q):
        return _broadcast_constant(self._S, q)

    def neutral(self):
        return np.array([1.0, 0.0, 0.0, 0.0])

    def q_dot(self, q, qd):
        return quat_rate(q, qd, frame="body")

    def integrate(self, q, v, dt):
        return quat_multiply(q, quat_from_rotvec(np.asarray(dt)[..., None] * v))

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
        return _plucker(np.swapaxes(quat_to_matrix(q[..., :4]), -1, -2), q[..., 4:])

    def motion_subspace(self, q):
        return np.broadcast_to(np.eye(6), q.shape[:-1] + (6, 6))

    def neutral(self):
        return np.array([1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])

    def q_dot(self, q, qd):
        p_dot = (quat_to_matrix(q[..., :4]) @ qd[..., 3:, None])[..., 0]
        return _concat(quat_rate(q[..., :4], qd[..., :3]), p_dot)

    def integrate(self, q, v, dt):
        step = np.asarray(dt)[..., None] * v
        quat = quat_multiply(q[..., :4], quat_from_rotvec(step[..., :3]))
        local = (_so3_left_jacobian(step[..., :3]) @ step[..., 3:, None])[..., 0]
        p = q[..., 4:] + (quat_to_matrix(q[..., :4]) @ local[..., None])[..., 0]
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


class RackPinion(Joint):
    """Rack-and-pinion joint (Featherstone Example 4.6).

    The rack is fixed in the predecessor along the x axis of F_p (on the line ``y = r``); the
    pinion of radius ``r`` belongs to the successor and turns about the z axis of F_s.  The
    single variable ``q`` is the pinion's angle; rolling without slip moves F_s by ``r q``
    along x: ``X_J = rot(rz(q)) xlt([r q, 0, 0])``,
    ``S = [0, 0, 1, r cos q, -r sin q, 0]ᵀ`` and
    ``c_J = (∂S/∂q) q̇² = [0, 0, 0, -r sin q, -r cos q, 0]ᵀ q̇²``.  With ``r = 0`` it is a
    revolute joint about z.  The joint is asymmetric: use :class:`Reversed` when the rack is on
    the child body.

    Parameters
    ----------
    radius : float
        Pinion radius ``r ≥ 0``.

    Raises
    ------
    ValueError
        If ``radius`` is negative or not finite.
    """

    nq = 1
    nv = 1

    def __init__(self, radius: float = 1.0):
        self.radius = _finite_scalar(radius, "radius")
        if self.radius < 0:
            raise ValueError(f"radius must be ≥ 0, got {radius!r}")

    def transform(self, q):
        r = np.zeros(q.shape[:-1] + (3,))
        r[..., 0] = self.radius * q[..., 0]
        return _plucker(_axis_rotation(np.array([0.0, 0.0, 1.0]), q[..., 0]), r)

    def motion_subspace(self, q):
        S = np.zeros(q.shape[:-1] + (6, 1))
        S[..., 2, 0] = 1.0
        S[..., 3, 0] = self.radius * np.cos(q[..., 0])
        S[..., 4, 0] = -self.radius * np.sin(q[..., 0])
        return S

    def bias(self, q, qd):
        c = np.zeros(_batch_shape(q, qd) + (6,))
        w2 = qd[..., 0] ** 2
        c[..., 3] = -self.radius * np.sin(q[..., 0]) * w2
        c[..., 4] = -self.radius * np.cos(q[..., 0]) * w2
        return c

    def __repr__(self) -> str:
        return f"RackPinion(radius={self.radius!r})"


class Reversed(Joint):
    """A joint used with opposite polarity: predecessor and successor swapped (Table 4.2).

    For a tree joint whose physical predecessor is the child body (e.g. the rack of a
    :class:`RackPinion` on the child), ``Reversed(joint)`` lets the algorithms still treat it as
    a forward joint.  With ``X = X_J`` of the wrapped joint: ``X_J' = X⁻¹``, ``S' = -X⁻¹ S``,
    ``v_J' = -X⁻¹ v_J``, ``c_J' = -X⁻¹ c_J``, ``T' = -Xᵀ T`` (force transform) and the same
    position and velocity variables (``q̇`` unchanged).  ``c_J' = -X⁻¹ c_J`` holds because the
    extra term ``-(d/dt X⁻¹) S α = -X⁻¹ (v_J × v_J)`` vanishes.
    ``Reversed(Reversed(j))`` behaves as ``j``.

    Parameters
    ----------
    joint : Joint
        The joint model written for the opposite polarity.

    Raises
    ------
    ValueError
        If ``joint`` is not a :class:`Joint`.
    """

    def __init__(self, joint: Joint):
        if not isinstance(joint, Joint):
            raise ValueError(f"joint must be a spatial.joints.Joint, got {joint!r}")
        self.joint = joint
        self.nq = joint.nq
        self.nv = joint.nv

    def transform(self, q):
        return xinv(self.joint.transform(q))

    def motion_subspace(self, q):
        return -xinv(self.joint.transform(q)) @ self.joint.motion_subspace(q)

    def bias(self, q, qd):
        return -inv_motion(self.joint.transform(q), self.joint.bias(q, qd))

    def jcalc(self, q, qd):
        X, S, v_J, c_J = self.joint.jcalc(q, qd)
        Xinv = xinv(X)
        return Xinv, -Xinv @ S, -inv_motion(X, v_J), -inv_motion(X, c_J)

    def constraint_subspace(self, q):
        X = self.joint.transform(q)
        return -np.swapaxes(X, -1, -2) @ self.joint.constraint_subspace(q)

    def neutral(self):
        return self.joint.neutral()

    def q_dot(self, q, qd):
        return self.joint.q_dot(q, qd)

    def integrate(self, q, v, dt):
        return self.joint.integrate(q, v, dt)

    def difference(self, q0, q1):
        return self.joint.difference(q0, q1)

    def random_configuration(self, rng, shape=()):
        return self.joint.random_configuration(rng, shape)

    def check_q(self, q, name="q"):
        self.joint.check_q(q, name)

    def __repr__(self) -> str:
        return f"Reversed({self.joint!r})"
