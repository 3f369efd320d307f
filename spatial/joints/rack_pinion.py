"""The rack-and-pinion joint, a joint model built from scratch (Featherstone Example 4.6).

Example 4.6 shows how to derive a joint model that is not in Table 4.1.  A pinion of radius ``r``
on the successor rolls without slipping along a rack on the predecessor, parallel to F_p's x
axis.  One variable, the pinion's angle ``q``, fixes both the rotation about z and the
displacement ``r q`` along x, which gives ``X_J``.  Writing the joint velocity in F_p and
transforming it to F_s gives ``v_J``, and since there is one variable, ``S = v_J / q̇``.  This ``S``
depends on ``q``, so the joint has a velocity-product term ``c_J = (∂S/∂q) q̇²`` (eq. 3.42).
With ``r = 0`` the joint is a revolute joint about z.  The joint is asymmetric (the rack and the
pinion are different parts), which is why :mod:`.reversed` exists.
"""

from __future__ import annotations

import numpy as np

from .._batched import plux as _plucker  # rot(E) xlt(r), unvalidated (eq. 2.24)
from .base import Joint, _axis_rotation, _batch_shape, _finite_scalar

__all__ = ["RackPinion"]


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
        r = np.zeros(q.shape[:-1] + (3,), np.result_type(q, float))
        r[..., 0] = self.radius * q[..., 0]
        return _plucker(_axis_rotation(np.array([0.0, 0.0, 1.0]), q[..., 0]), r)

    def motion_subspace(self, q):
        S = np.zeros(q.shape[:-1] + (6, 1), np.result_type(q, float))
        S[..., 2, 0] = 1.0
        S[..., 3, 0] = self.radius * np.cos(q[..., 0])
        S[..., 4, 0] = -self.radius * np.sin(q[..., 0])
        return S

    def bias(self, q, qd):
        c = np.zeros(_batch_shape(q, qd) + (6,), np.result_type(q, qd, float))
        w2 = qd[..., 0] ** 2
        c[..., 3] = -self.radius * np.sin(q[..., 0]) * w2
        c[..., 4] = -self.radius * np.cos(q[..., 0]) * w2
        return c

    def __repr__(self) -> str:
        return f"RackPinion(radius={self.radius!r})"
