"""Checkers for the exercises of notebooks 13, "Springs", and 13b, "Muscles" (13.2 and 13.3 in
13, 13.1, 13.4 and 13.5 in 13b; the ids are those of the chapter before it was split).

- 13.1  solve the passive force–length cubics from Sueda's conditions (Sueda eqs. 1.40–1.42);
- 13.2  the body wrenches of a zero-rest-length spring between two bodies (Sueda eq. 1.35);
- 13.3  the exact (non-symmetric) stiffness of a constant world force on a body point (Sueda eq.
  1.33, ArtiSynth §0.23);
- 13.4  the control points of a quintic Bézier corner (Millard et al. 2013, appendix);
- 13.5  the fiber length at which a pennated fiber and an elastic tendon pull equally (Millard et
  al. 2013 §2).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import se3
from ..forces import MusculotendonLaw, PointForce, PointToPointSpring, passive_force_length
from ..forces.bezier import corner_control_points
from . import assert_close

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


CHECKS = {
    "13.1": check_passive_coefficients,
    "13.2": check_point_to_point_wrenches,
    "13.3": check_point_force_stiffness,
    "13.4": check_corner_control_points,
    "13.5": check_elastic_equilibrium,
}
