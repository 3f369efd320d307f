"""Forces on a single body: viscous body damping and a constant directional point force.

Sueda §1.9.1 (damping) and §1.9.2 (directional point force, eqs. 1.31–1.34); the non-symmetric
stiffness of a constant world force is ArtiSynth §0.23.  Conventions: :mod:`spatial.forces.base`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import nonnegative_scalar
from .base import Force, _body_index, _point, _point_force_terms, _point_kinematics

__all__ = ["BodyDamping", "PointForce"]


@dataclass(frozen=True, eq=False)
class BodyDamping(Force):
    """Viscous damping of one body's twist, ``f = -d φ`` (Sueda §1.9.1).

    ``D = -d·1₆`` on the body's block (Sueda writes ``D = d·1`` with the opposite sign
    convention) and ``K = 0`` in body coordinates.  In world coordinates ``K`` is not zero:
    the same world twist means a different body twist once the body has turned.

    Parameters
    ----------
    body : int
        Index of the damped body.
    d : float
        Damping coefficient, >= 0.

    Raises
    ------
    ValueError
        If ``body`` is not a body index or ``d`` is negative.
    """

    body: int
    d: float

    def __post_init__(self) -> None:
        b = _body_index(self.body, "body")
        if b is None:
            raise ValueError("body must be a body index: the ground cannot be damped")
        object.__setattr__(self, "body", b)
        object.__setattr__(self, "d", nonnegative_scalar(self.d, "d"))

    @property
    def bodies(self) -> tuple[int, ...]:
        return (self.body,)

    def _terms(self, E, phi):
        n = E.shape[-3]
        s = slice(6 * self.body, 6 * self.body + 6)
        f = np.zeros(E.shape[:-3] + (6 * n,))
        f[..., s] = -self.d * phi[..., self.body, :]
        K = np.zeros(f.shape + (6 * n,))
        D = np.zeros_like(K)
        D[..., s, s] = -self.d * np.eye(6)
        return f, K, D


@dataclass(frozen=True, eq=False)
class PointForce(Force):
    """A constant world force pulling on a body-fixed point (Sueda §1.9.2).

    With Sueda's stiffness ``k`` and world direction ``a``, ``force = k a``.  The generalized
    force is ``Γᵀ Rᵀ force`` (eq. 1.31), the negative gradient of ``V = -forceᵀ x`` (eq. 1.32).
    Its exact stiffness ``[[ [r][Rᵀ force], 0 ], [ [Rᵀ force], 0 ]]`` (eq. 1.33) is not
    symmetric (ArtiSynth §0.23); ``D = 0``.

    Parameters
    ----------
    body : int
        Index of the body.
    point : array_like, shape (3,)
        Application point ``r`` in body coordinates.
    force : array_like, shape (3,)
        The force in world coordinates.

    Raises
    ------
    ValueError
        If ``body`` is not a body index or ``point``/``force`` are not finite 3-vectors.
    """

    body: int
    point: np.ndarray
    force: np.ndarray

    def __post_init__(self) -> None:
        b = _body_index(self.body, "body")
        if b is None:
            raise ValueError("body must be a body index: a force on the ground does nothing")
        object.__setattr__(self, "body", b)
        for name in ("point", "force"):
            object.__setattr__(self, name, _point(getattr(self, name), name))

    @property
    def bodies(self) -> tuple[int, ...]:
        return (self.body,)

    def _terms(self, E, phi):
        points = self.point[None]
        kin = _point_kinematics(E, phi, self.bodies, points)
        F = np.broadcast_to(self.force, kin.x.shape)
        return _point_force_terms(kin, self.bodies, points, F, None, None)

    def potential(self, E) -> np.ndarray:
        """Potential energy ``V = -forceᵀ x`` of the point's world position (Sueda eq. 1.32).

        Parameters
        ----------
        E : array_like, shape (..., N, 4, 4)

        Returns
        -------
        ndarray, shape (...)

        Raises
        ------
        ValueError
            If ``E`` is not a stack of rigid frames containing the body.
        """
        E = self._frames(E)
        x = E[..., self.body, :3, :3] @ self.point + E[..., self.body, :3, 3]
        return -(x @ self.force)
