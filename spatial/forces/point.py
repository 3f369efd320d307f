"""Forces on a single body: viscous body damping and a constant directional point force.

Sueda §1.9.1 (damping) and §1.9.2 (directional point force, eqs. 1.31–1.34); the non-symmetric
stiffness of a constant world force is ArtiSynth §0.23.  Conventions: :mod:`spatial.forces.base`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import nonnegative_scalar
from .base import Force, _body_number, _point, _point_force_terms, _point_kinematics

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
        Number of the damped body, ``1 … N``.
    d : float
        Damping coefficient, >= 0.

    Raises
    ------
    ValueError
        If ``body`` is not a body number ``>= 1`` or ``d`` is negative.
    """

    body: int
    d: float

    def __post_init__(self) -> None:
        b = _body_number(self.body, "body")
        if b == 0:
            raise ValueError("body must be a body number 1 … N: the world (0) cannot be damped")
        object.__setattr__(self, "body", b)
        object.__setattr__(self, "d", nonnegative_scalar(self.d, "d"))

    @property
    def bodies(self) -> tuple[int, ...]:
        return (self.body,)

    def _terms(self, T, phi):
        n = T.shape[-3]
        i = self.body - 1
        s = slice(6 * i, 6 * i + 6)
        f = np.zeros(T.shape[:-3] + (6 * n,))
        f[..., s] = -self.d * phi[..., i, :]
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
        Number of the body, ``1 … N``.
    point : array_like, shape (3,)
        Application point ``r`` in body coordinates.
    force : array_like, shape (3,)
        The force in world coordinates.

    Raises
    ------
    ValueError
        If ``body`` is not a body number ``>= 1`` or ``point``/``force`` are not finite
        3-vectors.
    """

    body: int
    point: np.ndarray
    force: np.ndarray

    def __post_init__(self) -> None:
        b = _body_number(self.body, "body")
        if b == 0:
            raise ValueError(
                "body must be a body number 1 … N: a force on the world (0) does nothing"
            )
        object.__setattr__(self, "body", b)
        for name in ("point", "force"):
            object.__setattr__(self, name, _point(getattr(self, name), name))

    @property
    def bodies(self) -> tuple[int, ...]:
        return (self.body,)

    def _terms(self, T, phi):
        points = self.point[None]
        kin = _point_kinematics(T, phi, self.bodies, points)
        F = np.broadcast_to(self.force, kin.x.shape)
        return _point_force_terms(kin, self.bodies, points, F, None, None)

    def potential(self, T) -> np.ndarray:
        """Potential energy ``V = -forceᵀ x`` of the point's world position (Sueda eq. 1.32).

        Parameters
        ----------
        T : array_like, shape (..., N, 4, 4)

        Returns
        -------
        ndarray, shape (...)

        Raises
        ------
        ValueError
            If ``T`` is not a stack of rigid frames containing the body.
        """
        T = self._frames(T)
        T_body = T[..., self.body - 1, :, :]
        x = T_body[..., :3, :3] @ self.point + T_body[..., :3, 3]
        return -(x @ self.force)
