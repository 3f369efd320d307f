"""Two joints in series as one joint, and the free joints built that way (Sueda §2.4.9–2.4.11).

Sueda chains two joint frames, ``Q = Q₁(q₁) Q₂(q₂)``: joint 2 sits on a massless body that
joint 1 moves.  In Featherstone's terms, with ``X₁ = X_J1(q₁)`` (from F_p to the intermediate
frame F_m) and ``X₂ = X_J2(q₂)`` (from F_m to F_s):

* ``X_J = X₂ X₁``;
* ``v_J = X₂ v₁ + v₂``, so ``S = [X₂ S₁, S₂]`` (Sueda eq. 2.53, where the adjoint of ``Q₂⁻¹``
  is ``X₂``);
* differentiating ``v_J`` in F_s with ``α`` held fixed gives ``X₂ c₁ + c₂`` plus the term of
  the rate ``Ẋ₂ = -(v₂×) X₂`` (F_s moves relative to F_m with ``v₂``), hence
  ``c_J = X₂ c₁ + c₂ + (X₂ v₁) × v₂`` (``×`` the motion cross product, eq. 2.31).

Position and velocity variables are the two joints' variables stacked, ``q = [q₁; q₂]`` and
``α = [α₁; α₂]``; every configuration-space operation (``q_dot``, ``integrate``,
``difference``, ``neutral``, ``random_configuration``, ``check_q``) splits them and asks each
joint.  Composites nest: ``Composite(a, Composite(b, c))`` is Sueda's ``Q₁(Q₂Q₃)``.

:func:`free_2d` (Sueda §2.4.10) and :func:`free_3d` (§2.4.11) are the composites that leave a
body unconstrained in the plane and in space.
"""

from __future__ import annotations

import numpy as np

from .._batched import cross_motion, mv
from .axial import Revolute
from .base import Joint, _batch_shape, _concat
from .quaternion import Spherical
from .reversed import Reversed
from .translational import PlanarTranslation, Translational

__all__ = ["Composite", "free_2d", "free_3d"]


class Composite(Joint):
    """Joint ``first`` followed by joint ``second`` through a massless body (Sueda §2.4.9).

    ``q = [q₁; q₂]``, ``α = [α₁; α₂]``; ``X_J = X₂ X₁``, ``S = [X₂ S₁, S₂]`` and
    ``c_J = X₂ c₁ + c₂ + (X₂ S₁ α₁) × (S₂ α₂)`` (derived in the module docstring).  ``nq`` and
    ``nv`` are the sums of the parts'.  ``Composite(Revolute("z"), Prismatic("z"))`` is the
    cylindrical joint of Table 4.1.

    When both parts have ``α = q̇`` (they do not override :meth:`Joint.q_dot`; reversed joints
    count as the joint they wrap), the composite is built as a subclass that keeps the base
    class's identity ``q_dot``, so that it too is recognized as having ``α = q̇`` (which
    :func:`spatial.dynamics.coriolis_matrix` needs to form ``S̊``).  Its type still reads
    ``Composite``.

    Parameters
    ----------
    first : Joint
        The joint next to the predecessor (Sueda's ``Q₁``).
    second : Joint
        The joint next to the successor (``Q₂``).

    Raises
    ------
    ValueError
        If either part is not a :class:`Joint`, or together they have more than 6 degrees
        of freedom.  (Parts whose motions overlap, e.g. two revolute joints about the same
        axis, give a rank-deficient ``S``; that is the caller's responsibility.)
    """

    def __new__(cls, first=None, second=None):
        # parts whose velocity variables are q̇ make a composite whose velocity variables are
        # q̇: that class keeps the identity ``q_dot`` of the base class, which is how the
        # library recognizes such joints (e.g. for S̊ in ``coriolis_matrix``)
        if cls is Composite and _velocity_is_q_dot(first) and _velocity_is_q_dot(second):
            cls = _RateComposite
        return super().__new__(cls)

    def __init__(self, first: Joint, second: Joint):
        for name, joint in (("first", first), ("second", second)):
            if not isinstance(joint, Joint):
                raise ValueError(f"{name} must be a spatial.joints.Joint, got {joint!r}")
        if first.nv + second.nv > 6:
            raise ValueError(
                f"a composite joint has at most 6 degrees of freedom, got {first.nv} + "
                f"{second.nv} from {first!r} and {second!r}"
            )
        self.first, self.second = first, second
        self.nq = first.nq + second.nq
        self.nv = first.nv + second.nv

    # the two halves of position (nq) and velocity (nv) variables
    def _q(self, q):
        return q[..., : self.first.nq], q[..., self.first.nq :]

    def _v(self, v):
        return v[..., : self.first.nv], v[..., self.first.nv :]

    def transform(self, q):
        q1, q2 = self._q(q)
        return self.second.transform(q2) @ self.first.transform(q1)

    def motion_subspace(self, q):
        q1, q2 = self._q(q)
        S1 = self.second.transform(q2) @ self.first.motion_subspace(q1)
        return _concat(S1, self.second.motion_subspace(q2))

    def bias(self, q, qd):
        q1, q2 = self._q(q)
        a1, a2 = self._v(qd)
        _, _, v1, c1 = self.first.jcalc(q1, a1)
        X2, _, v2, c2 = self.second.jcalc(q2, a2)
        v1_in_s = mv(X2, v1)
        c = mv(X2, c1) + c2 + cross_motion(v1_in_s, v2)
        return np.broadcast_to(c, _batch_shape(q, qd) + (6,)).copy()

    def neutral(self):
        return np.concatenate([self.first.neutral(), self.second.neutral()])

    def q_dot(self, q, qd):
        (q1, q2), (a1, a2) = self._q(q), self._v(qd)
        return _concat(self.first.q_dot(q1, a1), self.second.q_dot(q2, a2))

    def integrate(self, q, v, dt):
        (q1, q2), (v1, v2) = self._q(q), self._v(v)
        return _concat(self.first.integrate(q1, v1, dt), self.second.integrate(q2, v2, dt))

    def difference(self, q0, q1):
        (a0, b0), (a1, b1) = self._q(q0), self._q(q1)
        return _concat(self.first.difference(a0, a1), self.second.difference(b0, b1))

    def random_configuration(self, rng, shape=()):
        return np.concatenate(
            [
                self.first.random_configuration(rng, shape),
                self.second.random_configuration(rng, shape),
            ],
            -1,
        )

    def check_q(self, q, name="q"):
        q1, q2 = self._q(np.asarray(q))
        self.first.check_q(q1, f"{name} (first joint of the composite)")
        self.second.check_q(q2, f"{name} (second joint of the composite)")

    def __repr__(self) -> str:
        return f"Composite({self.first!r}, {self.second!r})"


