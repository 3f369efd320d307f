"""Checkers for the exercises of notebook 14, "REDMAX: reduced coordinates and the joint zoo".

- 14.1  the REDMAX Jacobian ``J_mr`` of a two-link planar arm, by hand (Sueda eqs. 2.11–2.14,
  Alg. 1);
- 14.2  ``Ṡ`` of the universal joint (Sueda §2.4.6, eq. 2.15);
- 14.3  the acceleration of a chain whose joints all follow one angle, from ``H`` and ``C``
  (Sueda eqs. 2.80–2.83);
- 14.4  (predict) which joints of a list have a configuration-dependent ``S`` (Sueda §2.4,
  eq. 2.15);
- 14.5  (model) the two small-oscillation periods of a double pendulum with a spring at its
  elbow (Sueda eqs. 2.18, 2.72–2.78).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import builders
from ..joints import Cylindrical, Prismatic, Revolute, SphericalEuler, SphericalExp, Universal
from ..model import Model
from ..reduced import (
    hyper_reduced_forward_dynamics,
    redmax_force,
    redmax_jacobian,
    redmax_mass_matrix,
)
from ..vectors import xlt
from . import assert_close, check_choice, check_number

__all__ = ["CHECKS"]


def _arm(l1: float) -> Model:
    """The exercise's arm: revolute z joints at the origin and at ``(l1, 0, 0)`` of body 1."""
    model = Model()
    inertia = np.diag([0.1, 0.1, 0.1, 1.0, 1.0, 1.0])
    model.add_body(0, Revolute("z"), np.eye(6), inertia)
    model.add_body(1, Revolute("z"), xlt([l1, 0.0, 0.0]), inertia)
    return model


def check_arm_jacobian(arm_jacobian: Callable) -> None:
    """14.1: ``arm_jacobian(q, l1)`` returns the (12, 2) ``J_mr`` of the two-link arm."""
    rng = np.random.default_rng(1401)
    for _ in range(4):
        q, l1 = rng.uniform(-np.pi, np.pi, size=2), rng.uniform(0.3, 2.0)
        assert_close(
            arm_jacobian(q, l1),
            redmax_jacobian(_arm(l1), q),
            "J_mr = [[S₁, 0], [²X₁ S₁, S₂]] with ²X₁ = rotz(q₂) xlt([l₁, 0, 0]) (Sueda eq. 2.14; "
            "body twists [ω; v] in each body's own coordinates)",
        )


def check_universal_S_dot(universal_S_dot: Callable) -> None:
    """14.2: ``universal_S_dot(q, qd)`` returns the (6, 2) ``Ṡ`` of ``Universal("X", "Y")``.

    The reference is a central difference of the joint's ``S`` along ``q̇`` (``S`` is
    trigonometric in ``q₂``, so the step 1e-6 leaves an error near 1e-11).
    """
    joint, rng, h = Universal("X", "Y"), np.random.default_rng(1402), 1e-6
    for _ in range(4):
        q, qd = rng.uniform(-np.pi, np.pi, size=2), rng.normal(size=2)
        expected = (joint.motion_subspace(q + h * qd) - joint.motion_subspace(q - h * qd)) / (2 * h)
        assert_close(
            universal_S_dot(q, qd),
            expected,
            "Ṡ = q̇₂ [[-sin q₂, 0], [0, 0], [cos q₂, 0], 0] (Sueda §2.4.6; only the first column "
            "depends on q)",
            tol=1e-8,
        )


def check_one_angle_acceleration(one_angle_acceleration: Callable) -> None:
    """14.3: ``one_angle_acceleration(model, y, yd)`` returns ``ÿ`` (shape (1,)) for q = 1 y."""
    rng = np.random.default_rng(1403)
    for n in (2, 3, 5):
        model = builders.planar_chain(n, length=rng.uniform(0.3, 1.0))
        y, yd = rng.uniform(-1.0, 1.0, size=1), rng.normal(size=1)
        J_rR = np.ones((n, 1))
        assert_close(
            one_angle_acceleration(model, y, yd),
            hyper_reduced_forward_dynamics(model, J_rR, y, yd),
            "ÿ = (1ᵀ H 1)⁻¹ 1ᵀ(-C) at q = y 1, q̇ = ẏ 1 (Sueda eq. 2.83 with J_rR = 1)",
        )


#: 14.4: the joints of the question, by letter
JOINT_CHOICES = {
    "a": Revolute("z"),
    "b": Prismatic("x"),
    "c": Cylindrical("x"),
    "d": Universal("X", "Y"),
    "e": SphericalEuler("ZYX"),
    "f": SphericalExp(),
}
# 14.5: the double pendulum (point masses, m) and its elbow spring
PENDULUM = dict(lengths=(1.0, 0.5), masses=(2.0, 1.0), g=9.81)
ELBOW_SPRING = 10.0  # N m/rad, on joint 2, rest angle 0


def check_configuration_dependent_S(value) -> None:
    """14.4: the set of letters of :data:`JOINT_CHOICES` whose ``S`` changes with ``q``.

    The reference samples each joint's ``S`` at random configurations of the package.
    """
    rng = np.random.default_rng(1404)
    expected = set()
    for letter, joint in JOINT_CHOICES.items():
        S = joint.motion_subspace(joint.random_configuration(rng, (5,)))
        if not np.allclose(S, S[0], atol=1e-12):
            expected.add(letter)
    check_choice(
        value,
        expected,
        options=set(JOINT_CHOICES),
        what="the joints whose S depends on q",
        reread="§2 (Ṡ on the diagonal of J̇), §5.1 and §5.3 of this notebook, Sueda §2.4",
    )


def check_spring_pendulum_periods(value) -> None:
    """14.5: the two small-oscillation periods (s), fastest first, about the hanging rest.

    The reference: ``M_r`` from :func:`redmax_mass_matrix` at rest, the stiffness of gravity
    as a central difference of :func:`redmax_force` (at zero rates), plus the elbow spring.
    """
    model = builders.double_pendulum(**PENDULUM)
    q0, rates, eps = np.zeros(2), np.zeros(2), 1e-6
    K = np.zeros((2, 2))
    for j in range(2):
        step = eps * np.eye(2)[j]
        df = redmax_force(model, q0 + step, rates) - redmax_force(model, q0 - step, rates)
        K[:, j] = -df / (2 * eps)
    K[1, 1] += ELBOW_SPRING
    omega2 = np.linalg.eigvals(np.linalg.solve(redmax_mass_matrix(model, q0), K)).real
    expected = np.sort(2.0 * np.pi / np.sqrt(omega2))
    check_number(
        value,
        expected,
        what="the two periods in s (fastest first)",
        reread="§1, §8 (check 1: spring and gravity both pull back) of this notebook, "
        "Sueda eqs. 2.18 and 2.72",
        rtol=0.01,
    )


CHECKS = {
    "14.1": check_arm_jacobian,
    "14.2": check_universal_S_dot,
    "14.3": check_one_angle_acceleration,
    "14.4": check_configuration_dependent_S,
    "14.5": check_spring_pendulum_periods,
}
