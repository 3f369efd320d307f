"""Joints used with opposite polarity (Featherstone §4.1.3–4.1.4, Table 4.2).

A tree joint is *forward* when its predecessor is the parent of its successor.  A symmetric joint
can always be declared that way, but an asymmetric one (a rack and pinion with the rack on the
child body) cannot: the mechanism fixes its polarity.  Table 4.2 converts such a joint into a
forward one by letting ``jcalc`` swap the roles of predecessor and successor: the joint
transform is inverted, ``S``, ``v_J`` and ``c_J`` are carried across with ``X⁻¹ = X_ps`` (and
``T`` with the matching force transform) and change sign, while ``q`` and ``q̇`` stay the same.
:class:`Reversed` wraps any joint model that way.
"""

from __future__ import annotations

import numpy as np

from .._batched import inv_motion, xinv  # unvalidated: X_J comes from the wrapped joint
from .base import Joint

__all__ = ["Reversed"]


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
