"""Checkers for the exercises of notebook 13, "Springs and muscles".

13.1  solve the passive force–length cubics from Sueda's conditions (Sueda eqs. 1.40–1.42);
13.2  the body wrenches of a zero-rest-length spring between two bodies (Sueda eq. 1.35);
13.3  the exact (non-symmetric) stiffness of a constant world force on a body point (Sueda eq.
      1.33, ArtiSynth §0.23).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import se3
from ..forces import PointForce, PointToPointSpring, passive_force_length
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


CHECKS = {
    "13.1": check_passive_coefficients,
    "13.2": check_point_to_point_wrenches,
    "13.3": check_point_force_stiffness,
}