def _velocity_is_q_dot(joint) -> bool:
    """True if ``joint`` (a reversed one: the joint it wraps) keeps ``α = q̇``."""
    while isinstance(joint, Reversed):
        joint = joint.joint
    return isinstance(joint, Joint) and type(joint).q_dot is Joint.q_dot


class _RateComposite(Composite):
    """A :class:`Composite` of two joints with ``α = q̇``, so ``α = q̇`` for it as well.

    It presents itself as ``Composite`` (``type(j).__name__``, labels); its qualified name
    stays its own so that pickling finds it.
    """

    q_dot = Joint.q_dot


_RateComposite.__name__ = "Composite"


def free_2d() -> Composite:
    """Planar free joint: x-y translation, then rotation about z (Sueda §2.4.10).

    ``Composite(PlanarTranslation(), Revolute("z"))`` with ``q = [x, y, θ]`` (translation in
    F_p coordinates, then the turn) and ``α = q̇``.  It moves like
    :class:`~spatial.joints.Planar`, whose variables are ordered ``[θ, x, y]`` and whose
    velocities are measured in F_s instead, so that its ``S`` is constant while this one's
    depends on ``θ`` (Sueda eq. 2.55).

    Returns
    -------
    Composite
    """
    return Composite(PlanarTranslation(), Revolute("z"))


def free_3d(rotation: Joint | None = None) -> Composite:
    """Spatial free joint: a spherical joint, then translation (Sueda §2.4.11, eq. 2.57).

    ``Composite(rotation, Translational())`` as Sueda's ``Q = Q_spherical Q_translational``:
    ``q = [q_rot; p]`` with ``p`` the position of F_s's origin in the *rotated* frame (the
    intermediate frame turns with the body), ``α = [α_rot; ṗ]``.  Then
    ``S = [[Ŝ₁, 0], [-[p] Ŝ₁, 1]]`` (Sueda eq. 2.58, ``Ŝ₁`` the angular block of the
    spherical joint's ``S``).  :class:`~spatial.joints.Free` uses the parent frame for ``p``
    and body velocities instead, which keeps its ``S = 1₆`` constant.

    Parameters
    ----------
    rotation : Joint, optional
        A 3-DoF rotational joint (:class:`~spatial.joints.Spherical` by default, or e.g.
        :class:`~spatial.joints.SphericalExp`, :class:`~spatial.joints.SphericalEuler`).

    Returns
    -------
    Composite

    Raises
    ------
    ValueError
        If ``rotation`` is not a :class:`Joint` with three degrees of freedom.
    """
    rotation = Spherical() if rotation is None else rotation
    if not isinstance(rotation, Joint) or rotation.nv != 3:
        raise ValueError(f"rotation must be a 3-DoF spatial.joints.Joint, got {rotation!r}")
    return Composite(rotation, Translational())
