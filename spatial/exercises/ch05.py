"""Checkers for the exercises of notebook 05, "Inverse dynamics: RNEA" (Featherstone ch. 5).

05.1  body velocities by the outward recursion ``v_i = ^iX_λ(i) v_λ(i) + S_i q̇_i`` (eq. 5.18);
05.2  gravity-compensation torques by the stripped-down recursion of eqs. 5.12–5.13;
05.3  the torques that hold a mechanism still against gravity and a force at a point (§5.3).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import builders, dynamics, kinematics, vectors
from . import assert_close

__all__ = ["CHECKS"]


def _test_models() -> list:
    """A planar arm, a random branched tree with mixed joints and a floating humanoid."""
    rng = np.random.default_rng(501)
    return [
        builders.planar_chain(3),
        builders.random_tree(rng, 6, joints=("R", "P", "S", "C"), branching=0.7),
        builders.humanoid(floating=True),
    ]


def check_body_velocities(body_velocities_outward: Callable) -> None:
    """05.1: ``body_velocities_outward(model, q, qd)`` -> (NB + 1, 6) in body coordinates."""
    rng = np.random.default_rng(502)
    for model in _test_models():
        q, qd = model.random_configuration(rng), rng.standard_normal(model.nv)
        assert_close(
            body_velocities_outward(model, q, qd),
            kinematics.body_velocities(model, q, qd),
            f"body velocities of a {model.NB}-body model (row 0 is the base, zero)",
        )


def check_gravity_torques(gravity_torques: Callable) -> None:
    """05.2: ``gravity_torques(model, q)`` -> τ_g (nv,), the torques that balance gravity."""
    rng = np.random.default_rng(503)
    for model in _test_models():
        q = model.random_configuration(rng)
        zero = np.zeros(model.nv)
        assert_close(
            gravity_torques(model, q),
            dynamics.rnea(model, q, zero, zero),
            f"gravity torques of a {model.NB}-body model (compare rnea(q, 0, 0))",
        )


def check_holding_torques(holding_torques: Callable) -> None:
    """05.3: ``holding_torques(model, q, body, p, F)``: static torques against gravity and F."""
    rng = np.random.default_rng(504)
    for model in _test_models():
        q = model.random_configuration(rng)
        body = model.NB
        p, F = rng.standard_normal(3), rng.standard_normal(3) * 10
        point = kinematics.body_poses(model, q)[body] @ np.append(p, 1.0)
        f_ext = np.zeros((model.NB + 1, 6))
        f_ext[body] = vectors.point_force(F, point[:3])
        zero = np.zeros(model.nv)
        assert_close(
            holding_torques(model, q, body, p, F),
            dynamics.rnea(model, q, zero, zero, f_ext),
            f"holding torques with a force {np.round(F, 2)} N on body {body}",
        )


CHECKS = {
    "05.1": check_body_velocities,
    "05.2": check_gravity_torques,
    "05.3": check_holding_torques,
}
