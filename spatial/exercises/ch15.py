"""Checkers for the exercises of notebook 15, "Constraints, hybrid and recursive algorithms in
reduced coordinates".

15.1  the two directions perpendicular to a hinge axis (Sueda eq. 2.94);
15.2  the product ``J_mrᵀ y`` in one pass from the leaves to the root (Sueda Alg. 6);
15.3  (predict) the normal impulse of one staggered step on a block resting on the floor;
15.4  (model) the stopping distance of a pushed block sliding with Coulomb friction.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from ..builders import random_tree
from ..inertia import cuboid_inertia
from ..joints import Prismatic
from ..model import Model
from ..reduced import PointContact, hinge_directions, redmax_jacobian, staggered_step
from . import assert_close, check_number

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


def sliding_block(mass: float = 2.0, g: float = 9.81) -> tuple[Model, list]:
    """A cube of edge 0.2 m that slides along x and lifts along z, with its origin on the floor."""
    model = Model(gravity=[0.0, 0.0, -g])
    model.add_body(0, Prismatic("x"), np.eye(6), np.zeros((6, 6)))
    model.add_body(1, Prismatic("z"), np.eye(6), cuboid_inertia(mass, 0.2, 0.2, 0.2))
    return model, [PointContact(2, (0.0, 0.0, 0.0))]


def check_resting_impulse(alpha) -> None:
    """15.3: the normal impulse (N s) of one staggered step, h = 4 ms, on a 2 kg block at rest."""
    model, floor = sliding_block()
    expected = staggered_step(model, np.zeros(2), np.zeros(2), 4e-3, floor, 0.5)[1].alpha[0]
    check_number(
        alpha,
        expected,
        what="the normal impulse of one step, in N s",
        reread="§5 of this notebook (the contact QP and its sign), Sueda §2.11 eq. 2.113",
        rtol=1e-2,
    )


@lru_cache(maxsize=8)
def pushed_block_distance(v0=3.0, push=5.0, mu=0.4, h=0.01) -> float:
    """The distance (m) a 2 kg block pushed by ``push`` N slides until it stops (15.4)."""
    model, floor = sliding_block()
    q, qd = np.zeros(2), np.array([v0, 0.0])
    while qd[0] > 0.0:
        q, res = staggered_step(model, q, qd, h, floor, mu, tau=[push, 0.0])
        qd = res.qd
    return float(q[0])


def check_pushed_block(distance) -> None:
    """15.4: the stopping distance (m) of the pushed block, within 3 %."""
    check_number(
        distance,
        pushed_block_distance(),
        what="the stopping distance, in m",
        reread="§5 of this notebook (the sliding block and tau of staggered_step), Sueda §2.11",
        rtol=3e-2,
    )


CHECKS = {
    "15.1": check_hinge_directions,
    "15.2": check_jacobian_transpose,
    "15.3": check_resting_impulse,
    "15.4": check_pushed_block,
}
