"""Joints that move along or about one axis: revolute, prismatic, helical, cylindrical (Table 4.1).

The first four rows of Featherstone's Table 4.1 share a fixed unit axis ``a``, the same in F_p
and F_s, and a constant motion subspace, so ``c_J = 0`` for all of them:

* :class:`Revolute` turns F_s by ``q`` about ``a``: ``X_J = rot(E(q))`` with ``E(q)`` the
  coordinate rotation about ``a`` (``rz(q)`` for the z axis), ``S = [a; 0]``;
* :class:`Prismatic` slides F_s by ``q`` along ``a``: ``X_J = xlt(a q)``, ``S = [0; a]``;
* :class:`Helical` does both at once with pitch ``h``, turning by ``q`` while sliding ``h q``:
  ``S = [a; h a]``; the rotation and the translation commute because they share the axis;
* :class:`Cylindrical` turns by ``q₁`` and slides by ``q₂`` independently, ``S = [[a, 0], [0, a]]``.

The table writes them for the z axis; any unit axis (or ``"x"``, ``"-y"``, ...) is accepted here.
"""

from __future__ import annotations

import numpy as np

from .._batched import plux as _plucker  # rot(E) xlt(r), unvalidated (eq. 2.24)
from .._batched import rot as _rotation_transform  # rot(E), unvalidated (Table 2.2)
from .base import (
    Joint,
    _axis_rotation,
    _broadcast_constant,
    _finite_scalar,
    axis_vector,
)

__all__ = ["Revolute", "Prismatic", "Helical", "Cylindrical"]


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
        # cos q · X_cos + sin q · X_sin + X_one with constant 6x6 matrices, written from the
        # formula: evaluating E at π/2 would leave cos(π/2) = 6e-17 where X_sin has zeros
        a = self.axis
        aa = np.outer(a, a)
        ax = np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])
        self._X_cos_sin = _rotation_transform(np.stack([np.eye(3) - aa, -ax])).reshape(2, 36)
        self._X_one = _rotation_transform(aa)

    def transform(self, q):
        cos_sin = self.transform_features(q)  # (..., 2): one product for a batch
        return (cos_sin @ self._X_cos_sin).reshape(q.shape[:-1] + (6, 6)) + self._X_one

    def transform_basis(self):
        return self._X_cos_sin.reshape(2, 6, 6), self._X_one

    def transform_features(self, q):
        return np.concatenate([np.cos(q), np.sin(q)], -1)

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

    def transform_basis(self):
        return self._X_rate[None], np.eye(6)

    def transform_features(self, q):
        return q

    def motion_subspace(self, q):
        return _broadcast_constant(self._S, q)

    def random_configuration(self, rng, shape=()):
        return rng.uniform(-1.0, 1.0, size=tuple(shape) + (1,))

    def __repr__(self) -> str:
        return f"Prismatic(axis={self.axis.tolist()})"


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
