"""The joint library: one definition per joint type, read by every formulation.

A joint connects a predecessor frame F_p to a successor frame F_s.  Its model gives, as functions
of the position variables ``q`` (``nq`` of them) and velocity variables ``α`` (``nv`` of them;
``α = q̇`` unless the joint says otherwise):

* the joint transform ``X_J = X_sp`` (successor from predecessor),
* the motion subspace ``S`` (6 x nv) with ``v_J = S α``,
* the velocity-product term ``c_J = S̊ α`` (the acceleration of F_s relative to F_p when
  ``α̇ = 0``),

all in F_s coordinates (Featherstone §4.4, Table 4.1; ``jcalc``).  Joints whose position
variables are not integrals of their velocity variables (quaternions, ``nq != nv``) also supply
``q_dot``, ``integrate`` and ``difference`` so that integrators never add a velocity to a
quaternion (Featherstone §4.5).

Every method takes leading batch dimensions: ``q`` of shape ``(..., nq)`` gives ``X_J`` of shape
``(..., 6, 6)`` and ``S`` of shape ``(..., 6, nv)``.  Methods assume their inputs have been
checked by the caller (:meth:`Joint.check_q` / the Model); they do no validation of their own so
that the recursive algorithms stay fast.
"""

from __future__ import annotations

import numpy as np

from ._validate import as_array

__all__ = ["Joint", "Revolute", "Prismatic", "Fixed", "axis_vector"]

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


class Joint:
    """Base class of every joint model (Featherstone §4.4, ``jcalc``).

    Subclasses set ``nq`` and ``nv`` and implement :meth:`transform` and
    :meth:`motion_subspace`; joints whose ``S`` depends on ``q`` also implement :meth:`bias`,
    and joints with ``nq != nv`` implement :meth:`q_dot`, :meth:`integrate`,
    :meth:`difference` and :meth:`neutral`.

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
        shape = np.broadcast_shapes(q.shape[:-1], qd.shape[:-1])
        return np.zeros(shape + (6,))

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

    def transform(self, q):
        return _rotation_transform(_axis_rotation(self.axis, q[..., 0]))

    def motion_subspace(self, q):
        return np.broadcast_to(self._S, q.shape[:-1] + (6, 1))

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

    def transform(self, q):
        r = self.axis * q
        X = np.zeros(q.shape[:-1] + (6, 6))
        X[..., :3, :3] = np.eye(3)
        X[..., 3:, 3:] = np.eye(3)
        # -r× in the lower-left block (Featherstone Table 2.2, xlt)
        X[..., 3, 1], X[..., 3, 2] = r[..., 2], -r[..., 1]
        X[..., 4, 0], X[..., 4, 2] = -r[..., 2], r[..., 0]
        X[..., 5, 0], X[..., 5, 1] = r[..., 1], -r[..., 0]
        return X

    def motion_subspace(self, q):
        return np.broadcast_to(self._S, q.shape[:-1] + (6, 1))

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
