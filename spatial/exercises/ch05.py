"""Checkers for the exercises of notebook 05, "Inverse dynamics: RNEA" (Featherstone ch. 5).

05.1  body velocities by the outward recursion ``v_i = ^iX_λ(i) v_λ(i) + S_i q̇_i`` (eq. 5.18);
05.2  gravity-compensation torques by the stripped-down recursion of eqs. 5.12–5.13;
05.3  the torques that hold a mechanism still against gravity and a force at a point (§5.3);
05.4  (predict) the shoulder torque that holds the planar arm with its payload out horizontally;
05.5  (model) the Panda's shoulder torque with a 2 kg payload at its flange, in the ready pose.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import builders, dynamics, inertia, joints, kinematics, vectors
from ..urdf import example_robot
from . import assert_close, check_number

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


#: The arm of notebook 05: three 0.5 m, 2 kg links and a 1 kg point mass at the tip.
ARM_LINKS, ARM_LENGTH, ARM_MASS, ARM_PAYLOAD = 3, 0.5, 2.0, 1.0
#: The Panda's "ready" pose of its seven arm joints (rad), the fingers at their neutral value.
PANDA_READY = (0.0, -np.pi / 4, 0.0, -3 * np.pi / 4, 0.0, np.pi / 2, np.pi / 4)
#: Exercise 05.5: the payload (kg) and where it sits, in link 7 coordinates (m).
PANDA_PAYLOAD, PANDA_FLANGE = 2.0, (0.0, 0.0, 0.107)


def loaded_planar_arm():
    """The arm of notebook 05 with its payload welded to the tip by a Fixed joint."""
    model = builders.planar_chain(ARM_LINKS, length=ARM_LENGTH, mass=ARM_MASS)
    tip = vectors.xlt([0.0, -ARM_LENGTH, 0.0])
    model.add_body(
        ARM_LINKS, joints.Fixed(), tip, inertia.point_mass_inertia(ARM_PAYLOAD, [0, 0, 0])
    )
    return model


def check_horizontal_shoulder(value) -> None:
    """05.4: τ_1 (N m) holding the loaded arm still and straight out along +x."""
    model = loaded_planar_arm()
    zero = np.zeros(model.nv)
    q = np.array([np.pi / 2, 0.0, 0.0])  # the links hang along -y at q = 0: π/2 turns them to +x
    expected = dynamics.rnea(model, q, zero, zero)[0]
    check_number(
        value,
        expected,
        what="the shoulder torque τ₁ in N m",
        reread="§3 of this notebook (gravity as an acceleration of the base) and §2's inward "
        "pass (the force through joint 1 carries everything beyond it); Featherstone §5.3",
        rtol=1e-2,
    )


def panda():
    """The Panda of notebook 05, loaded as the notebook does (or its stand-in)."""
    return example_robot("panda.urdf", builders.arm7, quiet=True)


def panda_ready(model) -> np.ndarray:
    """The ready pose of :data:`PANDA_READY`, the other joints (fingers) at their neutral value."""
    q = model.neutral_configuration()
    q[:7] = PANDA_READY
    return q


def check_panda_payload(value) -> None:
    """05.5: the torque of the Panda's joint 2 (N m) holding a 2 kg payload still at the flange."""
    model = panda()
    model.add_body(
        7,
        joints.Fixed(),
        vectors.xlt(PANDA_FLANGE),
        inertia.point_mass_inertia(PANDA_PAYLOAD, [0, 0, 0]),
        name="payload",
    )
    zero = np.zeros(model.nv)
    expected = dynamics.rnea(model, panda_ready(model), zero, zero)[1]
    check_number(
        value,
        expected,
        what="the torque of joint 2 in N m",
        reread="§4 of this notebook (external forces) and §8 (the Panda); Featherstone §5.3",
        rtol=1e-2,
    )


CHECKS = {
    "05.1": check_body_velocities,
    "05.2": check_gravity_torques,
    "05.3": check_holding_torques,
    "05.4": check_horizontal_shoulder,
    "05.5": check_panda_payload,
}
