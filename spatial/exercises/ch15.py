"""Checkers for the exercises of notebook 15, "Constraints, hybrid and recursive algorithms in
reduced coordinates".

15.1  the two directions perpendicular to a hinge axis (Sueda eq. 2.94);
15.2  the product ``J_mrᵀ y`` in one pass from the leaves to the root (Sueda Alg. 6).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..builders import random_tree
from ..reduced import hinge_directions, redmax_jacobian
from . import assert_close

__all__ = ["CHECKS"]


def check_hinge_directions(directions: Callable) -> None:
    """15.1: ``directions(axis)`` returns the (2, 3) rows ``v₁, v₂`` of eq. 2.94."""
    rng = np.random.default_rng(1501)
    for a in [np.array([0.0, 0.0, 1.0]), *rng.normal(size=(4, 3))]:
        got = np.asarray(directions(a), dtype=float)
        if got.shape == (3, 3):
            raise AssertionError(
                "three rows: a hinge closing a planar loop needs only the two directions "
                "perpendicular to its axis (the third row is redundant, eq. 2.94)"
            )
        assert_close(
            got,
            hinge_directions(a),
            "v₁ = the axis of smallest |a_k|, v₂ = a × v₁ / |a × v₁|, v₁ = v₂ × a / |v₂ × a| "
            "(eq. 2.94, with a normalized)",
        )


def check_jacobian_transpose(transpose_product: Callable) -> None:
    """15.2: ``transpose_product(model, q, y)`` returns ``J_mrᵀ y`` (nv,)."""
    rng = np.random.default_rng(1502)
    for _ in range(3):
        model = random_tree(rng, 6, joints=("R", "P", "S"))
        q = model.random_configuration(rng)
        y = rng.normal(size=6 * model.NB)
        assert_close(
            transpose_product(model, q, y),
            redmax_jacobian(model, q).T @ y,
            "x_i = S_iᵀ ŷ_i with ŷ_i = y_i + Σ_children ^cX_iᵀ ŷ_c (Alg. 6: the accumulator "
            "goes to the parent with the transform, not with Sᵀ)",
        )


CHECKS = {"15.1": check_hinge_directions, "15.2": check_jacobian_transpose}
