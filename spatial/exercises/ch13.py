"""Checkers for the exercises of notebooks 13, "Springs", and 13b, "Muscles" (13.2, 13.3, 13.6
and 13.7 in 13; 13.1, 13.4, 13.5, 13.8 and 13.9 in 13b; the first five ids are those of the
chapter before it was split).

- 13.1  solve the passive force–length cubics from Sueda's conditions (Sueda eqs. 1.40–1.42);
- 13.2  the body wrenches of a zero-rest-length spring between two bodies (Sueda eq. 1.35);
- 13.3  the exact (non-symmetric) stiffness of a constant world force on a body point (Sueda eq.
  1.33, ArtiSynth §0.23);
- 13.4  the control points of a quintic Bézier corner (Millard et al. 2013, appendix);
- 13.5  the fiber length at which a pennated fiber and an elastic tendon pull equally (Millard et
  al. 2013 §2);
- 13.6  (predict, in 13) the largest stable explicit Euler step of a stiff bushing (Sueda eq. 1.30,
  notebook 13 §3);
- 13.7  (model, in 13) the slowest oscillation period of a box held by a frame spring at one end
  (ArtiSynth §0.22);
- 13.8  (predict, in 13b) the pennation angle of fibers shortened at constant thickness (Millard
  et al. 2013 §2);
- 13.9  (model, in 13b) the biceps activation that holds arm26's forearm at a right angle.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.optimize import brentq

from .. import se3
from ..builders import elbow_arm26
from ..forces import (
    FrameSpring,
    MusculotendonLaw,
    PointForce,
    PointToPointSpring,
    passive_force_length,
    sueda_curves,
)
from ..forces.bezier import corner_control_points
from ..inertia import cuboid_inertia
from . import assert_close, check_number

__all__ = ["CHECKS"]


def check_passive_coefficients(solve_passive: Callable) -> None:
    """13.1: ``solve_passive()`` returns the (2, 4) rows ``(a, b, c, d)`` of the two cubics."""
    assert_close(
        solve_passive(),
        passive_force_length.coefficients,
        "passive force–length coefficients (Sueda eq. 1.42; the third row of eq. 1.41 should "
        "read x = 1.7, the end of the second segment)",
        tol=1e-8,
    )


def check_point_to_point_wrenches(wrenches: Callable) -> None:
    """13.2: ``wrenches(T1, r1, T2, r2, k)`` returns the stacked body wrenches (12,)."""
    rng = np.random.default_rng(1302)
    for _ in range(3):
        T = se3.exp_se3(rng.normal(size=(2, 6)))
        r1, r2, k = rng.normal(size=3), rng.normal(size=3), rng.uniform(0.5, 5.0)
        expected = PointToPointSpring(1, r1, 2, r2, k=k).evaluate(T, np.zeros((2, 6))).f
        assert_close(
            wrenches(T[0], r1, T[1], r2, k),
            expected,
            "body wrenches [Γ₁ᵀR₁ᵀ kΔx; -Γ₂ᵀR₂ᵀ kΔx] with Δx = x₂ - x₁ (Sueda eq. 1.35)",
        )


def check_point_force_stiffness(stiffness: Callable) -> None:
    """13.3: ``stiffness(T, r, force)`` returns the exact 6x6 ``K = ∂f/∂δ`` (not symmetrized)."""
    rng = np.random.default_rng(1303)
    for _ in range(3):
        T = se3.exp_se3(rng.normal(size=6))
        r, force = rng.normal(size=3), rng.normal(size=3)
        expected = PointForce(1, r, force).evaluate(T[None], np.zeros((1, 6))).K
        got = np.asarray(stiffness(T, r, force), dtype=float)
        if got.shape == (6, 6) and np.allclose(got, 0.5 * (expected + expected.T)):
            raise AssertionError("this is the symmetrized K; the exercise asks for the exact one")
        assert_close(got, expected, "K = [[ [r][Rᵀf], 0 ], [ [Rᵀf], 0 ]] (Sueda eq. 1.33)")


def check_corner_control_points(corner: Callable) -> None:
    """13.4: ``corner(x0, y0, dydx0, x1, y1, dydx1, c)`` returns the (6,) x and y control points."""
    cases = [
        (0.0, 0.0, 0.0, 1.0, 1.0, 3.0, 0.5),
        (1.0, 0.2, 0.5, 2.0, 0.1, -1.0, 0.9),
        (-1.0, 0.0, 0.0, -0.9, 0.0125, 0.25, 0.58),
    ]
    for case in cases:
        got = corner(*case)
        px, py = corner_control_points(*case)
        if len(got) == 2 and np.shape(got[0]) == (6,):
            gx = np.asarray(got[0], dtype=float)
            if np.allclose(gx[[0, 5]], px[[0, 5]]) and not np.isclose(gx[1], gx[2]):
                raise AssertionError(
                    "the inner control points come in equal pairs p1 = p2 and p3 = p4 (that "
                    "makes the curvature vanish at both ends)"
                )
        assert_close(
            np.asarray(got, dtype=float),
            np.stack([px, py]),
            "control points p0, p0 + c(C - p0) twice, p5 + c(C - p5) twice, p5, with C where the "
            "tangent lines meet",
        )


def check_elastic_equilibrium(balance: Callable) -> None:
    """13.5: ``balance(law, l)`` returns the fiber length of an elastic-tendon law at path
    length ``l`` (fiber at rest)."""
    for alpha, a, l in [(0.0, 0.6, 0.3), (0.3, 1.0, 0.31), (0.2, 0.1, 0.29)]:
        law = MusculotendonLaw(400.0, 0.1, 10.0, 0.2, alpha, a, tendon="elastic")
        expected = float(law.equilibrium(l)["fiber_length"])
        rigid = float(np.hypot(l - 0.2, 0.1 * np.sin(alpha)))
        got = float(balance(law, l))
        if abs(got - rigid) < 1e-9 and abs(expected - rigid) > 1e-6:
            raise AssertionError(
                "that is the rigid-tendon fiber length; an elastic tendon stretches until its "
                "force equals the fiber force along it"
            )
        assert_close(
            got, expected, "fiber length where f_M cos α = f_T((l - l_M cos α)/l_s)", tol=1e-7
        )


# 13.6 and 13.7: the box of notebook 13 (2 kg, 0.4 x 0.3 x 0.2 m) on a frame spring
BOX = dict(m=2.0, lx=0.4, ly=0.3, lz=0.2)
BUSHING_RHO = 0.2  # k_r = k_t ρ², d_r = d_t ρ² (m)
BUSHING_K, BUSHING_D = 4e4, 2.0  # 13.6: k_t (N/m), d_t (N s/m)
END_SPRING = dict(k_t=400.0, k_r=10.0)  # 13.7: N/m, N m/rad, no damping
END_POINT = np.array([-0.2, 0.0, 0.0])  # 13.7: frame 2 at the centre of the box's -x face (m)
_REREAD_STEP = "§3 of notebook 13 (the stability table), Sueda §1.9 (eq. 1.30)"
_REREAD_SPRING = "§2.5 and §3 of notebook 13 (ω from K and M), ArtiSynth §0.22"


def _linear_modes(K, D, M):
    """Eigenvalues of the linearized motion ``M φ̇ = K δ + D φ``, ``δ̇ = φ`` (12 of them)."""
    Z, I = np.zeros((6, 6)), np.eye(6)
    return np.linalg.eigvals(np.block([[Z, I], [np.linalg.solve(M, K), np.linalg.solve(M, D)]]))


def check_explicit_step_limit(value) -> None:
    """13.6: the largest stable explicit Euler step (s) of the box on the stiff bushing.

    The reference is the package's K and D of the bushing at rest: explicit Euler multiplies a
    mode ``λ`` by ``1 + hλ`` per step, stable while ``h ≤ -2 Re λ / |λ|²``.
    """
    rho2 = BUSHING_RHO**2
    bushing = FrameSpring(
        0,
        np.eye(4),
        1,
        np.eye(4),
        k_t=BUSHING_K,
        k_r=BUSHING_K * rho2,
        d_t=BUSHING_D,
        d_r=BUSHING_D * rho2,
    )
    _, K, D = bushing.evaluate(np.eye(4)[None], np.zeros((1, 6)))
    lam = _linear_modes(K, D, cuboid_inertia(**BOX))
    expected = float(np.min(-2.0 * lam.real / np.abs(lam) ** 2))
    check_number(
        value,
        expected,
        what="the largest stable step of explicit Euler in s",
        reread=_REREAD_STEP,
        rtol=0.01,
    )


def check_end_spring_period(value) -> None:
    """13.7: the period (s) of the slowest oscillation of the box held by a frame spring at its end.

    The reference: the package's ``K`` of the frame spring at rest and the box's inertia; the
    squared angular frequencies are the eigenvalues of ``-M⁻¹K``.
    """
    spring = FrameSpring(0, np.eye(4), 1, se3.frame(np.eye(3), END_POINT), **END_SPRING)
    T_rest = se3.frame(np.eye(3), -END_POINT)[None]  # frame 2 on frame 1: the spring at rest
    K = spring.evaluate(T_rest, np.zeros((1, 6))).K
    omega2 = np.linalg.eigvals(-np.linalg.solve(cuboid_inertia(**BOX), K)).real
    expected = float(2.0 * np.pi / np.sqrt(omega2.min()))
    check_number(value, expected, what="the slowest period in s", reread=_REREAD_SPRING, rtol=0.01)


# 13.8 and 13.9: arm26's muscles (spatial.builders.elbow_arm26)
SHORTENED = 0.6  # 13.8: fiber length l_M / l_opt
HOLD_ANGLE = np.pi / 2  # 13.9: elbow angle held (rad)
_REREAD_PENNATION = "§5 of notebook 13b (pennation at constant thickness), Millard et al. 2013 §2"
_REREAD_HOLD = (
    "§7 of notebook 13b (the torques -F dl/dθ, gravity, and the triceps' passive force), "
    "Sueda §1.9.4"
)


def check_shortened_pennation(value) -> None:
    """13.8: the triceps' pennation angle (degrees) at ``l_M = 0.6 l_opt``, rigid tendon.

    The reference is the package's :meth:`MusculotendonLaw.equilibrium` at the path length
    where the fiber has that length.
    """
    triceps = elbow_arm26().muscles["triceps"]
    law = triceps.law(1.0)
    l_fiber = SHORTENED * triceps.l_opt
    height = triceps.l_opt * np.sin(triceps.pennation_angle)
    l_path = triceps.tendon_slack_length + np.sqrt(l_fiber**2 - height**2)
    eq = law.equilibrium(l_path)
    assert np.isclose(eq["fiber_length"], l_fiber, rtol=1e-12)  # the path chosen is right
    expected = float(np.degrees(eq["pennation"]))
    check_number(
        value,
        expected,
        what="the pennation angle in degrees",
        reread=_REREAD_PENNATION,
        rtol=0.0,
        atol=0.05,
    )


def _held_torque(activation: float, arm=None) -> float:
    """Torque at rest about the elbow at :data:`HOLD_ANGLE` with the biceps at ``activation``."""
    arm = elbow_arm26() if arm is None else arm
    muscles = arm.muscle_torques(HOLD_ANGLE, 0.0, {"biceps": activation}, curves=sueda_curves())
    limit = float(arm.limit_torque(HOLD_ANGLE, 0.0))
    return sum(muscles.values()) + limit + float(arm.gravity_torque(HOLD_ANGLE))


def check_holding_activation(value) -> None:
    """13.9: the biceps activation that holds the forearm at rest at a right angle.

    The reference: the root in ``a`` of the elbow torque at rest (biceps at ``a``, triceps
    relaxed, Sueda's cubics, rigid tendons, gravity), with :class:`ElbowArm`'s torques.
    """
    arm = elbow_arm26()
    expected = brentq(_held_torque, 0.0, 1.0, args=(arm,), xtol=1e-14)
    check_number(value, expected, what="the activation (0 to 1)", reread=_REREAD_HOLD, rtol=0.01)


CHECKS = {
    "13.1": check_passive_coefficients,
    "13.2": check_point_to_point_wrenches,
    "13.3": check_point_force_stiffness,
    "13.4": check_corner_control_points,
    "13.5": check_elastic_equilibrium,
    "13.6": check_explicit_step_limit,
    "13.7": check_end_spring_period,
    "13.8": check_shortened_pennation,
    "13.9": check_holding_activation,
}
