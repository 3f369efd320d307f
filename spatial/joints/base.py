"""The joint interface: what every joint model provides (Featherstone §4.4, ``jcalc``).

A joint constrains the motion of a frame F_s on its successor body relative to a frame F_p on
its predecessor (§4.4).  Its model turns the joint's position variables ``q`` (``nq`` of them)
and velocity variables ``α`` (``nv`` of them; ``α = q̇`` unless the joint says otherwise) into
the quantities the algorithms need, all in F_s coordinates:

* the joint transform ``X_J = X_sp`` (successor from predecessor), :meth:`Joint.transform`;
* the motion subspace ``S`` (6 x nv) with joint velocity ``v_J = S α``,
  :meth:`Joint.motion_subspace`;
* the velocity-product term ``c_J = S̊ α``, the acceleration of F_s relative to F_p when
  ``α̇ = 0`` (eq. 3.42), :meth:`Joint.bias`;
* for loop joints, the constraint-force subspace ``T`` with ``Tᵀ S = 0`` (eq. 3.36),
  :meth:`Joint.constraint_subspace`.

The book lets one routine, ``jcalc``, return ``X_J, S, v_J, c_J`` in a single call;
:meth:`Joint.jcalc` is that routine.  Joints whose position variables are not integrals of their
velocity variables (quaternions, ``nq != nv``, and joints whose velocities live in F_s while
their positions live in F_p, Example 4.5) also supply ``q_dot`` (the book's third use of
``jcalc``, for ``qdfn`` of eq. 3.7), ``integrate`` and ``difference``, so that integrators never
add a velocity to a quaternion.

Joints whose transform is a fixed linear combination of a few functions of ``q`` (``cos q``
and ``sin q`` for a revolute joint) say so with :meth:`Joint.transform_basis` and
:meth:`Joint.transform_features`; the model then folds the tree transform into those constants
once.

Every method takes leading batch dimensions: ``q`` of shape ``(..., nq)`` gives ``X_J`` of shape
``(..., 6, 6)`` and ``S`` of shape ``(..., 6, nv)``.  Methods trust their inputs, which the caller
has checked (:meth:`Joint.check_q` / the Model), so that the recursive algorithms stay fast.
:class:`Fixed`, the joint that allows no motion (Sueda §2.4.1), is the simplest implementation
of the interface.  The small helpers at the top are shared by the joint modules of this package.
"""

from __future__ import annotations

import numpy as np

from .._validate import as_array, real_array

__all__ = ["Joint", "Fixed", "axis_vector"]


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
    a = real_array(x, name)
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
    c, s = np.asarray(np.cos(q))[..., None, None], np.asarray(np.sin(q))[..., None, None]
    ax = np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])
    return c * np.eye(3) - s * ax + (1.0 - c) * np.outer(a, a)


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

    @property
    def constant_S(self) -> bool:
        """``True`` if ``S`` does not depend on ``q`` (the joint keeps the default ``c_J = 0``).

        The recursive algorithms then skip :meth:`bias` (eq. 3.42 with ``S̊ = 0``).
        """
        return type(self).bias is Joint.bias

    def transform_basis(self):
        """``(B, B_0)`` with ``X_J(q) = Σ_k f_k(q) B_k + B_0``, or ``None`` (the default).

        Joints whose transform is linear in a few fixed functions ``f(q)`` of their variables
        (:meth:`transform_features`; ``cos q`` and ``sin q`` for a revolute joint) return the
        constant matrices ``B`` (k, 6, 6) and ``B_0`` (6, 6).  The model then multiplies them by
        the tree transform once, so that ``^iX_λ(i) = X_J X_T(i)`` costs one small product per
        call (a precomputed constant structure, Featherstone §10.3 / App. A.5).
        """
        return None

    def transform_features(self, q: np.ndarray) -> np.ndarray:
        """The functions ``f(q)`` (..., k) of :meth:`transform_basis`."""
        raise NotImplementedError

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


class Fixed(Joint):
    """Fixed joint: no motion, ``X_J = 1``, ``S`` is 6 x 0 (Sueda §2.4.1)."""

    nq = 0
    nv = 0

    def transform(self, q):
        return np.broadcast_to(np.eye(6), q.shape[:-1] + (6, 6)).copy()

    def motion_subspace(self, q):
        return np.zeros(q.shape[:-1] + (6, 0))
